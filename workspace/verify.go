package workspace

import (
	"slices"
	"strings"
)

// Verify walks ix's roots as Build would and returns the directories
// (absolute) whose entries differ from ix's — files, directories and
// skipped directories gained or lost — plus those ix has and the tree no
// longer does, as their parents. Update(ix, opt, changed) then brings ix
// up to date. Unlike Build it keeps no list of what it finds: each
// directory's entries are reduced to a print and compared with the
// print ix gives it, so checking a saved index of a large tree costs
// the reading of the tree, not a second index.
func Verify(ix *Index, opt Options) (changed []string) {
	v := &verifying{prints: printsOf(ix)}
	w := newWalker(ix.Roots, opt)
	w.verify = v
	w.found.Add(int64(len(ix.Roots)))
	for i := range ix.Roots {
		w.queue(w.rootJob(i))
	}
	w.run()
	slices.Sort(v.changed)
	return v.changed
}

// verifying is a Verify walk's state: what each directory should hold,
// and the directories found otherwise.
type verifying struct {
	prints  map[dirKey]dirPrint
	changed []string // under walker.mu
}

type dirKey struct {
	root int
	rel  string
}

// dirPrint is a directory's entries reduced to a count and two
// order-free sums of their hashes: equal sets give equal prints, and
// unequal ones differ but for a 128-bit coincidence.
type dirPrint struct {
	n        int
	xor, sum uint64
}

// add counts one entry, hashed by FNV-1a over its kind and name — in
// place: hash/fnv's hasher and byte copies allocated for every entry,
// twice (the index's prints and the walk's).
func (p *dirPrint) add(kind entryKind, name string) {
	const offset, prime = 14695981039346656037, 1099511628211
	x := (offset ^ uint64(kind)) * prime
	for i := 0; i < len(name); i++ {
		x = (x ^ uint64(name[i])) * prime
	}
	p.n++
	p.xor ^= x
	p.sum += x * 0x9e3779b97f4a7c15 // a second, independent combination
}

// printsOf is the print of every directory of ix, from its files,
// directories and skipped directories.
func printsOf(ix *Index) map[dirKey]dirPrint {
	prints := make(map[dirKey]dirPrint, len(ix.Dirs)+len(ix.Roots))
	for _, list := range []struct {
		files []File
		kind  entryKind
	}{{ix.Files(), entryFile}, {ix.Dirs, entryDir}, {ix.Skipped, entrySkip}} {
		for _, f := range list.files {
			k := dirKey{f.Root, parentOf(f.Path)}
			p := prints[k]
			p.add(list.kind, f.Path[strings.LastIndexByte(f.Path, '/')+1:])
			prints[k] = p
		}
	}
	return prints
}
