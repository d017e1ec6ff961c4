package rank

import (
	"math"
	"math/bits"
	"slices"
	"strings"
)

// The scorer.
//
// Every score is in [0, 1] and means the same thing for every front end. A
// path query is scored as
//
//	lexical   = name × (0.75 + 0.25 × dirs)     (query with directories)
//	lexical   = name × 0.875                     (bare name: dirs say nothing)
//	total     = lexical + proxWeight × proximity
//
// name compares base names, as stem × extension:
//
//	stem   1.00  identical
//	       0.98  identical but for case
//	       0.94  identical once squashed (lower case, separators dropped):
//	             "updateUnicode" for "update_unicode", "metho-dsymbol" for
//	             "method-symbol"; style and separator slips are the most common
//	             mistakes and carry almost no doubt
//	       0.92 − 0.10×(d−1) − 0.30×d/len   a typo at edit distance d (OSA:
//	             insertion, deletion, substitution, transposition) over the
//	             squashed stem; longer names tolerate more edits, so the cost
//	             of an edit is relative to the length too. The edit budget is
//	             0 below 4 bytes, 1 up to 8, 2 up to 20, 3 beyond: a name of
//	             three letters has too many neighbours to guess at. A stem
//	             with a whole word of two letters or more fewer or more
//	             (wordApart: builtin-rm for builtin) is no typo but another
//	             file's name, whatever the distance.
//	ext    1.00  same; 0.98 case; 0.93 same family (.ts/.tsx/.js, .h/.hpp,
//	             .yml/.yaml, .sh/.bash); 0.90 the query had none; 0.88 any two
//	             programming languages (".py" typed for ".rs" after switching
//	             projects); 0.70 otherwise.
//
// dirs aligns the query's directories with the candidate's by a weighted
// longest common subsequence (a pair of components counts its rung of
// the directory ladder, weights.go, the one find's directory terms read
// too: equal, equal but for case, equal squashed, one typo apart), then
//
//	dirs = exp(−(0.3×(innerQ + innerC + Σ(1 − pair weight)) + 0.03×(leadQ + leadC)))
//
// and 0 when nothing aligns. innerQ/innerC are components after the first
// aligned one that did not align (a wrong, extra or missing level: real
// disagreement) and leadQ/leadC are unaligned components before it (another
// machine's "/home/x/proj" prefix on the query, or a sub-project prefix the
// query left out): cheap, because that is exactly how absolute and
// sub-project paths differ. Cheap only for the foreign part of the query's
// lead, though: when some candidate aligns from its own top directory
// leaving fewer leading query directories out, those it does align are
// the tree's, not another machine's, and any candidate leaving them out
// pays 0.3 for each as for an inner one (resolveQuery.foreign). The penalty is a sum, not a ratio, so that one
// wrong directory costs as much in a 15-level Java path as in a 3-level one:
// "slice" typed where "splice" exists must lose to "slice" at any depth.
// Directories weigh a quarter of the lexical score: enough to choose among
// same-named files, never enough to make a poor name match look good.
//
// proximity is the candidate's affinity (affinity.go): how near it is to
// where the user is working — the referring document (`from`) and the
// navigation history, each visit weighted by its frecency. Its
// weight (proxWeight, 0.8 × ResolveMargin = 0.008) is below the margin that
// makes a lexical lead count, and so below the gap between any two name
// classes above (exact → case is 0.02 × 0.875): history breaks ties but
// never overturns a lexical lead, let alone rescues a poor match.
//
// A candidate is returned as `resolved` only when its lexical score is at
// least ResolveMin and it is clearly ahead of the runner-up: lexically by
// ResolveMargin, or, when the two are lexically tied (within the margin),
// clearly nearer (clearlyNearer: by ProxMargin and by a fifth of the
// runner-up's proximity). The tie-break is judged on proximity's own
// scale, not the score's. A tie neither
// can break leaves `resolved` null: a confident wrong answer costs an agent
// more than no answer.

type nameMatch struct {
	score  float64
	reason string
}

// scoreName compares the query's base name with a candidate's. dist is the
// typo distance of the squashed stems when known (-1 otherwise).
func scoreName(qBase, qStem, qExt, qSq string, cBase string, cSq string, dist int) nameMatch {
	if qBase == cBase {
		return nameMatch{1, "name:exact"}
	}
	cStem, cExt := splitExt(cBase)
	stem, reason, same := sameStem(qStem, cStem, qSq, cSq)
	if !same {
		if dist < 0 {
			dist = osa(qSq, cSq, typoBudget(len(qSq)))
		}
		if dist > typoBudget(len(qSq)) {
			return nameMatch{0, ""}
		}
		if wordApart(qStem, cStem) {
			// builtin-rm.c is not builtin.h mistyped: a name with one
			// of its words more or fewer names another file. Asked only
			// of a stem within a typo's distance.
			return nameMatch{0, ""}
		}
		stem, reason = typoScore(dist, max(len(qSq), len(cSq))), "typo:filename"
	}
	ext, extReason := extAffinity(qExt, cExt)
	if reason == "" {
		reason = extReason
	} else if extReason != "" {
		reason += "," + extReason
	}
	return nameMatch{stem * ext, reason}
}

// wordApart reports whether two stems differ by one whole word of two
// letters or more, the one's words being the other's with one more
// (builtin-rm, builtin): within a typo's distance when the word is short,
// but not a typo. A number dropped is (S15.1.2.3 written S15.1..3), and
// so is a lone letter.
//
// The words are compared as words compares them (ASCII case folded, as
// squash folds it) in place: it is asked of every stem within a typo's
// distance, and lists of words were a sizeable share of what a question
// allocated.
func wordApart(a, b string) bool {
	var bufA, bufB [16]string
	wa, wb := wordsInto(a, bufA[:0]), wordsInto(b, bufB[:0])
	if len(wa) < len(wb) {
		wa, wb = wb, wa
	}
	if len(wa) != len(wb)+1 || len(wb) == 0 {
		return false
	}
	for skip := range wa {
		if letters(wa[skip]) >= 2 && slices.EqualFunc(wa[:skip], wb[:skip], equalFold) && slices.EqualFunc(wa[skip+1:], wb[skip:], equalFold) {
			return true
		}
	}
	return false
}

func letters(w string) int {
	n := 0
	for i := 0; i < len(w); i++ {
		if c := w[i] | 0x20; c >= 'a' && c <= 'z' { // either case
			n++
		}
	}
	return n
}

// sameStem compares a query's stem with a candidate's as the name's
// reading does: the same (1), the same but for case (name:case), the same
// but for separators (name:style, squashed stems qSq and cSq equal); same
// is false for any other stem.
func sameStem(qStem, cStem, qSq, cSq string) (stem float64, reason string, same bool) {
	switch {
	case qStem == cStem:
		return 1, "", true
	case equalFold(qStem, cStem):
		return stemCase, "name:case", true
	case qSq == cSq:
		return stemStyle, "name:style", true
	}
	return 0, "", false
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if isUpper(x) {
			x += 'a' - 'A'
		}
		if isUpper(y) {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// componentMatch is how well one directory name written whole stands for
// another (the directory ladder, weights.go); sq and sc are their squashed
// forms.
func componentMatch(q, c, sq, sc string) float64 {
	return dirNameMatch(q, c, sq, sc, false)
}

// dirNameMatch is the directory ladder's rung (weights.go) for a
// directory name written, q (sq squashed), against one of the tree's, c
// (sc); part: q may be a part of the name (a term typed), not the whole.
// Names whose numbers differ are other directories, not a slip: team0 is
// not team1 (in a monorepo of vendored copies the one edit made every
// team's copy of a path written under team0/ "close" to it, and resolve
// tied), nor v1 v2.
func dirNameMatch(q, c, sq, sc string, part bool) float64 {
	switch {
	case q == c:
		return dirSame
	case equalFold(q, c):
		return dirCase
	case sq == sc && sq != "":
		return dirSquashed
	case part && strings.HasPrefix(sc, sq):
		return dirPrefix
	case part && len(sq) >= minInnerRun && strings.Contains(sc, sq):
		return dirInside
	case oneTypo(sq, sc) && sameNumbers(sq, sc):
		return dirTypo
	}
	return 0
}

// sameNumbers reports whether a and b hold the same runs of digits, in
// order.
func sameNumbers(a, b string) bool {
	for {
		a, b = skipToDigit(a), skipToDigit(b)
		if a == "" || b == "" {
			return a == b
		}
		na, nb := digitRun(a), digitRun(b)
		if a[:na] != b[:nb] {
			return false
		}
		a, b = a[na:], b[nb:]
	}
}

func skipToDigit(s string) string {
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			return s[i:]
		}
	}
	return ""
}

func digitRun(s string) int {
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	return n
}

type dirAlign struct {
	score   float64
	matched int
	reading dirReading
}

// dirReading is how a candidate's directories stand to the ones a path
// wrote: a value the rules read (keepsWritten), a string only when shown.
type dirReading uint8

const (
	dirNone dirReading = iota
	dirPartial
	dirClose
	dirExact
	dirMissingPrefix
	dirSuffix
	// dirMoved: none of the written directories is the candidate's, and
	// the tree has no such directories any more.
	dirMoved
)

var dirReadingNames = [...]string{"dir:none", "dir:partial", "dir:close", "dir:exact", "dir:missing-prefix", "dir:suffix", "dir:moved"}

func (d dirReading) String() string { return dirReadingNames[d] }

// keepsWritten: the candidate's directories are the ones written (all of
// them, or their tail, or all but another machine's prefix).
func (d dirReading) keepsWritten() bool {
	return d == dirExact || d == dirMissingPrefix || d == dirSuffix
}

// dirAlignment is how query directories align with a candidate's, before
// any cost is put on it: the weighted longest common subsequence and where
// its gaps lie. It depends on the two directories only, so resolve
// computes it once per candidate directory.
type dirAlignment struct {
	weight         float64
	matched        int
	leadQ, leadC   int // leading directories left unaligned, query and candidate
	innerQ, innerC int // unaligned after the first aligned pair
}

// alignDirs aligns query directories q with candidate directories c (both
// outermost first, q not empty).
func alignDirs(q, c *dirPath) dirAlignment {
	nq, nc := len(q.comps), len(c.comps)
	var buf [32 * 32]float64
	match := alignTable(buf[:], nq, nc)
	for j := range nc {
		for i := range nq {
			match[j*nq+i] = componentMatch(q.comps[i], c.comps[j], q.sq[i], c.sq[j])
		}
	}
	var dpBuf [32 * 32]float64
	return alignMatched(nq, nc, match, alignTable(dpBuf[:], nq, nc))
}

// alignTable is a table for nq query and nc candidate directories, in buf
// when it fits.
func alignTable(buf []float64, nq, nc int) []float64 {
	if n := (nq + 1) * (nc + 1); n <= len(buf) {
		return buf[:n]
	}
	return make([]float64, (nq+1)*(nc+1))
}

// alignMatched is alignDirs given match[j*nq+i], componentMatch of query
// directory i and candidate directory j (a column a candidate directory:
// alignColumns keeps those it shares with the directory before), and dp, an alignTable for
// them (its cells are all written here: a caller aligning thousands of
// directories passes the same one, an array on the stack being zeroed
// whole at each call).
func alignMatched(nq, nc int, match, dp []float64) dirAlignment {
	// dp[i][j]: best weight aligning the query's directories from i with
	// the candidate's from j; small, so a flat slice. The last row and
	// column align nothing.
	w := nc + 1
	clear(dp[nq*w : nq*w+w])
	for i := range nq {
		dp[i*w+nc] = 0
	}
	for i := nq - 1; i >= 0; i-- {
		for j := nc - 1; j >= 0; j-- {
			// (comparisons, not max: no NaN here to order, and max's
			// care for them was most of the table's time)
			best := dp[(i+1)*w+j]
			if r := dp[i*w+j+1]; r > best {
				best = r
			}
			if m := match[j*nq+i]; m > 0 && m+dp[(i+1)*w+j+1] > best {
				best = m + dp[(i+1)*w+j+1]
			}
			dp[i*w+j] = best
		}
	}
	// Walk the alignment to count matched, leading and inner gaps.
	i, j := 0, 0
	matched, firstQ, firstC := 0, -1, -1
	for i < nq && j < nc {
		m := match[j*nq+i]
		switch {
		case m > 0 && dp[i*w+j] == m+dp[(i+1)*w+j+1]:
			if firstQ < 0 {
				firstQ, firstC = i, j
			}
			matched++
			i++
			j++
		case dp[i*w+j] == dp[(i+1)*w+j]:
			i++
		default:
			j++
		}
	}
	if matched == 0 {
		return dirAlignment{}
	}
	return dirAlignment{weight: dp[0], matched: matched, leadQ: firstQ, leadC: firstC,
		innerQ: nq - matched - firstQ, innerC: nc - matched - firstC}
}

// score prices an alignment (see the block comment for the formula);
// foreign is how many leading query directories may be another machine's
// prefix.
func (a dirAlignment) score(foreign int) dirAlign {
	if a.matched == 0 {
		return dirAlign{score: 0, reading: dirNone}
	}
	// Leading query directories past the foreign prefix are ones another
	// candidate honours: left out here, they are a disagreement.
	foreignQ, ownQ := min(a.leadQ, foreign), max(0, a.leadQ-foreign)
	penalty := dirInnerCost*float64(a.innerQ+a.innerC+ownQ) + dirLeadCost*float64(foreignQ+a.leadC) + dirInnerCost*(float64(a.matched)-a.weight)
	inner := a.innerQ == 0 && a.innerC == 0
	reading := dirPartial
	switch {
	case ownQ > 0: // a written directory left out: partial, whatever else agrees
	case a.weight < float64(a.matched):
		reading = dirClose // aligned, but some names only nearly agree
	case inner && a.leadQ == 0 && a.leadC == 0:
		reading = dirExact
	case inner && a.leadC > 0 && a.leadQ == 0:
		reading = dirMissingPrefix
	case inner:
		reading = dirSuffix
	}
	return dirAlign{score: math.Exp(-penalty), matched: a.matched, reading: reading}
}

// proximity is how near a candidate's directory is to one reference
// directory (both split in components), by the steps between them through
// their deepest common ancestor: each level the candidate lies outside the
// reference's ancestry halves it (proxOutside), each level the reference
// lies below that ancestor costs a fifth (proxBelow: the user working in a
// package's subdirectories is still in the package). The same directory is
// 1, a parent 0.8, a child 0.5, a sibling 0.4 — at any depth: measured as
// the shared fraction of the path instead, the sibling packages of a deep
// tree (test/integration/targets/a/ and b/) looked all but as near as the
// package itself. A file at a root is near nothing but the root.
func proximity(cd, rd []string) float64 {
	n := 0
	for n < len(cd) && n < len(rd) && cd[n] == rd[n] {
		n++
	}
	if n == 0 && len(cd) > 0 {
		return 0
	}
	return powOutside[min(len(cd)-n, maxProxSteps)] * powBelow[min(len(rd)-n, maxProxSteps)]
}

// The powers of proxOutside and proxBelow, computed once: proximity is
// asked for every directory a request's candidates are in, against every
// visit.
var powOutside, powBelow = func() (o, b [maxProxSteps + 1]float64) {
	for i := range o {
		o[i], b[i] = math.Pow(proxOutside, float64(i)), math.Pow(proxBelow, float64(i))
	}
	return
}()

// clearlyNearer: proximity a is a clear lead over b — ProxMargin ahead,
// and proxLead times as near, since how large proximities are depends on
// how deep the user works (a visit five levels below two candidates makes
// both small, and their difference too).
func clearlyNearer(a, b float64) bool {
	return a-b >= ProxMargin && a >= proxLead*b
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

// idsKey is file f's name and dist as one key, when its stem and
// extension say its name.
func idsKey(f *fileInfo, dist int) (uint64, bool) {
	if f.flags&fileNameSame == 0 || dist < 0 || dist >= 1<<16 {
		return 0, false
	}
	return uint64(uint32(f.stem))<<32 | uint64(f.ext)<<16 | uint64(dist), true
}

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

// dirScore is directory d's alignment priced past the foreign prefix.
func (e *Engine) dirScore(rq *resolveQuery, d int32) dirAlign {
	if k, ok := rq.alignedIndex(d); ok {
		return rq.pricedAll[k]
	}
	return e.alignment(rq, d).score(rq.foreign)
}

// distinctive reports whether a squashed stem, cut at its word starts,
// is long enough to identify a file by itself.
func distinctive(sq string, starts uint64) bool {
	return len(sq) >= distinctLetters || bits.OnesCount64(starts) >= distinctWords
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
