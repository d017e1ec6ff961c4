package workspace

import (
	"iter"
	"strings"
)

// DirsHolding lists, in the Index order, the directories of root r below
// the root-relative directory under ("": the root's top) whose last
// components are tail ("src", "test/unit"), each holding a file at any
// depth whose name holds reports — at most most of them (the caller asks
// one more than it can use: a search of several names no one).
func (ix *Index) DirsHolding(r int, under, tail string, holds func(name string) bool, most int) []string {
	var out []string
	for d := range ix.dirsNamed(r, under, tail) {
		if len(out) >= most {
			break
		}
		for f := range ix.under(r, d+"/") {
			if holds(f.Path[strings.LastIndexByte(f.Path, '/')+1:]) {
				out = append(out, d)
				break
			}
		}
	}
	return out
}

// DirCount is a directory and how many files lie below it.
type DirCount struct {
	Path  string // root-relative
	Files int
}

// DirsNamed lists the directories of root r below under ("": the root's
// top) whose last components are tail, with how many files lie below
// each (none listed that holds none), in the Index order.
func (ix *Index) DirsNamed(r int, under, tail string) []DirCount {
	var out []DirCount
	for d := range ix.dirsNamed(r, under, tail) {
		if n := ix.countUnder(r, d+"/"); n > 0 {
			out = append(out, DirCount{Path: d, Files: n})
		}
	}
	return out
}

// dirsNamed yields, in the Index order, the walked directories of root r
// below under whose last components are tail (none for no tail).
func (ix *Index) dirsNamed(r int, under, tail string) iter.Seq[string] {
	return func(yield func(string) bool) {
		if tail == "" {
			return
		}
		suffix := "/" + tail
		for i, hi := spanOf(ix.Dirs, r, dirPrefix(under)); i < hi; i++ {
			if d := ix.Dirs[i].Path; strings.HasSuffix("/"+d, suffix) && !yield(d) {
				return
			}
		}
	}
}

// countUnder is how many files of root r have a path starting with
// prefix: the span's length where there is no delta, else counted.
func (ix *Index) countUnder(r int, prefix string) int {
	if ix.delta == nil {
		lo, hi := spanOf(ix.files, r, prefix)
		return hi - lo
	}
	n := 0
	for range ix.under(r, prefix) {
		n++
	}
	return n
}
