package rank

import (
	"cmp"
	"context"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"wayfind/workspace"
)

// ResolveRequest is find/resolvePath's input.
type ResolveRequest struct {
	Path string
	// From is the document the path is written in: absolute path,
	// file:// URI or root-relative path. A relative path — a bare name
	// included — is read from its directory first, as the document's
	// language reads it (a Markdown link, #include "x.h", ./x); nearness
	// counts from it.
	From string
	// Link: the path is a link's target in From (a Markdown, HTML,
	// reStructuredText or AsciiDoc link), which its reader reads from the
	// document's directory and nowhere else: a file beside it is the
	// exact answer, the same path from a root a candidate. Without it, a
	// path in From's text not written ./ or ../ (a mention in prose, an
	// include) may name a file from a root as well.
	Link bool
	// Current is where the user is (the file open when they typed the
	// path; the service's stand-in: the file a person last went to): for
	// nearness only, no path is read relative to it. From, when given,
	// counts for nearness instead.
	Current string
	// History is where the user has been (affinity.go), its files in the
	// same forms as From; Authored what they committed lately (Authorship).
	History  []Visit
	Authored Authored
	Limit    int
}

// ResolveResult is find/resolvePath's output.
type ResolveResult struct {
	Resolved   *Candidate
	Candidates []Candidate
	Exact      bool
	// Line and Col (1-based, 0 when absent) come from the query's suffix.
	Line, Col int
	// Fragment is a link's #fragment: a place in the file (a heading),
	// which the request layer finds.
	Fragment string
	// Rerank says whether (and how long) the model ordered close calls.
	Rerank RerankStats
	// Moved is set when the path is an old path the repository's history
	// followed to Resolved; Gone when the history deleted the file it
	// names (Resolved is then nil).
	Moved *Moved
	Gone  *Gone
	// Basis is the rule that put the first candidate first, and
	// Confidence how often an answer on that basis is the file meant
	// (confidence.go); Resolved is set only at ResolvedConfidence or above.
	Basis      Basis
	Confidence float64
	nearness   nearness
	// class: the class of answers it belongs to, its verdict's
	// (verdict.class), or ClassForeignTail (ReadForeign).
	class Class
}

// lexicalReading is what a lexical answer keeps of the path written, for
// its class (confidence.go).
type lexicalReading int

const (
	// readKept: in the directories written (all, their tail, all but a
	// prefix), or none were written.
	readKept lexicalReading = iota
	// readElsewhere: in other directories than the ones written.
	readElsewhere
	// readExtension: the same directories and stem, another extension of
	// the same family (runTest.js for runTest.ts).
	readExtension
	// readTail: the path is this file's whole path behind another
	// machine's (or another checkout's) prefix.
	readTail
	// readNearOld: the history's answer, read from a near name of an old
	// path (a typo of it), not from a path the history had exactly.
	readNearOld
	// readTwoLives: the history's answer for a path that had two lives,
	// the file that moved away and a later one deleted since.
	readTwoLives
	// readSplit: the history's answer for a file split in parts (its
	// rename changed its name while the commit added files beside it).
	readSplit
	// readDocument (a history answer): read from an earlier place of the
	// document it is written in.
	readDocument
	// readKin: no file read by the name; its kin listed (kin.go).
	readKin
)

// DefaultLimit is the number of candidates or matches when the caller names none.
const DefaultLimit = 10

// Resolve turns a wrong, stale or mistyped path into the file it meant.
//
// It is one pipeline. The question is read once (ask); then each reading
// of it in turn, until one settles it: the path as written (readExact),
// the document it is written in where it was before (readDocument), and
// the names of today's files (readNames), weighed with the repository's
// history, the file's kin, contradicting readings, an absolute path's
// tail and nearness (decide). What a reading settles is a verdict: the
// candidates in order, the basis that put the first first and the
// reading it rests on — its class (confidence.go) — and the result is the
// verdict, settled once.
func (e *Engine) Resolve(ctx context.Context, req ResolveRequest) (*ResolveResult, error) {
	a, err := e.ask(req)
	if err != nil {
		return nil, err
	}
	v, ok := e.readExact(a)
	if !ok {
		v, ok = e.readDocument(a)
	}
	if !ok {
		if v, err = e.readNames(ctx, a); err != nil {
			return nil, err
		}
	}
	return a.result(v), nil
}

// asked is a resolve question as every reading of it reads it.
type asked struct {
	req   ResolveRequest
	q     PathQuery
	limit int
	// qpath is the query's path as it should be read: a relative one
	// (./x, ../x, a bare name) from the referring document's directory,
	// as the document's language reads it; another from a root.
	qpath          string
	relative, bare bool
	// The referring document, when it is a file of the roots.
	fromRoot int
	fromRel  string
	fromOK   bool
	aff      *affinity
	// exact: a file has the path as written (exactID); beside: it is the
	// file beside the referring document.
	exactID       int32
	exact, beside bool
}

// ask reads req once for every stage: its path, where it is asked from
// and where the user works.
func (e *Engine) ask(req ResolveRequest) (*asked, error) {
	q, err := ParsePath(req.Path)
	if err != nil {
		return nil, err
	}
	a := &asked{req: req, q: q, limit: ResultLimit(req.Limit), qpath: q.Path}
	a.fromRoot, a.fromRel, a.fromOK = e.refFile(req.From)
	a.relative = q.Written().Relative
	a.bare = !q.Absolute && q.Up == 0 && !strings.Contains(q.Path, "/")
	if a.fromOK && (a.relative || a.bare) {
		if p, ok := workspace.Beside(a.fromRel, q.Up, q.Path); ok {
			a.qpath = p
		}
	}
	near := req.From
	if near == "" {
		near = req.Current
	}
	a.aff = e.newAffinity(near, req.History, req.Authored)
	a.exactID, a.exact, a.beside = e.exact(q, a.fromRoot, a.fromRel, a.fromOK)
	if a.exact && !a.beside && a.fromOK && (a.relative || req.Link) {
		// A relative reference names the file beside its document: the
		// same path from a root is another file, a candidate for what
		// the reference meant, never the exact answer.
		a.exact = false
	}
	return a, nil
}

// verdict is what a reading of a resolve question settles.
type verdict struct {
	// candidates in order; resolved: the file, when the reading itself
	// names it (the exact path, the history's answer) — else the first
	// candidate is, on any basis but a tie.
	candidates []Candidate
	resolved   *Candidate
	basis      Basis
	reading    lexicalReading
	nearness   nearness
	moved      *Moved
	gone       *Gone
	rerank     RerankStats
}

// result is the answer verdict v gives to the question.
func (a *asked) result(v verdict) *ResolveResult {
	res := &ResolveResult{Line: a.q.Line, Col: a.q.Col, Fragment: a.q.Fragment, Exact: a.exact,
		Resolved: v.resolved, Candidates: v.candidates, Moved: v.moved, Gone: v.gone,
		Basis: v.basis, nearness: v.nearness, Rerank: v.rerank}
	return res.settle(v.class())
}

// readExact: a file has the path as written, and it is the one meant —
// beside the document, or no other file shares its name in a way the
// path could mean (sharedName).
func (e *Engine) readExact(a *asked) (verdict, bool) {
	if !a.exact || (!a.beside && e.sharedName(a.q, a.relative)) {
		return verdict{}, false
	}
	c := e.candidate(a.exactID, 1, []string{"exact"})
	return verdict{candidates: []Candidate{c}, resolved: &c, basis: BasisExact}, true
}

// readDocument: the referring document moved, and its reference, read
// from where it was written, names a file of today — or a file the
// history deleted since, in the life it was written in.
func (e *Engine) readDocument(a *asked) (verdict, bool) {
	if a.exact || !a.fromOK {
		return verdict{}, false
	}
	id, doc, gone, ok := e.readFormer(a.q, a.fromRoot, a.fromRel)
	switch {
	case !ok:
		return verdict{}, false
	case id < 0:
		return verdict{basis: BasisHistory, gone: gone}, true
	}
	c := e.candidate(id, 1, []string{"history:document-moved " + doc.Commit.Short()})
	return verdict{candidates: []Candidate{c}, resolved: &c, basis: BasisHistory, reading: readDocument}, true
}

// readNames reads the question against the names of today's files and
// the repository's history: the candidates scored, the verdict decided
// on them, the close calls the model may order, the answer cut to the
// limit.
func (e *Engine) readNames(ctx context.Context, a *asked) (verdict, error) {
	rq := newResolveQuery(a.qpath)
	rq.absolute = a.q.Absolute
	if a.q.Absolute {
		if id, ok := e.tailFile(a.qpath); ok {
			rq.tail = id
		}
	}
	rq.scratch = takeScratch()
	defer rq.scratch.release()
	scored, err := e.scoreNames(ctx, a, rq)
	if err != nil {
		return verdict{}, err
	}
	v, undecided, err := e.decide(ctx, a, rq, scored)
	if err != nil {
		return verdict{}, err
	}
	if undecided {
		// Nothing decided by the names or nearness: the model may order
		// the close candidates (not the history's tie, nor two
		// contradicting readings: those are reported as they stand).
		v.rerank = e.rerankCandidates(ctx, a.qpath, v.candidates)
		if v.basis == BasisTie {
			e.orderTiedCopies(a, v.candidates)
		}
	}
	scored = v.candidates
	if v.resolved == nil && v.gone == nil && v.basis != BasisTie && len(scored) > 0 {
		top := scored[0]
		v.resolved = &top
		if v.reading != readKin {
			v.reading = e.readingOf(rq, a.qpath, &top)
		}
	}
	if len(scored) > a.limit {
		scored = scored[:a.limit]
	}
	for i := range scored {
		scored[i].Score = round3(min(scored[i].Score, 1))
	}
	if v.resolved != nil {
		v.resolved.Score = scored[0].Score
	}
	v.candidates = scored
	return v, nil
}

// scoreNames scores today's files the question's name and directories
// may mean, best first — never the document the path is written in,
// unless it names it exactly (readExact): #include "socket.h" in
// socket.cc is not socket.cc.
func (e *Engine) scoreNames(ctx context.Context, a *asked, rq *resolveQuery) ([]Candidate, error) {
	cands, symHits := e.resolveCandidates(rq)
	e.alignAll(rq, cands)
	rq.foreign = e.foreignPrefix(rq, cands)
	rq.priceAll()
	rq.dirsKnown = e.knownDirs(rq)
	rq.dirsExist = e.dirExists(rq.dirs)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	skip := int32(-1) // none
	if a.fromOK {
		if self, ok := e.fileID(a.fromRoot, a.fromRel); ok {
			skip = self
		}
	}
	return e.scoreAll(ctx, rq, cands, symHits, a.aff, skip, e.shortlistKeep(a.limit), rq.tail)
}

// decide settles the question on today's files scored: the history's
// reading of the path first, then the file's kin when no name reads,
// two readings that contradict each other, an absolute path that is a
// file's whole path behind another prefix, and last the lexical lead or
// nearness. undecided: nothing told the first candidates apart.
func (e *Engine) decide(ctx context.Context, a *asked, rq *resolveQuery, scored []Candidate) (v verdict, undecided bool, err error) {
	st, err := e.readStale(ctx, a.req, a.q)
	if err != nil {
		return verdict{}, false, err
	}
	if rq.tail >= 0 && st != nil && !e.longerOldTail(st, rq.tail) {
		// The path is today's file behind another checkout of its root;
		// what the history reads of it says nothing more.
		st = nil
	}
	if out, settled := e.applyStale(&v, st, scored, a.bare); settled {
		// The repository's history spoke: its answer, or a tie with it.
		v.candidates, v.basis = out, BasisTie
		if v.resolved != nil || v.gone != nil {
			v.basis = BasisHistory
		}
		return v, false, nil
	}
	if kin := e.kinReadings(rq, scored, a.limit); len(kin) > 0 {
		// No file read by its name, nor by the history: its kin, listed.
		return verdict{candidates: kin, basis: BasisUnsupported, reading: readKin}, false, nil
	}
	if ci := contradiction(rq, scored); ci > 0 {
		// Two readings point at different files: where the user has been
		// may settle it; otherwise it is a tie to report, the two first.
		other := scored[ci]
		copy(scored[2:ci+1], scored[1:ci])
		scored[1] = other
		v = verdict{candidates: scored, basis: BasisTie}
		if clearlyNearer(other.prox, scored[0].prox) {
			scored[0], scored[1] = other, scored[0]
		}
		if clearlyNearer(scored[0].prox, scored[1].prox) {
			v.basis, v.nearness = BasisNearer, nearnessOf(&scored[0], &scored[1])
		}
		return v, false, nil
	}
	if k := slices.IndexFunc(scored, func(c Candidate) bool { return rq.tail >= 0 && c.File == rq.tail }); k >= 0 {
		c := scored[k]
		copy(scored[1:k+1], scored[:k])
		scored[0] = c
		return verdict{candidates: scored, basis: BasisLexical}, false, nil
	}
	v = verdict{candidates: scored}
	v.basis, v.nearness = lead(nearestFirst(scored))
	switch {
	case v.basis != BasisTie && !standsAlone(&scored[0]):
		v.basis, undecided = BasisUnsupported, true
	case v.basis == BasisTie && a.exact && scored[0].File == a.exactID:
		v.basis = BasisSharedName
	case v.basis == BasisTie:
		undecided = true
	}
	return v, undecided, nil
}

// rerankCandidates lets the model order the close calls among scored
// (rerankBand), marking each candidate it moved.
func (e *Engine) rerankCandidates(ctx context.Context, qpath string, scored []Candidate) RerankStats {
	return e.rerankBand(ctx, qpath, len(scored),
		func(i int) float64 { return scored[i].Score },
		func(i int, s float64) { scored[i].Score = s },
		func(i int) string { return modelText(scored[i].Path) },
		func(order []int) {
			band := make([]Candidate, len(order))
			for i, o := range order {
				band[i] = scored[o]
				if i != o {
					band[i].Reasons = append(slices.Clip(band[i].Reasons), "rerank")
				}
			}
			copy(scored, band)
		})
}

// resolveQuery is a path query's parts as resolve compares them.
type resolveQuery struct {
	base, stem, ext, sq string   // base name, its stem and extension, squashed stem
	dirs                []string // directories as written
	dir                 dirPath
	absolute            bool // the query was an absolute path (its leading directories may be another machine's)
	// tail: an absolute path's file read as its whole path behind
	// another machine's (or checkout's) prefix (tailFile); -1 none.
	tail int32
	// dirsKnown: a directory the user wrote (past another machine's
	// prefix) is the name of some directory of the tree.
	dirsKnown bool
	// dirsExist: the directories as written are a directory of the tree
	// (asked once a question, not of every candidate).
	dirsExist bool
	// foreign: the leading directories no candidate aligns, which may be
	// another machine's prefix (/home/u/proj): cheap to leave out. Past
	// them, a written directory some candidate honours costs any
	// candidate that leaves it out as a wrong one would
	// (node/openssl/archs/…/openssl/x509.h is not openssl/x509.h).
	foreign int
	// The alignment of the directories with each candidate directory
	// (by its index in Engine.dirInfos): alignAll's, of many candidates,
	// in two arrays by directory (a map of them was a sizeable share of
	// what a resolve allocated), else aligned, filled on demand.
	alignedDirs []int32
	alignedAll  []dirAlignment
	alignedSeq  []int32 // by index in alignedDirs, the sequence of its columns (alignColumns; -1: none)
	alignedAt   []int32 // by directory, 1 + its index in alignedDirs (0: not aligned); nil: search them
	aligned     map[int32]dirAlignment
	// pricedAll: alignedAll priced (dirAlignment.score) past the
	// foreign prefix, once a sequence of columns rather than once a
	// file (priceAll).
	pricedAll []dirAlign
	// scratch is the memory of what it reads of many candidates; its
	// arrays are the scratch's, returned when the resolve is done.
	scratch *resolveScratch
}

func newResolveQuery(qpath string) *resolveQuery {
	comps := strings.Split(qpath, "/")
	rq := &resolveQuery{base: comps[len(comps)-1], dirs: comps[:len(comps)-1], tail: -1}
	rq.dir = dirPath{comps: rq.dirs, sq: make([]string, len(rq.dirs))}
	for i, d := range rq.dirs {
		rq.dir.sq[i] = squash(d)
	}
	rq.stem, rq.ext, rq.sq = stemKey(rq.base) // the key the engine groups files by
	rq.scratch = &resolveScratch{}            // Resolve's is taken from its pool
	return rq
}

// candidateFile is a file worth scoring and the typo distance of its
// stem (-1 unknown, bySymbol for a file that defines what the name
// names: src/CommandRouter.cpp written for src/router.cc).
type candidateFile struct {
	id, dist int32
}

// resolveCandidates lists the files worth scoring, each once, in id
// order (path order: the scoring then reads the files' records and paths
// in the order they lie): the files of the query's stem (distance 0),
// the files named as written in another case (-1), the files of stems a
// typo away, and the files defining a symbol of the name.
func (e *Engine) resolveCandidates(rq *resolveQuery) ([]candidateFile, map[int32]nameMatch) {
	exact, exactOK := e.stemIndex(rq.sq)
	budget := typoBudget(len(rq.sq))
	var typos map[int32]int
	if budget > 0 {
		typos = e.typoStems(rq.sq, budget)
	}
	n := 0 // the stems' files, most of the candidates
	if exactOK {
		n += len(e.stemFiles(exact))
	}
	for sid := range typos {
		n += len(e.stemFiles(sid))
	}
	cands := grow(rq.scratch.cands, n)
	if exactOK {
		for _, id := range e.stemFiles(exact) {
			cands = append(cands, candidateFile{id, 0})
		}
	}
	ofStem := func(id int32) bool { return exactOK && e.file(id).stem == exact }
	namedApart := map[int32]bool{} // named, though not of the query's stem (a capital squash keeps)
	for _, id := range e.named(strings.ToLower(rq.base)) {
		if !ofStem(id) {
			namedApart[id] = true
			cands = append(cands, candidateFile{id, -1})
		}
	}
	typoStems := map[int32]bool{}
	for sid, d := range typos {
		if exactOK && sid == exact {
			continue
		}
		typoStems[sid] = true
		for _, id := range e.stemFiles(sid) {
			if !namedApart[id] {
				cands = append(cands, candidateFile{id, int32(d)})
			}
		}
	}
	symHits := e.symbolFiles(&FindQuery{Squashed: rq.sq}, true)
	for id := range symHits {
		if !ofStem(id) && !typoStems[e.file(id).stem] && !namedApart[id] {
			cands = append(cands, candidateFile{id, bySymbol})
		}
	}
	slices.SortFunc(cands, func(a, b candidateFile) int { return cmp.Compare(a.id, b.id) })
	rq.scratch.cands = cands
	return cands, symHits
}

// foreignPrefix is the fewest leading query directories left unaligned by
// a candidate whose own path aligns from its top (see
// resolveQuery.foreign): a candidate aligning only deep inside its path
// (…/asm/include/openssl for /home/u/include/openssl) says nothing about
// where the query's own prefix ends.
func (e *Engine) foreignPrefix(rq *resolveQuery, cands []candidateFile) int {
	foreign := len(rq.dirs)
	from := func(a dirAlignment) {
		if a.matched > 0 && a.leadC == 0 {
			foreign = min(foreign, a.leadQ)
		}
	}
	if rq.alignedAll != nil {
		// alignAll aligned every candidate's directory: each sequence of
		// columns once, and the deepest directories on their own.
		for _, m := range rq.scratch.columns {
			for _, a := range m.aligned {
				if a.ok {
					from(a.alignment)
				}
			}
		}
		for k, seq := range rq.alignedSeq {
			if seq < 0 {
				from(rq.alignedAll[k])
			}
		}
		return foreign
	}
	for _, c := range cands {
		if foreign == 0 {
			break
		}
		from(e.alignment(rq, e.file(c.id).dir))
	}
	return foreign
}

// nameReading is what a candidate's name alone says of the query's: its
// match and the evidence of it.
type nameReading struct {
	nm nameMatch
	ev evidence // otherKind, stemKept and stemSame
}

// nameKey is what a name's reading depends on besides the query.
type nameKey struct {
	base string
	dist int
}

// namesRead are the readings of names read already (nameOf): by the ids
// of a name its stem and extension say (fileNameSame), read without
// reading the file's path, else by the name.
type namesRead struct {
	byIDs  map[uint64]nameReading
	byName map[nameKey]nameReading
}

func newNamesRead() *namesRead {
	return &namesRead{byIDs: map[uint64]nameReading{}, byName: map[nameKey]nameReading{}}
}

// readingOf is what the lexical answer c keeps of the path written
// (qpath, read as rq).
func (e *Engine) readingOf(rq *resolveQuery, qpath string, c *Candidate) lexicalReading {
	switch {
	case rq.absolute && e.wholeTail(qpath, c):
		return readTail
	case len(rq.dirs) > 0 && !c.ev.dirs.keepsWritten():
		return readElsewhere
	case c.ev.dirs == dirExact && c.ev.stemSame && c.ev.stemKept && !c.ev.otherKind && !headerAndSource(rq.ext, path.Ext(c.Path)):
		return readExtension
	}
	return readKept
}

// headerAndSource reports whether one extension is a C-family header's
// and the other a source file's: socket.h and socket.cc are two files
// (find/alternate pairs them), not one written with another extension.
func headerAndSource(a, b string) bool {
	h := func(ext string) bool {
		switch strings.ToLower(strings.TrimPrefix(ext, ".")) {
		case "h", "hh", "hpp", "hxx", "h++", "inl", "inc", "ipp":
			return true
		}
		return false
	}
	fa, fb := extFamily[strings.ToLower(strings.TrimPrefix(a, "."))], extFamily[strings.ToLower(strings.TrimPrefix(b, "."))]
	return fa == "c" && fb == "c" && h(a) != h(b)
}

// wholeTail reports whether the path written is c's whole path behind
// another checkout of c's root (tailFile).
func (e *Engine) wholeTail(qpath string, c *Candidate) bool {
	prefix, ok := strings.CutSuffix(qpath, "/"+c.Path)
	return ok && path.Base(prefix) == filepath.Base(e.ix.Roots[c.Root])
}

// longerOldTail reports whether the old path st read is, like today's
// file tail, a whole tail of the path written, and a longer one once the
// directories named as the root that lead it are set aside (an old path
// proj/README.md is the root's README.md behind a checkout named proj).
func (e *Engine) longerOldTail(st *staleReading, tail int32) bool {
	if !st.exact {
		return false
	}
	base := filepath.Base(e.ix.Roots[e.file(tail).root])
	old := st.old
	for strings.HasPrefix(old, base+"/") {
		old = old[len(base)+1:]
	}
	return len(old) > len(e.filePath(tail))
}

// tailFile is the file whose whole path an absolute path written ends
// with, behind another checkout of the file's root: the directory just before
// it is named as the root is (/home/u/src/proj/lib/parser.go,
// C:\src\proj\lib\parser.go, /home/runner/work/proj/proj/lib/parser.go
// for a root named proj); the longest such path. Behind any other
// directory it may be a directory the file has left
// (grep-matcher/tests/util.rs is not tests/util.rs).
func (e *Engine) tailFile(qpath string) (int32, bool) {
	for i := 0; i < len(qpath); i++ {
		if qpath[i] != '/' {
			continue
		}
		before, rest := path.Base(qpath[:i]), qpath[i+1:]
		for r, root := range e.ix.Roots {
			if filepath.Base(root) != before {
				continue
			}
			if id, ok := e.fileID(r, rest); ok {
				return id, true
			}
		}
	}
	return 0, false
}

// Distinctive names: a squashed stem of at least distinctWords words or
// distinctLetters letters (staticresourcejars, t3506cherrypickff) names
// one file in a tree; macros, deprecated, test_hello name one in many
// trees and two in some.
const (
	distinctWords   = 3
	distinctLetters = 12
)

// knownDirs reports whether a directory the query wrote, past another
// machine's prefix, is the name of a directory somewhere in the tree.
func (e *Engine) knownDirs(rq *resolveQuery) bool {
	from := 0
	if rq.absolute {
		from = rq.foreign
	}
	for _, d := range rq.dir.sq[min(from, len(rq.dir.sq)):] {
		if e.isDirName(d) {
			return true
		}
	}
	return false
}

// symbolExtFloor is the least extension affinity symbolName keeps: the
// same extension, another case, the same family, or none written
// (extAdded) — not another language, let alone another kind of file.
const symbolExtFloor = min(extAdded, extFamilyAffinity)

// bySymbol marks a candidate found through a symbol, not its name.
const bySymbol = -2

// contradiction finds a candidate that contradicts the best one: the best
// keeps the name but not the directories the path spells out, while it
// keeps the directories exactly with a name one edit away
// (encoding/json/decoder.go read as encoding/gob/decoder.go by the name,
// encoding/json/decode.go by the directories). The path says both; which
// the writer meant is for history or the referring file to settle, else a
// tie to report. It returns the contradicting candidate's index, or 0.
func contradiction(rq *resolveQuery, sorted []Candidate) int {
	if len(rq.dirs) == 0 || len(sorted) < 2 || sorted[0].ev.dirs.keepsWritten() {
		return 0
	}
	for i := 1; i < min(len(sorted), contradictionWindow); i++ {
		c := sorted[i]
		stem, _ := splitExt(path.Base(c.Path))
		if c.ev.dirs.keepsWritten() && osa(rq.sq, squash(stem), 1) <= 1 {
			return i
		}
	}
	return 0
}

// contradictionWindow: how far down the candidates a contradicting
// reading is looked for.
const contradictionWindow = 5

// nearestFirst moves to the front, among the candidates lexically tied
// with the best (within ResolveMargin), the one clearly nearest where the
// user works (clearlyNearer than every other of them), when it is not
// first already: a tie within the margin is a tie, however its last
// digits fall (go/analysis/checker/x.go is 0.005 ahead of
// go/analysis/internal/checker/x.go for "checker/x.go" only by depth).
func nearestFirst(sorted []Candidate) []Candidate {
	lexTop := 0.0
	for _, c := range sorted {
		lexTop = max(lexTop, c.lexical)
	}
	best, runner := -1, 0.0
	for i, c := range sorted {
		if c.lexical <= lexTop-ResolveMargin {
			continue
		}
		switch {
		case best < 0 || nearKey(c) > nearKey(sorted[best]):
			if best >= 0 {
				runner = max(runner, nearKey(sorted[best]))
			}
			best = i
		default:
			runner = max(runner, nearKey(c))
		}
	}
	if best > 0 && clearlyNearer(nearKey(sorted[best]), runner) {
		c := sorted[best]
		copy(sorted[1:best+1], sorted[:best])
		sorted[0] = c
	}
	return sorted
}

// ResultLimit is the caller's limit, or DefaultLimit when it names none.
func ResultLimit(n int) int {
	if n <= 0 {
		return DefaultLimit
	}
	return n
}

// sharedName reports whether a bare name found at a root (file id) is
// one other files of the tree share (package.json in a monorepo,
// CHANGELOG.md beside every package): as a path it names the root's
// file; as a name, asked by someone working in a package, it as often
// means theirs. The copies are then weighed like any others, the root's
// first among equals (the shortest path). A path written as relative
// (./x, ../x) is no bare name; one found beside the document it is
// written in is the document's (exact).
func (e *Engine) sharedName(q PathQuery, relative bool) bool {
	if relative || q.Absolute || strings.Contains(q.Path, "/") {
		return false
	}
	return len(e.named(strings.ToLower(q.Path))) > 1
}

// exact finds the file the query names as given: an absolute path inside a
// root, a path relative to the referring document (beside), or one
// relative to a root.
func (e *Engine) exact(q PathQuery, fromRoot int, fromRel string, fromOK bool) (id int32, ok, beside bool) {
	w := q.Written()
	w.Relative = true // a file beside the referring one is what a relative path names first
	near, nearOK := "", false
	if fromOK && !q.Absolute {
		near, nearOK = workspace.Beside(fromRel, q.Up, q.Path)
	}
	for _, p := range e.ix.Places(w, fromRoot, fromRel, fromOK) {
		if id, ok := e.fileID(p.Root, p.Rel); ok {
			return id, true, nearOK && p.Root == fromRoot && p.Rel == near
		}
	}
	if nearOK && w.Relative && scriptModule(fromRel) {
		if id, ok := e.moduleFile(fromRoot, near); ok {
			return id, true, true
		}
	}
	return 0, false, false
}

// dirExists reports whether some root has the directory (only the reason
// text depends on it: "dir:moved" when it is gone).
func (e *Engine) dirExists(dirs []string) bool {
	if len(dirs) == 0 {
		return true
	}
	d := strings.Join(dirs, "/")
	for r := range e.ix.Roots {
		if e.ix.HoldsUnder(r, d) {
			return true
		}
	}
	return false
}

type reference struct {
	root   int
	dirs   []string
	weight float64
	reason string
}
