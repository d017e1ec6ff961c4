package rank

import (
	"cmp"
	"context"
	"math/bits"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

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

// Candidate is one ranked file.
type Candidate struct {
	File    int32    `json:"-"`
	Root    int      `json:"-"`
	Path    string   `json:"path"`
	Score   float64  `json:"score"`
	Reasons []string `json:"reasons"`

	lexical, prox float64
	// act: its activity as weighed beside nearness (activityShare ×
	// activity, activity.go), where it was weighed.
	act float64
	// co: how much of where the user works it was committed together
	// with (affinity.coChange).
	co float64
	ev evidence
}

// evidence is what a reading of a path rests on, typed, for the rules
// that judge it (standsAlone, outlivesDeletion); reasons are for display.
type evidence struct {
	// dirsWritten: the directories the query wrote, past another
	// machine's prefix; dirsMatched: how many the candidate keeps;
	// dirsKnown: one of them names a directory of the tree; dirs: how the
	// candidate's directories stand to the ones written.
	dirsWritten, dirsMatched int
	dirsKnown                bool
	dirs                     dirReading
	// otherKind: its extension is of another kind, one the tree has;
	// stemKept: its stem is the one written (case and separators aside)
	// and its extension the same or of its family; stemSame: the stem is
	// the one written exactly; distinctName: its name, written exactly,
	// identifies a file by itself.
	otherKind, stemKept, stemSame, distinctName bool
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

// alignAll aligns the query's directories with the directories of many
// candidates ahead of foreignPrefix and the scoring, which then find them
// in rq.alignedAll: a name shared by thousands of files
// (package-info.java in a large Java monorepo) made the alignments most
// of the slowest resolves. The directories are taken in path order, each
// reusing the componentMatch columns of the upper directories it shares
// with the one before (alignColumns), in two halves on two cores. Few
// candidates are left to alignment on demand.
func (e *Engine) alignAll(rq *resolveQuery, cands []candidateFile) {
	if len(rq.dirs) == 0 || len(cands) < alignSplit {
		return
	}
	sc := rq.scratch
	dirs := grow(sc.dirs, len(cands))
	for _, c := range cands {
		dirs = append(dirs, e.file(c.id).dir)
	}
	slices.Sort(dirs) // path order: neighbours share their upper directories
	dirs = slices.Compact(dirs)
	sc.dirs = dirs
	out := grow(sc.aligned, len(dirs))[:len(dirs)]
	sc.aligned = out
	seqs := grow(sc.seqs, len(dirs))[:len(dirs)]
	sc.seqs = seqs
	half := len(dirs) / 2
	var wg sync.WaitGroup
	wg.Go(func() { e.alignColumns(rq, dirs[half:], out[half:], seqs[half:], &sc.columns[1]) })
	e.alignColumns(rq, dirs[:half], out[:half], seqs[:half], &sc.columns[0])
	wg.Wait()
	// The upper half's sequences are numbered after the lower's.
	for k, upper := half, int32(len(sc.columns[0].aligned)); k < len(seqs); k++ {
		if seqs[k] >= 0 {
			seqs[k] += upper
		}
	}
	rq.alignedDirs, rq.alignedAll, rq.alignedSeq = dirs, out, seqs
	if len(dirs) >= len(e.dirInfos)/alignedAtShare {
		if len(sc.at) < len(e.dirInfos) {
			sc.at = make([]int32, len(e.dirInfos))
		}
		for k, d := range dirs {
			sc.at[d] = int32(k + 1)
		}
		sc.atSet = dirs
		rq.alignedAt = sc.at
	}
}

// alignedAtShare: alignAll indexes the directories it aligned by
// directory, rather than leave them to a binary search, when they are at
// least this share of the tree's (a common name's), each of the many
// candidates then finding its own at once: below it, the index would cost
// more to clear than the searches.
const alignedAtShare = 16

// alignColumns sets out[k] to the alignment of the query's directories
// with directory dirs[k], dirs in path order: the componentMatch column of
// each of its directories is computed only where its chain of directories
// leaves the previous one's, and once for each name (a name interned
// once, the column is kept by its strRef: a vendored copy's directories,
// every package's src/ and test/). An alignment depends only on its
// columns: directories whose names match the query's alike (the
// thousands of test fixtures of one package, the copies of a package in
// other places, where only a few names match) are aligned once.
//
// memo is where it keeps the columns and alignments (nil: one of its
// own); what it held before is cleared. seqs[k], when seqs is not nil,
// is the sequence of directory dirs[k]'s columns, whose alignment is
// memo.aligned[seqs[k]]: -1 for a directory deeper than a sequence goes.
func (e *Engine) alignColumns(rq *resolveQuery, dirs []int32, out []dirAlignment, seqs []int32, memo *columnMemo) {
	nq := len(rq.dirs)
	if memo == nil {
		memo = &columnMemo{}
	}
	memo.reset()
	// chain[:prevN] are the previous directory's directories, top first,
	// and chainSeqs[j] the sequence of the columns of chain[:j+1]: a directory
	// overwrites them below the first it shares with it.
	var chain [maxDepth]int32
	var chainSeqs [maxDepth]uint32
	prevN := 0
	cols := make([]float64, maxDepth*nq) // column j: cols[j*nq : (j+1)*nq]
	var dpBuf [32 * 32]float64
	for k, d := range dirs {
		nc := int(e.dirInfos[d].depth)
		if nc > maxDepth {
			p := e.pathOf(d, nil)
			out[k], prevN = alignDirs(&rq.dir, &p), 0
			if seqs != nil {
				seqs[k] = -1
			}
			continue
		}
		// Up from d until a directory the previous chain has at the same
		// depth: the ones above it are its too.
		j, c := nc-1, d
		for ; j >= 0 && (j >= prevN || chain[j] != c); j, c = j-1, e.dirLinks[c].parent {
			chain[j] = c
		}
		same := j + 1
		for j := same; j < nc; j++ {
			col := cols[j*nq : (j+1)*nq]
			di := &e.dirInfos[chain[j]]
			c, ok := memo.byName[di.name]
			if ok {
				copy(col, memo.arena[c.off:int(c.off)+nq])
			} else {
				name, sq := e.str(di.name), e.str(di.sq)
				for i := range nq {
					col[i] = componentMatch(rq.dir.comps[i], name, rq.dir.sq[i], sq)
				}
				c.off = int32(len(memo.arena))
				memo.arena = append(memo.arena, col...)
				if slices.ContainsFunc(col, func(m float64) bool { return m > 0 }) {
					c.id = uint32(len(memo.byName) + 1)
				}
				memo.byName[di.name] = c
			}
			var before uint32
			if j > 0 {
				before = chainSeqs[j-1]
			}
			chainSeqs[j] = memo.extend(before, c.id)
		}
		prevN = nc
		var seq uint32
		if nc > 0 {
			seq = chainSeqs[nc-1]
		}
		if seqs != nil {
			seqs[k] = int32(seq)
		}
		if a := &memo.aligned[seq]; a.ok {
			out[k] = a.alignment
			continue
		}
		out[k] = alignMatched(nq, nc, cols[:nc*nq], alignTable(dpBuf[:], nq, nc))
		memo.aligned[seq] = seqAlignment{out[k], true}
	}
}

// columnMemo is what alignColumns keeps as it aligns: the columns of the
// names it read, the sequences of columns of the directories it met, and
// the alignment of each sequence it aligned.
type columnMemo struct {
	byName  map[strRef]columnRef
	arena   []float64         // the columns, end to end
	next    map[uint64]uint32 // a sequence's id and a column's → the sequence it extends to
	aligned []seqAlignment    // by sequence id, 0 the empty sequence
}

// columnRef is a name's column: where it lies in the arena, and its id
// (0 for a column that matches nothing, so that such names are alike).
type columnRef struct {
	off int32
	id  uint32
}

type seqAlignment struct {
	alignment dirAlignment
	ok        bool
}

func (m *columnMemo) reset() {
	if m.byName == nil {
		m.byName, m.next = map[strRef]columnRef{}, map[uint64]uint32{}
	}
	clear(m.byName)
	clear(m.next)
	m.arena = m.arena[:0]
	m.aligned = append(m.aligned[:0], seqAlignment{})
}

// extend is the id of sequence seq followed by column id col.
func (m *columnMemo) extend(seq, col uint32) uint32 {
	key := uint64(seq)<<32 | uint64(col)
	if s, ok := m.next[key]; ok {
		return s
	}
	s := uint32(len(m.aligned))
	m.aligned = append(m.aligned, seqAlignment{})
	m.next[key] = s
	return s
}

// alignSplit is the fewest candidates a resolve aligns and scores on two
// cores: below it, they are quick on one.
const alignSplit = 2048

// alignment aligns the query's directories with candidate directory d,
// once per query.
func (e *Engine) alignment(rq *resolveQuery, d int32) dirAlignment {
	if k, ok := rq.alignedIndex(d); ok {
		return rq.alignedAll[k]
	}
	a, ok := rq.aligned[d]
	if !ok {
		if rq.aligned == nil {
			rq.aligned = map[int32]dirAlignment{}
		}
		var buf pathBuf
		p := e.pathOf(d, buf[:])
		a = alignDirs(&rq.dir, &p)
		rq.aligned[d] = a
	}
	return a
}

// alignedIndex is where alignAll put directory d's alignment.
func (rq *resolveQuery) alignedIndex(d int32) (int, bool) {
	if rq.alignedAt != nil {
		k := rq.alignedAt[d]
		return int(k) - 1, k > 0
	}
	return slices.BinarySearch(rq.alignedDirs, d)
}

// priceAll prices alignAll's alignments past the foreign prefix: each
// sequence of columns once — a common name's directories are tens of
// thousands, their sequences far fewer — and each directory deeper than
// a sequence goes on its own.
func (rq *resolveQuery) priceAll() {
	if rq.alignedAll == nil {
		return
	}
	sc := rq.scratch
	bySeq := grow(sc.seqPriced, len(sc.columns[0].aligned)+len(sc.columns[1].aligned))
	for _, m := range sc.columns {
		for _, a := range m.aligned {
			var p dirAlign
			if a.ok {
				p = a.alignment.score(rq.foreign)
			}
			bySeq = append(bySeq, p)
		}
	}
	sc.seqPriced = bySeq
	sc.priced = grow(sc.priced, len(rq.alignedAll))[:len(rq.alignedAll)]
	rq.pricedAll = sc.priced
	for k, seq := range rq.alignedSeq {
		if seq < 0 {
			rq.pricedAll[k] = rq.alignedAll[k].score(rq.foreign)
			continue
		}
		rq.pricedAll[k] = bySeq[seq]
	}
}

// dirScore is directory d's alignment priced past the foreign prefix.
func (e *Engine) dirScore(rq *resolveQuery, d int32) dirAlign {
	if k, ok := rq.alignedIndex(d); ok {
		return rq.pricedAll[k]
	}
	return e.alignment(rq, d).score(rq.foreign)
}

// scoreCandidate scores one file as score.go describes: name, directories,
// then proximity to the references.
func (e *Engine) scoreCandidate(rq *resolveQuery, id int32, dist int, symHits map[int32]nameMatch, aff *affinity) (Candidate, bool) {
	f := e.file(id)
	nr := e.nameOf(rq, id, dist, symHits, nil)
	if nr.nm.score == 0 {
		return Candidate{}, false
	}
	reasons := append(make([]string, 0, 3), nr.nm.reason) // room for dirs and nearness
	ev := nr.ev
	lex, da := e.lexicalScore(rq, id, nr.nm)
	if len(rq.dirs) > 0 {
		ev.dirsWritten, ev.dirsMatched, ev.dirs = len(rq.dirs), da.matched, da.reading
		if rq.absolute {
			ev.dirsWritten -= rq.foreign // another machine's prefix is not written by the user
		}
		ev.dirsKnown = rq.dirsKnown
		ev.distinctName = nr.nm.score == 1 && distinctive(e.stemText(f.stem), f.starts)
		if da.matched == 0 && !rq.dirsExist {
			ev.dirs = dirMoved
		}
		reasons = append(reasons, ev.dirs.String())
	}
	near := aff.of(e, id)
	prox := near.value
	if prox > 0 {
		reasons = append(reasons, near.reason)
	}
	c := e.candidate(id, lex+proxWeight*prox, compact(reasons))
	c.lexical, c.prox, c.co = lex, prox, near.co
	c.ev = ev
	return c, true
}

// lexicalScore is a candidate's reading of the path as score.go weighs
// it: its name's (nm), and with directories written, theirs (da, zero
// without).
func (e *Engine) lexicalScore(rq *resolveQuery, id int32, nm nameMatch) (lex float64, da dirAlign) {
	if len(rq.dirs) == 0 {
		return nm.score * bareNameWeight, da
	}
	da = e.dirScore(rq, e.file(id).dir)
	return nm.score * (nameWeight + (1-nameWeight)*da.score), da
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

// idsKey is file f's name and dist as one key, when its stem and
// extension say its name.
func idsKey(f *fileInfo, dist int) (uint64, bool) {
	if f.flags&fileNameSame == 0 || dist < 0 || dist >= 1<<16 {
		return 0, false
	}
	return uint64(uint32(f.stem))<<32 | uint64(f.ext)<<16 | uint64(dist), true
}

// nameOf is file id's nameReading. Read is where the readings of names
// read already are kept (nil: none), so that each is read once for all
// the files sharing it (the tens of thousands of a common name); a file
// found by the symbol it defines has a reading of its own.
func (e *Engine) nameOf(rq *resolveQuery, id int32, dist int, symHits map[int32]nameMatch, read *namesRead) nameReading {
	ids, byIDs := idsKey(e.file(id), dist)
	if dist != bySymbol && read != nil && byIDs {
		if nr, ok := read.byIDs[ids]; ok {
			return nr
		}
	}
	base := e.baseName(id)
	if dist != bySymbol && read != nil && !byIDs {
		if nr, ok := read.byName[nameKey{base, dist}]; ok {
			return nr
		}
	}
	var nr nameReading
	if dist == bySymbol {
		nr.nm = symbolName(symHits[id], rq.ext, base)
	} else {
		nr.nm = scoreName(rq.base, rq.stem, rq.ext, rq.sq, base, e.stemText(e.file(id).stem), dist)
	}
	cStem, cExt := splitExt(base)
	a, _ := extAffinity(rq.ext, cExt)
	if rq.ext != "" {
		_, real := e.extID[squash(rq.ext)]
		nr.ev.otherKind = a == extOther && real // .pyy is a typo, .css another kind of file
	}
	if dist != bySymbol {
		_, _, same := sameStem(rq.stem, cStem, rq.sq, e.stemText(e.file(id).stem))
		nr.ev.stemKept = same && (a == 1 || a == extFamilyAffinity)
		nr.ev.stemSame = rq.stem == cStem
		switch {
		case read == nil:
		case byIDs:
			read.byIDs[ids] = nr
		default:
			read.byName[nameKey{base, dist}] = nr
		}
	}
	return nr
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

// standsAlone reports whether a reading of a path that names no file may
// be the answer by itself, however far it leads: a stale path is as often
// a file renamed or rewritten as a file moved, and a same-named file
// elsewhere is then a confident wrong answer (measured on real renames:
// docs/BENCHMARKS.md, "Resolve a stale, mistyped or foreign path"). It may not when
//   - its extension is of another kind, one the tree has too
//     (gitweb.js is not gitweb.css; login.pyy is a typo of login.py);
//   - the query wrote directories that are places of this tree, it
//     keeps none of them, and its name — written exactly — is not one
//     that identifies a file by itself (distinctive): a name alone,
//     testing/tests/macros.rs, is not serde_core/src/macros.rs, while
//     services/StaticResourceJars.java is the one StaticResourceJars.java
//     wherever it went. Another machine's prefix of an absolute path is
//     not written by the user and does not count; directories the tree
//     has nowhere (a whole layer renamed away) say nothing against it.
//
// It stays a candidate; only history (rank/stale.go) or the user's
// nearness to it can then decide. (A third rule was measured and left
// out: a name many files share, not in the directory written — main.c,
// __init__.py — cost as many right answers as wrong ones it saved.)
func standsAlone(c *Candidate) bool {
	switch {
	case c.ev.otherKind:
		return false
	case c.ev.dirsWritten > 0 && c.ev.dirsMatched == 0 && c.ev.dirsKnown && !c.ev.distinctName:
		return false
	}
	return true
}

// Distinctive names: a squashed stem of at least distinctWords words or
// distinctLetters letters (staticresourcejars, t3506cherrypickff) names
// one file in a tree; macros, deprecated, test_hello name one in many
// trees and two in some.
const (
	distinctWords   = 3
	distinctLetters = 12
)

// distinctive reports whether a squashed stem, cut at its word starts,
// is long enough to identify a file by itself.
func distinctive(sq string, starts uint64) bool {
	return len(sq) >= distinctLetters || bits.OnesCount64(starts) >= distinctWords
}

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

// symbolName scores a candidate found through a symbol as a name match: a
// little below a file named exactly so (symbolNameShare of the symbol's
// find score), and only in the extension family the path asked for.
func symbolName(sh nameMatch, qExt, base string) nameMatch {
	_, ext := splitExt(base)
	a, _ := extAffinity(qExt, ext)
	if a < symbolExtFloor {
		return nameMatch{}
	}
	return nameMatch{score: symbolNameShare * sh.score * a, reason: sh.reason}
}

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

// lead says why the best of the sorted candidates is first (see
// score.go): a lexical lead of ResolveMargin, a lexical tie broken by
// being clearly nearer where the user works, or nothing (a tie, or a
// reading too poor to be meant).
func lead(sorted []Candidate) (Basis, nearness) {
	if len(sorted) == 0 {
		return BasisTie, nearness{}
	}
	top := sorted[0]
	if top.lexical < ResolveMin {
		return BasisTie, nearness{}
	}
	if len(sorted) == 1 {
		return BasisLexical, nearness{}
	}
	next := sorted[1]
	gapLex := top.lexical - next.lexical
	if gapLex >= ResolveMargin {
		return BasisLexical, nearness{}
	}
	if gapLex > -ResolveMargin && clearlyNearer(top.prox, next.prox) {
		return BasisNearer, nearnessOf(&top, &next)
	}
	return BasisTie, nearness{}
}

// confident: the best of the sorted candidates is first for a reason,
// lexical or proximity — what a competing reading (the history's) must
// be measured against.
func confident(sorted []Candidate) bool {
	b, _ := lead(sorted)
	return b != BasisTie
}

// RanksBefore is the one result order of every listing: score, then the
// shorter path (less left unexplained), then byte order so that answers are
// deterministic.
func RanksBefore(scoreA, scoreB float64, pathA, pathB string, rootA, rootB int) bool {
	if scoreA != scoreB {
		return scoreA > scoreB
	}
	if len(pathA) != len(pathB) {
		return len(pathA) < len(pathB)
	}
	if pathA != pathB {
		return pathA < pathB
	}
	return rootA < rootB
}

func better(a, b *Candidate) bool {
	return RanksBefore(a.Score, b.Score, a.Path, b.Path, a.Root, b.Root)
}

// sortedCandidates puts cs in result order (better). It sorts their
// indices and moves each candidate once: a name shared by thousands of
// files (package-info.java) had sort.Slice swap thousands of
// hundred-byte candidates through reflection, a large part of the
// resolve.
func sortedCandidates(cs []Candidate) []Candidate {
	order := make([]int32, len(cs))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		switch {
		case a == b:
			return 0
		case better(&cs[a], &cs[b]):
			return -1
		default:
			return 1 // one file a candidate: no two are equal
		}
	})
	out := make([]Candidate, len(cs))
	for i, k := range order {
		out[i] = cs[k]
	}
	return out
}

// ResultLimit is the caller's limit, or DefaultLimit when it names none.
func ResultLimit(n int) int {
	if n <= 0 {
		return DefaultLimit
	}
	return n
}

func (e *Engine) candidate(id int32, score float64, reasons []string) Candidate {
	f := e.file(id)
	return Candidate{File: id, Root: int(f.root), Path: e.filePath(id), Score: score, Reasons: reasons}
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

// moduleExts are the files a relative import specifier names, in the
// order Node and TypeScript try them: the specifier plus an extension,
// then a directory's index.
var moduleExts = []string{".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".json", ".vue", ".svelte"}

// scriptModule reports whether a document's relative paths are import
// specifiers (JavaScript, TypeScript and the frameworks that compile to
// them).
func scriptModule(doc string) bool {
	switch strings.ToLower(path.Ext(doc)) {
	case ".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".mts", ".cts", ".vue", ".svelte", ".astro":
		return true
	}
	return false
}

// moduleFile is the file a relative import specifier names (spec,
// root-relative, read beside its document): the specifier plus an
// extension, its directory's index, or — a ".js" specifier in
// TypeScript's ESM — the ".ts" file of that name.
func (e *Engine) moduleFile(root int, spec string) (int32, bool) {
	stem := spec
	for _, js := range []string{".js", ".jsx", ".mjs", ".cjs"} {
		if s, ok := strings.CutSuffix(spec, js); ok {
			stem = s
			break
		}
	}
	for _, base := range []string{stem, stem + "/index"} {
		for _, ext := range moduleExts {
			if id, ok := e.fileID(root, base+ext); ok {
				return id, true
			}
		}
	}
	return 0, false
}

// localPath is the local absolute path an absolute query names, or "" for
// one that cannot be local (a drive letter on a Unix machine).
func localPath(q PathQuery) string {
	if q.Drive && filepath.Separator == '/' {
		return ""
	}
	return string(filepath.Separator) + filepath.FromSlash(q.Path)
}

// parentDir is the directory of a root-relative path, "" at the top level.
func parentDir(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
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

func splitDirs(d string) []string {
	if d == "" {
		return nil
	}
	return strings.Split(d, "/")
}

type reference struct {
	root   int
	dirs   []string
	weight float64
	reason string
}

// refFile maps a referring path (absolute, file:// URI, or root-relative) to
// a root and a root-relative path. It need not exist: a document may be new.
func (e *Engine) refFile(s string) (root int, rel string, ok bool) {
	if strings.TrimSpace(s) == "" {
		return 0, "", false
	}
	q, err := ParsePath(s)
	if err != nil {
		return 0, "", false
	}
	if q.Absolute {
		abs := localPath(q)
		if abs == "" {
			return 0, "", false
		}
		return e.ix.RootOf(abs)
	}
	if q.Up > 0 {
		return 0, "", false
	}
	for r := range e.ix.Roots {
		if _, ok := e.fileID(r, q.Path); ok {
			return r, q.Path, true
		}
	}
	return 0, q.Path, true
}

func compact(rs []string) []string {
	out := rs[:0]
	for _, r := range rs {
		if r != "" {
			out = append(out, r)
		}
	}
	return out
}

func round3(f float64) float64 {
	return float64(int64(f*1000+0.5)) / 1000
}
