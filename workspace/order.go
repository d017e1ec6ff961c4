package workspace

import (
	"cmp"
	"slices"
	"sort"
	"strings"
)

// The Index order (by root, then path) and the searches in a list kept in
// it: every list of files the index holds — its files, its directories, a
// delta's added files — is sorted so, and each question of a file or a
// directory's run of files is a binary search here.

// CompareFiles is the Index order: by root, then path.
func CompareFiles(a, b File) int {
	if c := cmp.Compare(a.Root, b.Root); c != 0 {
		return c
	}
	return strings.Compare(a.Path, b.Path)
}

func less(a, b File) bool { return CompareFiles(a, b) < 0 }

// SortFiles puts files in the Index order: by root, then path.
func SortFiles(fs []File) {
	slices.SortFunc(fs, CompareFiles)
}

// search is the position of the first file at or after (root, rel).
func (ix *Index) search(root int, rel string) int {
	return searchList(ix.files, root, rel)
}

// searchList is where File{root, rel} is or would go in list (sorted,
// Index order): the start of the run of entries at or under rel+"/" when
// given that prefix.
func searchList(list []File, root int, rel string) int {
	return sort.Search(len(list), func(i int) bool { return !less(list[i], File{Root: root, Path: rel}) })
}

// positionIn is f's position in list (sorted, Index order), or -1.
func positionIn(list []File, f File) int {
	if i := searchList(list, f.Root, f.Path); i < len(list) && list[i] == f {
		return i
	}
	return -1
}

// dirPrefix is what the paths below the root-relative directory dir
// start with: dir and a slash, nothing for the root's top ("").
func dirPrefix(dir string) string {
	if dir == "" {
		return ""
	}
	return dir + "/"
}

// spanOf is the run of list (Index order) of root r's entries whose path
// starts with prefix (every root's for r < 0): found by search at both
// ends, not by reading the entries between.
func spanOf(list []File, r int, prefix string) (lo, hi int) {
	switch {
	case r < 0:
		return 0, len(list)
	case prefix == "":
		return searchList(list, r, ""), searchList(list, r+1, "")
	}
	lo = searchList(list, r, prefix)
	if last := prefix[len(prefix)-1]; last < 0xff {
		// The first path past every one starting with prefix: its last
		// byte the next.
		return lo, searchList(list, r, prefix[:len(prefix)-1]+string([]byte{last + 1}))
	}
	for hi = lo; hi < len(list) && list[hi].Root == r && strings.HasPrefix(list[hi].Path, prefix); hi++ {
	}
	return lo, hi
}
