package workspace

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// DirTimes is polling's quick look for files made, deleted or renamed.
// Each of those adds or removes an entry of a directory, which moves the
// directory's modification time: stat'ing the roots and the index's
// directories and re-reading only those whose time moved (Update) finds a
// file added after a stat a directory, where Verify reads every directory
// and hashes every entry — a stat a directory against the reading of the
// whole tree, so polls can come far more often. Verify stays the check
// of what times cannot tell: a file system that keeps coarse times, an
// ignore file edited in place.
type DirTimes struct {
	mu sync.Mutex
	// roots and dirs are what the last poll stat'ed — roots only when it
	// stat'ed them too — and prints holds their stats in that order (0:
	// could not be stat'ed).
	roots     []string
	withRoots bool
	dirs      []File
	prints    []uint64
	// mapped are the files dirs' paths may lie in, held so that they
	// stay mapped (package segment).
	mapped Mapped
}

// Changed stats ix's roots and directories, calling pace (when set)
// before each batch, and returns those (absolute) whose time differs from
// the last call's, among those both calls saw: directories new to ix were
// read by the change that brought them. At the first call there is
// nothing to compare with: it returns the directories whose time is not
// before walked (less mtimeSlack), the walk that made ix having begun
// then — it may have read them before their change — and those it cannot
// stat (gone).
func (t *DirTimes) Changed(ix *Index, walked time.Time, pace func()) []string {
	return t.changed(ix, true, ix.Dirs, walked, pace)
}

// ChangedIn is Changed for dirs alone, directories of ix (in its order)
// that nothing else watches: a watcher that holds the rest of the tree
// and the roots (Watcher.Unwatched).
func (t *DirTimes) ChangedIn(ix *Index, dirs []File, walked time.Time, pace func()) []string {
	return t.changed(ix, false, dirs, walked, pace)
}

func (t *DirTimes) changed(ix *Index, withRoots bool, dirs []File, walked time.Time, pace func()) []string {
	nr := 0
	if withRoots {
		nr = len(ix.Roots)
	}
	// The i-th path (a root, then dirs), written into a buffer for the
	// stat and, for the few that changed, made a string.
	appendAbs := func(b []byte, i int) []byte {
		if i < nr {
			return append(b, ix.Roots[i]...)
		}
		d := dirs[i-nr]
		return appendFromSlash(appendRootPrefix(b, ix.Roots[d.Root]), d.Path)
	}
	abs := func(i int) string { return string(appendAbs(nil, i)) }
	prints := make([]uint64, nr+len(dirs))
	var since []bool // first call: whether each was changed since walked
	t.mu.Lock()
	first := t.prints == nil || t.withRoots != withRoots || !slices.Equal(t.roots, ix.Roots)
	t.mu.Unlock()
	if first {
		since = make([]bool, len(prints))
	}
	from := walked.Add(-mtimeSlack).UnixNano()
	statPaths(len(prints), appendAbs, pace, func(i int, st FileStat) {
		prints[i] = statPrint(st)
		if since != nil {
			since[i] = !st.OK || st.ModTime >= from
		}
	})
	var changed []string
	t.mu.Lock()
	defer t.mu.Unlock()
	if first {
		for i, c := range since {
			if c {
				changed = append(changed, abs(i))
			}
		}
	} else {
		for r := range nr {
			if t.prints[r] != prints[r] {
				changed = append(changed, abs(r))
			}
		}
		eachCommon(t.dirs, dirs, func(i, j int) {
			if t.prints[nr+i] != prints[nr+j] {
				changed = append(changed, abs(nr+j))
			}
		})
	}
	t.roots, t.withRoots, t.dirs, t.prints, t.mapped = ix.Roots, withRoots, dirs, prints, ix.Mapped()
	return changed
}

// Rebase has the next poll compare with the stats of the last in ix's
// strings of the same directories (a compaction's base, a change
// applied): those ix no longer holds are left out, as a poll leaves out
// directories gone from its index, and the index the stats were taken
// of, with the base its paths lie in, is let go (package segment).
// Kept, it held a replaced base mapped until the next poll, which on a
// tree the watcher holds whole never comes.
func (t *DirTimes) Rebase(ix *Index) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.prints == nil || !slices.Equal(t.roots, ix.Roots) {
		return
	}
	nr := 0
	if t.withRoots {
		nr = len(t.roots)
	}
	dirs, prints := make([]File, 0, len(t.dirs)), append(make([]uint64, 0, nr+len(t.dirs)), t.prints[:nr]...)
	eachCommon(t.dirs, ix.Dirs, func(i, j int) {
		dirs, prints = append(dirs, ix.Dirs[j]), append(prints, t.prints[nr+i])
	})
	t.roots, t.dirs, t.prints, t.mapped = ix.Roots, dirs, prints, ix.Mapped()
}

// EntryChanges narrows directories whose entries changed (absolute, from
// DirTimes) to the entries that did: each directory's names now, read
// once, against those ix knows in it — its files, the directories below
// it that were walked or skipped — a name come, gone, or now a directory
// where it was a file or the reverse. Update then reads those entries
// again rather than each directory's tree: a file made at the top of a
// large tree is one file to read, not the tree. A directory that
// cannot be read is returned itself (Update finds what it is now). What
// the names cannot tell — an ignore file edited in place — is Verify's.
func EntryChanges(ix *Index, dirs []string) []string {
	var out []string
	for _, dir := range dirs {
		root, rel, ok := ix.RootOf(dir)
		entries, err := os.ReadDir(dir)
		if !ok || err != nil {
			out = append(out, dir)
			continue
		}
		known := ix.entriesOf(root, rel)
		for _, e := range entries {
			isDir, was := known[e.Name()]
			delete(known, e.Name())
			// A link's kind is the walk's to decide (isDir is what the
			// walk made of it).
			if !was || e.Type()&fs.ModeSymlink == 0 && isDir != e.IsDir() {
				out = append(out, filepath.Join(dir, e.Name()))
			}
		}
		for name := range known {
			out = append(out, filepath.Join(dir, name))
		}
	}
	return out
}

// entriesOf are the names ix knows directly inside root-relative
// directory rel, each with whether it is a directory: its files, and the
// directories its files, walked directories and skipped ones are in.
// Each list holds rel's tree in one run (it sorts by path), and a
// directory's own tree is passed over by a search, not read: the top of
// a large tree costs its own entries.
func (ix *Index) entriesOf(root int, rel string) map[string]bool {
	prefix := ""
	if rel != "" {
		prefix = rel + "/"
	}
	known := map[string]bool{}
	// The files are the base's less those removed, and those added
	// (delta.go): a run of the base's is there when not all of it was
	// removed (live).
	files, added := ix.files, []File(nil)
	live := func(lo, hi int) bool { return lo < hi }
	if d := ix.delta; d != nil {
		files, added = d.base.files, d.added
		live = func(lo, hi int) bool {
			a, _ := slices.BinarySearch(d.removed, int32(lo))
			b, _ := slices.BinarySearch(d.removed, int32(hi))
			return b-a < hi-lo
		}
	}
	for li, list := range [][]File{files, added, ix.Dirs, ix.Skipped} {
		for i := searchList(list, root, prefix); i < len(list) && list[i].Root == root && strings.HasPrefix(list[i].Path, prefix); {
			rest := list[i].Path[len(prefix):]
			k := strings.IndexByte(rest, '/')
			if k < 0 {
				// Files are files; the walked and skipped are directories.
				if li > 0 || live(i, i+1) {
					known[rest] = known[rest] || li > 1
				}
				i++
				continue
			}
			_, j := spanOf(list, root, prefix+rest[:k]+"/") // past that directory's tree
			if li > 0 || live(i, j) {
				known[rest[:k]] = true
			}
			i = j
		}
	}
	return known
}

// appendRootPrefix appends RootPrefix(root) to b.
func appendRootPrefix(b []byte, root string) []byte {
	b = append(b, root...)
	if rootSkip(root) == len(root) {
		return b // the filesystem root
	}
	return append(b, filepath.Separator)
}

// appendFromSlash appends filepath.FromSlash(p) to b.
func appendFromSlash(b []byte, p string) []byte {
	if slashed {
		return append(b, p...)
	}
	return append(b, filepath.FromSlash(p)...)
}
