package rank

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
)

// A find query is read three ways, and each file keeps its best reading:
//
//  1. against each distinct squashed stem (file names repeat: a tree has
//     far fewer names than files) — the name classes below;
//  2. across the whole path, directories and name together
//     (pathmatch.go: "nethttpserver", "buicatfil", "js color", a query
//     naming a directory), run beside 1 on another core and scoring at
//     most pathCeiling, under every literal reading of the name;
//  3. when neither fits well, 2 again with one edit ("nethtpserver").
//
// The name classes, best first (findClasses; a stem takes the first that
// fits):
//
//	1.00                 exact: the squashed query is the squashed stem
//	0.80 + 0.15×cover    prefix of the stem ("authmid" → auth_middleware)
//	0.78 + 0.15×cover    every query word is a word of the stem, in order
//	0.75 + 0.15×cover    substring starting at a word of the stem
//	0.70 + 0.15×cover    every query word inside the stem, in order, each
//	                     at a word start or minInnerRun bytes long
//	0.64 + 0.15×cover    initials: consecutive prefixes of the stem's words
//	                     ("stametexpautcontes" → StatsdMetricsExportAuto…);
//	                     −0.03 for each stem word skipped in between
//	0.60 + 0.15×cover    substring inside a word
//	0.54 – 0.74          typo: findTypoWeight × typoScore, the squashed
//	                     query within the edit budget of the stem (see
//	                     score.go): "librrycontentfiltertests"
//	0.30 + 0.20×cover    a subsequence whose runs begin words or are
//	                     minInnerRun long (fzf's notion with a floor:
//	                     scattered letters are no match), the last resort
//
// cover = len(query)/len(stem) prefers the name the query explains most of.
// The rules these numbers keep (each a test in classes_test.go):
//
//   - exact above all: no other reading of any kind reaches 1.
//   - literal classes in order at equal cover: the floors from prefix to
//     inner substring fall in the order listed and share cover's width,
//     so of two names the query explains equally, the more literal
//     reading wins. Cover is wider than the steps between floors on
//     purpose: a query that is most of a name beats one that is a sliver
//     of a longer name read more literally.
//   - a path reading never passes a name the query begins: pathCeiling is
//     the prefix floor. It can pass a word-start substring that explains
//     little of a long name — "colorjs" lists app/color.js (all of its
//     name and extension) before use-colorjs-theme-provider.ts.
//   - a typo never passes a word-start substring: typoCeiling is below
//     that floor.
//   - a subsequence is the last resort: its ceiling is below every other
//     class's floor, typos included.
//   - tie-breaks never cross a class: tieBreak's case, test and nearness
//     adjustments together stay under the smallest step between floors.
//
// Ties are broken by tieBreak — the name as typed first (its case and its
// separators: "get_parent" lists get_parent.py before getParent.py, which
// squash alike), tests and fixtures last — then by the shorter path.
//
// Directory terms ("hpack/static") must each match a directory of the
// path, innermost term nearest the file, on the directory ladder resolve
// reads too (weights.go: equal, a prefix, a substring of minInnerRun bytes
// or more, one typo with the same numbers), each directory skipped costing
// what a directory left out costs resolve (the query reads as a path
// fragment); the file's score is then name × (dirTermsFloor + (1 −
// dirTermsFloor) × dirs). Files whose directories miss a term keep
// dirTermsMissed of their score: the name is still evidence.

// FindRequest is find/files' input.
type FindRequest struct {
	Query     string
	Limit     int
	Threshold float64
	// Exact turns off typo, initials and subsequence matching.
	Exact bool
	// Impl prefers implementation files over headers.
	Impl bool
	// Current is the file the user is in, and History where they have
	// been (affinity.go): among equally good matches the nearer comes
	// first. With nothing typed, Find lists History's files in its order,
	// Current left out. Authored: what the user committed lately
	// (Authorship).
	Current  string
	History  []Visit
	Authored Authored
	// InCurrent: the client named Current as the file the user is in
	// now (an editor's active file), not the last one they focused. No
	// one searches for the file they are in, so it gets no lift from
	// nearness: the other copies of its name come first. (From the last
	// focus it keeps its lift: the user may have left it, and go back.)
	InCurrent bool

	// oneWordTypos: no typo reading of a query of several words (locate's
	// file step, where such a reading is weak evidence — fileLike of a
	// typo's score — and it cost a large share of a word question's time).
	oneWordTypos bool
}

// Match is one find result.
type Match struct {
	File      int32    `json:"-"`
	Root      int      `json:"-"`
	Path      string   `json:"path"`
	Score     float64  `json:"score"`
	MatchedIn []string `json:"matchedIn"`
	Reason    string   `json:"reason,omitempty"`
	// raw: a path reading's score before tieBreak and nearness (pathSink).
	raw float64
}

// FindResult is find/files' output.
type FindResult struct {
	Matches       []Match
	TotalSearched int
	Truncated     bool
	Rerank        RerankStats
}

// Find is the typo-tolerant fuzzy file search.
func (e *Engine) Find(ctx context.Context, req FindRequest) (*FindResult, error) {
	if strings.TrimSpace(req.Query) == "" {
		return e.visited(req), nil
	}
	q, err := ParseFind(req.Query)
	if err != nil {
		return nil, err
	}
	f := finder{e: e, q: &q, req: req, limit: ResultLimit(req.Limit), threshold: req.Threshold,
		aff: e.newAffinity(req.Current, req.History, req.Authored), active: e.hasActivity()}
	f.copyLift = e.orderCopies(&q, f.aff)
	if req.InCurrent && f.aff != nil && f.aff.current != nil {
		f.inFile, f.inCurrent = e.fileID(f.aff.currentRoot, f.aff.currentRel)
	}
	if f.threshold <= 0 {
		f.threshold = DefaultThreshold
	}
	f.keep = f.limit
	if e.rr != nil {
		f.keep = max(f.limit, e.rerankK()) // the model may lift one from below the limit
	}
	f.keep = min(f.keep, max(e.Len(), 1)) // no more answers than files
	// Path readings need nothing from the name readings, so they run beside
	// them on another core (and are called off when names beat them).
	pctx, cancelPaths := context.WithCancel(ctx)
	defer cancelPaths()
	paths := f.startPaths(pctx)
	hits, err := f.names(ctx)
	if err != nil {
		return nil, err
	}
	if !e.exhaustive && (f.abovePaths >= f.keep && !f.factors() || f.factors() && f.namesAbovePaths(hits)) {
		cancelPaths()
	}
	pathHits, err := paths()
	if err != nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	out, seen := f.merge(hits, pathHits)
	if out, err = f.typoFallback(ctx, out); err != nil {
		return nil, err
	}
	st := e.rerankBand(ctx, req.Query, len(out),
		func(i int) float64 { return out[i].Score },
		func(i int, s float64) { out[i].Score = s },
		func(i int) string { return modelText(out[i].Path) },
		func(order []int) {
			band := make([]Match, len(order))
			for i, o := range order {
				band[i] = out[o]
			}
			copy(out, band)
		})
	if m, ok := e.oldPathMatch(req.Query); ok {
		// A path the file had once: today's file first.
		out = prependMatch(out, m)
	}
	truncated := seen > len(out)
	if len(out) > f.limit {
		out, truncated = out[:f.limit], true
	}
	for i := range out {
		out[i].Score = round3(min(out[i].Score, 1))
	}
	return &FindResult{Matches: out, TotalSearched: e.Len(), Truncated: truncated, Rerank: st}, nil
}

// finder is one find request under way.
type finder struct {
	e           *Engine
	q           *FindQuery
	req         FindRequest
	limit, keep int
	threshold   float64
	aff         *affinity
	active      bool // activity orders ties (a root has a history record)
	aboveTypos  int  // files no typo reading can outrank (exact when no dir or ext factor applies)
	abovePaths  int  // likewise for path readings
	// exts keeps the extension affinity last scored.
	exts extMemo
	// copyLift is what the fitted order (copyorder.go) adds to each copy
	// of the name asked for in place of nearness; nil when it does not
	// order them.
	copyLift map[int32]float64
	// inFile is the file the user is in (inCurrent: the request says
	// so, FindRequest.InCurrent): it gets no nearness.
	inFile    int32
	inCurrent bool
}

// factors: directory terms, an extension or the impl preference can lower
// a name's score, so counts of names above a ceiling prove nothing.
func (f *finder) factors() bool { return len(f.q.Dirs) > 0 || f.q.Ext != "" || f.req.Impl }

// surelyAbove reports whether a name scoring s outranks, whatever tieBreak
// and nearness do to either, every reading that scores at most ceiling.
func surelyAbove(s, ceiling float64) bool { return s-auxPenalty > ceiling+maxLift }

// namesAbovePaths reports whether, with the factors that can lower a
// name's score applied to each file (directory terms, an extension, the
// impl preference: scoreFile, as merge applies them), keep files of the
// name readings still outrank every path reading: then no path reading
// can enter the answers. Merge scores every such file anyway; this
// counts, while the path readings run on the other core, only until it
// has enough. "src/find" or "tests/configuration" in a large tree
// read every team's directories for path readings their names beat.
func (f *finder) namesAbovePaths(hits map[int32]nameMatch) bool {
	if f.abovePaths < f.keep { // the names, before any factor lowers them
		return false
	}
	n := 0
	for sid, nm := range hits {
		if !surelyAbove(nm.score, pathCeiling) {
			continue
		}
		for _, id := range f.e.stemFiles(sid) {
			if surelyAbove(f.e.scoreFile(f.q, id, nm, f.req.Impl, nil, &f.exts).Score, pathCeiling) {
				if n++; n >= f.keep {
					return true
				}
			}
		}
	}
	return false
}

// pathSink takes path readings into a heap keyed by the score each will
// have in the answer — tieBreak and nearness added as merge adds them —
// so that no cut made on the heap is undone by them (prune_test.go).
type pathSink struct {
	f   *finder
	top *topK
}

func (f *finder) newPathSink() *pathSink {
	if f.e.exhaustive {
		return &pathSink{f, newUniqueTopK(f.e.Len() + 1)} // never full: nothing is cut
	}
	return &pathSink{f, newUniqueTopK(f.keep)}
}

// push keeps m, scored before the tie-breaks, when it passes the
// threshold and ranks among the best, with the answer's score; m.raw
// keeps the score it came with.
func (k *pathSink) push(m Match) {
	s, ok := k.f.settle(m.File, m.Score, k.top)
	if !ok {
		return
	}
	m.raw, m.Score = m.Score, s
	k.top.push(m)
}

// settle turns a reading's score s of file id into the answer's: the
// tie-breaks, the threshold (ok false below it), then nearness — not
// computed when even the most of it could not lift the reading into top.
// The one place find's readings get their final score (merge, pathSink).
func (f *finder) settle(id int32, s float64, top *topK) (float64, bool) {
	if top.full() && !f.e.exhaustive {
		// Before the tie-breaks read the name (a cache miss a file in a
		// large tree: "tests/configuration" merges the many files
		// named with "configuration"), a reading that passes the
		// threshold without them and could not enter top with the most
		// they and nearness add is counted and dropped, as below.
		lo, lift := s-f.e.auxPenaltyOf(id, f.aff), float64(caseBonus)
		if f.aff != nil {
			lift += affinityBonus
		}
		if f.active {
			lift += activityBonus
		}
		if lo >= f.threshold && lo+lift < top.worst().Score {
			top.seen++
			return 0, false
		}
	}
	s = f.e.tieBreak(f.q, id, s, f.aff)
	if s < f.threshold {
		return 0, false
	}
	if f.aff == nil && !f.active {
		return s, true
	}
	if top.full() && s+affinityBonus+activityBonus < top.worst().Score && !f.e.exhaustive {
		top.seen++ // nothing near where the user works lifts it in
		return 0, false
	}
	if f.inCurrent && id == f.inFile {
		return s, true // the file the user is in is not the one they look for
	}
	if lift, ok := f.copyLift[id]; ok {
		return s + lift, true // a copy of the name, as the fitted order places it
	}
	return s + f.e.nearness(id, f.aff), true
}

// nearness is what where the user works (aff) and file id's activity add
// to its tied score: with aff, nearness and activity as the repository's
// own work weighs them (tieweights.go); without, activity's share.
func (e *Engine) nearness(id int32, aff *affinity) float64 {
	if aff == nil {
		return affinityBonus * activityShare(nil) * e.activity(id)
	}
	tw := e.tieWeights(int(e.file(id).root))
	return affinityBonus * (tw.near*aff.of(e, id).value + tw.act*e.activity(id))
}

// beaten reports whether no reading scoring at most s before the
// tie-breaks can enter any more: below the threshold, or below the worst
// kept when the heap is full (strictly: an equal score may still win on
// its path).
func (k *pathSink) beaten(s float64) bool {
	if k.f.e.exhaustive {
		return false
	}
	return s+caseBonus < k.f.threshold || k.top.full() && k.top.worst().Score > s+maxLift
}

// startPaths starts the path readings (pathmatch.go) in the background;
// the returned func waits for them.
func (f *finder) startPaths(ctx context.Context) func() (map[int32]Match, error) {
	pq := newPathQuery(f.req.Query)
	if pq == nil || f.req.Exact {
		return func() (map[int32]Match, error) { return nil, nil }
	}
	sink := f.newPathSink()
	done := make(chan error, 1)
	go func() { done <- f.e.pathReadings(ctx, pq, sink, f.req.Impl) }()
	return func() (map[int32]Match, error) {
		if err := <-done; err != nil {
			return nil, err
		}
		out := make(map[int32]Match, len(sink.top.h))
		for _, m := range sink.top.h {
			out[m.File] = m // settled: m.raw is the reading's score, m.Score the answer's
		}
		return out, nil
	}
}

// names reads the query against every distinct name: the literal classes,
// then typos, which score at most typoCeiling — so the trigram search is
// skipped when enough files already beat that.
func (f *finder) names(ctx context.Context) (map[int32]nameMatch, error) {
	e, q := f.e, f.q
	qmask := charMask(q.Squashed)
	hits := map[int32]nameMatch{}
	for sid := range e.stems {
		if sid%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if e.stemMasks[sid]&qmask != qmask {
			continue
		}
		if nm := matchStem(q, e.stemName(int32(sid)), f.req.Exact); nm.score > 0 {
			hits[int32(sid)] = nm
			n := len(e.stemFiles(int32(sid)))
			if surelyAbove(nm.score, typoCeiling) {
				f.aboveTypos += n
			}
			if surelyAbove(nm.score, pathCeiling) {
				f.abovePaths += n
			}
		}
	}
	if b := typoBudget(len(q.Squashed)); !f.req.Exact && b > 0 && (f.factors() || f.aboveTypos < f.limit || e.exhaustive) {
		for sid, d := range e.typoStems(q.Squashed, b) {
			nm := nameMatch{findTypoWeight * typoScore(d, max(len(q.Squashed), len(e.stemText(sid)))), findTypo.label}
			if prev, ok := hits[sid]; !ok || prev.score < nm.score {
				hits[sid] = nm
			}
		}
	}
	return hits, nil
}

// merge scores the files of every reading — name, path, a symbol the file
// defines — each file taking its best, into a bounded heap; it returns
// them best first and how many were pushed.
func (f *finder) merge(hits map[int32]nameMatch, paths map[int32]Match) ([]Match, int) {
	e, q, impl := f.e, f.q, f.req.Impl
	symHits := e.symbolFiles(q, impl)
	top := newTopK(f.keep)
	runs, n := f.namedRuns(hits)
	var halves []*mergeHalf
	if split := cmp.Or(e.mergeSplit, alignSplit); n >= split && n > 1 {
		// The files of names many share (index.js, package-info.java)
		// in two halves on two cores, each into its own top: a file
		// kept by neither half's top would be kept by no top of them
		// all, since each half's worst ranks no higher than the whole's.
		memo := memoizes(q.Dirs) && !e.exhaustive
		a, b := splitRuns(runs, n)
		var other *mergeHalf
		var wg sync.WaitGroup
		wg.Go(func() { other = f.mergeHalf(b, paths, symHits, newTopK(f.keep), memo) })
		halves = append(halves, f.mergeHalf(a, paths, symHits, top, memo))
		wg.Wait()
		seen := top.seen + other.top.seen
		for _, m := range other.top.h {
			top.push(m)
		}
		top.seen = seen
		halves = append(halves, other)
	} else {
		halves = append(halves, f.mergeHalf(runs, paths, symHits, top, false))
	}
	for _, h := range halves {
		for _, id := range h.fromPaths {
			delete(paths, id)
		}
		for _, id := range h.fromSymbols {
			delete(symHits, id)
		}
	}
	for id, sh := range symHits {
		m := e.scoreFile(q, id, sh, impl, nil, &f.exts)
		m.MatchedIn = inSymbol
		if len(q.Dirs) > 0 && m.Score < sh.score*dirTermsFloor {
			continue // directory terms the file does not match
		}
		f.push(m, paths, top)
		delete(paths, id)
	}
	for _, m := range paths {
		top.push(m) // settled by the path sink
	}
	return top.sorted(), top.seen
}

// namedRun is the files of one name the query matched, scored alike.
type namedRun struct {
	ids []int32
	nm  nameMatch
}

// namedRuns are the files of the names hit, in the names' order (a
// half of them is then the same whatever order the map gave), and how
// many.
func (f *finder) namedRuns(hits map[int32]nameMatch) ([]namedRun, int) {
	sids := slices.Sorted(maps.Keys(hits))
	runs := make([]namedRun, 0, len(sids))
	n := 0
	for _, sid := range sids {
		ids := f.e.stemFiles(sid)
		runs = append(runs, namedRun{ids, hits[sid]})
		n += len(ids)
	}
	return runs, n
}

// splitRuns cuts runs of n files in two of n/2 and the rest.
func splitRuns(runs []namedRun, n int) (a, b []namedRun) {
	half := n / 2
	for i, r := range runs {
		if half < len(r.ids) {
			a = append(slices.Clone(runs[:i]), namedRun{r.ids[:half], r.nm})
			b = append([]namedRun{{r.ids[half:], r.nm}}, runs[i+1:]...)
			return a, b
		}
		half -= len(r.ids)
	}
	return runs, nil
}

// mergeHalf is what merging some of the named files left: the top they
// were pushed into, and the files whose path reading or symbol reading
// they took (to be dropped from those maps, which it only reads: the
// other half reads them at the same time).
type mergeHalf struct {
	top                    *topK
	fromPaths, fromSymbols []int32
}

// mergeHalf scores runs' files into top, a symbol reading of a file
// standing in when better; memo: directory terms read through a memo of
// its own.
func (f *finder) mergeHalf(runs []namedRun, paths map[int32]Match, symHits map[int32]nameMatch, top *topK, memo bool) *mergeHalf {
	e, q, impl := f.e, f.q, f.req.Impl
	h := &mergeHalf{top: top}
	var dirTerms *dirTermsMemo
	if memo {
		dirTerms = dirTermsMemos.take()
		dirTerms.reset(e, q.Dirs)
		defer dirTermsMemos.put(dirTerms)
	}
	var exts extMemo
	for _, r := range runs {
		for _, id := range r.ids {
			m := e.scoreFile(q, id, r.nm, impl, dirTerms, &exts)
			if sh, ok := symHits[id]; ok {
				h.fromSymbols = append(h.fromSymbols, id)
				if s := e.scoreFile(q, id, sh, impl, dirTerms, &exts); s.Score > m.Score {
					m.Score, m.Reason = s.Score, s.Reason
				}
				m.MatchedIn = append(slices.Clone(m.MatchedIn), "symbol")
			}
			if _, ok := paths[id]; ok {
				h.fromPaths = append(h.fromPaths, id)
			}
			f.push(m, paths, top)
		}
	}
	return h
}

// push takes a name or symbol reading into top (scored before the
// tie-breaks); a better path reading of the same file, settled by the
// path sink already, stands in for it.
func (f *finder) push(m Match, paths map[int32]Match, top *topK) {
	if pm, ok := paths[m.File]; ok && pm.raw > m.Score {
		top.push(pm)
		return
	}
	if s, ok := f.settle(m.File, m.Score, top); ok {
		m.Score = s
		top.push(m)
	}
}

// typoFallback: when nothing fits well, the path readings again with one
// edit (in each word), merged with what there is. A query of several
// words that some file fits exactly, however weakly, is not read again:
// each word read is evidence, and an edit in each of several words
// admits many more files than in one (it had tripled the time of locate's
// word questions on Go's tree).
func (f *finder) typoFallback(ctx context.Context, out []Match) ([]Match, error) {
	pq := newPathQuery(f.req.Query)
	if pq == nil || f.req.Exact || len(pq.tokens) > 1 && f.req.oneWordTypos ||
		len(out) > 0 && (out[0].Score >= pathSpanBase || len(pq.tokens) > 1) {
		return out, nil
	}
	sink := f.newPathSink()
	tt := sink.top
	if err := f.e.pathTypos(ctx, pq, sink, f.req.Impl); err != nil {
		return nil, err
	}
	if len(tt.h) == 0 {
		return out, nil
	}
	best := map[int32]Match{}
	for _, m := range append(out, tt.h...) {
		if b, ok := best[m.File]; !ok || m.Score > b.Score {
			best[m.File] = m
		}
	}
	top := newTopK(f.keep)
	for _, m := range best {
		top.push(m)
	}
	return top.sorted(), nil
}

// visited is Find with nothing typed: the history's files in the order
// given (the service gives the most recent first), each once, only files
// of the index, the current one left out — what a picker shows before
// the first keystroke.
func (e *Engine) visited(req FindRequest) *FindResult {
	limit := ResultLimit(req.Limit)
	res := &FindResult{Matches: []Match{}, TotalSearched: e.Len()}
	curRoot, curRel, curOK := e.refFile(req.Current)
	seen := map[int32]bool{}
	for _, v := range req.History {
		root, rel, ok := e.refFile(v.File)
		if !ok || curOK && root == curRoot && rel == curRel {
			continue
		}
		id, ok := e.fileID(root, rel)
		if !ok || seen[id] {
			continue
		}
		seen[id] = true
		if len(res.Matches) == limit {
			res.Truncated = true
			break
		}
		res.Matches = append(res.Matches, Match{File: id, Root: root, Path: rel, Score: 1, MatchedIn: inHistory, Reason: "history:recent"})
	}
	return res
}

// MatchedIn values are shared, never modified.
var (
	inFilename   = []string{"filename"}
	inFileAndDir = []string{"filename", "directory"}
	inDirAndFile = []string{"directory", "filename"}
	inSymbol     = []string{"symbol"}
	inHistory    = []string{"history"}
)

// scoreFile applies directory terms, the extension and the impl preference
// to a name match.
//
// dirTerms, when not nil, reads the directory terms (q.Dirs) for many
// files; exts keeps the last extension's affinity to q's.
func (e *Engine) scoreFile(q *FindQuery, id int32, nm nameMatch, impl bool, dirTerms *dirTermsMemo, exts *extMemo) Match {
	f := e.file(id)
	score := nm.score
	in := inFilename
	if len(q.Dirs) > 0 {
		var d float64
		if dirTerms != nil {
			d = dirTerms.of(e, f.dir)
		} else {
			var buf pathBuf
			d = matchDirTerms(q.Dirs, e.pathOf(f.dir, buf[:]).sq)
		}
		if d > 0 {
			score *= dirTermsFloor + (1-dirTermsFloor)*d
			in = inFileAndDir
		} else {
			score *= dirTermsMissed
		}
	}
	if q.Ext != "" {
		if a := exts.affinity(q.Ext, e.writtenExt(id)); a < 1 {
			// the extension's affinity, from extOther up to 1, scaled
			// into findExtFloor..1: a name typed with an extension still
			// names the file when the extension differs.
			score *= findExtFloor + (1-findExtFloor)*(a-extOther)/(1-extOther)
		}
	}
	if impl && isHeader(fileExt(e.baseName(id))) {
		score *= implHeaderFactor
	}
	return Match{File: id, Root: int(f.root), Path: e.filePath(id), Score: score, MatchedIn: in, Reason: nm.reason}
}

// extMemo is the affinity of the last extension scored against a
// query's (extAffinity): the files of a name many share mostly share
// their extension too, and the affinity of two that differ reads tables.
type extMemo struct {
	q, ext string
	a      float64
}

func (m *extMemo) affinity(q, ext string) float64 {
	if m.q != q || m.ext != ext || m.a == 0 {
		m.a, _ = extAffinity(q, ext)
		m.q, m.ext = q, ext
	}
	return m.a
}

func (e *Engine) tieBreak(q *FindQuery, id int32, score float64, aff *affinity) float64 {
	if q.Case != "" && strings.Contains(e.baseName(id), q.Case) {
		score += caseBonus
	}
	return score - e.auxPenaltyOf(id, aff)
}

// auxPenaltyOf is what tieBreak takes from file id for being a test,
// fixture or generated file: nothing when the user works among them.
func (e *Engine) auxPenaltyOf(id int32, aff *affinity) float64 {
	if e.file(id).flags&fileAux != 0 && (aff == nil || !aff.amongAux) {
		return auxPenalty
	}
	return 0
}

func matchBefore(a, b *Match) bool {
	return RanksBefore(a.Score, b.Score, a.Path, b.Path, a.Root, b.Root)
}

// topK keeps the k best matches in a heap whose root is the worst kept, so
// a query matching thousands of files never sorts them all.
type topK struct {
	k    int
	h    []Match
	seen int
	// pos, when kept, holds each file's place in h: a file read two ways
	// (its directory, and its words) keeps its better reading in one
	// place instead of taking two.
	pos map[int32]int
}

// newUniqueTopK is newTopK keeping each file once.
func newUniqueTopK(k int) *topK {
	t := newTopK(k)
	t.pos = map[int32]int{}
	return t
}

// newTopK keeps the k best; its heap grows as matches come (a caller may
// ask for a limit of millions, and most queries match a few).
func newTopK(k int) *topK { return &topK{k: k, h: make([]Match, 0, min(k, topKInitial))} }

// topKInitial is the heap's first capacity: the default limit's worth and
// then some.
const topKInitial = 64

func (t *topK) full() bool    { return len(t.h) == t.k }
func (t *topK) worst() *Match { return &t.h[0] }

func (t *topK) push(m Match) {
	t.seen++
	if t.pos != nil {
		if i, ok := t.pos[m.File]; ok {
			if matchBefore(&m, &t.h[i]) {
				t.h[i] = m
				t.down(i) // better: further from the root, the worst
			}
			return
		}
	}
	if len(t.h) < t.k {
		t.h = append(t.h, m)
		t.place(len(t.h) - 1)
		t.up(len(t.h) - 1)
		return
	}
	if !matchBefore(&m, &t.h[0]) {
		return
	}
	if t.pos != nil {
		delete(t.pos, t.h[0].File)
	}
	t.h[0] = m
	t.place(0)
	t.down(0)
}

// place records where h[i] is, when places are kept.
func (t *topK) place(i int) {
	if t.pos != nil {
		t.pos[t.h[i].File] = i
	}
}

func (t *topK) swap(i, j int) {
	t.h[i], t.h[j] = t.h[j], t.h[i]
	t.place(i)
	t.place(j)
}

// worse reports whether h[i] ranks below h[j] (the heap's order).
func (t *topK) worse(i, j int) bool { return matchBefore(&t.h[j], &t.h[i]) }

func (t *topK) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !t.worse(i, p) {
			return
		}
		t.swap(i, p)
		i = p
	}
}

func (t *topK) down(i int) {
	for {
		l, w := 2*i+1, i
		if l < len(t.h) && t.worse(l, w) {
			w = l
		}
		if r := l + 1; r < len(t.h) && t.worse(r, w) {
			w = r
		}
		if w == i {
			return
		}
		t.swap(i, w)
		i = w
	}
}

func (t *topK) sorted() []Match {
	out := append([]Match(nil), t.h...)
	sort.Slice(out, func(a, b int) bool { return matchBefore(&out[a], &out[b]) })
	return out
}

// matchStem scores the name part of q against one distinct stem.
func matchStem(q *FindQuery, st stemName, exact bool) nameMatch {
	Q, S := q.Squashed, st.text
	cover := float64(len(Q)) / float64(max(len(S), 1))
	if cover > 1 {
		cover = 1
	}
	if Q == S {
		return findExact.match(1)
	}
	if strings.HasPrefix(S, Q) {
		return findPrefix.match(cover)
	}
	if !isSubsequence(Q, S) {
		return nameMatch{} // every reading below reads Q as a subsequence of S
	}
	var wb stemWords
	w := st.words(&wb)
	if len(q.Words) > 1 && wordsInOrder(q.Words, w) {
		return findWords.match(cover)
	}
	if i := strings.Index(S, Q); i >= 0 {
		if st.at(i) {
			return findWordStart.match(cover)
		}
		if len(q.Words) <= 1 {
			return findInner.match(cover)
		}
	}
	if len(q.Words) > 1 && st.wordsInside(q.Words) {
		return findWordsInside.match(cover)
	}
	if exact {
		return nameMatch{}
	}
	if skips, ok := initials(Q, w); ok {
		m := findInitials.match(cover)
		m.score -= initialsSkipCost * float64(skips)
		return m
	}
	if strings.Contains(S, Q) {
		return findInner.match(cover)
	}
	if st.fuzzy(Q) {
		return findFuzzy.match(cover)
	}
	return nameMatch{}
}

// stemWords holds a stem's words without allocating: the stem is cut at
// its word starts, which its mask knows up to byte 64.
type stemWords [65]string

// words cuts the squashed stem at its word starts (past byte 64 the
// rest is one word), into buf.
func (st stemName) words(buf *stemWords) []string {
	w := buf[:0]
	from := 0
	for i := 1; i < len(st.text) && i < 64; i++ {
		if startsWord(st.starts, i) {
			w = append(w, st.text[from:i])
			from = i
		}
	}
	return append(w, st.text[from:])
}

func wordsInOrder(q, w []string) bool {
	j := 0
	for _, qw := range q {
		for j < len(w) && w[j] != qw {
			j++
		}
		if j == len(w) {
			return false
		}
		j++
	}
	return true
}

// minInnerRun is the shortest run of query letters that counts as
// evidence inside a word: "util" in "ioutil" is, a lone "i" or "os" in the
// middle of "mingwnosymbols" is not (it is how junk matches arise).
const minInnerRun = 3

// at reports whether position i of the squashed stem starts a word.
func (st stemName) at(i int) bool { return startsWord(st.starts, i) }

// wordsInside reports whether every query word occurs in the stem, in
// order, each at a word start or at least minInnerRun bytes long.
func (st stemName) wordsInside(q []string) bool {
	at := 0
	for _, qw := range q {
		found := false
		for i := at; i+len(qw) <= len(st.text); i++ {
			if strings.HasPrefix(st.text[i:], qw) && (len(qw) >= minInnerRun || st.at(i)) {
				at, found = i+len(qw), true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// initials reports whether q can be read as non-empty prefixes of words of
// w, in order, starting with the first word; skips counts words left out
// between used ones (the fewest possible). A memoised search over (query
// offset, word) keeps it linear in practice.
func initials(q string, w []string) (skips int, ok bool) {
	if len(w) < 2 || len(q) == 0 || len(w[0]) == 0 || q[0] != w[0][0] {
		return 0, false
	}
	const unknown, impossible = -1, 1 << 30
	var buf [1024]int
	memo := table(buf[:], (len(q)+1)*(len(w)+1), unknown)
	// best(qi, wi): fewest skips to read q[qi:] from words w[wi:], where
	// word wi is used next (skipping happens in the caller).
	var best func(qi, wi int) int
	best = func(qi, wi int) int {
		if qi == len(q) {
			return 0
		}
		if wi >= len(w) {
			return impossible
		}
		k := qi*(len(w)+1) + wi
		if memo[k] != unknown {
			return memo[k]
		}
		res := impossible
		word := w[wi]
		for l := 1; l <= len(word) && qi+l <= len(q) && q[qi+l-1] == word[l-1]; l++ {
			if qi+l == len(q) {
				res = 0
				break
			}
			for next := wi + 1; next < len(w); next++ {
				if r := best(qi+l, next); r != impossible {
					res = min(res, r+next-wi-1)
				}
			}
		}
		memo[k] = res
		return res
	}
	if r := best(0, 0); r != impossible {
		return r, true
	}
	return 0, false
}

// fuzzy reports whether q is a subsequence of the stem whose runs (the
// stretches of consecutive letters) each begin a word or are at least
// minInnerRun long — fzf's notion with a floor, so that letters scattered
// through the middle of words ("ioutil" in condition_util) are no match.
// The one exception is a dropped letter: a short run right after a gap
// of one byte ("midlware": mid·l·ware in middleware), as long as such
// runs hold at most a quarter of the query.
func (st stemName) fuzzy(q string) bool {
	s := st.text
	if len(q) == 0 || !isSubsequence(q, s) {
		return false
	}
	const unknown, impossible = -1, 1 << 20
	// cost[i*(len(s)+1)+j]: fewest bytes in dropped-letter runs needed to
	// read q[i:] from s[j:], where s[j-1] ended the previous run.
	var buf [2048]int32
	cost := table(buf[:], (len(q)+1)*(len(s)+1), unknown)
	var read func(i, j int) int32
	read = func(i, j int) int32 {
		if i == len(q) {
			return 0
		}
		k := i*(len(s)+1) + j
		if cost[k] != unknown {
			return cost[k]
		}
		best := int32(impossible)
		for p := j; p+len(q)-i <= len(s); p++ {
			if s[p] != q[i] {
				continue
			}
			r := 0
			for i+r < len(q) && p+r < len(s) && s[p+r] == q[i+r] {
				r++
			}
			for ; r >= 1; r-- {
				switch {
				case st.at(p) || r >= minInnerRun:
					best = min(best, read(i+r, p+r))
				case i > 0 && p == j+1:
					best = min(best, int32(r)+read(i+r, p+r))
				}
			}
			if best == 0 {
				break
			}
		}
		cost[k] = best
		return best
	}
	return int(read(0, 0)) <= len(q)/4
}

// table returns n cells set to fill, in buf when it is large enough: the
// DPs of a query keep their tables on the stack in the common case.
func table[T any](buf []T, n int, fill T) []T {
	var t []T
	if n <= len(buf) {
		t = buf[:n]
	} else {
		t = make([]T, n)
	}
	for i := range t {
		t[i] = fill
	}
	return t
}

func isSubsequence(q, s string) bool {
	for j := 0; j < len(q); j++ {
		i := strings.IndexByte(s, q[j])
		if i < 0 {
			return false
		}
		s = s[i+1:]
	}
	return true
}
