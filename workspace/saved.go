package workspace

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unsafe"

	"wayfind/bigalloc"
)

// A root's file index persists beside its other caches (RootCacheDir), so
// that a server restarted on a known tree answers from it at once while
// its walk verifies it: a million files walk in 7–20 s and load in a
// fraction of one.
//
// Layout: savedMagic; the fingerprint of the walk options that decide
// which files belong (optionsPrint); the root's path; then the files,
// the directories walked and the directories skipped, each a count and
// its root-relative paths in Index order, front-coded (the length shared
// with the previous path, the rest's length, the rest: sorted paths share
// most of their directories, so a million paths take a third of their
// bytes). The file is written whole (WriteRootCache).
const savedMagic = "wayfind file index 1\n"

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
// each of ix's roots under dir (none when dir is "-"), as walked with opt.
func SaveIndex(dir string, ix *Index, opt Options) error {
	if dir == "-" {
		return nil
	}
	print := optionsPrint(opt)
	var errs []error
	for r, root := range ix.Roots {
		if err := saveRoot(dir, ix, r, root, print); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", root, err))
		}
	}
	return errors.Join(errs...)
}

func saveRoot(dir string, ix *Index, r int, root string, print []byte) error {
	return WriteRootCache(dir, root, savedName, func(w *bufio.Writer) error {
		w.WriteString(savedMagic)
		w.Write(print)
		var buf []byte
		buf = appendUvarintString(buf, root)
		for _, list := range [][]File{ix.Files, ix.Dirs, ix.Skipped} {
			lo, hi := rootRange(list, r)
			buf = binary.AppendUvarint(buf, uint64(hi-lo))
			prev := ""
			for _, f := range list[lo:hi] {
				shared := commonPrefix(prev, f.Path)
				buf = binary.AppendUvarint(buf, uint64(shared))
				buf = appendUvarintString(buf, f.Path[shared:])
				prev = f.Path
				if len(buf) > 1<<16 {
					w.Write(buf)
					buf = buf[:0]
				}
			}
		}
		_, err := w.Write(buf)
		return err
	})
}

// rootRange is where root r's entries are in list (sorted by root first).
func rootRange(list []File, r int) (lo, hi int) {
	lo, _ = slices.BinarySearchFunc(list, r, func(f File, r int) int { return f.Root - r })
	hi, _ = slices.BinarySearchFunc(list, r+1, func(f File, r int) int { return f.Root - r })
	return lo, hi
}

func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

func appendUvarintString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// LoadIndex reads the index of roots saved under dir by SaveIndex with
// the same membership options, or reports false when a root has none (or
// one unreadable, of another version or other options). What it returns
// is what the tree was: the caller walks to know what it is.
func LoadIndex(dir string, roots []string, opt Options) (*Index, bool) {
	if dir == "-" || len(roots) == 0 {
		return nil, false
	}
	print := optionsPrint(opt)
	ix := &Index{Roots: roots}
	for r, root := range roots {
		b, err := os.ReadFile(filepath.Join(RootCacheDir(dir, root), savedName))
		if err != nil {
			return nil, false
		}
		if err := loadRoot(ix, r, b, print); err != nil {
			return nil, false
		}
	}
	return ix, true
}

// slashed: paths are '/'-separated here, so a root-relative path is the
// tail of the absolute path as it is (elsewhere it is a copy, its
// separators turned).
const slashed = filepath.Separator == '/'

// loadRoot appends root r's saved entries to ix. The files' absolute
// paths are laid end to end in one allocation, each File.Path the tail of
// its own (as the walk makes them: AbsAt); the directories' paths in
// another.
func loadRoot(ix *Index, r int, b []byte, print []byte) error {
	if !bytes.HasPrefix(b, []byte(savedMagic)) || len(b) < len(savedMagic)+len(print) || !bytes.Equal(b[len(savedMagic):len(savedMagic)+len(print)], print) {
		return errSavedFormat
	}
	d := savedDecoder{b: b[len(savedMagic)+len(print):]}
	if d.string() != ix.Roots[r] {
		return errSavedFormat // a hash shared by two roots
	}
	prefix := RootPrefix(ix.Roots[r])
	d.paths(prefix, func(n int) {
		ix.Files = slices.Grow(ix.Files, n)
		if !slashed {
			ix.abs = slices.Grow(ix.abs, n)
		}
	}, func(abs string) {
		path := abs[len(prefix):]
		if !slashed {
			path, abs = filepath.ToSlash(path), filepath.FromSlash(abs)
			ix.abs = append(ix.abs, abs)
		}
		ix.Files = append(ix.Files, File{Root: r, Path: path})
	})
	if slashed {
		// Every Path was cut from its absolute path in an arena, right
		// after its root's prefix: AbsAt reads it from there.
		ix.tails = ix.Files
	}
	d.paths("", func(n int) { ix.Dirs = slices.Grow(ix.Dirs, n) }, func(rel string) {
		ix.Dirs = append(ix.Dirs, File{Root: r, Path: rel})
	})
	d.paths("", func(n int) { ix.Skipped = slices.Grow(ix.Skipped, n) }, func(rel string) {
		ix.Skipped = append(ix.Skipped, File{Root: r, Path: rel})
	})
	if d.err != nil || len(d.b) != 0 {
		return errSavedFormat
	}
	// A file that decodes is still only trusted as the walk would have
	// made it: in order (lookups search it) and every path inside the root.
	for _, list := range [][]File{ix.Files, ix.Dirs, ix.Skipped} {
		lo, hi := rootRange(list, r)
		for i := lo; i < hi; i++ {
			if !localPath(list[i].Path) || i > lo && compareFiles(list[i-1], list[i]) >= 0 {
				return errSavedFormat
			}
		}
	}
	return nil
}

// localPath reports a root-relative, '/'-separated path that stays in its
// root: not empty, not absolute, no empty, "." or ".." component.
func localPath(rel string) bool {
	if rel == "" || strings.ContainsRune(rel, 0) {
		return false
	}
	for c := range strings.SplitSeq(rel, "/") {
		if c == "" || c == "." || c == ".." {
			return false
		}
	}
	return true
}

// paths decodes one list of front-coded paths, each after prefix, into
// strings laid end to end in one allocation (bigalloc: at a million files,
// a hundred megabytes filled at once), and hands count the number first,
// then each to each: sized by a first pass over the lengths, filled by a
// second that copies each path's shared part from the one before it.
func (d *savedDecoder) paths(prefix string, count func(n int), each func(string)) {
	n := d.uvarint()
	if d.err != nil || n > uint64(len(d.b)) {
		d.err, d.b = errSavedFormat, nil
		return
	}
	from := d.b
	size, prevLen := 0, uint64(0)
	for range n {
		shared, rest := d.uvarint(), d.bytes()
		if d.err != nil || shared > prevLen {
			d.err, d.b = errSavedFormat, nil
			return
		}
		prevLen = shared + uint64(len(rest))
		size += len(prefix) + int(prevLen)
	}
	count(int(n))
	again := savedDecoder{b: from}
	arena := bigalloc.Make[byte](0, size)
	prevAt := 0
	for range n {
		shared, rest := again.uvarint(), again.bytes()
		at := len(arena)
		arena = append(arena, prefix...)
		arena = append(arena, arena[prevAt:prevAt+int(shared)]...) // within capacity: no move
		arena = append(arena, rest...)
		prevAt = at + len(prefix)
		if len(arena) > at {
			each(unsafe.String(&arena[at], len(arena)-at))
		} else {
			each("")
		}
	}
}

// RootPrefix is what the absolute paths of root's entries begin with.
func RootPrefix(root string) string {
	if rootSkip(root) == len(root) {
		return root // the filesystem root
	}
	return root + string(filepath.Separator)
}

// SameFiles reports whether a and b hold the same roots, files,
// directories and skipped directories: a walk that confirms a loaded
// index.
func SameFiles(a, b *Index) bool {
	return slices.Equal(a.Roots, b.Roots) && slices.Equal(a.Files, b.Files) &&
		slices.Equal(a.Dirs, b.Dirs) && slices.Equal(a.Skipped, b.Skipped)
}

type savedDecoder struct {
	b   []byte
	err error
}

func (d *savedDecoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err, d.b = errSavedFormat, nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *savedDecoder) bytes() []byte {
	n := d.uvarint()
	if d.err != nil || n > uint64(len(d.b)) {
		d.err, d.b = errSavedFormat, nil
		return nil
	}
	s := d.b[:n]
	d.b = d.b[n:]
	return s
}

func (d *savedDecoder) string() string { return string(d.bytes()) }
