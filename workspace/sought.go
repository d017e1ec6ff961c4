package workspace

import "strings"

// DirsHolding lists, in the Index order, the directories of root r below
// the root-relative directory under ("": the root's top) whose last
// components are tail ("src", "test/unit"), each holding a file at any
// depth whose name holds reports — at most most of them (the caller asks
// one more than it can use: a search of several names no one).
func (ix *Index) DirsHolding(r int, under, tail string, holds func(name string) bool, most int) []string {
	if tail == "" || most <= 0 {
		return nil
	}
	suffix := "/" + tail
	var out []string
	for i, hi := spanOf(ix.Dirs, r, dirPrefix(under)); i < hi && len(out) < most; i++ {
		d := ix.Dirs[i].Path
		if !strings.HasSuffix("/"+d, suffix) {
			continue
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
