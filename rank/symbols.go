package rank

import (
	"context"
	"math/bits"
	"slices"
	"sort"
	"strings"

	"wayfind/symbols"
	"wayfind/workspace"
)

// Symbol search (workspace/symbol) matches the query's name part against
// every distinct symbol name, then orders matches by class, best first
// (symClassTable; the number is the class, the bucket results are taken
// from in order):
//
//	0  0.97 – 1.00        the name: exactly as written (1), or the same
//	                      name in another case or with other separators
//	1  0.80 + 0.15×cover  prefix ("CommandR" → CommandRouter)
//	2  word starts: each piece of the query begins a word of the name,
//	                      words in order —
//	   0.72 + 0.15×cover  camel humps, each piece a prefix of its word
//	                      ("CoRo", "cmdrt" does not, "comro" does), words
//	                      maybe skipped;
//	   0.66 + 0.15×cover  abbreviations of every word, each piece the
//	                      word's first letter and then any of its letters
//	                      in order ("NewSrv" → NewServer, "rngInt" →
//	                      rangeInt, "RprRng" → ReportRangef): names
//	                      shortened by dropping vowels, not by cutting words
//	3  0.62 + 0.15×cover  substring
//	4  0.50 – 0.50        one typo in the whole name, for queries of
//	                      minOneTypo (4) or more letters (shorter ones have
//	                      too many neighbours)
//	5  0.40 + 0.08×cover  abbreviations that leave words of the name out: a
//	                      one-swap typo of a name ("as_ifle" for as_file)
//	                      is likelier than letters picked from a longer one
//	                      (test_non_ascii_infile)
//	6  0.38 – 0.38        one typo in a prefix of the name
//	7  0.20 + 0.15×cover  any subsequence
//
// The class decides first, so that the name itself is always first,
// whatever it is; the scores fall with the classes, for clients that show
// them.
//
// The query is read as typed first: when it has separators or sigils
// ("get_parent", "main_t", "$mou"), a reading that keeps them (lower case
// aside) comes before one that needs them ignored, and a name equal only
// once they are ignored (getParent for "get_parent", issym for "is_sym")
// is not the name but a prefix at its ceiling, after the prefixes that
// keep them (get_parent_map). Within a class (SymbolIndex.before):
//
//  1. a reading of the query as typed before one that ignores its marks;
//  2. for word starts, a reading that begins at every word of the name
//     before one that skips words (a test's test_main_thread_after_fork
//     reads "MnThr" in humps, skipping words; _MainThread, abbreviated,
//     in all of its words), then one that lands more of the query on
//     word starts ("rngInt": rangeInt before a function rangeint, read
//     in one piece) — the query was made from that name;
//  3. source before test, fixture, vendored and generated files (a
//     testdata Object is not the object one looks for);
//  4. the workspace's own languages before incidental ones (under
//     incidentalShare of its symbols: the JavaScript of a Go tree's
//     static/ directory);
//  5. the name in the case written before another case;
//  6. definitions (types, functions) before members (methods, fields) —
//     for word starts only after the better score: the
//     method rangeInt, all of whose letters "rngInt" explains, before
//     the function rangeIntersect it only begins;
//  7. better score (more of the name explained), shorter name, shallower
//     container, then by place.
//
// A qualified query ("http.Server.Serve", "Router::route",
// "Router#route") also requires the container to match, part by part.

// incidentalShare: a language with fewer than this share of the
// workspace's symbols is incidental to it — a page's script in a Go
// tree, a build helper in a Java one — and its names rank after the
// workspace's own within a class.
const incidentalShare = 0.05

// SymbolIndex is the searchable form of a symbols.Table. It is immutable
// and shared by every engine snapshot until the symbols change.
type SymbolIndex struct {
	table *symbols.Table
	refs  []symRef
	names []symName
	bySq  map[string]int32 // squashed name → index in names
	// members maps the squashed innermost container of each method or
	// constructor to its refs: where a type's methods are implemented.
	members map[string][]int32
}

type symRef struct {
	file   string // absolute
	sym    *symbols.Symbol
	member bool  // sym.Kind.IsMember()
	depth  uint8 // dots in sym.Container
	// aux: in a test, fixture, vendored or generated file; incidental: in
	// a language with under incidentalShare of the symbols.
	aux, incidental bool
}

type symName struct {
	sq    string   // squashed
	name  string   // the spelling words were taken from (others share sq)
	words []string // lower-case words, for humps
	mask  uint64
	refs  []int32
}

// NewSymbolIndex indexes a table for search; roots are the workspace's
// (a file's place inside its root tells a test or vendored file).
func NewSymbolIndex(t *symbols.Table, roots []string) *SymbolIndex {
	si := &SymbolIndex{table: t, bySq: map[string]int32{}, members: map[string][]int32{}}
	ix := &workspace.Index{Roots: roots}
	perLang := map[string]int{}
	type span struct {
		start, end int // refs of one file
		lang       string
	}
	var spans []span
	t.Each(func(file string, syms []symbols.Symbol) {
		if len(syms) == 0 {
			return // nothing to file, and its path need not be read
		}
		rel := file
		if _, r, ok := ix.RootOf(file); ok {
			rel = r
		}
		aux := roleOf(rel) != roleSource
		start := len(si.refs)
		for i := range syms {
			s := &syms[i]
			sq := s.NameKey()
			id, ok := si.bySq[sq]
			if !ok {
				id = int32(len(si.names))
				si.bySq[sq] = id
				si.names = append(si.names, symName{sq: sq, name: s.Name, words: words(s.Name), mask: charMask(sq)})
			}
			if c := s.ContainerKey(); c != "" {
				si.members[c] = append(si.members[c], int32(len(si.refs)))
			}
			si.names[id].refs = append(si.names[id].refs, int32(len(si.refs)))
			si.refs = append(si.refs, symRef{file: file, sym: s, member: s.Kind.IsMember(),
				depth: uint8(min(strings.Count(s.Container, "."), 255)), aux: aux})
		}
		if l := symbols.LanguageOf(file); l != nil {
			perLang[l.Name] += len(si.refs) - start
			spans = append(spans, span{start, len(si.refs), l.Name})
		}
	})
	for _, sp := range spans {
		if float64(perLang[sp.lang]) < incidentalShare*float64(len(si.refs)) {
			for i := sp.start; i < sp.end; i++ {
				si.refs[i].incidental = true
			}
		}
	}
	return si
}

// Repointed is si over t, a table of the same files and entries as
// si's whose paths are other strings of the same paths
// (symbols.Indexer.Repoint): every ref's file is t's. When t is not
// that (its symbols are not si's, one for one), si as it is.
func (si *SymbolIndex) Repointed(t *symbols.Table) *SymbolIndex {
	c := *si
	c.table = t
	c.refs = slices.Clone(si.refs)
	k, same := 0, true
	t.Each(func(file string, syms []symbols.Symbol) {
		for j := range syms {
			if k >= len(c.refs) || c.refs[k].sym != &syms[j] {
				same = false
				return
			}
			c.refs[k].file = file
			k++
		}
	})
	if !same || k != len(c.refs) {
		return si
	}
	return &c
}

// Named returns the definitions filed under key (SymbolLookup).
func (si *SymbolIndex) Named(key string) []symbols.Ref {
	n, ok := si.bySq[key]
	if !ok {
		return nil
	}
	return si.refsOf(si.names[n].refs)
}

// Members returns the members of the types filed under key
// (SymbolLookup).
func (si *SymbolIndex) Members(key string) []symbols.Ref {
	return si.refsOf(si.members[key])
}

func (si *SymbolIndex) refsOf(ids []int32) []symbols.Ref {
	out := make([]symbols.Ref, len(ids))
	for i, r := range ids {
		out[i] = symbols.Ref{File: si.refs[r].file, Symbol: *si.refs[r].sym}
	}
	return out
}

// Table is the table the index was built from (nil for none).
func (si *SymbolIndex) Table() *symbols.Table {
	if si == nil {
		return nil
	}
	return si.table
}

// Len is the number of symbols.
func (si *SymbolIndex) Len() int {
	if si == nil {
		return 0
	}
	return len(si.refs)
}

// WithSymbols returns an engine over the same files that also searches
// si. The file indexes are shared, so this is cheap.
func (e *Engine) WithSymbols(si *SymbolIndex) *Engine {
	c := *e
	c.sym = si
	return &c
}

// Symbols returns the engine's symbol index (nil before symbols exist).
func (e *Engine) Symbols() *SymbolIndex { return e.sym }

// SymbolRequest is workspace/symbol's input.
type SymbolRequest struct {
	Query string
	Limit int // 0: DefaultSymbolLimit
	// Exact turns off typo and subsequence matching.
	Exact bool
}

// DefaultSymbolLimit is workspace/symbol's default result count.
const DefaultSymbolLimit = 100

// SymbolMatch is one workspace/symbol result.
type SymbolMatch struct {
	File   string // absolute
	Root   int
	Path   string // root-relative, '/'-separated
	Symbol symbols.Symbol
	Score  float64
}

// SymbolQuery is a parsed symbol query: the name searched and the
// container parts that qualify it, outermost first.
type SymbolQuery struct {
	Name      string
	Qualifier []string
}

// ParseSymbolQuery splits "pkg.Type.Method", "Type::method" or
// "Class#method" into qualifier and name.
func ParseSymbolQuery(q string) SymbolQuery {
	q = strings.TrimSpace(q)
	for _, sep := range []string{"::", "#", "->"} {
		q = strings.ReplaceAll(q, sep, ".")
	}
	parts := strings.Split(q, ".")
	var clean []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			clean = append(clean, p)
		}
	}
	if len(clean) == 0 {
		return SymbolQuery{}
	}
	if strings.HasSuffix(q, ".") {
		// "Router." lists what Router contains.
		return SymbolQuery{Qualifier: clean}
	}
	return SymbolQuery{Name: clean[len(clean)-1], Qualifier: clean[:len(clean)-1]}
}

// SearchSymbols answers workspace/symbol.
func (e *Engine) SearchSymbols(ctx context.Context, req SymbolRequest) ([]SymbolMatch, error) {
	si := e.sym
	if si == nil {
		return nil, nil
	}
	q := ParseSymbolQuery(req.Query)
	if q.Name == "" && len(q.Qualifier) == 0 {
		return nil, inputError("empty symbol query")
	}
	limit := req.Limit
	if limit <= 0 {
		limit = DefaultSymbolLimit
	}
	qsq, qhumps := squash(q.Name), wordStarts(q.Name)
	qmask := charMask(qsq)
	// The query as typed, lower case aside: marks says it has separators
	// or sigils of its own to read literally.
	qlit := lowerASCII(q.Name)
	marks := qlit != qsq
	typos := !req.Exact && len(qsq) >= minOneTypo
	var buckets [symClasses][]symHit
	add := func(nm *symName, class int, score float64, fit uint8) {
		for _, r := range nm.refs {
			ref := &si.refs[r]
			c := class
			h := symHit{ref: r, score: score, fit: fit, byScore: c == symWords || c == symSkippingAbbrev, literal: true}
			if h.byScore && ref.sym.Name != nm.name {
				// rangeInt and rangeint share a squashed name, not words.
				h.fit, _ = wordStartFit(qsq, qhumps, words(ref.sym.Name), req.Exact)
			}
			if marks {
				h.literal = readsLiterally(c, lowerASCII(ref.sym.Name), qlit)
				if c == symTheName && !h.literal {
					// getParent for "get_parent": a prefix, after get_parent_map.
					c, h.score = symPrefix, symPrefixBand.ceiling
				}
			}
			if c == symTheName && ref.sym.Name == q.Name {
				h.score, h.exactCase = 1, true
			}
			if len(q.Qualifier) > 0 && !containerMatches(q.Qualifier, ref.sym.Container) {
				continue
			}
			buckets[c] = append(buckets[c], h)
		}
	}
	var maybeTypo []int32
	for n := range si.names {
		if n%8192 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		nm := &si.names[n]
		class, score, fit := -1, 0.0, uint8(0)
		switch {
		case q.Name == "":
			class, score = symWords, memberListing
		case nm.mask&qmask == qmask:
			class, score, fit = matchSymbolName(qsq, qhumps, nm, req.Exact)
		}
		if class >= 0 {
			add(nm, class, score, fit)
		} else if typos && len(nm.sq) >= len(qsq)-1 && oneEditStart(qsq, nm.sq) && bits.OnesCount64(qmask&^nm.mask) <= 1 {
			// One edit leaves at most one of the query's letters out of
			// the name: cheap tests that spare most names the distance.
			maybeTypo = append(maybeTypo, int32(n))
		}
	}
	// Typos rank below substrings: when the classes above fill the answer
	// already, no distance need be computed (nor can one change it: the
	// classes between the two typo classes come after them all).
	above := 0
	for c := symTheName; c < symTypo; c++ {
		above += len(buckets[c])
	}
	for _, n := range maybeTypo {
		if above >= limit {
			break
		}
		nm := &si.names[n]
		if osa(qsq, nm.sq, 1) <= 1 {
			add(nm, symTypo, symTypoBand.floor, 0)
		} else if len(nm.sq) > len(qsq) && osa(qsq, nm.sq[:len(qsq)], 1) <= 1 {
			add(nm, symTypoPrefix, symTypoPrefixBand.floor, 0)
		}
	}
	// Best class first; each bucket is sorted only when reached, and files
	// are checked against this engine's index only as results are taken.
	out := make([]SymbolMatch, 0, min(limit, topKInitial))
	for _, b := range buckets {
		if len(out) >= limit {
			break
		}
		sort.Slice(b, func(i, j int) bool { return si.before(&b[i], &b[j]) })
		for _, h := range b {
			if len(out) >= limit {
				break
			}
			ref := &si.refs[h.ref]
			root, rel, ok := e.ix.RootOf(ref.file)
			if !ok {
				continue
			}
			if _, ok := e.fileID(root, rel); !ok {
				continue // the file left the index since its symbols were read
			}
			out = append(out, SymbolMatch{File: ref.file, Root: root, Path: rel, Symbol: *ref.sym, Score: round3(h.score)})
		}
	}
	return out, nil
}

func allDigits(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return w != ""
}

// oneEditStart: one edit of q (or of the prefix of s it may name) keeps
// one of the first two letters in place, or swaps or shifts them — a test
// that spares most names the edit distance.
func oneEditStart(q, s string) bool {
	return q[0] == s[0] || q[1] == s[1] || q[1] == s[0] || q[0] == s[1]
}

type symHit struct {
	ref       int32
	score     float64
	fit       uint8 // wordReading's, for word starts
	exactCase bool  // the name as written, case and all
	literal   bool  // the query read as typed, its separators and sigils kept
	byScore   bool  // the score orders before definitions and members
}

// before orders hits within a class (the list at the top of this file).
func (si *SymbolIndex) before(a, b *symHit) bool {
	ra, rb := &si.refs[a.ref], &si.refs[b.ref]
	if a.literal != b.literal {
		return a.literal
	}
	if a.fit != b.fit {
		return a.fit > b.fit
	}
	if ra.aux != rb.aux {
		return rb.aux
	}
	if ra.incidental != rb.incidental {
		return rb.incidental
	}
	if a.exactCase != b.exactCase {
		return a.exactCase
	}
	if a.byScore && a.score != b.score {
		return a.score > b.score
	}
	if ra.member != rb.member {
		return rb.member
	}
	if a.score != b.score {
		return a.score > b.score
	}
	if la, lb := len(ra.sym.Name), len(rb.sym.Name); la != lb {
		return la < lb
	}
	if ra.depth != rb.depth {
		return ra.depth < rb.depth
	}
	if ra.file != rb.file {
		return ra.file < rb.file
	}
	return ra.sym.Select.Start.Line < rb.sym.Select.Start.Line
}

// The classes of the table at the top of this file, in the order results
// are taken.
const (
	symTheName = iota
	symPrefix
	symWords
	symSubstring
	symTypo
	symSkippingAbbrev
	symTypoPrefix
	symSubsequence
	symClasses
)

// matchSymbolName places a squashed query against a name (every class of
// the table above but typo, decided by the caller; the exact case is
// decided per symbol); fit is wordStartFit's, for the word-start class
// (bounds: where the query's own words begin, wordStarts).
func matchSymbolName(q string, bounds uint64, nm *symName, exact bool) (class int, score float64, fit uint8) {
	cover := float64(len(q)) / float64(max(len(nm.sq), 1))
	switch {
	case nm.sq == q:
		return symTheName, symNameBand.floor, 0
	case strings.HasPrefix(nm.sq, q):
		return symPrefix, symPrefixBand.at(cover), 0
	case !isSubsequence(q, nm.sq):
		// every class below reads the query as a subsequence of the name
		return -1, 0, 0
	}
	if fit, humps := wordStartFit(q, bounds, nm.words, exact); humps {
		return symWords, symHumps.at(cover), fit
	} else if fit&fitEvery != 0 {
		return symWords, symAbbrev.at(cover), fit
	} else if fit > 0 {
		return symSkippingAbbrev, symSkipping.at(cover), fit
	}
	switch {
	case strings.Contains(nm.sq, q):
		return symSubstring, symSubstringBand.at(cover), 0
	case !exact:
		return symSubsequence, symSubsequenceBand.at(cover), 0
	}
	return -1, 0, 0
}

// wordStartFit is the word-start class's reading of q in words: the better
// of camel humps and (unless exact) an abbreviation that is not loose,
// and whether that is the humps reading.
func wordStartFit(q string, bounds uint64, words []string, exact bool) (fit uint8, humps bool) {
	h := wordReading(q, bounds, words, false)
	var a uint8
	if !exact {
		if a = wordReading(q, bounds, words, true); looseAbbreviation(a) {
			a = 0
		}
	}
	if h > 0 && h >= a {
		return h, true
	}
	return a, false
}

// wordReading reads q as pieces that each begin a word of words, in
// order, words skipped as needed — each piece a prefix of its word
// (humps) or, with abbrev, the word's first letter and then any of its
// letters in order ("srv" of "server"). fit is 0 when there is no such
// reading, else how good the best is: one that begins at every word (a
// number may be left out: "IntDt" for Int64Data) before one that skips
// some; then one whose pieces begin where the query's own words do
// (bounds: wordStarts of the query as typed) — each piece beginning at
// one counts for it, each beginning elsewhere against:
// "UsrLst" is User·List in two pieces, not User·Li·sTest in three, and
// "rngInt" rangeInt, not rangeint read in one piece.
func wordReading(q string, bounds uint64, words []string, abbrev bool) (fit uint8) {
	// A reading's worth: every | agreement, agreement counted from
	// neutral and kept within 1..63; 0 is none. memo holds it + 1.
	const every, neutral = fitEvery, fitNeutral
	var small [96]uint8 // most names and queries fit: no allocation
	memo := small[:0]
	if n := (len(q) + 1) * (len(words) + 1); n <= len(small) {
		memo = small[:n]
	} else {
		memo = make([]uint8, n)
	}
	var read func(qi, wi int) uint8
	read = func(qi, wi int) uint8 {
		if qi == len(q) {
			if wi == len(words) {
				return every | neutral
			}
			return neutral
		}
		if wi == len(words) {
			return 0
		}
		k := qi*(len(words)+1) + wi
		if memo[k] != 0 {
			return memo[k] - 1
		}
		var best uint8
		w := words[wi]
		if r := read(qi, wi+1); r != 0 { // this word skipped
			best = r &^ every
			if allDigits(w) {
				best = r
			}
		}
		if w != "" && q[qi] == w[0] {
			// A piece begins here: for it if the query has a hump here.
			agree := -1
			if startsWord(bounds, qi) {
				agree = 1
			}
			// Pieces of this word, q[qi:end] read in w, one letter longer each
			// time, until the word has no more of them.
			for end, wj := qi+1, 1; ; end++ {
				if r := read(end, wi+1); r != 0 {
					v := r&every | uint8(min(max(int(r&^every)+agree, 1), every-1))
					best = max(best, v)
				}
				if end == len(q) {
					break
				}
				if !abbrev {
					if wj == len(w) || w[wj] != q[end] {
						break
					}
					wj++
					continue
				}
				for wj < len(w) && w[wj] != q[end] {
					wj++
				}
				if wj == len(w) {
					break
				}
				wj++
			}
		}
		memo[k] = best + 1
		return best
	}
	return read(0, 0)
}

// wordReading's fit: fitEvery is set when a reading begins at every word;
// the rest is the pieces' agreement with the query's words, fitNeutral
// when as many pieces begin at one as elsewhere.
const (
	fitEvery   = 1 << 6
	fitNeutral = 32
)

// looseAbbreviation: an abbreviation that skips words and puts more of its
// pieces where the query has no hump than where it has one ("lodaer" read
// as lo·d in load, a in all, er in errors) is scattered letters, not an
// abbreviation: it is left to the subsequence class.
func looseAbbreviation(fit uint8) bool {
	return fit&fitEvery == 0 && fit&^fitEvery <= fitNeutral
}

// containerMatches reports whether the qualifier parts name the
// container's components in order, the last part its innermost one; each
// part equals a component or is its prefix, ignoring case.
func containerMatches(qual []string, container string) bool {
	comps := strings.Split(container, ".")
	j := len(comps) - 1
	for i := len(qual) - 1; i >= 0; i-- {
		p := strings.ToLower(qual[i])
		for j >= 0 && !strings.HasPrefix(strings.ToLower(comps[j]), p) {
			if i == len(qual)-1 {
				return false // the innermost part must name the innermost container
			}
			j--
		}
		if j < 0 {
			return false
		}
		j--
	}
	return true
}

// symbolEvidence is how well a definition of kind k named like the query
// stands for the file that holds it: the one scale of find and locate.
func symbolEvidence(k symbols.Kind) float64 {
	switch {
	case k.IsType():
		return symTypeScore
	case k == symbols.Function:
		return symFuncScore
	}
	return symMemberScore
}

// symbolFiles maps the files defining a symbol named by the query's name
// part (ignoring case and separators) to that reading.
func (e *Engine) symbolFiles(q *FindQuery, impl bool) map[int32]nameMatch {
	si := e.sym
	if si == nil || len(q.Squashed) < 3 {
		return nil
	}
	out := map[int32]nameMatch{}
	add := func(file string, nm nameMatch) {
		root, rel, ok := e.ix.RootOf(file)
		if !ok {
			return
		}
		id, ok := e.fileID(root, rel)
		if ok && out[id].score < nm.score {
			out[id] = nm
		}
	}
	if n, ok := si.bySq[q.Squashed]; ok {
		for _, r := range si.names[n].refs {
			ref := &si.refs[r]
			add(ref.file, nameMatch{symbolEvidence(ref.sym.Kind), "symbol:" + ref.sym.Kind.String()})
		}
	}
	if impl {
		// Members whose innermost container is the queried type.
		for _, r := range si.members[q.Squashed] {
			add(si.refs[r].file, nameMatch{symImplScore, "symbol:implementation"})
		}
	}
	return out
}

// readsLiterally reports whether a reading of class c still holds of the
// name as written (lit, lower case) when the query's own separators and
// sigils must be read too (qlit). Word-start readings honour them by
// construction: the query's marks are where its words begin.
func readsLiterally(c int, lit, qlit string) bool {
	switch c {
	case symTheName:
		return lit == qlit
	case symPrefix:
		return strings.HasPrefix(lit, qlit)
	case symSubstring:
		return strings.Contains(lit, qlit)
	}
	return true
}
