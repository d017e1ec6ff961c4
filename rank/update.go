package rank

import (
	"cmp"
	"slices"
	"strings"

	"wayfind/workspace"
)

// Updated is the engine of next, an index e's was updated to
// (workspace.Update: a few files added or removed), made of e's arrays
// rather than from scratch: the files kept keep their ids and records,
// the added ones are named and filed under e's stems and directories
// (new ones appended) in its overlay (overlaid). It answers every
// question as New(next) would. In a large tree New is slow, and its
// time is the time a file a client reported waits to be found.
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
	added, gone := workspace.Delta(e.ix, next)
	patched := e.patched + len(added) + len(gone)
	if patched > next.Len()/patchShare {
		return nil
	}
	c := e.overlaid(next, added, gone)
	if c != nil {
		c.patched = patched
	}
	return c
}

// layOut is the engine of next, an index e's was updated to, with its
// files laid out in next's order (a file's id its place in next): what
// Updated did before the overlay, and what a segment holds (laidOut).
// e is laid out itself. nil as for Updated.
func (e *Engine) layOut(next *workspace.Index) *Engine {
	from, gone := workspace.Kept(e.ix, next)
	added := len(from) - (len(e.files) - len(gone))
	patched := e.patched + added + len(gone)
	if patched > next.Len()/patchShare {
		return nil
	}
	b := newBuilder(next, e)
	c := b.e
	c.files = make([]fileInfo, len(next.Files()))
	var fresh []int32
	for j := 0; j < len(from); {
		if from[j] < 0 {
			fresh = append(fresh, int32(j))
			j++
			continue
		}
		// The kept files come in runs of consecutive positions: each is
		// copied at once.
		k := j + 1
		for k < len(from) && from[k] == from[k-1]+1 {
			k++
		}
		copy(c.files[j:k], e.files[from[j]:from[j]+int32(k-j)])
		j = k
	}
	b.moved = movedFiles{from: from, gone: gone, fresh: fresh}
	for _, o := range e.otherCase {
		f := e.ix.Files()[o.id]
		if id := next.Lookup(f.Root, f.Path); id >= 0 {
			c.otherCase = append(c.otherCase, otherName{name: o.name, id: int32(id)})
		}
	}
	last := lastDir{id: -1}
	for _, j := range fresh {
		f := next.Files()[j]
		n := namePartsOf(f)
		b.add(j, f, &n, &last)
	}
	c = b.finish()
	for _, g := range gone {
		if c.emptied(&e.files[g]) {
			return nil
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

// movedFiles is how Updated's files line up with its base's
// (workspace.Kept): from[j] the base's position of file j (-1: added),
// the base's files gone, and the files added (fresh), all in order.
type movedFiles struct {
	from, gone, fresh []int32
}

// movedRuns are runs (files grouped by key: a directory, a stem) of an
// updated engine's files, made from the base's groups (start, ids)
// rather than counted again: each group's kept files, renumbered — the
// renumbering keeps their order, both lists being in path order — with
// the files added to it merged in. Groups past the base's are new, and
// hold only files added. to is the base's file ids renumbered (-1: gone).
func movedRuns(groups int, start []uint32, ids []int32, to []int32, fresh []int32, files []fileInfo, key func(*fileInfo) int32) ([]uint32, []int32) {
	// The files added, by group then id.
	type addedFile struct{ group, id int32 }
	added := make([]addedFile, len(fresh))
	for i, j := range fresh {
		added[i] = addedFile{key(&files[j]), j}
	}
	slices.SortFunc(added, func(a, b addedFile) int { return cmp.Or(cmp.Compare(a.group, b.group), cmp.Compare(a.id, b.id)) })
	nstart := make([]uint32, groups+1)
	nids := make([]int32, len(files))
	n, based := 0, len(start)-1
	for k := range groups {
		nstart[k] = uint32(n)
		if k < based {
			for _, x := range ids[start[k]:start[k+1]] {
				y := to[x]
				if y < 0 {
					continue
				}
				for len(added) > 0 && added[0].group == int32(k) && added[0].id < y {
					nids[n], added, n = added[0].id, added[1:], n+1
				}
				nids[n], n = y, n+1
			}
		}
		for len(added) > 0 && added[0].group == int32(k) {
			nids[n], added, n = added[0].id, added[1:], n+1
		}
	}
	nstart[groups] = uint32(n)
	return nstart, nids
}

// renumbered is, for each of the base's files, its id among the updated
// engine's files, -1 for a file gone.
func (m *movedFiles) renumbered(based int) []int32 {
	to := make([]int32, based)
	for j, i := range m.from {
		if i >= 0 {
			to[i] = int32(j)
		}
	}
	for _, g := range m.gone {
		to[g] = -1
	}
	return to
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
	if ids := e.stemFiles(sid); len(ids) > 0 && e.stemRec(sid).starts != e.file(ids[0]).starts {
		b.stem(sid).starts = e.file(ids[0]).starts
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
		if f, ok := e.ix.AnyUnder(r, dirPath); ok {
			id, _ := e.fileID(f.Root, f.Path)
			d := e.file(id).dir
			for e.dirInfos[d].depth > depth {
				d = e.dirLinks[d].parent
			}
			return d, true
		}
	}
	return -1, false
}
