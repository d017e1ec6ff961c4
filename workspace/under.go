package workspace

// What lies under a directory, asked of the base and the delta alike: a
// written path's directories are judged by whether the tree has them.

// HoldsUnder reports whether the index has a file below the root-relative
// directory dir (never below "": a written path names no directory).
func (ix *Index) HoldsUnder(root int, dir string) bool {
	if dir == "" {
		return false
	}
	_, ok := ix.AnyUnder(root, dir)
	return ok
}

// FirstUnder is the position of the first file below the root-relative
// directory dir ("": the root's first file), or -1 when there is none.
func (ix *Index) FirstUnder(root int, dir string) int {
	ix = ix.flat()
	if lo, hi := spanOf(ix.files, root, dirPrefix(dir)); lo < hi {
		return lo
	}
	return -1
}

// AnyUnder is a file below the root-relative directory dir of root r
// ("": any of the root's), the first in the Index order: the base's
// first not removed, or the delta's first added, whichever sorts first.
func (ix *Index) AnyUnder(r int, dir string) (File, bool) {
	d := ix.delta
	if d == nil {
		if i := ix.FirstUnder(r, dir); i >= 0 {
			return ix.files[i], true
		}
		return File{}, false
	}
	prefix := dirPrefix(dir)
	var first File
	found := false
	for i, hi := spanOf(d.base.files, r, prefix); i < hi; i++ {
		if !d.removedAt(i) {
			first, found = d.base.files[i], true
			break
		}
	}
	if j, hi := spanOf(d.added, r, prefix); j < hi && (!found || less(d.added[j], first)) {
		return d.added[j], true
	}
	return first, found
}
