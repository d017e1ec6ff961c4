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
	prints  *dirPrints
	changed []string // under walker.mu
}

type dirKey struct {
	root int
	rel  string
}

// dirPrints is the print of every directory of an index: its roots'
// tops by root, its directories beside ix.Dirs (sorted: found by a
// search), and, for a directory the index's files name that Dirs lacks,
// a map. The arrays hold no key and no pointer: a large tree's check
// keeps, beside the index it serves meanwhile, a print a directory that
// the collector does not trace.
type dirPrints struct {
	dirs  []File
	roots []dirPrint
	in    []dirPrint // in[i] is dirs[i]'s
	other map[dirKey]dirPrint
}

// at is the print of directory rel of root (the zero print for one the
// index does not have).
func (p *dirPrints) at(root int, rel string) dirPrint {
	if slot := p.slot(root, rel); slot != nil {
		return *slot
	}
	return p.other[dirKey{root, rel}]
}

// slot is where the print of directory rel of root is kept in the
// arrays; nil for one they do not hold (in the map, or nowhere).
func (p *dirPrints) slot(root int, rel string) *dirPrint {
	if rel == "" && root >= 0 && root < len(p.roots) {
		return &p.roots[root]
	}
	if i := positionIn(p.dirs, File{Root: root, Path: rel}); i >= 0 {
		return &p.in[i]
	}
	return nil
}

// addOther counts an entry of kind named name in directory rel of root,
// one the arrays do not hold.
func (p *dirPrints) addOther(root int, rel string, kind entryKind, name string) {
	if p.other == nil {
		p.other = map[dirKey]dirPrint{}
	}
	k := dirKey{root, rel}
	d := p.other[k]
	d.add(kind, name)
	p.other[k] = d
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
// directories and skipped directories. Consecutive entries mostly share
// their directory (the lists are in path order): its slot is searched
// for once for them.
func printsOf(ix *Index) *dirPrints {
	p := &dirPrints{dirs: ix.Dirs, roots: make([]dirPrint, len(ix.Roots)), in: make([]dirPrint, len(ix.Dirs))}
	for _, list := range []struct {
		files []File
		kind  entryKind
	}{{ix.Files(), entryFile}, {ix.Dirs, entryDir}, {ix.Skipped, entrySkip}} {
		var last *dirPrint
		lastRoot, lastRel := -1, ""
		for _, f := range list.files {
			rel := parentOf(f.Path)
			name := f.Path[strings.LastIndexByte(f.Path, '/')+1:]
			if last == nil || f.Root != lastRoot || rel != lastRel {
				last, lastRoot, lastRel = p.slot(f.Root, rel), f.Root, rel
			}
			if last == nil {
				p.addOther(f.Root, rel, list.kind, name) // a directory Dirs lacks
				continue
			}
			last.add(list.kind, name)
		}
	}
	return p
}
