package rank

import (
	"cmp"
	"context"
	"math/bits"
	"slices"
	"strings"
	"sync"
)

// Reading a query across the whole path.
//
// People abbreviate a path, not a file name: a few letters of a directory
// and then of the name ("buicatfil" for builtin/cat-file.c), whole words
// run together ("nethttpserver" for net/http/server.go), words in any
// order ("js color" for color.js). A path reading cuts each query token
// (the query split at white space; '/' is just another place a chunk may
// end) into chunks, each the start of a word of the path — the
// directories' words outermost first, then the name's, then the
// extension's — using words left to right and skipping any.
//
//   - In a directory a chunk has at least dirMinChunk letters, unless it is
//     the whole word: one letter of a directory is no evidence (every file
//     of test262 is under test/, so "t" would fit them all).
//   - In the name one letter is enough (initials: "fA" for fileA.txt).
//   - A chunk stops where the query and its word still agree only if at
//     least dirMinChunk bytes are left: "prprou" may be pr|pr|ou for
//     prometheus/PrometheusOutput…, but the last "n" of "encodingjson"
//     belongs to json/, not to number_test.go.
//   - Tokens are read independently, so their order does not matter.
//
// Candidate generation is bit-parallel. For a token of n ≤ maxPathToken
// bytes, a set of positions is a uint64 (bit p: the first p bytes are
// read). A directory's set extends its parent's by the words of its last
// component, so the whole tree costs one step per distinct directory. A
// file's name gives the backward set of positions from which its words
// can finish the token; the file fits when the two sets meet. Before that,
// one AND rejects a file whose name lacks a letter of what remains after
// the longest directory reading. Only files that fit are scored, by a DP
// over their words (pathDP) that picks the best cut.
//
// The score is class + width × quality:
//
//	pathNameBase  0.56 + 0.24q  every chunk in the name (tokens in any
//	                            order, the extension as a word: "colorjs",
//	                            "js color")
//	pathSpanBase  0.50 + 0.24q  chunks in directories, the last one in the
//	                            name
//	pathDirBase   0.48 + 0.10q  every chunk in directories: the files in
//	                            the first directory that completes the
//	                            reading, then those below it; entry files
//	                            (index, main, mod, lib, __init__, or named
//	                            like the directory) pathEntryBonus higher
//
// The classes top out at pathCeiling, the floor of find.go's prefix class,
// so a name the query begins always wins; a path reading that explains a
// whole name can pass a word-start substring in a long one (find.go's
// rules; "colorjs": app/color.js before with-colorjs-support-for-….ts).
// Of two readings of equal quality the
// one in the name wins; but a perfect directory reading ("staging" for
// test/staging/) beats a poor one that reaches into a name
// (sta·g·in·g over statements/with/get-…-in-get…). quality ∈ [0, 1]
// weighs:
//
//	0.30 whole     bytes in chunks that are whole words: a squashed word is
//	               surer than an abbreviation of it
//	0.25 runs      the evidence per byte, n − cutCost×(extra chunks): fewer,
//	               longer chunks
//	0.20 cover     the share of the name the query explains: color.js over
//	               pick-avatar-color.js for "colorjs"
//	0.15 adjacent  the share of steps between chunks that skip no word (the
//	               step from the deepest directory read to the name counts):
//	               os/exec.go over os/exec/exec.go for "osexec"; a
//	               directory named "springsecurity" over spring-boot-…/…/
//	               SecurityConfiguration for "springsecurity"
//	0.10 starts    the share of chunks that begin a component: ui/Input/
//	               over ui/IDInput/ for "ui/input"

// A typo reading (the fallback for a query no exact reading fits, such as
// "nethtpserver") allows one edit in one chunk; the chunk and its word
// must share their first typoLead bytes and the word part be typoMinWord
// long, so that the edit sits inside a word the user clearly began.
const (
	typoLead    = 2
	typoMinWord = 3
	typoFlag    = 0x80 // marks a typo chunk in pathDP's choice table
)

// pathToken is one white-space-separated part of the query, squashed.
type pathToken struct {
	text string
	// eq[c] has bit i set where text[i] == c.
	eq [256]uint64
	// need[p] is charMask(text[p:]): what a name must contain to finish
	// the token from position p.
	need    []uint64
	full    uint64 // bit len(text): the token read completely
	letters uint64 // charMask(text)
	// first[p] is charMask(text[p:p+1]): a chunk starting at p needs a
	// word starting with it; pairs[p] the pairBits of a directory word
	// that reads from p: text[p] alone, or text[p:p+2].
	first []uint64
	pairs []uint64
	// once[p] holds the letters that occur exactly once in text[p:]: the
	// only ones one edit can do without.
	once []uint64
}

// pathQuery is a find query read across paths; nil when it has nothing a
// path reading can use.
type pathQuery struct {
	tokens []pathToken
	bytes  int // total bytes of all tokens
	// order lists the tokens longest first: the likeliest to rule a file
	// out are tried first.
	order []int
	typos int // edits a reading may make (0, or 1 in the typo fallback)
}

func newPathQuery(raw string) *pathQuery {
	s, err := prepare(raw)
	if err != nil {
		return nil
	}
	s = regexNoise.ReplaceAllString(s, " ")
	pq := &pathQuery{}
	for _, f := range strings.Fields(s) {
		t := squash(f)
		if t == "" {
			continue
		}
		if len(t) > maxPathToken {
			return nil
		}
		tok := pathToken{text: t, need: make([]uint64, len(t)+1), full: 1 << len(t), letters: charMask(t)}
		for i := 0; i < len(t); i++ {
			tok.eq[t[i]] |= 1 << i
		}
		tok.first = make([]uint64, len(t))
		tok.pairs = make([]uint64, len(t))
		tok.once = make([]uint64, len(t)+1)
		for p := len(t) - 1; p >= 0; p-- {
			tok.first[p] = charMask(t[p : p+1])
			tok.pairs[p] = pairBit(t[p], 0)
			if p+1 < len(t) {
				tok.pairs[p] |= pairBit(t[p], t[p+1])
			}
			tok.need[p] = tok.need[p+1] | tok.first[p]
			if tok.need[p+1]&tok.first[p] == 0 {
				tok.once[p] = tok.once[p+1] | tok.first[p] // first time seen
			} else {
				tok.once[p] = tok.once[p+1] &^ tok.first[p] // seen again
			}
		}
		pq.tokens = append(pq.tokens, tok)
		pq.bytes += len(t)
	}
	if len(pq.tokens) == 0 || len(pq.tokens) > maxPathTokens {
		return nil
	}
	for i := range pq.tokens {
		pq.order = append(pq.order, i)
	}
	slices.SortStableFunc(pq.order, func(a, b int) int { return len(pq.tokens[b].text) - len(pq.tokens[a].text) })
	return pq
}

// pairable is the pairBits a directory word may begin with to read more
// of the token from the positions in s: a directory none of whose words
// begins with one reads nothing more of it, and its words need not be
// looked at (most directories, and the words are where a monorepo's
// directory scan missed the cache).
func (t *pathToken) pairable(s uint64) uint64 {
	if s == 1 {
		return t.pairs[0] // nothing read yet: most directories, for most tokens
	}
	return unionAt(t.pairs, s&(t.full-1))
}

// unionAt is the union of table's masks at the positions in s (a
// token's per-position table: its first letters, its pairs).
func unionAt(table []uint64, s uint64) uint64 {
	var m uint64
	for ; s != 0; s &= s - 1 {
		m |= table[bits.TrailingZeros64(s)]
	}
	return m
}

// pairBit's test holds for chunks of two letters or more.
const _ = uint(dirMinChunk - 2)

// advance returns the positions reached by reading a prefix of w (of at
// least minLen bytes, or all of w) from any position in s.
func (t *pathToken) advance(s uint64, w string, minLen int) uint64 {
	var out uint64
	a := s
	for l := 0; l < len(w) && a != 0; l++ {
		a = (a & t.eq[w[l]]) << 1
		if l+1 >= minLen || l+1 == len(w) {
			out |= a
		}
	}
	return out
}

// back returns the positions p from which a prefix of w (at least minLen
// bytes, or all of w) reads the token up to a position in g.
func (t *pathToken) back(g uint64, w string, minLen int) uint64 {
	var out uint64
	p := ^uint64(0)
	for l := 0; l < len(w); l++ {
		p &= t.eq[w[l]] >> l
		if p == 0 {
			break
		}
		if l+1 >= minLen || l+1 == len(w) {
			out |= p & (g >> (l + 1))
		}
	}
	return out
}

// reach is per-query scratch: each token's position set per directory,
// and for directory readings the directory each one belongs to and its
// quality.
type reach struct {
	sets    []uint64
	owner   []int32
	quality []float64
}

// reachKept bounds the scratch kept between queries: one a core. A
// sync.Pool keeps one on each Go processor and a victim of each besides,
// and a long query's sets grow with the tree: a settled server's heap
// would be mostly kept scratch.
const reachKept = 2

var reachFree = make(chan *reach, reachKept)

func getReach() *reach {
	select {
	case r := <-reachFree:
		return r
	default:
		return &reach{}
	}
}

func putReach(r *reach) {
	select {
	case reachFree <- r:
	default: // enough kept: this one is garbage
	}
}

// dirReach fills sets[t*len(dirs)+d] with the positions of token t that
// directory d's words can read (always including 0: read nothing).
// Directories are the outer loop, tokens the inner: each directory's
// record is read once for all the tokens (token by token, a query of n
// words read every directory of a monorepo n times over). In a big tree
// (halfDir) the work is split in two at once: a query of several tokens
// by tokens (each token's sets are its own), one of a single token by
// directories (its halves, as pathReadings reads their files).
func (e *Engine) dirReach(pq *pathQuery, sets []uint64) {
	nt, nd := len(pq.tokens), len(e.dirInfos)
	var wg sync.WaitGroup
	switch {
	case e.halfDir == 0:
		e.dirReachOf(pq, sets, 0, nt, 0, nd)
		return
	case nt == 1:
		wg.Go(func() { e.dirReachOf(pq, sets, 0, 1, e.halfDir, nd) })
		e.dirReachOf(pq, sets, 0, 1, 0, e.halfDir)
	default:
		wg.Go(func() { e.dirReachOf(pq, sets, nt/2, nt, 0, nd) })
		e.dirReachOf(pq, sets, 0, nt/2, 0, nd)
	}
	wg.Wait()
}

// dirReachOf is dirReach for tokens lo to hi over directories from to
// below. A parent before from is read again here, up its own parents
// (readUp), rather than waited for: the other half is writing it.
func (e *Engine) dirReachOf(pq *pathQuery, sets []uint64, lo, hi, from, below int) {
	nd := len(e.dirInfos)
	var before map[int32]uint64 // sets of directories before from, by token
	for d := from; d < below; d++ {
		parent := e.dirLinks[d].parent
		for ti := lo; ti < hi; ti++ {
			t := &pq.tokens[ti]
			s := uint64(1)
			switch {
			case int(parent) >= from:
				s = sets[ti*nd+int(parent)]
			case parent >= 0:
				if before == nil {
					before = map[int32]uint64{}
				}
				s = e.readUp(t, ti, parent, before)
			}
			sets[ti*nd+d] = e.readDir(t, s, int32(d))
		}
	}
}

// readDir extends the positions s read above directory d by d's words.
func (e *Engine) readDir(t *pathToken, s uint64, d int32) uint64 {
	if e.dirLinks[d].pairMask&t.pairable(s) == 0 && !e.exhaustive {
		return s // no word of it can start a chunk
	}
	for ws := e.wordsOf(d); ws != ""; {
		var w string
		w, ws = nextDirWord(ws)
		s |= t.advance(s, w, dirMinChunk)
	}
	return s
}

// readUp is directory d's set for token ti (of t), read from the top and
// kept in memo (keyed by directory and token): in a tree laid out in path
// order the directories a half needs from before it are the ancestors of
// its first, a few.
func (e *Engine) readUp(t *pathToken, ti int, d int32, memo map[int32]uint64) uint64 {
	if d < 0 {
		return 1
	}
	key := d*maxPathTokens + int32(ti)
	if s, ok := memo[key]; ok {
		return s
	}
	s := e.readDir(t, e.readUp(t, ti, e.dirLinks[d].parent, memo), d)
	memo[key] = s
	return s
}

// nameBack is the set of positions from which the file's name (stem
// words, then extension) reads token t to its end; it always holds
// len(t.text): nothing left to read.
func (e *Engine) nameBack(t *pathToken, f *fileInfo) uint64 {
	g := t.full
	if x := e.exts[f.ext]; x != "" {
		g |= t.back(g, x, 1)
	}
	text := e.stemText(f.stem)
	end := len(text)
	// The words from the last back (startsWord's starts, byte by byte).
	starts := f.starts | 1
	if end < 64 {
		starts &= 1<<end - 1
	}
	for starts != 0 {
		i := 63 - bits.LeadingZeros64(starts)
		g |= t.back(g, text[i:end], 1)
		end, starts = i, starts&^(1<<i)
	}
	return g
}

// pathReadings pushes every file some reading of pq fits, scored, into
// top (at most one entry per file).
func (e *Engine) pathReadings(ctx context.Context, pq *pathQuery, sink *pathSink, impl bool) error {
	nd := len(e.dirInfos)
	r := getReach()
	defer putReach(r)
	if need := nd * len(pq.tokens); cap(r.sets) < need {
		r.sets = make([]uint64, need)
	} else {
		r.sets = r.sets[:need]
	}
	e.dirReach(pq, r.sets)
	w := &pathWords{}

	// Directories that complete every token: the reading belongs to the
	// first directory that finishes it (its parent does not), whose own
	// files come first; files further down follow, pathSkipCost lower a
	// level, down to pathMaxSkips levels. The quality of the reading is
	// computed once, at the directory that finishes it.
	if cap(r.owner) < nd {
		r.owner, r.quality = make([]int32, nd), make([]float64, nd)
	}
	owner, quality := r.owner[:nd], r.quality[:nd]
	for d := range e.dirInfos {
		di := &e.dirInfos[d]
		owner[d] = -1
		switch {
		case !completes(pq, r.sets, nd, d):
			continue
		case e.dirLinks[d].parent >= 0 && owner[e.dirLinks[d].parent] >= 0:
			owner[d] = owner[e.dirLinks[d].parent]
		default:
			w.reset(e, int32(d), -1)
			q, ok := pathQualityOf(pq, w, false)
			if !ok {
				continue
			}
			owner[d], quality[d] = int32(d), q
		}
		o := owner[d]
		levels := int(di.depth - e.dirInfos[o].depth)
		if levels > pathMaxSkips || len(e.dirFiles(d)) == 0 {
			continue
		}
		base := pathDirBase + pathDirWidth*quality[o] - pathSkipCost*float64(levels)
		if sink.beaten(base + pathEntryBonus) {
			continue
		}
		for _, id := range e.dirFiles(d) {
			f := e.file(id)
			s, reason := base, "path:dir"
			if isEntryFile(e.baseName(id), di.depth, e.str(di.sq)) {
				s, reason = s+pathEntryBonus, "path:dir-entry"
			}
			sink.push(Match{File: id, Root: int(f.root), Path: e.filePath(id), Score: s, MatchedIn: inDirOnly, Reason: reason})
		}
	}

	// Files whose name takes part in the reading.
	pr := pathRun{e: e, pq: pq, sets: r.sets, nd: nd, sink: sink, w: w, impl: impl}
	pr.nb = nameBacks{pq: pq, e: e, stem: -1}
	if e.exhaustive {
		// Every file the rules allow through the DP: what the bit-set
		// filters of oneToken, tokens and try must agree with
		// (prune_test.go).
		for id := range e.fileIDs {
			if len(pq.tokens) > 1 || pr.oneTokenMay(id) {
				pr.score(id)
			}
		}
		return nil
	}
	if e.halfDir == 0 {
		return pr.files(ctx, 0, nd, true)
	}
	// A big tree's halves at once, each into a heap of its own: a file
	// lies in one half and matchBefore is a total order, so the merged
	// heap is the one heap of a single pass.
	other := pr
	other.sink, other.w, other.stop = sink.f.newPathSink(), &pathWords{}, false
	var otherErr error
	var wg sync.WaitGroup
	wg.Go(func() { otherErr = other.files(ctx, e.halfDir, nd, false) })
	err := pr.files(ctx, 0, e.halfDir, true)
	wg.Wait()
	seen := sink.top.seen + other.sink.top.seen
	for _, m := range other.sink.top.h {
		sink.top.push(m) // settled already
	}
	sink.top.seen = seen
	return cmp.Or(err, otherErr)
}

// pathSplitFiles is the tree from which pathReadings reads the files in
// two halves at once: below it one pass is quick enough that a second
// goroutine costs more than it saves (docs/BENCHMARKS.md, "Scale").
const pathSplitFiles = 1 << 17

// files reads the files of directories lo to hi, and with exts those
// elsewhere whose extension ends a single token.
func (pr *pathRun) files(ctx context.Context, lo, hi int, exts bool) error {
	if len(pr.pq.tokens) == 1 {
		return pr.oneToken(ctx, lo, hi, exts)
	}
	return pr.tokens(ctx, lo, hi)
}

// pathRun is one query's pass over the files.
type pathRun struct {
	e    *Engine
	pq   *pathQuery
	sets []uint64
	nd   int
	sink *pathSink
	w    *pathWords
	nb   nameBacks
	impl bool
	stop bool // the heap holds only what no path reading can beat
}

// oneToken: a single token is read in the name alone by find.go's name
// classes, except when it ends with the file's extension ("colorjs"); so
// only files in directories that read part of it, and files with such an
// extension, are tried.
func (pr *pathRun) oneToken(ctx context.Context, lo, hi int, exts bool) error {
	// The loops below visit exactly the files oneTokenMay allows, less
	// those the letter masks and nameCanFinish show cannot fit.
	e, t := pr.e, &pr.pq.tokens[0]
	for d := lo; d < hi; d++ {
		if d%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if pr.sets[d]&^(t.full|1) == 0 {
			continue
		}
		// The name must finish the token (nameCanFinish): when no name
		// here has the letters left after the longest reading of the
		// directories, or a word starting where a chunk would, none
		// can. In a monorepo, "tests/configuration" reads "tests" in
		// the directories of every team's tests, and most of their
		// files were tried one by one.
		di, left := e.dirRec(int32(d)), pr.sets[d]&^t.full
		need, starts := t.need[63-bits.LeadingZeros64(left)], t.chunkStarts(left)
		if need&^di.nameMask != 0 || starts&di.nameInit == 0 {
			continue
		}
		// try, with what nameCanFinish asks of a name worked out once
		// for the directory.
		for _, id := range e.dirFiles(d) {
			f := e.file(id)
			if need&^f.nameMask != 0 || starts&f.nameInit == 0 {
				continue
			}
			if pr.nb.of(f); left&pr.nb.get(0) == 0 {
				continue
			}
			if pr.sink.beaten(pathCeiling) {
				pr.stop = true
				return nil
			}
			pr.score(id)
		}
	}
	if !exts {
		return nil
	}
	var ending []uint16
	for x, ext := range e.exts {
		if ext != "" && len(ext) < len(t.text) && strings.HasSuffix(t.text, ext) {
			ending = append(ending, uint16(x))
		}
	}
	if len(ending) == 0 {
		return nil
	}
	first := charMask(t.text[:1])
	for sid := range e.stems {
		st := e.stemRec(int32(sid))
		if t.need[0]&^(st.mask|st.extMask) != 0 || first&^st.initMask != 0 {
			continue
		}
		for _, id := range e.stemFiles(int32(sid)) {
			f := e.file(id)
			if pr.sets[f.dir]&^(t.full|1) != 0 || !slices.Contains(ending, f.ext) {
				continue // tried above, or no extension to end on
			}
			if pr.try(id); pr.stop {
				return nil
			}
		}
	}
	return nil
}

// oneTokenMay is oneToken's rule for file id: its directories read part
// of the token, or the token ends with its extension.
func (pr *pathRun) oneTokenMay(id int32) bool {
	t, f := &pr.pq.tokens[0], pr.e.file(id)
	ext := pr.e.exts[f.ext]
	return pr.sets[f.dir]&^(t.full|1) != 0 || ext != "" && len(ext) < len(t.text) && strings.HasSuffix(t.text, ext)
}

// tokens: several tokens may all be read in the name, in any order, so
// any file may fit; a directory at a time, the tokens its own words do not
// complete must be finished by the name, which therefore needs their
// letters and a word starting where each would start a chunk.
func (pr *pathRun) tokens(ctx context.Context, lo, hi int) error {
	e, pq, nd := pr.e, pr.pq, pr.nd
	var starts [maxPathTokens]uint64
dirs:
	for d := lo; d < hi; d++ {
		if d%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		di := e.dirRec(int32(d))
		if len(e.dirFiles(d)) == 0 {
			continue
		}
		var req uint64
		open := 0
		for ti := range pq.tokens {
			t := &pq.tokens[ti]
			s := pr.sets[ti*nd+d]
			if s&t.full != 0 {
				continue
			}
			left := s &^ t.full
			req |= t.need[63-bits.LeadingZeros64(left)]
			starts[open] = t.chunkStarts(left)
			open++
		}
		if req&^di.nameMask != 0 {
			continue // no name here has the letters
		}
		for k := range open {
			if starts[k]&di.nameInit == 0 {
				continue dirs
			}
		}
	files:
		for _, id := range e.dirFiles(d) {
			f := e.file(id)
			if req&^f.nameMask != 0 {
				continue
			}
			for k := range open {
				if starts[k]&f.nameInit == 0 {
					continue files
				}
			}
			if pr.try(id); pr.stop {
				return nil
			}
		}
	}
	return nil
}

// try scores file id when some reading fits it.
func (pr *pathRun) try(id int32) {
	e := pr.e
	f := e.file(id)
	pr.nb.of(f)
	if !nameCanFinish(pr.pq, pr.sets, pr.nd, f, &pr.nb) {
		return
	}
	if pr.sink.beaten(pathCeiling) {
		pr.stop = true
		return
	}
	pr.score(id)
}

// score reads file id by the DP and keeps the reading when there is one.
func (pr *pathRun) score(id int32) {
	e := pr.e
	f := e.file(id)
	pr.w.reset(e, f.dir, id)
	q, ok := pathQualityOf(pr.pq, pr.w, true)
	if !ok {
		return
	}
	base, in := pathSpanBase, inDirAndFile
	if pr.w.dirChunks == 0 {
		base, in = pathNameBase, inFilename
	}
	s := base + pathQualityWidth*q - pathSkipCost*float64(min(pr.w.skipped, pathMaxSkips))
	if pr.impl && isHeader(fileExt(e.baseName(id))) {
		s *= implHeaderFactor
	}
	pr.sink.push(Match{File: id, Root: int(f.root), Path: e.filePath(id), Score: s, MatchedIn: in, Reason: "path:words"})
}

var inDirOnly = []string{"directory"}

func completes(pq *pathQuery, sets []uint64, nd, d int) bool {
	for ti := range pq.tokens {
		if sets[ti*nd+d]&pq.tokens[ti].full == 0 {
			return false
		}
	}
	return true
}

// nameBacks memoises each token's nameBack for the files of one stem
// that share an extension, computing a token's only when asked.
type nameBacks struct {
	e      *Engine
	pq     *pathQuery
	f      *fileInfo
	stem   int32
	ext    uint16
	starts uint64
	have   uint16
	set    [maxPathTokens]uint64
}

func (nb *nameBacks) of(f *fileInfo) {
	nb.f = f
	if f.stem != nb.stem || f.ext != nb.ext || f.starts != nb.starts {
		nb.stem, nb.ext, nb.starts, nb.have = f.stem, f.ext, f.starts, 0
	}
}

func (nb *nameBacks) get(ti int) uint64 {
	if nb.have&(1<<ti) == 0 {
		nb.set[ti] = nb.e.nameBack(&nb.pq.tokens[ti], nb.f)
		nb.have |= 1 << ti
	}
	return nb.set[ti]
}

// nameCanFinish reports whether every token fits the file's path with at
// least one of them read (partly) in the name.
func nameCanFinish(pq *pathQuery, sets []uint64, nd int, f *fileInfo, nb *nameBacks) bool {
	landed := false
	for _, ti := range pq.order {
		t := &pq.tokens[ti]
		s := sets[ti*nd+int(f.dir)]
		done := s&t.full != 0
		// The longest directory reading short of the end leaves the least
		// for the name; if the name lacks one of those letters, or has no
		// word starting where a chunk would, no cut works.
		left := s &^ t.full
		if t.chunkStarts(left)&f.nameInit != 0 && t.need[63-bits.LeadingZeros64(left)]&^f.nameMask == 0 && left&nb.get(ti) != 0 {
			landed = true
		} else if !done {
			return false
		}
	}
	return landed
}

// isEntryFile: the file a directory is opened by — index.js, main.go,
// mod.rs, lib.rs, __init__.py, or the one named like the directory
// (os/exec/exec.go).
func isEntryFile(base string, dirDepth int32, dirSq string) bool {
	stem, _ := splitExt(base)
	switch sq := squash(stem); sq {
	case "index", "main", "mod", "lib", "init":
		return true
	default:
		return dirDepth > 0 && sq == dirSq
	}
}

func fileExt(base string) string {
	_, ext := splitExt(base)
	return ext
}

// pathWords is one path as the list of words a path reading uses.
type pathWords struct {
	text      []string
	comp      []int // component index (the name's words share one)
	start     []bool
	inName    []bool
	firstName int // index of the first name word (len(text) without a file)
	comps     int // components before the name
	nameLen   int // bytes of the squashed stem

	dirSq  []string // squashed components
	stemSq string

	// pathDP's tables, reused; and the chunks of the cuts chooseCuts
	// gives, kept until its next call (pathQualityOf reads them at once):
	// allocated for each path read, they were most of what a question
	// allocates, and a server's collections come with what it allocates.
	dpF      []float64
	dpQ, dpW []uint8
	chunks   []chunk
	cuts     [][]chunk

	dirChunks int  // filled by pathQualityOf
	skipped   int  // directories between the deepest one read and the file
	typo      bool // a chunk was read with an edit
}

func (w *pathWords) reset(e *Engine, dir, file int32) {
	w.text, w.comp, w.start, w.inName = w.text[:0], w.comp[:0], w.start[:0], w.inName[:0]
	var chain [maxDepth]int32
	n := 0
	for d := dir; d >= 0 && n < len(chain); d = e.dirLinks[d].parent {
		chain[n] = d
		n++
	}
	for k := n - 1; k >= 0; k-- {
		di := &e.dirInfos[chain[k]]
		first := true
		for ws := e.wordsOf(chain[k]); ws != ""; first = false {
			var x string
			x, ws = nextDirWord(ws)
			w.add(x, int(di.depth)-1, first, false)
		}
	}
	w.comps, w.firstName, w.nameLen = int(e.dirInfos[dir].depth), len(w.text), 0
	w.dirSq = slices.Grow(w.dirSq[:0], w.comps)[:w.comps]
	for d, i := dir, w.comps-1; i >= 0; d, i = e.dirLinks[d].parent, i-1 {
		w.dirSq[i] = e.dirSq(d)
	}
	w.stemSq = ""
	if file < 0 {
		return
	}
	f := e.file(file)
	text := e.stemText(f.stem)
	w.nameLen, w.stemSq = len(text), text
	from := 0
	for i := 1; i <= len(text); i++ {
		if i == len(text) || startsWord(f.starts, i) {
			w.add(text[from:i], w.comps, from == 0, true)
			from = i
		}
	}
	if ext := e.exts[f.ext]; ext != "" {
		w.add(ext, w.comps, false, true)
	}
}

func (w *pathWords) add(text string, comp int, start, inName bool) {
	w.text = append(w.text, text)
	w.comp = append(w.comp, comp)
	w.start = append(w.start, start)
	w.inName = append(w.inName, inName)
}

// chooseCuts gives every token its best cut over w; with landing, the one
// token that loses least by ending in the name does so (a reading needs
// one). ok is false when some token fits nowhere.
func chooseCuts(pq *pathQuery, w *pathWords, landing bool) (cuts [][]chunk, ok bool) {
	w.chunks = w.chunks[:0]
	if cap(w.cuts) < len(pq.tokens) {
		w.cuts = make([][]chunk, len(pq.tokens))
	}
	cuts = w.cuts[:len(pq.tokens)]
	clear(cuts)
	if landing && len(cuts) == 1 {
		// The one token lands: the free cut would only be compared
		// with its own landed one. (A landed cut is a free one, so
		// none lands where none fits.)
		lv, land := pathDP(pq.tokens[0].text, w, true, pq.typos)
		cuts[0] = land
		return cuts, lv > negInf
	}
	var landed []chunk
	bestTok, bestGain := -1, negInf
	for ti := range pq.tokens {
		t := pq.tokens[ti].text
		fv, free := pathDP(t, w, false, pq.typos)
		if fv == negInf {
			return nil, false
		}
		cuts[ti] = free
		if landing {
			if lv, land := pathDP(t, w, true, pq.typos); lv > negInf && lv-fv > bestGain {
				bestTok, bestGain, landed = ti, lv-fv, land
			}
		}
	}
	if landing {
		if bestTok < 0 {
			return nil, false
		}
		cuts[bestTok] = landed
	}
	return cuts, true
}

// pathQualityOf reads every token against w (landing: at least one chunk
// in the name) and returns the reading's quality (see the block comment).
func pathQualityOf(pq *pathQuery, w *pathWords, landing bool) (float64, bool) {
	cuts, ok := chooseCuts(pq, w, landing)
	if !ok {
		return 0, false
	}
	var whole, nameBytes, chunks, starts, links, adjacent int
	lastDirComp := -1
	w.dirChunks, w.typo = 0, false
	for ti, cs := range cuts {
		// Each extra cut must pay for itself: a token of n bytes in k
		// chunks carries n − cutCost×(k−1) bytes of evidence.
		if tn := len(pq.tokens[ti].text); float64(tn)-cutCost*float64(len(cs)-1) < min(minEvidence, float64(tn)) {
			return 0, false
		}
		for k, c := range cs {
			chunks++
			if c.wlen == len(w.text[c.word]) {
				whole += c.len
			}
			if c.typo {
				w.typo = true
			}
			if w.start[c.word] {
				starts++
			}
			if w.inName[c.word] {
				nameBytes += c.len
			} else {
				w.dirChunks++
				lastDirComp = max(lastDirComp, w.comp[c.word])
			}
			if k > 0 {
				links++
				if c.word == cs[k-1].word+1 {
					adjacent++
				}
			}
		}
	}
	w.skipped = 0
	if landing && lastDirComp >= 0 {
		// The step from the deepest directory read to the name; a
		// directory named like the file (os/exec/exec.go) is no detour.
		for c := lastDirComp + 1; c < w.comps; c++ {
			if w.dirSq[c] != w.stemSq {
				w.skipped++
			}
		}
		links++
		if w.skipped == 0 {
			adjacent++
		}
	}
	n := float64(pq.bytes)
	q := qWhole * float64(whole) / n
	q += qRuns * (n - cutCost*float64(chunks-len(pq.tokens))) / n
	q += qStarts * float64(starts) / float64(chunks)
	if links > 0 {
		q += qAdjacent * float64(adjacent) / float64(links)
	} else {
		q += qAdjacent
	}
	if landing {
		q += qCover * min(1, float64(nameBytes)/float64(max(w.nameLen, 1)))
	} else {
		q += qCover // a directory reading is judged on its words alone
	}
	return max(q, 0), true
}

// chunk is one piece of a cut: len query bytes read against the first
// wlen bytes of word (the two differ, or the bytes do, only with typo).
type chunk struct {
	word, len, wlen int
	typo            bool
}

const negInf = -1e18

// pathDP finds the best cut of token t into chunks over w's words (see
// the dp constants); with landing, the last chunk must be in the name.
// With typos = 1, one chunk may be one edit (OSA) away from its word's
// prefix, provided both start with the same typoLead bytes and the word
// part is at least typoMinWord long. It returns negInf when no cut exists.
// The chunks lie in w's, until chooseCuts is called again.
func pathDP(t string, w *pathWords, landing bool, typos int) (float64, []chunk) {
	if len(w.text) == 0 {
		return negInf, nil
	}
	d := cutDP{t: t, w: w, landing: landing, n: len(t), nw: len(w.text)}
	size := (typos + 1) * (d.n + 1) * (d.nw + 1)
	// The tables are w's, kept from one path to the next: arrays on the
	// stack are zeroed whole at every call, which costs more than the
	// DP itself when a query reads thousands of paths.
	w.dpF, w.dpQ, w.dpW = table(w.dpF[:cap(w.dpF)], size, 0), table(w.dpQ[:cap(w.dpQ)], size, 0), table(w.dpW[:cap(w.dpW)], size, 0)
	d.f, d.tq, d.tw = w.dpF, w.dpQ, w.dpW
	for e := 0; e <= typos; e++ {
		for j := 0; j <= d.nw; j++ {
			d.f[d.at(e, d.n, j)] = 0
		}
		for i := 0; i < d.n; i++ {
			d.f[d.at(e, i, d.nw)] = negInf
		}
	}
	for j := d.nw - 1; j >= 0; j-- {
		for e := 0; e <= typos; e++ {
			for i := d.n - 1; i >= 0; i-- {
				d.fill(e, i, j)
			}
		}
	}
	if d.f[d.at(typos, 0, 0)] == negInf {
		return negInf, nil
	}
	from := len(w.chunks)
	for i, j, e := 0, 0, typos; i < d.n && j < d.nw; j++ {
		k := d.at(e, i, j)
		if lq := int(d.tq[k]); lq > 0 {
			lw, typo := int(d.tw[k]&^typoFlag), d.tw[k]&typoFlag != 0
			w.chunks = append(w.chunks, chunk{j, lq, lw, typo})
			i += lq
			if typo {
				e--
			}
		}
	}
	return d.f[d.at(typos, 0, 0)], w.chunks[from:len(w.chunks):len(w.chunks)]
}

// cutDP is pathDP's table: f[at(e, i, j)] is the best value reading t[i:]
// with words j.. and e edits left; tq/tw the chunk chosen there (tq 0:
// word j skipped; tw carries typoFlag for an edited chunk).
type cutDP struct {
	t       string
	w       *pathWords
	landing bool
	n, nw   int
	f       []float64
	tq, tw  []uint8
}

func (d *cutDP) at(e, i, j int) int { return (e*(d.n+1)+i)*(d.nw+1) + j }

// fill decides state (e, i, j): skip word j, or read a chunk of it —
// exactly, or with the one edit left.
func (d *cutDP) fill(e, i, j int) {
	t, word := d.t, d.w.text[j]
	minLen := 1
	if !d.w.inName[j] {
		minLen = dirMinChunk
	}
	k := d.at(e, i, j)
	best, bq, bw := d.f[k+1], 0, 0
	consider := func(lq, lw, e2 int, typo bool) {
		if v, ok := d.chunkValue(i, j, lq, lw, e2, typo); ok && v > best {
			best, bq, bw = v, lq, lw
			if typo {
				bw |= typoFlag
			}
		}
	}
	// (chunks are at most maxPathToken bytes, so lq and lw < typoFlag)
	for l := 1; l <= len(word) && i+l <= d.n && t[i+l-1] == word[l-1]; l++ {
		if l < len(word) && (l < minLen || i+l < d.n && t[i+l] == word[l] && d.n-(i+l) < dirMinChunk) {
			continue // too short, or a lone letter cut from a word that goes on
		}
		consider(l, l, e, false)
	}
	if e > 0 && i+typoLead <= d.n && len(word) >= typoMinWord && t[i:i+typoLead] == word[:typoLead] {
		for lw := typoMinWord; lw <= min(len(word), d.n+1); lw++ {
			for lq := max(lw-1, typoLead); lq <= lw+1 && i+lq <= d.n; lq++ {
				if osa(t[i:i+lq], word[:lw], 1) == 1 {
					consider(lq, lw, e-1, true)
				}
			}
		}
	}
	d.f[k] = best
	d.tq[k], d.tw[k] = uint8(bq), uint8(bw)
}

// chunkValue is the value of reading lq query bytes from i over word j's
// first lw bytes, then the rest from state (e2, i+lq, j+1).
func (d *cutDP) chunkValue(i, j, lq, lw, e2 int, typo bool) (float64, bool) {
	w := d.w
	var rest float64
	if i+lq == d.n {
		if d.landing && !w.inName[j] {
			return 0, false
		}
	} else if rest = d.f[d.at(e2, i+lq, j+1)]; rest == negInf {
		return 0, false
	}
	byteV := dpDirByte
	if w.inName[j] {
		byteV = dpNameByte
	}
	v := float64(lq)*byteV - dpChunk + rest
	if lw == len(w.text[j]) {
		v += float64(lq) * dpWholeByte
	}
	if w.start[j] {
		v += dpStart
	}
	if typo {
		v -= dpTypo
	}
	return v, true
}

// advance1 is advance allowing one edit: s0 holds positions with the edit
// still unused, s1 those that used it. The edit comes after typoLead exact
// bytes of the chunk: a substitution, a byte of w missing from the query,
// an extra byte in the query, or two bytes swapped.
func (t *pathToken) advance1(s0, s1 uint64, w string, minLen int) (o0, o1 uint64) {
	valid := t.full<<1 - 1
	a0, a1 := s0, s1
	var swapped uint64 // reads of w[l+1]w[l] as w[l]w[l+1], due after w[l+1]
	for l := 0; l < len(w) && a0|a1|swapped != 0; l++ {
		c := w[l]
		n0 := (a0 & t.eq[c]) << 1
		n1 := (a1&t.eq[c])<<1 | swapped
		swapped = 0
		if l >= typoLead {
			n1 |= a0<<1 | a0
			if l+1 < len(w) {
				swapped = ((a0 & t.eq[w[l+1]]) << 1 & t.eq[c]) << 1
			}
		}
		if l+1 >= typoLead {
			n1 |= n0 << 1
		}
		a0, a1 = n0&valid, n1&valid
		if l+1 >= minLen || l+1 == len(w) {
			o0 |= a0
			o1 |= a1
		}
	}
	return o0, o1
}

// minTypoToken: shorter queries have too many one-edit neighbours.
const minTypoToken = 7

// pathTypos is the fallback for a query no exact reading fits
// ("nethtpserver", "jsondecoder", "paymnt handler"): the same readings
// with one edit in each token, found by advance1 over the directories and
// then each file's name, scored with pathTypoCost off.
func (e *Engine) pathTypos(ctx context.Context, pq *pathQuery, sink *pathSink, impl bool) error {
	if pq.bytes < minTypoToken {
		return nil
	}
	pq.typos = 1
	w := &pathWords{}
	if e.exhaustive { // every file through the DP (prune_test.go)
		for id := range e.fileIDs {
			e.pathTypo(pq, id, w, sink, impl)
		}
		return nil
	}
	nt := len(pq.tokens)
	// live are the directories a reading may still end in, ascending, and
	// st[k*nt+ti] token ti's positions after live[k]. The first token (the
	// longest: pq.order) is read over every directory; each next one only
	// over the live directories and those above them, and rules out the
	// directories it cannot finish in. Read over every directory, each
	// token had cost as much as the first, and most directories are out
	// after one.
	var live []int32
	var st []typoState
	scratch := typoScratches.take()
	defer typoScratches.put(scratch)
	for n, ti := range pq.order {
		t := &pq.tokens[ti]
		var span []int32 // the directories read, parents first; nil: all
		if n > 0 {
			if len(live) == 0 {
				return nil // no directory is left for a reading to end in
			}
			span = e.withAncestors(live)
		}
		var buf []typoState
		if n == 0 {
			buf = *scratch
		}
		at, err := e.typoStates(ctx, t, span, buf)
		if err != nil {
			return err
		}
		if n == 0 {
			*scratch = at // the states kept below are copies
		}
		// The states of the directories kept, and the token's own.
		var kept []int32
		var next []typoState
		keep := func(k int, d int32, s typoState) {
			di := e.dirRec(d)
			if !readInDirs(t, s, nt) && !typoCanFinish(t, s.a|s.b, di.nameMask, di.nameInit, di.nameMax) {
				return
			}
			kept = append(kept, d)
			if k >= 0 {
				next = append(next, st[k*nt:(k+1)*nt]...)
			} else {
				next = append(next, make([]typoState, nt)...)
			}
			next[len(next)-nt+ti] = s
		}
		if n == 0 {
			for d, s := range at {
				keep(-1, int32(d), s)
			}
		} else {
			for k, d := range live {
				i, _ := slices.BinarySearch(span, d)
				keep(k, d, at[i])
			}
		}
		live, st = kept, next
	}
	for k, d := range live {
		if k%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		ds := st[k*nt : (k+1)*nt]
		done := func(ti int) bool { return readInDirs(&pq.tokens[ti], ds[ti], nt) }
	files:
		for _, id := range e.dirFiles(int(d)) {
			f := e.file(id)
			for _, ti := range pq.order { // the likeliest to rule the file out first
				if !done(ti) && !typoCanFinish(&pq.tokens[ti], ds[ti].a|ds[ti].b, f.nameMask, f.nameInit, f.base) {
					continue files
				}
			}
			for _, ti := range pq.order {
				t := &pq.tokens[ti]
				if !done(ti) && !e.typoNameFinishes(t, id, ds[ti].a&^t.full, ds[ti].b&^t.full) {
					continue files
				}
			}
			e.pathTypo(pq, id, w, sink, impl)
		}
	}
	return nil
}

// typoState is a token's positions after a directory, read from the top
// of its root: a without the edit used, b with it.
type typoState struct{ a, b uint64 }

// readInDirs: a token the directories read whole needs nothing of the
// name, unless it is the only one of the query's tokens (a reading ends
// in the name).
func readInDirs(t *pathToken, s typoState, tokens int) bool {
	return tokens > 1 && (s.a|s.b)&t.full != 0
}

// typoStates reads t over the directories of span (ascending, each
// one's parent among them; nil: every directory) and returns the
// positions after each, in span's order, in buf when it has room.
func (e *Engine) typoStates(ctx context.Context, t *pathToken, span []int32, buf []typoState) ([]typoState, error) {
	n := len(span)
	if span == nil {
		n = len(e.dirInfos)
	}
	out := grow(buf, n)[:n]
	for i := range n {
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		d := int32(i)
		if span != nil {
			d = span[i]
		}
		link := &e.dirLinks[d]
		s := typoState{a: 1}
		if p := link.parent; p >= 0 {
			if span == nil {
				s = out[p]
			} else {
				j, _ := slices.BinarySearch(span[:i], p)
				s = out[j]
			}
		}
		if link.initMask&t.letters != 0 { // chunks start exactly, edit or not
			for ws := e.wordsOf(d); ws != ""; {
				var w string
				w, ws = nextDirWord(ws)
				x, y := t.advance1(s.a, s.b, w, dirMinChunk)
				s.a, s.b = s.a|x, s.b|y
			}
		}
		out[i] = s
	}
	return out, nil
}

// withAncestors is dirs (ascending) with every directory above them,
// ascending: parents come before their children.
func (e *Engine) withAncestors(dirs []int32) []int32 {
	seen := make(map[int32]bool, 2*len(dirs))
	var out []int32
	for _, d := range dirs {
		for ; d >= 0 && !seen[d]; d = e.dirLinks[d].parent {
			seen[d] = true
			out = append(out, d)
		}
	}
	slices.Sort(out)
	return out
}

// typoCanFinish: with one edit a name may lack one byte of what is left
// of t after positions s — a letter that occurs there once — and, since a
// chunk starts exactly, edit or not, a word of the name begins with the
// letter at one of those positions; and a name as long as what is left
// needs (typoNameLongEnough). nameMask and nameInit are what the names
// hold and begin their words with, nameLen the longest's length.
func typoCanFinish(t *pathToken, s, nameMask, nameInit uint64, nameLen uint16) bool {
	if !typoNameLongEnough(t, s, nameLen) {
		return false
	}
	left := s &^ t.full
	p := 63 - bits.LeadingZeros64(left)
	m := t.need[p] &^ nameMask
	if m&^t.once[p] != 0 || bits.OnesCount64(m) > 1 {
		return false
	}
	return t.chunkStarts(left)&nameInit != 0
}

// typoNameLongEnough: a name of n bytes reads at most n bytes of a
// token, one more with the edit (a byte the query has and the name not);
// what is left of t after positions s is at least its length less the
// furthest of them.
func typoNameLongEnough(t *pathToken, s uint64, n uint16) bool {
	left := s &^ t.full
	p := 63 - bits.LeadingZeros64(left)
	return len(t.text)-p <= int(n)+1
}

// chunkStarts is the letters a chunk can begin with from positions left
// (short of the end): a word of the name must begin with one of them.
func (t *pathToken) chunkStarts(left uint64) uint64 { return unionAt(t.first, left) }

// typoNameFinishes reads file id's name on from the directory's positions
// a (no edit used) and b (edit used): whether token t can be read whole.
func (e *Engine) typoNameFinishes(t *pathToken, id int32, a, b uint64) bool {
	f := e.file(id)
	text := e.stemText(f.stem)
	from := 0
	for i := 1; i <= len(text); i++ {
		if i == len(text) || startsWord(f.starts, i) {
			x, y := t.advance1(a, b, text[from:i], 1)
			a, b, from = a|x, b|y, i
		}
	}
	if ext := e.exts[f.ext]; ext != "" {
		x, y := t.advance1(a, b, ext, 1)
		a, b = a|x, b|y
	}
	return (a|b)&t.full != 0
}

// pathTypo scores file id by the DP, each token allowed one edit.
func (e *Engine) pathTypo(pq *pathQuery, id int32, w *pathWords, sink *pathSink, impl bool) {
	{
		f := e.file(id)
		w.reset(e, f.dir, id)
		q, ok := pathQualityOf(pq, w, true)
		if !ok {
			return
		}
		base, in := pathSpanBase, inDirAndFile
		if w.dirChunks == 0 {
			base, in = pathNameBase, inFilename
		}
		s := base + pathQualityWidth*q - pathSkipCost*float64(min(w.skipped, pathMaxSkips))
		if w.typo {
			s -= pathTypoCost
		}
		if impl && isHeader(fileExt(e.baseName(id))) {
			s *= implHeaderFactor
		}
		sink.push(Match{File: id, Root: int(f.root), Path: e.filePath(id), Score: s, MatchedIn: in, Reason: "path:typo"})
	}
}
