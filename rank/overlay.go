package rank

import (
	"maps"
	"slices"

	"wayfind/workspace"
)

// An engine Updated for a change shares every array by file of the
// engine it came from, whose files were laid out in the order of their
// index (New, Mapped, layOut): a file keeps its id for as long as the
// arrays are shared. What the changes since the layout did lies in a
// fileOverlay beside them — the files added, with the ids after the
// laid-out ones, the files removed, marked, and the lists by directory
// and stem that the change touched, made again. A change costs its own
// files and the lists they are in, not the tree; a compaction lays the
// files out again (layOut) and the overlay goes.
type fileOverlay struct {
	// base is the laid-out engine whose arrays by file are shared: its
	// ids are the positions of its index.
	base *Engine
	// files and paths are the added files' records and paths, id
	// len(Engine.files)+k the k-th: an added file later removed keeps
	// its place, marked gone, as ids are never given twice.
	files []fileInfo
	paths []workspace.File
	// added are the ids of the added files still in the tree, by path.
	added map[workspace.File]int32
	// gone marks the removed files, laid out or added: bit id%64 of
	// word id/64.
	gone []uint64
	// dirs and stems are the files of each directory and stem a change
	// touched, in path order (dirFiles, stemFiles), and dirSet and
	// stemSet mark which those are: a bit tested before a map is read,
	// as every directory's files are asked for in a query's scan.
	dirs, stems     map[int32][]int32
	dirSet, stemSet []uint64
	// dirRecs and stemRecs are the records of the directories and stems
	// whose names' letters and lengths a file added widened (dirInfo's
	// nameMask, nameInit, nameMax; stemInfo's initMask, extMask, starts),
	// marked in dirRecSet and stemRecSet: the arrays stay the base's.
	dirRecs               map[int32]*dirInfo
	stemRecs              map[int32]*stemInfo
	dirRecSet, stemRecSet []uint64
	// text holds the names laid out since (builder.put): a strRef past
	// Engine.text reads here (str).
	text string
	// trigrams are the stems added since the layout by each of their
	// trigrams, in the order of their ids (trigramStems).
	trigrams map[uint32][]int32
	// live is how many files the engine has.
	live int
}

// dirRec is directory d's record; stemRec stem sid's.
func (e *Engine) dirRec(d int32) *dirInfo {
	if o := e.over; o != nil && hasBit(o.dirRecSet, d) {
		return o.dirRecs[d]
	}
	return &e.dirInfos[d]
}

func (e *Engine) stemRec(sid int32) *stemInfo {
	if o := e.over; o != nil && hasBit(o.stemRecSet, sid) {
		return o.stemRecs[sid]
	}
	return &e.stems[sid]
}

// ownRecord is record id of recs (an overlay's dirRecs or stemRecs,
// marked in set) for a builder to write: copied from what at reads the
// first time, the record the engine before held being left as it was.
func ownRecord[T any](own *map[int32]bool, recs map[int32]*T, set *[]uint64, id int32, at func(int32) *T) *T {
	if *own == nil {
		*own = map[int32]bool{}
	}
	if !(*own)[id] {
		r := *at(id)
		recs[id] = &r
		*set = setBit(*set, id)
		(*own)[id] = true
	}
	return recs[id]
}

// hasBit reports bit i of set; setBit sets it in set, grown as needed.
func hasBit(set []uint64, i int32) bool {
	w := int(i >> 6)
	return w < len(set) && set[w]&(1<<(i&63)) != 0
}

func setBit(set []uint64, i int32) []uint64 {
	w := int(i >> 6)
	if w >= len(set) {
		set = append(set, make([]uint64, w+1-len(set))...)
	}
	set[w] |= 1 << (i & 63)
	return set
}

// file is file id's record.
func (e *Engine) file(id int32) *fileInfo {
	if int(id) < len(e.files) {
		return &e.files[id]
	}
	return &e.over.files[int(id)-len(e.files)]
}

// filePath is file id's root-relative path: the index's own string (a
// laid-out file's id is its place in the index it was laid out from),
// not a second header for it in every fileInfo.
func (e *Engine) filePath(id int32) string {
	if e.over == nil {
		return e.paths[id].Path // inlined: every candidate's path is read
	}
	return e.overlaidPath(id)
}

// overlaidPath is filePath of an engine with an overlay.
func (e *Engine) overlaidPath(id int32) string {
	if o := e.over; int(id) >= len(e.files) {
		return o.paths[int(id)-len(e.files)].Path
	}
	return e.over.base.paths[id].Path
}

// fileID is the file at a root-relative path. A laid-out file's id is
// its place in the sorted index, so the index's binary search finds it:
// no map of every path beside the list.
func (e *Engine) fileID(root int, rel string) (int32, bool) {
	o := e.over
	if o == nil {
		i := e.ix.Lookup(root, rel)
		return int32(i), i >= 0
	}
	if i := o.base.ix.Lookup(root, rel); i >= 0 && !hasBit(o.gone, int32(i)) {
		return int32(i), true
	}
	id, ok := o.added[workspace.File{Root: root, Path: rel}]
	return id, ok
}

// Len is the number of indexed files.
func (e *Engine) Len() int {
	if e.over != nil {
		return e.over.live
	}
	return len(e.files)
}

// fileIDs are every file's id, ascending: the laid-out ones, then those
// added, the removed skipped.
func (e *Engine) fileIDs(yield func(int32) bool) {
	o := e.over
	for id := range int32(len(e.files)) {
		if (o == nil || !hasBit(o.gone, id)) && !yield(id) {
			return
		}
	}
	if o == nil {
		return
	}
	for k := range o.files {
		if id := int32(len(e.files) + k); !hasBit(o.gone, id) && !yield(id) {
			return
		}
	}
}

// dirFiles are the files directly inside directory d, in path order.
func (e *Engine) dirFiles(d int) []int32 {
	if o := e.over; o != nil && (hasBit(o.dirSet, int32(d)) || d+1 >= len(e.dirStart)) {
		return o.dirs[int32(d)]
	}
	return e.dirFileIDs[e.dirStart[d]:e.dirStart[d+1]]
}

// stemFiles are the files of stem sid, in path order.
func (e *Engine) stemFiles(sid int32) []int32 {
	if o := e.over; o != nil && (hasBit(o.stemSet, sid) || int(sid)+1 >= len(e.stemStart)) {
		return o.stems[sid]
	}
	return e.stemFileIDs[e.stemStart[sid]:e.stemStart[sid+1]]
}

// inPathOrder compares two files in the index's order
// (workspace.CompareFiles).
func (e *Engine) inPathOrder(a, b int32) int {
	return workspace.CompareFiles(workspace.File{Root: int(e.file(a).root), Path: e.filePath(a)},
		workspace.File{Root: int(e.file(b).root), Path: e.filePath(b)})
}

// overlaid is e updated to next, an index updated from e's (added and
// gone: what changed, each in the index order), by an overlay: the
// files gone marked, those added given the next ids, and the lists of
// the directories and stems either touched made again. nil when the
// change empties a directory or an extension (Updated).
func (e *Engine) overlaid(next *workspace.Index, added, gone []workspace.File) *Engine {
	o := &fileOverlay{base: e, live: len(e.files), added: map[workspace.File]int32{},
		dirs: map[int32][]int32{}, stems: map[int32][]int32{}, dirRecs: map[int32]*dirInfo{}, stemRecs: map[int32]*stemInfo{}}
	if p := e.over; p != nil {
		o = &fileOverlay{base: p.base, files: slices.Clip(p.files), paths: slices.Clip(p.paths), added: maps.Clone(p.added),
			gone: slices.Clone(p.gone), dirs: maps.Clone(p.dirs), stems: maps.Clone(p.stems),
			dirSet: slices.Clone(p.dirSet), stemSet: slices.Clone(p.stemSet),
			dirRecs: maps.Clone(p.dirRecs), stemRecs: maps.Clone(p.stemRecs),
			dirRecSet: slices.Clone(p.dirRecSet), stemRecSet: slices.Clone(p.stemRecSet), trigrams: p.trigrams, text: p.text, live: p.live}
	}
	// The directories and stems whose lists change: the files added to
	// each, in path order (as added is).
	touchedDirs, touchedStems := map[int32][]int32{}, map[int32][]int32{}
	lost := make(map[int32]bool, len(gone))
	for _, f := range gone {
		id, ok := e.fileID(f.Root, f.Path)
		if !ok {
			return nil
		}
		lost[id] = true
		o.gone = setBit(o.gone, id)
		delete(o.added, f)
		fi := e.file(id)
		touchedDirs[fi.dir] = touchedDirs[fi.dir]
		touchedStems[fi.stem] = touchedStems[fi.stem]
	}
	b := newBuilder(next, e)
	c := b.e
	c.over = o
	b.textBase = len(c.text) + len(o.text)
	c.otherCase = slices.DeleteFunc(slices.Clone(e.otherCase), func(x otherName) bool { return lost[x.id] })
	first := int32(len(c.files) + len(o.files))
	o.files = append(o.files, make([]fileInfo, len(added))...)
	o.paths = append(o.paths, added...)
	last := lastDir{id: -1}
	for k, f := range added {
		id := first + int32(k)
		n := namePartsOf(f)
		b.add(id, f, &n, &last)
		o.added[f] = id
		fi := c.file(id)
		touchedDirs[fi.dir] = append(touchedDirs[fi.dir], id)
		touchedStems[fi.stem] = append(touchedStems[fi.stem], id)
	}
	o.live += len(added) - len(lost)
	// Each list is e's without the files gone, with those added merged in
	// where their paths sort: both in path order.
	remade := func(old, fresh []int32) []int32 {
		out := make([]int32, 0, len(old)+len(fresh))
		for _, id := range old {
			if lost[id] {
				continue
			}
			for len(fresh) > 0 && c.inPathOrder(fresh[0], id) < 0 {
				out, fresh = append(out, fresh[0]), fresh[1:]
			}
			out = append(out, id)
		}
		return append(out, fresh...)
	}
	for d, fresh := range touchedDirs {
		var old []int32
		if int(d) < len(e.dirInfos) {
			old = e.dirFiles(int(d))
		}
		o.dirs[d], o.dirSet = remade(old, fresh), setBit(o.dirSet, d)
	}
	for sid, fresh := range touchedStems {
		var old []int32
		if int(sid) < len(e.stems) {
			old = e.stemFiles(sid)
		}
		o.stems[sid], o.stemSet = remade(old, fresh), setBit(o.stemSet, sid)
	}
	c = b.finish()
	for id := range lost {
		if c.emptied(e.file(id)) {
			return nil
		}
	}
	// A stem's word starts are its first file's (stemOf, in path order).
	for sid := range touchedStems {
		b.firstStarts(sid)
	}
	return c
}

// emptied reports whether e holds no file of the directory or the
// extension of f, a file gone: New would not know them, and a resolve
// reads whether a written directory or extension exists (isDirName,
// extID) — Updated leaves such a change to New.
func (e *Engine) emptied(f *fileInfo) bool {
	return len(e.dirFiles(int(f.dir))) == 0 || !e.holdsExt(f.stem, f.ext)
}

// holdsExt reports whether a file has extension x: looked for first
// among the files of stem sid (a name many directories share, the
// common case), then among all.
func (e *Engine) holdsExt(sid int32, x uint16) bool {
	if slices.ContainsFunc(e.stemFiles(sid), func(id int32) bool { return e.file(id).ext == x }) {
		return true
	}
	for id := range e.fileIDs {
		if e.file(id).ext == x {
			return true
		}
	}
	return false
}

// laidOut is e with its files laid out in its index's order, the
// overlay gone: what a segment holds (Put).
func (e *Engine) laidOut() *Engine {
	if e.over == nil {
		return e
	}
	if l := e.over.base.layOut(e.ix); l != nil {
		return l
	}
	return New(e.ix)
}
