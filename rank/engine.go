// Package rank is wayfind's one ranking engine. Every front end (CLI, LSP,
// MCP) asks it four questions through the request layer — Engine.Resolve
// (a path to the file it meant: resolve.go, score.go, stale.go),
// Engine.Find (fuzzy file search: find.go, pathmatch.go), Engine.Locate
// ("where is X implemented": locate.go, question.go) and
// Engine.SearchSymbols (symbols.go) — and no other package scores. Each
// question's score classes are one table beside its header comment
// (classes.go); what a file is for (test, fixture, generated, vendored) is
// role.go's one rule.
//
// The engine works in two steps. Candidate generation uses cheap exact
// indexes built once per workspace snapshot (path, lower-case base name,
// squashed stem, path suffixes, and a trigram index over squashed stems for
// typos) so that only a few hundred files are ever scored. Scoring then
// compares the query with each survivor precisely; score.go documents it.
package rank

import (
	"cmp"
	"maps"
	"math/bits"
	"runtime"
	"slices"
	"strings"
	"sync"

	"wayfind/content"
	"wayfind/segment"
	"wayfind/workspace"
)

// Engine answers queries over one immutable workspace snapshot. It is safe
// for concurrent use; a new snapshot means a new Engine.
//
// What the engine knows of the snapshot is flat: arrays of fixed-size
// records without pointers, and one string of every name it keeps (text),
// which the records point into by offset (strRef). Nothing else holds a
// small object a file for the collector to mark, and the whole can be
// written to a file and read back where it lies (segment.go: a warm start
// maps it instead of building it).
type Engine struct {
	ix    *workspace.Index
	files []fileInfo // laid out: file id's record at files[id] (file)
	// paths are the files laid out (ix.Files() of a laid-out engine):
	// file id's path at paths[id] (filePath).
	paths []workspace.File
	// over is what the changes since the files were laid out added and
	// removed (Updated), nil for an engine laid out.
	over *fileOverlay

	// text holds every name the records below point into (strRef):
	// directory names and their squashed forms, stems, extensions, the
	// lower-cased names of otherCase.
	text string

	dirInfos []dirInfo // distinct directories, parents before children
	// dirFileIDs are the files directly inside each directory, directory
	// d's from dirStart[d] to dirStart[d+1], in path order (dirFiles):
	// one array, not a slice a directory — a small object a directory,
	// and 24 bytes each for their headers.
	dirFileIDs []int32
	dirStart   []uint32
	// dirWords are every directory's words (its last component's, lower
	// case) end to end, each a two-byte length then its bytes, directory
	// d's from dirLinks[d].words to dirLinks[d+1].words (wordsOf): the
	// scan of every directory a path query makes (dirReach) reads them in
	// order rather than chase each directory's slice — in a large tree,
	// the chase was most of a query.
	dirWords string
	dirLinks []dirLink // one a directory, and one past the last
	// dirNameSet is every directory's squashed name once, in text order:
	// resolve asks whether a written directory is the name of any
	// (isDirName).
	dirNameSet []strRef

	stems []stemInfo // distinct squashed stems
	// stemFileIDs are each stem's files, stem s's from stemStart[s] to
	// stemStart[s+1], in path order (stemFiles).
	stemFileIDs []int32
	stemStart   []uint32
	// stemMasks[sid] is stems[sid].mask, and stemLens its length, kept
	// dense: every query scans them all.
	stemMasks []uint64
	stemLens  []uint16
	// stemLenIDs are the stems shorter than maxTypoScanLen by length,
	// those of length n from stemLenStart[n] to stemLenStart[n+1]
	// (stemsOfLen): typos of short names are found among them.
	stemLenIDs   []int32
	stemLenStart []uint32
	// stemOrder are the stems' ids in the order of their text (stemIndex):
	// a sorted array, where a map of every stem kept after New would
	// cost the heap a table as large as the stems.
	stemOrder []int32
	// The trigrams of the squashed stems, in order (triKeys), each with
	// the stems holding it, trigram k's from triStart[k] to triStart[k+1]
	// (trigramStems): typoStems narrows its field by them.
	triKeys  []uint32
	triStart []uint32
	triStems []int32

	exts      []string          // distinct squashed extensions, "" first
	extID     map[string]uint16 // squashed extension → its index in exts
	extRefs   []strRef          // exts in text, what a segment keeps of them
	otherCase []otherName       // by name: files named() cannot find through their stem

	counters *sync.Pool     // *counters
	sym      *SymbolIndex   // nil until symbols are indexed
	lookup   SymbolLookup   // locate's symbols when there is no sym (the CLI)
	content  *content.Index // nil until file contents are indexed
	rr       Reranker       // nil without a model
	copies   CopyOrder      // nil: find orders a name's copies by the formula (copyorder.go)
	repo     *RepoHistory   // nil without a repository's record
	rro      RerankOptions
	// halfDir splits the directories in two halves of about equal files
	// (pathReadings reads each on its own core), 0 for a tree too small
	// to be worth it (pathSplitFiles).
	halfDir int
	// mergeSplit, when set, is the fewest named files find merges in
	// two halves (else alignSplit): tests split trees of a few files.
	mergeSplit int
	// exhaustive turns find's prunes, the directory reading's pair
	// test and resolve's shortlist off, and resolve's scoring on two
	// cores (prune_test.go proves they change nothing).
	exhaustive bool
	// seg is the segment the arrays are read from (Mapped), nil when
	// they were built (New); after Updated, the one its base's were,
	// which some of its arrays still are.
	seg *segment.Segment
	// patched counts the files added and removed by Updated since New
	// or a segment laid the arrays out (patchShare).
	patched int
}

// strRef is a string of Engine.text: where it starts and how long it is.
type strRef struct{ off, n uint32 }

// str is the string r points at.
func (e *Engine) str(r strRef) string {
	if end := r.off + r.n; int(end) <= len(e.text) {
		return e.text[r.off:end]
	}
	at := r.off - uint32(len(e.text)) // laid out after the text (fileOverlay.text)
	return e.over.text[at : at+r.n]
}

// otherName is a file whose lower-cased base name (name) its squashed
// stem cannot find (named): a name whose capitals squash keeps
// (non-ASCII), rare enough to be searched in a short sorted list.
type otherName struct {
	name strRef
	id   int32
	_    int32
}

// fileInfo is a file's record: 40 bytes, small fields first so that
// they share one word (its path is the index's, filePath; its name found
// from the end of that, baseName).
type fileInfo struct {
	root uint16
	ext  uint16 // index into Engine.exts
	// flags say what its name is besides: fileAux, fileExtSame,
	// fileNameSame.
	flags uint8
	// base is the length of its name, the last base bytes of its path
	// (baseName): scoring reads a file's name several times, and a
	// search for the last slash of a long path was a large share of a
	// question over a name many files share.
	base uint16
	stem int32 // index into Engine.stems
	dir  int32 // index into Engine.dirInfos
	// nameMask is charMask of the squashed stem and extension: a query
	// part can only be read in the name if the name has all its letters.
	nameMask uint64
	nameInit uint64 // charMask of the first letters of its name's words and extension
	starts   uint64 // this file's word starts in its squashed stem (stemInfo.starts is the first file's)
}

// fileInfo.flags.
const (
	// fileAux: a test, fixture or generated file (find.go's isAuxiliary).
	fileAux uint8 = 1 << iota
	// fileExtSame: its extension as written is exts[ext] (squashing
	// changed nothing), read there without reading its path
	// (writtenExt).
	fileExtSame
	// fileNameSame: its name as written is its stem's text, then its
	// extension's (exts[ext]) after a dot when that is not empty: the two
	// ids say the name, and nameOf keys its reading by them without
	// reading its path.
	fileNameSame
)

// dirInfo is a directory split once at index time: scoring compares
// components many times per query, and directories repeat across files.
// Every ancestor of a file's directory has one, so that a query read
// across the path (pathmatch.go) extends its parent's reading by one
// component instead of re-reading the whole path.
type dirInfo struct {
	// name is its own (last) component, sq its squashed form, depth its
	// number of components: the rest of its path is its parents' (pathOf,
	// up dirLinks), not a copy in every directory, which a large tree's
	// directories would pay again for each of their ancestors.
	name, sq strRef
	depth    int32
	// nameMax is the longest of its files' names (fileInfo.base), and
	// nameMask and nameInit are the union of theirs: a reading that needs
	// more from a name passes over the directory. A file gone may have
	// left them larger (Updated): a prune then only passes more by.
	nameMax            uint16
	nameMask, nameInit uint64
}

// dirLink is what dirReach, the scan of every directory a path query
// makes, reads of a directory, apart from the rest of it: 16 bytes beside
// the next directory's. Read from dirInfo, 40 bytes apart, the scan of
// every directory of a large tree waited on memory.
type dirLink struct {
	parent   int32  // the enclosing directory, -1 for a root's top level
	words    uint32 // where its words start in dirWords (the next directory's end them)
	initMask uint64 // charMask of the first letters of its words
	// pairMask is pairMask of each of its words: the two letters a
	// chunk read of it begins with (dirMinChunk), or the one of a word
	// of one letter.
	pairMask uint64
}

// stemInfo is a distinct squashed stem: the files sharing it are
// stemFiles.
type stemInfo struct {
	text     strRef // squashed stem
	mask     uint64 // charMask(text)
	starts   uint64 // bit i: a word of the stem starts at text[i] (i < 64)
	initMask uint64 // charMask of the first letters of its files' words
	// extMask is charMask of every extension the stem's files have.
	extMask uint64
}

// stemName is a stem as matching reads it: its text and where its words
// start.
type stemName struct {
	text   string
	starts uint64
}

// stemName is stem sid's text and word starts.
func (e *Engine) stemName(sid int32) stemName {
	st := e.stemRec(sid)
	return stemName{e.str(st.text), st.starts}
}

// stemText is stem sid's squashed text.
func (e *Engine) stemText(sid int32) string { return e.str(e.stems[sid].text) }

// stemsOfLen are the stems of n bytes (n < maxTypoScanLen).
func (e *Engine) stemsOfLen(n int) []int32 {
	if n+1 >= len(e.stemLenStart) {
		return nil
	}
	return e.stemLenIDs[e.stemLenStart[n]:e.stemLenStart[n+1]]
}

// trigramStems are the stems holding trigram g: those of the laid-out
// trigram index, and those added since (fileOverlay.trigrams).
func (e *Engine) trigramStems(g uint32) (laid, added []int32) {
	if o := e.over; o != nil {
		added = o.trigrams[g]
	}
	k, ok := slices.BinarySearch(e.triKeys, g)
	if !ok {
		return nil, added
	}
	return e.triStems[e.triStart[k]:e.triStart[k+1]], added
}

// dirName and dirSq are directory d's own name and its squashed form.
func (e *Engine) dirName(d int32) string { return e.str(e.dirInfos[d].name) }
func (e *Engine) dirSq(d int32) string   { return e.str(e.dirInfos[d].sq) }

// isDirName reports whether sq is the squashed name of some directory.
func (e *Engine) isDirName(sq string) bool {
	_, ok := slices.BinarySearchFunc(e.dirNameSet, sq, func(r strRef, sq string) int { return strings.Compare(e.str(r), sq) })
	return ok
}

// New indexes a workspace snapshot for ranking.
func New(ix *workspace.Index) *Engine {
	b := newBuilder(ix, nil)
	last := lastDir{id: -1}
	eachNamed(ix.Files(), func(id int32, f workspace.File, n *nameParts) {
		b.add(id, f, n, &last)
	})
	return b.finish()
}

// builder is what New keeps while it files names: the maps that find a
// stem, directory or name already seen, and the text being laid out.
// Updated's builder starts from an engine's arrays (base), whose stems
// and directories it finds there rather than in its maps.
type builder struct {
	e        *Engine
	base     *Engine // nil for New
	stemID   map[string]int32
	dirID    map[string]int32
	names    map[string]strRef // a name laid out in text once
	sqs      map[string]strRef // the squashed directory names seen
	dirSqs   []strRef          // every distinct squashed directory name, in order seen
	trigrams map[uint32][]int32
	text     []byte
	dirWords []byte
	other    map[string][]int32
	// textBase and wordsBase are the lengths of the base's text and
	// dirWords, which text and dirWords extend.
	textBase, wordsBase int
	// ownDirs and ownStems: the engine's dirInfos and stems are its own,
	// not the base's (dir, stem).
	ownDirs, ownStems bool
	// moved: how Updated's files line up with the base's, whose groups
	// by directory and stem finish renumbers (movedRuns).
	moved movedFiles
	// ownDirRecs and ownStemRecs are the overlay's records this builder
	// copied (dir, stem): the others are its base's, not to be written.
	ownDirRecs, ownStemRecs map[int32]bool
}

// stem is stem sid to change: its record in the overlay when there is
// one (stemRec), else in the engine's own stems.
func (b *builder) stem(sid int32) *stemInfo {
	if o := b.e.over; o != nil {
		return ownRecord(&b.ownStemRecs, o.stemRecs, &o.stemRecSet, sid, b.e.stemRec)
	}
	if !b.ownStems {
		b.e.stems, b.ownStems = slices.Clone(b.e.stems), true
	}
	return &b.e.stems[sid]
}

// dir is directory did to change: its record in the overlay when there
// is one (dirRec), else in the engine's own dirInfos.
func (b *builder) dir(did int32) *dirInfo {
	if o := b.e.over; o != nil {
		return ownRecord(&b.ownDirRecs, o.dirRecs, &o.dirRecSet, did, b.e.dirRec)
	}
	if !b.ownDirs {
		b.e.dirInfos, b.ownDirs = slices.Clone(b.e.dirInfos), true
	}
	return &b.e.dirInfos[did]
}

// newBuilder starts the engine of ix: empty, or (Updated) base's arrays
// with ix's files still to be placed. The base's arrays are shared
// until something is added to or changed in them, then copied (stem,
// dir): the base answers questions meanwhile, and a copy of every array
// for every change would cost a large tree its heap again each time.
func newBuilder(ix *workspace.Index, base *Engine) *builder {
	b := &builder{
		base:     base,
		names:    make(map[string]strRef),
		sqs:      make(map[string]strRef),
		trigrams: make(map[uint32][]int32),
	}
	if base != nil {
		c := *base
		c.ix, c.otherCase = ix, nil
		// Clipped, an append copies them.
		c.dirInfos, c.stems = slices.Clip(base.dirInfos), slices.Clip(base.stems)
		c.dirLinks = base.dirLinks[: len(base.dirLinks)-1 : len(base.dirLinks)-1] // finish ends them again
		c.exts, c.extRefs, c.extID = slices.Clone(base.exts), slices.Clone(base.extRefs), maps.Clone(base.extID)
		b.e, b.base = &c, base
		b.stemID, b.dirID = map[string]int32{}, map[string]int32{}
		b.textBase, b.wordsBase = len(base.text), len(base.dirWords)
		return b
	}
	b.ownDirs, b.ownStems = true, true
	b.e = &Engine{
		ix:    ix,
		files: make([]fileInfo, len(ix.Files())),
		// Every directory holding a file, and every ancestor of one, is
		// a directory the walk went through (Dirs) or the top level:
		// sized once, the arrays are not copied as they grow (in a
		// large tree, copying them on fresh memory was a large part
		// of New).
		dirInfos: make([]dirInfo, 0, len(ix.Dirs)+1),
		dirLinks: make([]dirLink, 0, len(ix.Dirs)+2),
		// Extensions, squashed, each once ("" first): the last word a
		// path reading may use.
		exts:    []string{""},
		extID:   map[string]uint16{"": 0},
		extRefs: []strRef{{}},
	}
	b.stemID = make(map[string]int32, len(ix.Files())/4)
	b.dirID = make(map[string]int32, len(ix.Dirs)+1)
	return b
}

// intern lays s out in the engine's text, once.
func (b *builder) intern(s string) strRef {
	if r, ok := b.names[s]; ok {
		return r
	}
	r := b.put(s)
	b.names[s] = r
	return r
}

// put lays s out in the engine's text.
func (b *builder) put(s string) strRef {
	r := strRef{uint32(b.textBase + len(b.text)), uint32(len(s))}
	b.text = append(b.text, s...)
	return r
}

// finish turns what the builder gathered into the engine's flat arrays,
// merged, after Updated, with what its base had.
func (b *builder) finish() *Engine {
	e := b.e
	if b.base != nil && len(e.dirInfos) == len(b.base.dirInfos) {
		e.dirLinks = b.base.dirLinks // no directory added: ended as they were
	} else {
		e.dirLinks = append(e.dirLinks, dirLink{parent: -1, words: uint32(b.wordsBase + len(b.dirWords))})
	}
	e.dirWords = extended(e.dirWords, b.dirWords)
	for lb, ids := range b.other {
		r := b.put(lb)
		for _, id := range ids {
			e.otherCase = append(e.otherCase, otherName{name: r, id: id})
		}
	}
	if o := e.over; o != nil {
		o.text = extended(o.text, b.text)
	} else {
		e.text = extended(e.text, b.text)
	}
	slices.SortFunc(e.otherCase, func(a, c otherName) int {
		return cmp.Or(strings.Compare(e.str(a.name), e.str(c.name)), cmp.Compare(a.id, c.id))
	})
	byText := func(a, c strRef) int { return strings.Compare(e.str(a), e.str(c)) }
	slices.SortFunc(b.dirSqs, byText)
	e.dirNameSet = mergeSorted(e.dirNameSet, b.dirSqs, byText)
	fresh := make([]int32, len(e.stems)-len(e.stemOrder)) // the stems new to the base (every one for New)
	for k := range fresh {
		fresh[k] = int32(len(e.stemOrder) + k)
	}
	byStem := func(a, c int32) int { return strings.Compare(e.stemText(a), e.stemText(c)) }
	slices.SortFunc(fresh, byStem)
	e.stemOrder = mergeSorted(e.stemOrder, fresh, byStem)
	b.trigramIndex()
	if b.base == nil || len(e.stems) != len(b.base.stems) {
		e.denseStems() // else the base's, as the stems' texts are
	}
	ofDir := func(f *fileInfo) int32 { return f.dir }
	ofStem := func(f *fileInfo) int32 { return f.stem }
	switch m := b.moved; {
	case e.over != nil:
		// The lists the change touched lie in the overlay, made by
		// overlaid; the rest are the base's.
	case m.from != nil:
		to := m.renumbered(len(b.base.files))
		e.dirStart, e.dirFileIDs = movedRuns(len(e.dirInfos), b.base.dirStart, b.base.dirFileIDs, to, m.fresh, e.files, ofDir)
		e.stemStart, e.stemFileIDs = movedRuns(len(e.stems), b.base.stemStart, b.base.stemFileIDs, to, m.fresh, e.files, ofStem)
	default:
		e.dirStart, e.dirFileIDs = runs(len(e.dirInfos), e.files, ofDir)
		e.stemStart, e.stemFileIDs = runs(len(e.stems), e.files, ofStem)
	}
	e.derive()
	return e
}

// extended is s with more after it (New's text is empty before).
func extended(s string, more []byte) string {
	if len(more) == 0 {
		return s
	}
	var t strings.Builder
	t.Grow(len(s) + len(more))
	t.WriteString(s)
	t.Write(more)
	return t.String()
}

// trigramIndex lays out the trigrams of the stems new to the base (every
// stem, for New) beside the base's: each trigram's stems in the order of
// their ids, the base's first.
func (b *builder) trigramIndex() {
	e := b.e
	if len(b.trigrams) == 0 && b.base != nil {
		return // no new stem: the base's as they are
	}
	if o := e.over; o != nil {
		// The new stems' trigrams in the overlay, the laid-out index
		// as it is.
		o.trigrams = maps.Clone(o.trigrams)
		if o.trigrams == nil {
			o.trigrams = map[uint32][]int32{}
		}
		for g, sids := range b.trigrams {
			o.trigrams[g] = append(slices.Clip(o.trigrams[g]), sids...)
		}
		return
	}
	keys := slices.Sorted(maps.Keys(b.trigrams))
	added := 0
	for _, g := range keys {
		added += len(b.trigrams[g])
	}
	oldKeys, oldStart, oldStems := e.triKeys, e.triStart, e.triStems
	e.triKeys = make([]uint32, 0, len(oldKeys)+len(keys))
	e.triStart = make([]uint32, 1, len(oldKeys)+len(keys)+1)
	e.triStems = make([]int32, 0, len(oldStems)+added)
	for i, k := 0, 0; i < len(oldKeys) || k < len(keys); {
		var g uint32
		if i < len(oldKeys) && (k == len(keys) || oldKeys[i] <= keys[k]) {
			g = oldKeys[i]
			e.triStems = append(e.triStems, oldStems[oldStart[i]:oldStart[i+1]]...)
			i++
		} else {
			g = keys[k]
		}
		if k < len(keys) && keys[k] == g {
			e.triStems = append(e.triStems, b.trigrams[g]...)
			k++
		}
		e.triKeys = append(e.triKeys, g)
		e.triStart = append(e.triStart, uint32(len(e.triStems)))
	}
}

// mergeSorted merges two lists sorted by cmp; a itself when b is empty,
// b when a is.
func mergeSorted[T any](a, b []T, cmp func(T, T) int) []T {
	if len(b) == 0 {
		return a
	}
	if len(a) == 0 {
		return b
	}
	out := make([]T, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if cmp(b[0], a[0]) < 0 {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	return append(append(out, a...), b...)
}

// derive computes the small tables that follow from the flat arrays,
// after New or a segment's reading (Mapped): where the halves of the
// directories meet, each extension's index, the scratch pool.
func (e *Engine) derive() {
	if e.over == nil {
		e.paths = e.ix.Files()
	}
	e.counters = &sync.Pool{New: func() any { return &counters{} }}
	if e.extID == nil {
		e.extID = make(map[string]uint16, len(e.exts))
		for x, ext := range e.exts {
			e.extID[ext] = uint16(x)
		}
	}
	e.halfDir = 0
	if e.Len() >= pathSplitFiles {
		for n := 0; n < e.Len()/2; e.halfDir++ {
			n += len(e.dirFiles(e.halfDir))
		}
	}
}

// runs groups files by key (a directory, a stem): group k's ids, in path
// order, are ids[start[k]:start[k+1]] — counted first so that each run is
// placed at once.
func runs(groups int, files []fileInfo, key func(*fileInfo) int32) (start []uint32, ids []int32) {
	start = make([]uint32, groups+1)
	for i := range files {
		start[key(&files[i])+1]++
	}
	for k := range groups {
		start[k+1] += start[k]
	}
	ids = make([]int32, len(files))
	next := slices.Clone(start[:groups])
	for id := range files {
		k := key(&files[id])
		ids[next[k]] = int32(id)
		next[k]++
	}
	return start, ids
}

// dirFiles are the files directly inside directory d, in path order.

// nameParts is what a file's name alone gives: computed for blocks of
// files on other cores (eachNamed) while New files them one at a time
// under their stem, extension and directory, whose maps they share.
type nameParts struct {
	stem, ext, sq, sqExt string
	starts               uint64 // word starts in the squashed stem
	nameInit             uint64 // charMask of the first letters of the stem's words
	aux                  bool
	lower                string // the lower-cased base name when its squashed stem cannot find it (named)
}

func namePartsOf(f workspace.File) nameParts {
	base := f.Path[strings.LastIndexByte(f.Path, '/')+1:]
	var n nameParts
	n.stem, n.ext, n.sq = stemKey(base)
	n.starts = wordStarts(n.stem)
	for i := 0; i < len(n.sq) && i < 64; i++ {
		if startsWord(n.starts, i) {
			n.nameInit |= charMask(n.sq[i : i+1])
		}
	}
	n.sqExt = squash(n.ext)
	n.aux = isAuxiliary(f.Path)
	if !isASCII(base) {
		if lb := strings.ToLower(base); keyOf(lb) != n.sq {
			n.lower = lb
		}
	}
	return n
}

// namedBlock is how many files a core names at a time: enough that handing
// a block over costs nothing beside naming it, few enough that the blocks
// in flight (about three a worker) stay small beside the engine: larger
// blocks raised a server's heap at ready (docs/BENCHMARKS.md).
const namedBlock = 1 << 12

// eachNamed calls add for every file in order, with its nameParts computed
// ahead on the other cores: in a large tree the naming is a large part
// of New.
func eachNamed(files []workspace.File, add func(id int32, f workspace.File, n *nameParts)) {
	type block struct {
		from  int
		parts []nameParts
		done  chan struct{}
	}
	workers := max(runtime.GOMAXPROCS(0)-1, 1)
	todo := make(chan *block, workers)
	inOrder := make(chan *block, workers) // bounds the blocks in flight
	// Blocks added are named again: a new block each time is fresh
	// memory, slow to touch the first time (ARCHITECTURE, "what a
	// megabyte costs").
	free := make(chan []nameParts, 2*workers+1)
	go func() {
		for from := 0; from < len(files); from += namedBlock {
			var parts []nameParts
			select {
			case parts = <-free:
			default:
				parts = make([]nameParts, namedBlock)
			}
			b := &block{from: from, parts: parts[:min(namedBlock, len(files)-from)], done: make(chan struct{})}
			inOrder <- b
			todo <- b
		}
		close(inOrder)
		close(todo)
	}()
	for range workers {
		go func() {
			for b := range todo {
				for k := range b.parts {
					b.parts[k] = namePartsOf(files[b.from+k])
				}
				close(b.done)
			}
		}()
	}
	for b := range inOrder {
		<-b.done
		for k := range b.parts {
			add(int32(b.from+k), files[b.from+k], &b.parts[k])
		}
		select {
		case free <- b.parts[:cap(b.parts)]:
		default:
		}
	}
}

// add indexes file id: its stem (shared by every file of that squashed
// name), its extension, its directory and its own word starts.
func (b *builder) add(id int32, f workspace.File, n *nameParts, last *lastDir) {
	e := b.e
	slash := strings.LastIndexByte(f.Path, '/') + 1
	sid := b.stemOf(n.sq, n.stem)
	// Files sharing a squashed stem may cut it differently (code_lens,
	// codelens): each keeps its own word starts.
	nameInit := n.nameInit
	xid := b.extOf(n.sqExt)
	extMask := charMask(n.sqExt)
	if st := e.stemRec(sid); st.initMask|nameInit != st.initMask || st.extMask|extMask != st.extMask {
		st = b.stem(sid)
		st.initMask |= nameInit
		st.extMask |= extMask
	}
	if n.sqExt != "" {
		nameInit |= charMask(n.sqExt[:1])
	}
	nameMask := e.stems[sid].mask | extMask
	did := last.of(b, f.Path[:max(slash-1, 0)])
	base := uint16(len(f.Path) - slash)
	if di := e.dirRec(did); di.nameMask|nameMask != di.nameMask || di.nameInit|nameInit != di.nameInit || base > di.nameMax {
		di = b.dir(did)
		di.nameMask |= nameMask
		di.nameInit |= nameInit
		di.nameMax = max(di.nameMax, base)
	}
	var flags uint8
	if n.aux {
		flags |= fileAux
	}
	if n.ext == e.exts[xid] {
		flags |= fileExtSame
	}
	if isNamedBy(f.Path[slash:], n.sq, e.exts[xid]) {
		flags |= fileNameSame
	}
	*e.file(id) = fileInfo{root: uint16(f.Root), stem: sid, dir: did, base: base, flags: flags,
		nameMask: nameMask, ext: xid, starts: n.starts, nameInit: nameInit}
	if n.lower != "" {
		if b.other == nil {
			b.other = map[string][]int32{}
		}
		b.other[n.lower] = append(b.other[n.lower], id)
	}
}

// stemKey splits a base name into stem and extension and gives the
// squashed stem files are grouped by (the whole name's when the stem has
// no letters or digits: ".gitignore").
func stemKey(base string) (stem, ext, sq string) {
	stem, ext = splitExt(base)
	if sq = squash(stem); sq == "" {
		sq = squash(base)
	}
	return stem, ext, sq
}

func keyOf(base string) string {
	_, _, sq := stemKey(base)
	return sq
}

// named lists the files whose base name, lower-cased, is lb. Such files
// share lb's squashed stem (squash lower-cases ASCII), so they are found
// among that stem's files, with otherCase for the rest: a map of every
// base name would cost the heap an entry for each.
func (e *Engine) named(lb string) []int32 {
	var out []int32
	if sid, ok := e.stemIndex(keyOf(lb)); ok {
		for _, id := range e.stemFiles(sid) {
			if b := e.baseName(id); b == lb || strings.ToLower(b) == lb {
				out = append(out, id)
			}
		}
	}
	k, _ := slices.BinarySearchFunc(e.otherCase, lb, func(o otherName, lb string) int { return strings.Compare(e.str(o.name), lb) })
	for ; k < len(e.otherCase) && e.str(e.otherCase[k].name) == lb; k++ {
		out = append(out, e.otherCase[k].id)
	}
	return out
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// stemIndex finds a squashed stem's index.
func (e *Engine) stemIndex(sq string) (int32, bool) {
	i, ok := slices.BinarySearchFunc(e.stemOrder, sq, func(sid int32, sq string) int { return strings.Compare(e.stemText(sid), sq) })
	if !ok {
		return -1, false
	}
	return e.stemOrder[i], true
}

// stemOf returns the squashed stem's index, creating it (and its
// trigrams) when new.
func (b *builder) stemOf(sq, stem string) int32 {
	if sid, ok := b.stemID[sq]; ok {
		return sid
	}
	if b.base != nil {
		if sid, ok := b.base.stemIndex(sq); ok {
			b.stemID[sq] = sid
			return sid
		}
	}
	e := b.e
	sid := int32(len(e.stems))
	b.stemID[sq] = sid
	e.stems = append(e.stems, stemInfo{text: b.put(sq), mask: charMask(sq), starts: wordStarts(stem)})
	b.ownStems = true // appended to the base's clipped array: a copy
	for _, g := range trigramsOf(sq) {
		b.trigrams[g] = append(b.trigrams[g], sid)
	}
	return sid
}

// extOf returns the squashed extension's index; a workspace with more
// than 65k distinct extensions shares the last slot among the rest.
func (b *builder) extOf(sqExt string) uint16 {
	e := b.e
	if xid, ok := e.extID[sqExt]; ok {
		return xid
	}
	xid := uint16(min(len(e.exts), 1<<16-1))
	if int(xid) == len(e.exts) {
		e.extID[sqExt] = xid
		e.exts = append(e.exts, sqExt)
		e.extRefs = append(e.extRefs, b.put(sqExt))
	}
	return xid
}

// denseStems lays out what every query scans, stem by stem: masks,
// lengths, and the short stems by length for typos.
func (e *Engine) denseStems() {
	e.stemMasks = make([]uint64, len(e.stems))
	e.stemLens = make([]uint16, len(e.stems))
	e.stemLenStart = make([]uint32, maxTypoScanLen+1)
	for sid := range e.stems {
		e.stemMasks[sid] = e.stems[sid].mask
		n := int(e.stems[sid].text.n)
		e.stemLens[sid] = uint16(min(n, 1<<16-1))
		if n < maxTypoScanLen {
			e.stemLenStart[n+1]++
		}
	}
	for n := range maxTypoScanLen {
		e.stemLenStart[n+1] += e.stemLenStart[n]
	}
	e.stemLenIDs = make([]int32, e.stemLenStart[maxTypoScanLen])
	next := slices.Clone(e.stemLenStart[:maxTypoScanLen])
	for sid := range e.stems {
		if n := e.stems[sid].text.n; n < maxTypoScanLen {
			e.stemLenIDs[next[n]] = int32(sid)
			next[n]++
		}
	}
}

// lastDir is the directory of the file added last: files come in path
// order, so most share it and skip the map (a tree has fewer
// directories than files).
type lastDir struct {
	path string
	id   int32
}

func (l *lastDir) of(b *builder, dirPath string) int32 {
	if l.id < 0 || dirPath != l.path {
		l.path, l.id = dirPath, b.dirOf(dirPath)
	}
	return l.id
}

// dirOf returns the directory's index, creating it and its ancestors
// (parents before children, which pathmatch.go relies on) when new.
func (b *builder) dirOf(dirPath string) int32 {
	if did, ok := b.dirID[dirPath]; ok {
		return did
	}
	if b.base != nil {
		if did, ok := b.base.dirAt(dirPath); ok {
			b.dirID[dirPath] = did
			return did
		}
	}
	e := b.e
	parent := int32(-1)
	if dirPath != "" {
		parent = b.dirOf(dirPath[:max(strings.LastIndexByte(dirPath, '/'), 0)])
	}
	var di dirInfo
	link := dirLink{parent: parent, words: uint32(b.wordsBase + len(b.dirWords))}
	var last []string
	if dirPath != "" {
		name := dirPath[strings.LastIndexByte(dirPath, '/')+1:]
		di.name = b.intern(name)
		sq := squash(name)
		r, seen := b.sqs[sq]
		if !seen {
			r = b.intern(sq)
			b.sqs[sq] = r
			if b.base == nil || !b.base.isDirName(sq) {
				b.dirSqs = append(b.dirSqs, r)
			}
		}
		di.sq = r
		di.depth = e.dirInfos[parent].depth + 1
		last = words(name)
		for _, w := range last {
			link.initMask |= charMask(w[:1])
			link.pairMask |= pairBit(w[0], pairSecond(w))
		}
	}
	did := int32(len(e.dirInfos))
	b.dirID[dirPath] = did
	e.dirInfos = append(e.dirInfos, di)
	b.ownDirs = true
	e.dirLinks = append(e.dirLinks, link)
	for _, w := range last {
		w = w[:min(len(w), 1<<16-1)] // no file system names a directory longer
		b.dirWords = append(b.dirWords, byte(len(w)), byte(len(w)>>8))
		b.dirWords = append(b.dirWords, w...)
	}
	return did
}

// dirPath is a directory's components and their squashed forms,
// outermost first: what a resolve query's directories are aligned with.
type dirPath struct{ comps, sq []string }

// pathBuf holds a dirPath of this many directories without allocating;
// deeper ones get their own array.
type pathBuf [2 * 24]string

// pathOf gathers directory d's path up its parents into buf, or a new
// array when buf is too short for both halves. Scoring asks it of every
// candidate: with a buffer on the caller's stack (pathBuf) a question
// allocates none (it was a large share of what a question allocated in
// a large tree, and so of the collections while questions run).
func (e *Engine) pathOf(d int32, buf []string) dirPath {
	n := int(e.dirInfos[d].depth)
	both := buf[:0]
	if cap(buf) < 2*n {
		both = make([]string, 2*n)
	}
	both = both[:2*n]
	p := dirPath{comps: both[:n:n], sq: both[n:]}
	for i := n - 1; i >= 0; i-- {
		p.comps[i], p.sq[i] = e.dirName(d), e.dirSq(d)
		d = e.dirLinks[d].parent
	}
	return p
}

// wordsOf is directory d's words in dirWords, for nextDirWord.
func (e *Engine) wordsOf(d int32) string {
	return e.dirWords[e.dirLinks[d].words:e.dirLinks[d+1].words]
}

// nextDirWord splits the first word off a directory's words (wordsOf).
func nextDirWord(ws string) (w, rest string) {
	n := int(ws[0]) | int(ws[1])<<8
	return ws[2 : 2+n], ws[2+n:]
}

// Index returns the snapshot the engine ranks.
func (e *Engine) Index() *workspace.Index { return e.ix }

// Named lists the root-relative paths of the files whose name is base
// (case aside), in index order.
func (e *Engine) Named(base string) []string {
	ids := e.named(strings.ToLower(base))
	slices.SortFunc(ids, e.inPathOrder)
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = e.filePath(id)
	}
	return out
}

// baseName is file id's name, found from the end of its path when asked
// (a few bytes back to the last '/'; asked only of candidates being
// scored) rather than kept as an offset in every fileInfo.
func (e *Engine) baseName(id int32) string {
	p := e.filePath(id)
	return p[len(p)-int(e.file(id).base):]
}

// writtenExt is file id's extension as written (splitExt of its name):
// from the engine's extensions when squashing changed nothing, else from
// its name. Scoring a name many files share reads each one's extension,
// and reading it from the path was a cache miss a file.
func (e *Engine) writtenExt(id int32) string {
	if f := e.file(id); f.flags&fileExtSame != 0 {
		return e.exts[f.ext]
	}
	_, ext := splitExt(e.baseName(id))
	return ext
}

// isNamedBy reports whether base is stem, then ext after a dot when ext
// is not empty (fileNameSame).
func isNamedBy(base, stem, ext string) bool {
	if ext == "" {
		return base == stem
	}
	return len(base) == len(stem)+1+len(ext) && base[:len(stem)] == stem && base[len(stem)] == '.' && base[len(stem)+1:] == ext
}

// trigramsOf lists the distinct trigrams of s, each packed in a uint32.
func trigramsOf(s string) []uint32 {
	if len(s) < 3 {
		return nil
	}
	out := make([]uint32, 0, len(s)-2)
	for i := 0; i+3 <= len(s); i++ {
		g := uint32(s[i])<<16 | uint32(s[i+1])<<8 | uint32(s[i+2])
		dup := false
		for _, h := range out {
			if h == g {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, g)
		}
	}
	return out
}

// typoStems returns the stems within edit distance maxDist of sq (sq itself
// excluded), with their distances. Trigrams narrow the field: one edit
// destroys at most four of a string's distinct trigrams, so a stem within k
// edits shares all but 4k of them. Names too short for that bound are
// compared one by one, which is cheap because few names are that short.
func (e *Engine) typoStems(sq string, maxDist int) map[int32]int {
	out := map[int32]int{}
	grams := trigramsOf(sq)
	// Distinct trigrams: an insertion, deletion or substitution removes at
	// most three trigram occurrences and a transposition four, so at most 4k
	// distinct query trigrams can be missing from a match.
	need := len(grams) - 4*maxDist
	qmask := charMask(sq)
	// d edits leave at most d letters of either string missing from the
	// other: a cheap test before the distance.
	far := func(sid int32) bool {
		m := e.stemMasks[sid]
		return abs(int(e.stemLens[sid])-len(sq)) > maxDist ||
			bits.OnesCount64(qmask&^m) > maxDist || bits.OnesCount64(m&^qmask) > maxDist
	}
	if need < 1 {
		// Too few trigrams to narrow: every stem of a length within reach.
		for n := max(len(sq)-maxDist, 0); n <= len(sq)+maxDist && n < maxTypoScanLen; n++ {
			for _, sid := range e.stemsOfLen(n) {
				if far(sid) {
					continue
				}
				if st := e.stemText(sid); st != sq {
					if d := osa(sq, st, maxDist); d <= maxDist {
						out[sid] = d
					}
				}
			}
		}
		return out
	}
	cs := e.counters.Get().(*counters)
	defer e.counters.Put(cs)
	if len(cs.n) < len(e.stems) {
		cs.n = make([]uint16, len(e.stems))
	}
	touched := cs.touched[:0]
	for _, g := range grams {
		laid, added := e.trigramStems(g)
		for _, sids := range [2][]int32{laid, added} {
			for _, sid := range sids {
				if cs.n[sid] == 0 {
					touched = append(touched, sid)
				}
				cs.n[sid]++
			}
		}
	}
	for _, sid := range touched {
		n := int(cs.n[sid])
		cs.n[sid] = 0
		if n < need || far(sid) {
			continue
		}
		st := e.stemText(sid)
		if st == sq {
			continue
		}
		if d := osa(sq, st, maxDist); d <= maxDist {
			out[sid] = d
		}
	}
	cs.touched = touched
	return out
}

// maxTypoScanLen bounds the names typoStems compares one by one: a longer
// query has trigrams enough to narrow the field (need ≥ 1 from 4k+3
// distinct trigrams, at most 3 edits), and a name can only be within
// reach of a query of about its length.
const maxTypoScanLen = 64

// counters is per-query scratch for trigram counting, pooled because a
// query touches thousands of stems and a map would dominate its cost.
type counters struct {
	n       []uint16
	touched []int32
}

// wordStarts marks where words begin in the squashed form of name.
func wordStarts(name string) uint64 {
	var m uint64
	at := 0 // in the squashed name, where its words lie end to end
	eachWord(name, func(start, end int) {
		if at < 64 {
			m |= 1 << at
		}
		at += end - start
	})
	return m
}

// startsWord reports whether byte i of a squashed name begins one of its
// words, given the name's wordStarts: the first byte always does, and past
// byte 63 the mask knows none (the rest of a long name is one word).
func startsWord(starts uint64, i int) bool { return i == 0 || i < 64 && starts&(1<<i) != 0 }

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
