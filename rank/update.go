package rank

import (
	"slices"
	"strings"

	"wayfind/workspace"
)

// Updated is the engine of next, an index e's was updated to
// (workspace.Update: a few files added or removed), built from e's
// arrays rather than from scratch: the files kept keep their records,
// the added ones are named and filed under e's stems and directories
// (new ones appended), and the arrays by file are laid out again. It
// answers every question as New(next) would. In a large tree New is
// slow, and its time is the time a file a client reported waits to be
// found.
//
// It returns nil, for New to build, when the change is too large to be
// worth it (patchShare) or leaves a directory or an extension with no
// file: New would not know them, and a resolve reads whether a written
// directory or extension exists (isDirName, extID).
//
// What it keeps that New would not: stems no file has any more (no
// question reaches them but through their files), and letter masks of
// stems and directories that may hold letters of files gone (they only
// let a prune pass more by); their ids are in another order than New's,
// which no answer depends on (RanksBefore is a total order).
func (e *Engine) Updated(next *workspace.Index) *Engine {
	if !slices.Equal(e.ix.Roots, next.Roots) {
		return nil
	}
	from, gone := workspace.Kept(e.ix, next)
	added := len(from) - (len(e.files) - len(gone))
	patched := e.patched + added + len(gone)
	if patched > len(next.Files)/patchShare {
		return nil
	}
	b := newBuilder(next, e)
	c := b.e
	var fresh []int32
	for j, i := range from {
		if i >= 0 {
			c.files[j] = e.files[i]
		} else {
			fresh = append(fresh, int32(j))
		}
	}
	for _, o := range e.otherCase {
		f := e.ix.Files[o.id]
		if id := next.Lookup(f.Root, f.Path); id >= 0 {
			c.otherCase = append(c.otherCase, otherName{name: o.name, id: int32(id)})
		}
	}
	last := lastDir{id: -1}
	for _, j := range fresh {
		f := next.Files[j]
		n := namePartsOf(f)
		b.add(j, f, &n, &last)
	}
	c = b.finish()
	if len(gone) > 0 {
		held := make([]bool, len(c.exts))
		for id := range c.files {
			held[c.files[id].ext] = true
		}
		for _, g := range gone {
			if f := &e.files[g]; len(c.dirFiles(int(f.dir))) == 0 || !held[f.ext] {
				return nil
			}
		}
	}
	// A stem's word starts are its first file's (stemOf, in path order).
	for _, g := range gone {
		b.firstStarts(e.files[g].stem)
	}
	for _, j := range fresh {
		b.firstStarts(c.files[j].stem)
	}
	c.patched = patched
	return c
}

// patchShare: Updated builds on an engine until the files added and
// removed since New reach a patchShare-th of the tree. It copies the
// arrays by file (linear, with no name split or map), but what it keeps
// of files gone (stems, wider masks) grows with every change, and past
// that a build from scratch is both cheap beside the changes and exact.
const patchShare = 16

// firstStarts sets stem sid's word starts to its first file's, as New
// does, when it has a file.
func (b *builder) firstStarts(sid int32) {
	e := b.e
	if ids := e.stemFiles(sid); len(ids) > 0 && e.stems[sid].starts != e.files[ids[0]].starts {
		b.stem(sid).starts = e.files[ids[0]].starts
	}
}

// dirAt is the directory at dirPath ("": the top level) when a file of
// the engine's index lies below it, in any root (directories of the same
// path in several roots are one, as New files them).
func (e *Engine) dirAt(dirPath string) (int32, bool) {
	depth := int32(0)
	if dirPath != "" {
		depth = int32(strings.Count(dirPath, "/") + 1)
	}
	for r := range e.ix.Roots {
		if i := e.ix.FirstUnder(r, dirPath); i >= 0 {
			d := e.files[i].dir
			for e.dirInfos[d].depth > depth {
				d = e.dirLinks[d].parent
			}
			return d, true
		}
	}
	return -1, false
}
