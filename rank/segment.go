package rank

import (
	"errors"
	"fmt"
	"slices"

	"wayfind/segment"
	"wayfind/workspace"
)

// SegmentKind is the kind of segment an engine is written as (Put) and
// read from (Mapped). The records' layouts are checked by the segment
// itself; the version changes when what the arrays mean does.
const SegmentKind = "engine 4"

// Put adds the engine's arrays to a segment, as they lie, with the ids
// of saved, an index loaded from saved files (workspace.Index.SavedIDs)
// that holds the engine's files in its order — its own, or the one its
// walked index was just saved as: Mapped reads them back over that
// index only. It reports false when saved was not loaded from saved
// files (walked or changed since), which nothing could later name, or
// holds another number of files.
func (e *Engine) Put(w *segment.Writer, saved *workspace.Index) bool {
	e = e.laidOut()
	ids := saved.SavedIDs()
	if len(ids) == 0 || saved.Len() != len(e.files) {
		return false
	}
	segment.Put(w, "index", ids)
	for _, sec := range e.sections() {
		sec.put(w)
	}
	return true
}

// section is one array of the engine as a segment holds it, by name.
type section interface {
	put(w *segment.Writer)
	get(seg *segment.Segment) error
}

// recordSection is a section of fixed-size records, textSection one of
// bytes.
type recordSection[T any] struct {
	name string
	at   *[]T
}

func (r recordSection[T]) put(w *segment.Writer) { segment.Put(w, r.name, *r.at) }

func (r recordSection[T]) get(seg *segment.Segment) (err error) {
	*r.at, err = segment.Get[T](seg, r.name)
	return err
}

type textSection struct {
	name string
	at   *string
}

func (t textSection) put(w *segment.Writer) { w.String(t.name, *t.at) }

func (t textSection) get(seg *segment.Segment) (err error) {
	*t.at, err = seg.String(t.name)
	return err
}

// sections are the engine's arrays a segment holds: one list, what Put
// writes and Mapped reads. The rest of the engine is derived (derive)
// or attached later (symbols, contents, history).
func (e *Engine) sections() []section {
	return []section{
		recordSection[fileInfo]{"files", &e.files},
		textSection{"text", &e.text},
		recordSection[dirInfo]{"dirInfos", &e.dirInfos},
		recordSection[int32]{"dirFileIDs", &e.dirFileIDs},
		recordSection[uint32]{"dirStart", &e.dirStart},
		textSection{"dirWords", &e.dirWords},
		recordSection[dirLink]{"dirLinks", &e.dirLinks},
		recordSection[strRef]{"dirNameSet", &e.dirNameSet},
		recordSection[stemInfo]{"stems", &e.stems},
		recordSection[int32]{"stemFileIDs", &e.stemFileIDs},
		recordSection[uint32]{"stemStart", &e.stemStart},
		recordSection[uint64]{"stemMasks", &e.stemMasks},
		recordSection[uint16]{"stemLens", &e.stemLens},
		recordSection[int32]{"stemLenIDs", &e.stemLenIDs},
		recordSection[uint32]{"stemLenStart", &e.stemLenStart},
		recordSection[int32]{"stemOrder", &e.stemOrder},
		recordSection[uint32]{"triKeys", &e.triKeys},
		recordSection[uint32]{"triStart", &e.triStart},
		recordSection[int32]{"triStems", &e.triStems},
		recordSection[strRef]{"extRefs", &e.extRefs},
		recordSection[otherName]{"otherCase", &e.otherCase},
	}
}

// errStale: the segment was built from another saved index than ix.
var errStale = errors.New("engine segment built from another index")

// Mapped is the engine written to seg (Put) over ix, its arrays read
// where the segment lies: nothing is built or copied but a few small
// tables. ix must be the index loaded from the very saved files the
// engine was built from; every array is checked against the others
// (lengths, ids in range, names inside the text), so a segment that
// passed its checksum but does not hold an engine of ix is an error,
// never a wrong answer or a crash later.
func Mapped(seg *segment.Segment, ix *workspace.Index) (e *Engine, err error) {
	ids, err := segment.Get[uint64](seg, "index")
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 || !slices.Equal(ids, ix.SavedIDs()) {
		return nil, errStale
	}
	e = &Engine{ix: ix, seg: seg}
	var errs []error
	for _, sec := range e.sections() {
		errs = append(errs, sec.get(seg))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if err := workspace.GuardMapped(e.check); err != nil {
		return nil, fmt.Errorf("%w: %v", segment.ErrFormat, err)
	}
	e.exts = make([]string, len(e.extRefs))
	for x, r := range e.extRefs {
		e.exts[x] = e.str(r)
	}
	e.derive()
	// What an engine updated before it was written keeps of files gone
	// counts towards Updated's bound (patchShare) after a restart too:
	// at least its stems without a file.
	for sid := range e.stems {
		if e.stemStart[sid] == e.stemStart[sid+1] {
			e.patched++
		}
	}
	return e, nil
}

// Mapped reports whether the engine's arrays are read from a segment
// where they lie: all of them, or all but an overlay of the few files
// changed since (Updated, bounded by patchShare).
func (e *Engine) Mapped() bool { return e.seg != nil }

// Release drops the pages of the segment the engine is read from out of
// the process (segment.Segment.Release): a question brings back the ones
// it reads. Nothing for an engine built.
func (e *Engine) Release() {
	if e.seg != nil {
		e.seg.Release()
	}
}

// check is what Mapped asks of the arrays: that every index and offset
// a question follows stays inside what it indexes. A violation is an
// error naming the array.
func (e *Engine) check() error {
	nFiles, nDirs, nStems := len(e.files), len(e.dirInfos), len(e.stems)
	bad := func(what string) error { return fmt.Errorf("%w: %s", segment.ErrFormat, what) }
	inText := func(r strRef) bool { return uint64(r.off)+uint64(r.n) <= uint64(len(e.text)) }
	if nFiles != len(e.ix.Files()) || len(e.extRefs) == 0 || len(e.extRefs) > 1<<16 {
		return bad("files")
	}
	for _, r := range e.extRefs {
		if !inText(r) {
			return bad("extRefs")
		}
	}
	for id := range e.files {
		f := &e.files[id]
		if int(f.root) != e.ix.Files()[id].Root || int(f.base) > len(e.ix.Files()[id].Path) || int(f.ext) >= len(e.extRefs) ||
			f.stem < 0 || int(f.stem) >= nStems || f.dir < 0 || int(f.dir) >= nDirs {
			return bad("files")
		}
	}
	for _, d := range e.dirInfos {
		if !inText(d.name) || !inText(d.sq) || d.depth < 0 {
			return bad("dirInfos")
		}
	}
	if len(e.dirLinks) != nDirs+1 || e.dirLinks[nDirs].words != uint32(len(e.dirWords)) {
		return bad("dirLinks")
	}
	for d := range nDirs {
		l, next := e.dirLinks[d], e.dirLinks[d+1]
		// Parents come first, one component up; the top level (depth
		// 0) has none.
		if l.parent < -1 || int(l.parent) >= d || next.words < l.words ||
			(l.parent >= 0) != (e.dirInfos[d].depth > 0) ||
			(l.parent >= 0 && e.dirInfos[l.parent].depth != e.dirInfos[d].depth-1) {
			return bad("dirLinks")
		}
		for ws := e.wordsOf(int32(d)); ws != ""; {
			if len(ws) < 2 || 2+(int(ws[0])|int(ws[1])<<8) > len(ws) {
				return bad("dirWords")
			}
			_, ws = nextDirWord(ws)
		}
	}
	for _, r := range e.dirNameSet {
		if !inText(r) {
			return bad("dirNameSet")
		}
	}
	if !runsOf(e.dirStart, e.dirFileIDs, nDirs, e.files, func(f *fileInfo) int32 { return f.dir }) {
		return bad("dirFileIDs")
	}
	if !runsOf(e.stemStart, e.stemFileIDs, nStems, e.files, func(f *fileInfo) int32 { return f.stem }) {
		return bad("stemFileIDs")
	}
	if len(e.stemMasks) != nStems || len(e.stemLens) != nStems || len(e.stemOrder) != nStems {
		return bad("stems")
	}
	for _, st := range e.stems {
		if !inText(st.text) {
			return bad("stems")
		}
	}
	if len(e.stemLenStart) != maxTypoScanLen+1 || !ascending(e.stemLenStart, len(e.stemLenIDs)) || !idsBelow(e.stemLenIDs, nStems) {
		return bad("stemLenIDs")
	}
	if !idsBelow(e.stemOrder, nStems) {
		return bad("stemOrder")
	}
	if len(e.triStart) != len(e.triKeys)+1 || !ascending(e.triStart, len(e.triStems)) || !idsBelow(e.triStems, nStems) {
		return bad("triStems")
	}
	for _, o := range e.otherCase {
		if !inText(o.name) || o.id < 0 || int(o.id) >= nFiles {
			return bad("otherCase")
		}
	}
	return nil
}

// runsOf reports whether start and ids are what runs makes of files by
// key: every file once, in its own group, in path order.
func runsOf(start []uint32, ids []int32, groups int, files []fileInfo, key func(*fileInfo) int32) bool {
	if len(start) != groups+1 || len(ids) != len(files) || !ascending(start, len(ids)) || start[0] != 0 {
		return false
	}
	for k := range groups {
		run := ids[start[k]:start[k+1]]
		for i, id := range run {
			if id < 0 || int(id) >= len(files) || key(&files[id]) != int32(k) || (i > 0 && run[i-1] >= id) {
				return false
			}
		}
	}
	return true
}

// ascending reports whether start never decreases and ends at n.
func ascending(start []uint32, n int) bool {
	for i := 1; i < len(start); i++ {
		if start[i] < start[i-1] {
			return false
		}
	}
	return len(start) > 0 && int(start[len(start)-1]) == n && int(start[0]) <= n
}

// idsBelow reports whether every id is in [0, n).
func idsBelow(ids []int32, n int) bool {
	for _, id := range ids {
		if id < 0 || int(id) >= n {
			return false
		}
	}
	return true
}
