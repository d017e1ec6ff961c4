package workspace

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gofrs/flock"

	"wayfind/segment"
)

// A root's file index persists beside its other caches (RootCacheDir), so
// that a server restarted on a known tree answers from it at once while
// its walk verifies it: a large tree is slow to walk, and its saved
// index is mapped in a moment.
//
// It is a segment (package segment) of kind savedKind: the fingerprint of
// the walk options that decide which files belong (optionsPrint), the
// root's path, then the files, the directories walked and the directories
// skipped, each list its paths end to end in Index order and the end of
// each (uint32): the files' paths absolute, as the walk makes them, so
// that a loaded File.Path is the tail of its absolute path where the
// segment lies (AbsAt), the others root-relative. Nothing is decoded or
// copied to load it: the paths are pages the page cache already holds,
// where a front-coded file, smaller on disk, would be decoded into as
// much fresh memory. The file is written whole (WriteRootCache).
const savedKind = "files 2"

const savedName = "files.idx"

var errSavedFormat = errors.New("not a saved file index of this version")

// optionsPrint is what a saved index must have been walked with to stand
// for a walk with opt: the options that decide membership, not how many
// workers read or who hears of it.
func optionsPrint(opt Options) []byte {
	h := sha256.New()
	inc, exc := slices.Clone(opt.IncludeDirs), slices.Clone(opt.ExcludeGlobs)
	slices.Sort(inc)
	fmt.Fprintf(h, "include %q\nexclude %q\nnoignore %v\n", inc, exc, opt.NoIgnoreFiles)
	return h.Sum(nil)
}

// SaveIndex writes the files, directories and skipped directories of
// each of ix's roots under dir (none when dir is "-"), as walked with opt;
// opt.Pace, when set, is called as it writes.
func SaveIndex(dir string, ix *Index, opt Options) error {
	if CachesOff(dir) {
		return nil
	}
	print := optionsPrint(opt)
	ix = ix.flat()
	var errs []error
	for r, root := range ix.Roots {
		if err := saveRoot(dir, ix, r, root, print, opt.Pace); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", root, err))
		}
	}
	return errors.Join(errs...)
}

// errTooLarge: a list whose paths end to end pass 4 GiB (some thirty
// million files) is not saved; the walk stands for it at every start.
var errTooLarge = errors.New("too many paths to save")

func saveRoot(dir string, ix *Index, r int, root string, print []byte, pace func()) error {
	w := segment.NewWriter(savedKind)
	w.Pace = pace
	w.String("root", root)
	w.Bytes("options", print)
	for _, l := range []struct {
		name   string
		list   []File
		prefix string
	}{{"files", ix.files, RootPrefix(root)}, {"dirs", ix.Dirs, ""}, {"skipped", ix.Skipped, ""}} {
		lo, hi := rootRange(l.list, r)
		list := l.list[lo:hi]
		ends := make([]uint32, len(list))
		size := 0
		for k, f := range list {
			size += len(l.prefix) + len(f.Path)
			if size > math.MaxUint32 {
				return errTooLarge
			}
			ends[k] = uint32(size)
		}
		w.Stream(l.name, int64(size), func(out io.Writer) error {
			// Gathered a chunk at a time: a write a path through the
			// checksum and the buffer was slower than the paths.
			buf := make([]byte, 0, 1<<16)
			for _, f := range list {
				if len(buf)+len(l.prefix)+len(f.Path) > cap(buf) {
					if _, err := out.Write(buf); err != nil {
						return err
					}
					buf = buf[:0]
				}
				buf = append(append(buf, l.prefix...), f.Path...)
			}
			_, err := out.Write(buf)
			return err
		})
		segment.Put(w, l.name+".ends", ends)
	}
	return WriteRootCache(dir, root, savedName, func(bw *bufio.Writer) error {
		_, err := w.WriteTo(bw)
		return err
	})
}

// rootRange is where root r's entries are in list (sorted by root first).
func rootRange(list []File, r int) (lo, hi int) {
	lo, _ = slices.BinarySearchFunc(list, r, func(f File, r int) int { return f.Root - r })
	hi, _ = slices.BinarySearchFunc(list, r+1, func(f File, r int) int { return f.Root - r })
	return lo, hi
}

// LoadIndex reads the index of roots saved under dir by SaveIndex with
// the same membership options, or reports false when a root has none (or
// one unreadable, of another version or other options). What it returns
// is what the tree was: the caller walks to know what it is. Its paths
// lie where the saved files are mapped (package segment), and it knows
// which saves it was read from (SavedIDs).
func LoadIndex(dir string, roots []string, opt Options) (*Index, bool) {
	if CachesOff(dir) || len(roots) == 0 {
		return nil, false
	}
	print := optionsPrint(opt)
	ix := &Index{Roots: roots, serial: serials.Add(1)}
	for r, root := range roots {
		seg, err := segment.Open(filepath.Join(RootCacheDir(dir, root), savedName), savedKind)
		if err != nil {
			return nil, false
		}
		if err := loadRoot(ix, r, seg, print, opt.Pace); err != nil {
			return nil, false
		}
		ix.segs = append(ix.segs, seg)
	}
	if slashed {
		// Every Path was cut from its absolute path where the segment
		// lies, right after its root's prefix: AbsAt reads it from there.
		ix.tails = ix.files
	}
	return ix, true
}

// SavedAt is when the oldest of roots' saved indexes under dir was
// written (ok false when one has none): the time a walk from it must look
// for changes since (DirTimes.Changed).
func SavedAt(dir string, roots []string) (at time.Time, ok bool) {
	for i, root := range roots {
		st, err := os.Stat(filepath.Join(RootCacheDir(dir, root), savedName))
		if err != nil {
			return time.Time{}, false
		}
		if i == 0 || st.ModTime().Before(at) {
			at = st.ModTime()
		}
	}
	return at, len(roots) > 0
}

// SavedIDs are the ids of the saved files (one a root) ix was loaded
// from, nil for an index walked or changed since: what a file built from
// the index (the engine's) names it by.
func (ix *Index) SavedIDs() []uint64 {
	var ids []uint64
	for _, seg := range ix.segs {
		ids = append(ids, seg.ID())
	}
	return ids
}

// Mapped are mapped files whose strings a holder keeps (package segment:
// a file stays mapped while its Segment is held). A table of paths read
// from an index keeps the index's (Index.Mapped) beside them.
type Mapped []*segment.Segment

// Mapped are the saved files ix's paths lie in: those it was loaded
// from, and those of the index it was changed from (none for an index
// walked).
func (ix *Index) Mapped() Mapped {
	return slices.Concat(Mapped(ix.segs), ix.backing)
}

// With is m and the files ix's paths lie in, each once: a holder that
// kept strings of an earlier index and took ix's.
func (m Mapped) With(ix *Index) Mapped {
	out := slices.Clip(m)
	for _, seg := range ix.Mapped() {
		if !slices.Contains(out, seg) {
			out = append(out, seg)
		}
	}
	return out
}

// Release drops the pages of the saved files ix reads its paths from out
// of the process (segment.Segment.Release): a pass that read every path
// leaves them all resident, and the next reader of a path brings back
// only its page. Nothing for an index walked.
func (ix *Index) Release() {
	for _, seg := range ix.segs {
		seg.Release()
	}
	for _, seg := range ix.backing {
		seg.Release()
	}
}

// ReleaseSaved drops the pages of every saved index the process mapped
// — the served and the replaced, whose paths a pass may still hold —
// and no other segment's: what a pass over every path brought in.
func ReleaseSaved() { segment.ReleaseKind(savedKind) }

// slashed: paths are '/'-separated here, so a root-relative path is the
// tail of the absolute path as it is (elsewhere it is a copy, its
// separators turned).
const slashed = filepath.Separator == '/'

// loadRoot appends root r's saved entries to ix: each File.Path the tail
// of its absolute path where the segment lies (as the walk makes them:
// AbsAt). A list is trusted only as the walk would have made it: in
// order (lookups search it) and every path inside the root.
func loadRoot(ix *Index, r int, seg *segment.Segment, print []byte, pace func()) error {
	opts, err1 := seg.Bytes("options")
	root, err2 := seg.String("root")
	if err := errors.Join(err1, err2); err != nil || !bytes.Equal(opts, print) || root != ix.Roots[r] {
		return errSavedFormat // another version, other options, or a hash shared by two roots
	}
	prefix := RootPrefix(ix.Roots[r])
	lists := []struct {
		name   string
		list   *[]File
		prefix string
	}{{"files", &ix.files, prefix}, {"dirs", &ix.Dirs, ""}, {"skipped", &ix.Skipped, ""}}
	for _, l := range lists {
		arena, err1 := seg.String(l.name)
		ends, err2 := segment.Get[uint32](seg, l.name+".ends")
		if errors.Join(err1, err2) != nil {
			return errSavedFormat
		}
		*l.list = slices.Grow(*l.list, len(ends))
		if !slashed && l.name == "files" {
			ix.abs = slices.Grow(ix.abs, len(ends))
		}
		from, prev := uint32(0), ""
		for k, end := range ends {
			if pace != nil && k%paceEntries == 0 {
				pace()
			}
			if end < from || end > uint32(len(arena)) {
				return errSavedFormat
			}
			abs := arena[from:end]
			from = end
			rel, ok := strings.CutPrefix(abs, l.prefix)
			if !ok || !localPath(rel) || k > 0 && rel <= prev {
				return errSavedFormat
			}
			prev = rel
			if !slashed && l.name == "files" {
				rel = filepath.ToSlash(rel)
				ix.abs = append(ix.abs, filepath.FromSlash(abs))
			}
			*l.list = append(*l.list, File{Root: r, Path: rel})
		}
		if from != uint32(len(arena)) {
			return errSavedFormat
		}
	}
	return nil
}

// paceEntries is how many paths a paced load reads between calls to
// Options.Pace: a short stretch of work.
const paceEntries = 1 << 12

// localPath reports a root-relative, '/'-separated path that stays in its
// root: not empty, not absolute, no empty, "." or ".." component, no NUL.
// (A byte at a time: every path is checked at every warm start.)
func localPath(rel string) bool {
	start := 0
	for i := 0; i <= len(rel); i++ {
		if i < len(rel) && rel[i] != '/' {
			if rel[i] == 0 {
				return false
			}
			continue
		}
		switch n := i - start; {
		case n == 0, n == 1 && rel[start] == '.', n == 2 && rel[start] == '.' && rel[start+1] == '.':
			return false
		}
		start = i + 1
	}
	return true
}

// RootPrefix is what the absolute paths of root's entries begin with.
func RootPrefix(root string) string {
	if rootSkip(root) == len(root) {
		return root // the filesystem root
	}
	return root + string(filepath.Separator)
}

// SameFiles reports whether a and b hold the same roots, files,
// directories and skipped directories: a saved index read back that
// stands for one in memory (a compaction's), a walk that confirms one.
func SameFiles(a, b *Index) bool {
	if !slices.Equal(a.Roots, b.Roots) || a.Len() != b.Len() {
		return false
	}
	return slices.Equal(a.Files(), b.Files()) && slices.Equal(a.Dirs, b.Dirs) && slices.Equal(a.Skipped, b.Skipped)
}

// indexLock is the lock file beside a root's saved index: one process
// at a time walks a root that has no saved index, and the others wait
// for what it saves rather than walk the same tree beside it.
const indexLock = "files.lock"

// LockIndex takes the saved index's lock of roots' first root in the
// cache directory dir, waiting for its holder as long as ctx allows;
// ok is false when ctx ended first. With caches off, or a directory
// that cannot be made, there is nothing to wait for: ok, and unlock
// does nothing.
func LockIndex(ctx context.Context, dir string, roots []string) (unlock func(), ok bool) {
	if CachesOff(dir) || len(roots) == 0 {
		return func() {}, true
	}
	unlock, err := LockFile(ctx, RootCacheDir(dir, roots[0]), indexLock)
	if errors.Is(err, errNoLockDir) {
		return func() {}, true
	}
	return unlock, err == nil
}

// lockRetry: how often a process waiting for a cache's lock tries again.
const lockRetry = 20 * time.Millisecond

var errNoLockDir = errors.New("no directory for the lock")

// TryLockFile takes the lock file name in dir (made if need be) if
// nobody holds it, without waiting: ok false when another process does,
// or it cannot be taken.
func TryLockFile(dir, name string) (unlock func(), ok bool) {
	if os.MkdirAll(dir, 0o700) != nil {
		return nil, false
	}
	l := flock.New(filepath.Join(dir, name))
	if got, err := l.TryLock(); err != nil || !got {
		return nil, false
	}
	return func() { l.Unlock() }, true
}

// LockFile takes the lock file name in the cache directory dir (made if
// need be): an flock, which the system drops with a killed holder,
// waited for as long as ctx allows (ctx's error when it ends first).
func LockFile(ctx context.Context, dir, name string) (unlock func(), err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("%w: %v", errNoLockDir, err)
	}
	l := flock.New(filepath.Join(dir, name))
	got, err := l.TryLockContext(ctx, lockRetry)
	switch {
	case err != nil:
		return nil, err
	case !got:
		return nil, ctx.Err()
	}
	return func() { l.Unlock() }, nil
}

// Repoint is paths (absolute and ascending, as the content and symbol
// indexes keep them) with each one that names a file of ix replaced by
// ix's own string of it (AbsAt), the others copied. A holder of
// paths read from an earlier index — a base since replaced, a walk's
// strings on the heap — then reads, and keeps alive, only the one
// served: the pages of a replaced base's mapping are not read back in
// by every pass over the paths. ok is false, and paths as they are,
// when ix keeps no strings of its absolute paths to point at (a walk's
// index makes each anew). It reads the pages of both (the memory's owner
// drops them as it goes).
func (ix *Index) Repoint(paths []string) ([]string, bool) {
	ix = ix.flat()
	if !ix.sharesTails() && len(ix.abs) != len(ix.files) {
		return paths, false
	}
	type rootFiles struct {
		prefix string
		next   int // the first of its files not passed yet
		end    int
	}
	roots := make([]rootFiles, len(ix.Roots))
	for r, root := range ix.Roots {
		lo, hi := rootRange(ix.files, r)
		roots[r] = rootFiles{prefix: RootPrefix(root), next: lo, end: hi}
	}
	out := make([]string, len(paths))
	for i, p := range paths {
		for r := range roots {
			rf := &roots[r]
			rel, ok := strings.CutPrefix(p, rf.prefix)
			if !ok {
				continue
			}
			if !slashed {
				rel = filepath.ToSlash(rel)
			}
			// Within a root, ascending absolute paths are ascending
			// relative ones: the cursor only moves on.
			j := rf.next
			for j < rf.end && ix.files[j].Path < rel {
				j++
			}
			rf.next = j
			if j < rf.end && ix.files[j].Path == rel {
				out[i] = ix.AbsAt(j)
			}
			break
		}
		if out[i] == "" {
			// The holder keeps ix's files mapped (Mapped), not the one
			// p may lie in.
			out[i] = strings.Clone(p)
		}
	}
	return out, true
}
