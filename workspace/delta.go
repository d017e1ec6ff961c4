package workspace

import (
	"iter"
	"slices"
	"sync"
)

// An index Update made for a few files is its base's files and a delta:
// the files added since (not in the base) and the base's files removed.
// Copying a large tree's sorted list at every change cost the list's
// size in fresh memory, and the time a reported file waited to be
// found; the delta costs the change's files. Questions ask of it what
// they ask of a file (Contains, HoldsUnder, AnyUnder, the files under a
// directory) without a flat list; what needs positions (Files, Lookup,
// AbsAt: a pass over every file, an engine built anew, a save) has one
// made once, the first time it is asked for (flat). A delta past
// maxDelta is laid flat by the next Update.
type fileDelta struct {
	base *Index // flat
	// added are the files not in base, in the Index order, with their
	// absolute paths; removed the positions in base of its files gone,
	// ascending.
	added    []File
	addedAbs []string
	removed  []int32
	once     sync.Once
	flat     *Index
}

// maxDelta is how many files a delta holds at most, added and removed,
// for a base of n files: √n, so that a change copies at most √n entries
// of its delta and a flat list is made at most once every √n changed
// files — the copies a path costs are at most √n either way.
func maxDelta(n int) int {
	r := 1
	for r*r < n {
		r++
	}
	return max(r, 64)
}

// Len is the number of files.
func (ix *Index) Len() int {
	if d := ix.delta; d != nil {
		return len(d.base.files) + len(d.added) - len(d.removed)
	}
	return len(ix.files)
}

// Files are the index's files, sorted by (Root, Path): made once for an
// index with a delta. Not to be written.
func (ix *Index) Files() []File { return ix.flat().files }

// flat is ix with its files in one sorted list: ix itself, or for an
// index with a delta, the one made of its base and delta the first time
// it is asked for.
func (ix *Index) flat() *Index {
	if ix.delta == nil {
		return ix
	}
	return ix.delta.flatten(ix)
}

// flatten is flat for ix, an index with delta d, made once.
func (d *fileDelta) flatten(ix *Index) *Index {
	d.once.Do(func() {
		f := &Index{Roots: ix.Roots, Dirs: ix.Dirs, Skipped: ix.Skipped, serial: serials.Add(1),
			backing: ix.backing}
		base := d.base
		n := ix.Len()
		f.files = make([]File, 0, n)
		tails := (len(base.files) == 0 || base.sharesTails()) && (run{d.added, d.addedAbs}).tails(ix.Roots)
		if !tails {
			f.abs = make([]string, 0, n)
		}
		for file, abs := range ix.under(-1, "") {
			f.files = append(f.files, file)
			if !tails {
				f.abs = append(f.abs, abs())
			}
		}
		if tails {
			f.tails = f.files
		}
		d.flat = f
	})
	return d.flat
}

// flatBase is the flat index ix's files are laid on: its delta's base,
// or itself.
func (ix *Index) flatBase() *Index {
	if ix.delta != nil {
		return ix.delta.base
	}
	return ix
}

// removedAt reports whether the base's file at position i is gone.
func (d *fileDelta) removedAt(i int) bool {
	_, ok := slices.BinarySearch(d.removed, int32(i))
	return ok
}

// Contains reports whether root-relative rel of root r is a file of the
// index.
func (ix *Index) Contains(r int, rel string) bool {
	f := File{Root: r, Path: rel}
	d := ix.delta
	if d == nil {
		return positionIn(ix.files, f) >= 0
	}
	if positionIn(d.added, f) >= 0 {
		return true
	}
	i := positionIn(d.base.files, f)
	return i >= 0 && !d.removedAt(i)
}

// under yields, in the Index order, the files of root r whose path
// starts with prefix (every file of every root for r < 0), each with a
// function making its absolute path (AbsAt's string where there is
// one): from the base and the delta merged, without a flat list.
func (ix *Index) under(r int, prefix string) iter.Seq2[File, func() string] {
	return func(yield func(File, func() string) bool) {
		d := ix.delta
		base := ix
		if d != nil {
			base = d.base
		}
		i, iEnd := spanOf(base.files, r, prefix)
		var added []File
		var addedAbs []string
		var rm []int32
		if d != nil {
			lo, hi := spanOf(d.added, r, prefix)
			added, addedAbs = d.added[lo:hi], d.addedAbs[lo:hi]
			k, _ := slices.BinarySearch(d.removed, int32(i))
			rm = d.removed[k:]
		}
		j := 0
		for i < iEnd || j < len(added) {
			if i < iEnd && (j == len(added) || less(base.files[i], added[j])) {
				if len(rm) > 0 && rm[0] == int32(i) {
					rm = rm[1:]
					i++
					continue
				}
				at := i
				if !yield(base.files[i], func() string { return base.AbsAt(at) }) {
					return
				}
				i++
				continue
			}
			abs := addedAbs[j]
			if !yield(added[j], func() string { return abs }) {
				return
			}
			j++
		}
	}
}

// withDelta is the index of roots whose files are base's with added (not
// in base; absolute paths beside) and less the base's files at removed:
// a delta, or flat when it would pass maxDelta (spliced, as Update did
// before deltas).
func withDelta(base *Index, added []File, addedAbs []string, removed []int32, dirs, skipped []File) *Index {
	next := &Index{Roots: base.Roots, Dirs: dirs, Skipped: skipped, serial: serials.Add(1),
		backing: append(slices.Clip(base.segs), base.backing...)}
	if len(added)+len(removed) <= maxDelta(len(base.files)) {
		next.files = base.files
		next.delta = &fileDelta{base: base, added: added, addedAbs: addedAbs, removed: removed}
		return next
	}
	// Laid flat: the runs of base kept between its files removed, with
	// the added merged in.
	var gone []span
	for _, i := range removed {
		if n := len(gone); n > 0 && gone[n-1].hi == int(i) {
			gone[n-1].hi++
		} else {
			gone = append(gone, span{int(i), int(i) + 1})
		}
	}
	files, abs, kept := spliceFiles(base, gone, run{added, addedAbs})
	next.files, next.abs = files, abs
	if base.serial != 0 {
		next.parent, next.kept = base.serial, kept
	}
	if abs == nil {
		next.tails = files
	} else {
		next.shareTails()
	}
	return next
}

// NewIndex is the flat index of roots holding files (sorted here, in
// the Index order): an index made by hand, not walked.
func NewIndex(roots []string, files []File) *Index {
	files = slices.Clone(files)
	SortFiles(files)
	return &Index{Roots: roots, files: files}
}
