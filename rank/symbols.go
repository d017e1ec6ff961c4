package rank

import (
	"context"
	"math/bits"
	"sort"
	"strings"

	"wayfind/symbols"
)

// Symbol search (workspace/symbol) matches the query's name part against
// every distinct symbol name, then orders matches by class, best first:
//
//	0  1.00               the name exactly as written
//	1  0.97               the same name ignoring case and separators
//	2  0.80 + 0.15×cover  prefix ("CommandR" → CommandRouter)
//	3  0.72 + 0.15×cover  camel humps: prefixes of the name's words in
//	                      order, words may be skipped ("CoRo", "cmdrt" does
//	                      not, "comro" does) — how people abbreviate names
//	4  0.62 + 0.15×cover  substring
//	5  0.50               one typo in the whole name or in its prefix, for
//	                      queries of five or more letters (shorter ones have
//	                      too many neighbours)
//	6  0.30 + 0.20×cover  any subsequence
//
// Within a class, definitions (types, functions) come before members
// (methods, fields), then shorter names, then shallower containers. The
// class decides first so that an exact name is always first, whatever it
// is. A qualified query ("http.Server.Serve", "Router::route",
// "Router#route") also requires the container to match, part by part.

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
}

type symName struct {
	sq    string   // squashed
	words []string // lower-case words, for humps
	mask  uint64
	refs  []int32
}

// NewSymbolIndex indexes a table for search.
func NewSymbolIndex(t *symbols.Table) *SymbolIndex {
	si := &SymbolIndex{table: t, bySq: map[string]int32{}, members: map[string][]int32{}}
	t.Each(func(file string, syms []symbols.Symbol) {
		for i := range syms {
			s := &syms[i]
			sq := s.NameKey()
			id, ok := si.bySq[sq]
			if !ok {
				id = int32(len(si.names))
				si.bySq[sq] = id
				si.names = append(si.names, symName{sq: sq, words: words(s.Name), mask: charMask(sq)})
			}
			if c := s.ContainerKey(); c != "" {
				si.members[c] = append(si.members[c], int32(len(si.refs)))
			}
			si.names[id].refs = append(si.names[id].refs, int32(len(si.refs)))
			si.refs = append(si.refs, symRef{file: file, sym: s, member: s.Kind.IsMember(),
				depth: uint8(min(strings.Count(s.Container, "."), 255))})
		}
	})
	return si
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

// Table is the table the index was built from.
func (si *SymbolIndex) Table() *symbols.Table { return si.table }

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
	qsq := squash(q.Name)
	qmask := charMask(qsq)
	typos := !req.Exact && len(qsq) >= minOneTypo
	var buckets [7][]symHit
	for n := range si.names {
		if n%8192 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		nm := &si.names[n]
		class, score := -1, 0.0
		switch {
		case q.Name == "":
			class, score = 3, 0.5
		case nm.mask&qmask == qmask:
			class, score = matchSymbolName(qsq, nm, req.Exact)
		}
		// One edit leaves at most one of the query's letters out of the
		// name: a cheap test that spares almost every name the distance.
		if class < 0 && typos && len(nm.sq) >= len(qsq)-1 && bits.OnesCount64(qmask&^nm.mask) <= 1 {
			if osa(qsq, nm.sq, 1) <= 1 || (len(nm.sq) > len(qsq) && osa(qsq, nm.sq[:len(qsq)], 1) <= 1) {
				class, score = 5, 0.5
			}
		}
		if class < 0 {
			continue
		}
		for _, r := range nm.refs {
			ref := &si.refs[r]
			c, s := class, score
			if c == 1 && ref.sym.Name == q.Name {
				c, s = 0, 1
			}
			if len(q.Qualifier) > 0 && !containerMatches(q.Qualifier, ref.sym.Container) {
				continue
			}
			buckets[c] = append(buckets[c], symHit{ref: r, score: s})
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
			if _, ok := e.byPath[root][rel]; !ok {
				continue // the file left the index since its symbols were read
			}
			out = append(out, SymbolMatch{File: ref.file, Root: root, Path: rel, Symbol: *ref.sym, Score: round3(h.score)})
		}
	}
	return out, nil
}

type symHit struct {
	ref   int32
	score float64
}

// before orders hits within a class: definitions before members, better
// score, shorter name, shallower container, then by place.
func (si *SymbolIndex) before(a, b *symHit) bool {
	ra, rb := &si.refs[a.ref], &si.refs[b.ref]
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

// matchSymbolName places a squashed query against a name (classes 1–4
// and 6 of the table above; 0 is decided per symbol, 5 by the caller).
func matchSymbolName(q string, nm *symName, exact bool) (int, float64) {
	cover := float64(len(q)) / float64(max(len(nm.sq), 1))
	switch {
	case nm.sq == q:
		return 1, 0.97
	case strings.HasPrefix(nm.sq, q):
		return 2, 0.80 + 0.15*cover
	case !isSubsequence(q, nm.sq):
		// every class below reads the query as a subsequence of the name
		return -1, 0
	case humps(q, nm.words):
		return 3, 0.72 + 0.15*cover
	case strings.Contains(nm.sq, q):
		return 4, 0.62 + 0.15*cover
	case !exact && isSubsequence(q, nm.sq):
		return 6, 0.30 + 0.20*cover
	}
	return -1, 0
}

// humps reports whether q is a concatenation of non-empty prefixes of
// words taken in order, skipping any.
func humps(q string, words []string) bool {
	if q == "" {
		return true
	}
	for i, w := range words {
		n := 0
		for n < len(w) && n < len(q) && w[n] == q[n] {
			n++
		}
		for k := n; k >= 1; k-- {
			if humps(q[k:], words[i+1:]) {
				return true
			}
		}
	}
	return false
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

// Symbol readings of a find query. A file that defines a type named like
// the query is nearly as good an answer as a file of that name (the seed
// design scored a file name 20 and a symbol 15–18 of 20): classes and
// other types 0.90, functions 0.85, methods 0.80. Asked for the
// implementation, a file defining the methods of a type so named scores
// 0.92: the .cpp beside the header that declares the class.
const (
	symTypeScore   = 0.90
	symFuncScore   = 0.85
	symMemberScore = 0.80
	symImplScore   = 0.92
)

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
		id, ok := e.byPath[root][rel]
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
