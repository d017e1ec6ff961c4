package rank

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"wayfind/content"
	"wayfind/symbols"
)

// Locate answers "where is X (implemented)" by a cascade, one strategy at
// a time, stopping as soon as the evidence is sufficient:
//
//  1. file: file names through Find, names only (all words in one stem,
//     CamelCase normalised), so that a file named for the thing wins;
//     asked for the implementation, headers and tests count 0.9;
//  2. symbol: definitions named by the term — a type 0.95, a function
//     0.90, a member 0.85 (symbolEvidence + locateSymbolLift); asked for
//     the implementation, the file that defines a type's methods 0.97,
//     above the header declaring it;
//  3. recovery, at most three steps, when the above are empty or weak:
//     content (the term's words in the indexed files' text, literally or
//     joined by [ _-]?: 0.55 + 0.05 per match up to five), a header's
//     implementation when the implementation was asked for and only the
//     header was found, and the header beside an implementation found;
//  4. nothing: no results and confidence 0, never a guess.
//
// Confidence is the best score, discounted when the runner-up (other than
// the best's own header or implementation) is close; callers act on it at
// DefaultMinConfidence.

// Asked where something is implemented, a header or a test named for it
// is weaker evidence than its source file (on top of Find's own 0.95 for
// headers): "replay_test.cpp" is where replay is exercised, not written.
const (
	implHeader = 0.9
	implTest   = 0.9
)

// isTestPath reports a file of tests: in a test directory or named so.
func isTestPath(p string) bool {
	for _, d := range strings.Split(strings.ToLower(p), "/") {
		switch d {
		case "test", "tests", "__tests__", "spec", "specs", "testdata":
			return true
		}
	}
	stem, _ := splitExt(strings.ToLower(path.Base(p)))
	return strings.HasPrefix(stem, "test_") || strings.HasSuffix(stem, "_test") || strings.HasSuffix(stem, "_spec") ||
		strings.HasSuffix(stem, ".test") || strings.HasSuffix(stem, ".spec") || strings.HasSuffix(stem, "test") && len(stem) > 4 && stem != "latest"
}

// DefaultMinConfidence is the evidence at which the cascade stops.
const DefaultMinConfidence = 0.7

// confidenceFloor is the share of its score the top result keeps as
// confidence when a rival scores the same; a lead of 0.1 or more keeps
// all of it (the margin is the lead × 10, at most 1).
const confidenceFloor = 0.6

// maxRecovery bounds the recovery steps of one query.
const maxRecovery = 3

// LocateRequest is find/locate's input: a question such as "where is
// CommandRouter implemented" or just a name.
type LocateRequest struct {
	Query string
	Limit int
	// MinConfidence stops the cascade once reached (0: DefaultMinConfidence).
	MinConfidence float64
}

// LocateHit is one answer and the strategy that found it.
type LocateHit struct {
	File   int32
	Root   int
	Path   string
	Range  *symbols.Range // where a symbol or a content match is, when known
	Score  float64
	Via    string // "file", "symbol" or "content"
	Reason string
}

// LocateResult is find/locate's output.
type LocateResult struct {
	Term       string
	Impl       bool
	Strategies []string // the strategies tried, in order
	Results    []LocateHit
	// Confidence is the top score, discounted when the runner-up is close:
	// a caller (an agent) should act on it only when it is high.
	Confidence float64
}

// locateFiller are the words of a question that do not name the thing
// looked for.
var locateFiller = map[string]bool{
	"where": true, "where's": true, "whats": true, "is": true, "are": true, "the": true, "a": true, "an": true, "what": true, "which": true,
	"file": true, "files": true, "find": true, "locate": true, "show": true, "me": true, "of": true, "for": true,
	"in": true, "does": true, "do": true, "live": true, "lives": true, "located": true, "implemented": true,
	"implementation": true, "implements": true, "defined": true, "definition": true, "declared": true, "declaration": true,
	"code": true, "source": true, "class": true, "function": true, "struct": true, "method": true, "type": true,
	"module": true, "how": true, "i": true, "can": true, "get": true, "to": true, "that": true, "this": true, "it": true,
	"?": true, "look": true, "up": true, "search": true, "please": true, "handled": true, "written": true,
}

// implWords say the question wants the implementation, not a header or a
// declaration.
var implWords = map[string]bool{"implemented": true, "implementation": true, "implements": true, "defined": true, "definition": true}

// LocateTerm extracts what a locate question is about and whether it asks
// for the implementation ("defined in" counts as asking).
func LocateTerm(query string) (term string, impl bool) {
	var kept []string
	for _, w := range strings.Fields(query) {
		w = strings.Trim(w, "?!.,;:'\"`()")
		lw := strings.ToLower(w)
		if implWords[lw] {
			impl = true
		}
		if w == "" || locateFiller[lw] {
			continue
		}
		kept = append(kept, w)
	}
	return strings.Join(kept, " "), impl
}

// WithContent returns an engine over the same files that also searches
// their text (locate's recovery) through ci.
func (e *Engine) WithContent(ci *content.Index) *Engine {
	c := *e
	c.content = ci
	return &c
}

// Locate runs the cascade.
func (e *Engine) Locate(ctx context.Context, req LocateRequest) (*LocateResult, error) {
	if _, err := prepare(req.Query); err != nil {
		return nil, err
	}
	term, impl := LocateTerm(req.Query)
	if term == "" {
		return nil, inputError("the question names nothing to look for")
	}
	fq, err := ParseFind(term)
	if err != nil {
		return nil, err
	}
	min := req.MinConfidence
	if min <= 0 {
		min = DefaultMinConfidence
	}
	limit := resultLimit(req.Limit)
	l := &locator{e: e, res: &LocateResult{Term: term, Impl: impl, Strategies: []string{}, Results: []LocateHit{}}, hits: map[int32]int{}}

	// 1. File names.
	l.res.Strategies = append(l.res.Strategies, "file")
	names := e.WithSymbols(nil)
	found, err := names.Find(ctx, FindRequest{Query: term, Limit: limit, Impl: impl})
	if err != nil {
		return nil, err
	}
	for _, m := range found.Matches {
		score := m.Score
		if impl && isHeader(strings.ToLower(pathExt(m.Path))) {
			score *= implHeader
		}
		if impl && isTestPath(m.Path) {
			score *= implTest
		}
		l.add(LocateHit{File: m.File, Root: m.Root, Path: m.Path, Score: score, Via: "file", Reason: "file: " + m.Reason})
	}
	// 2. Symbols.
	if l.confidence() < min && e.sym != nil {
		l.res.Strategies = append(l.res.Strategies, "symbol")
		l.symbols(&fq, impl)
	}
	// 3. Recovery.
	for step := 0; step < maxRecovery && l.confidence() < min; step++ {
		if !l.recover(ctx, &fq, impl) {
			break
		}
	}
	return l.finish(limit), nil
}

type locator struct {
	e     *Engine
	res   *LocateResult
	hits  map[int32]int // file → index in res.Results
	tried map[string]bool
}

// add keeps each file once, with its best evidence.
func (l *locator) add(h LocateHit) {
	if i, ok := l.hits[h.File]; ok {
		if l.res.Results[i].Score >= h.Score {
			return
		}
		l.res.Results[i] = h
		return
	}
	l.hits[h.File] = len(l.res.Results)
	l.res.Results = append(l.res.Results, h)
}

func (l *locator) sorted() []LocateHit {
	out := append([]LocateHit(nil), l.res.Results...)
	sort.SliceStable(out, func(i, j int) bool {
		return ranksBefore(out[i].Score, out[j].Score, out[i].Path, out[j].Path, out[i].Root, out[j].Root)
	})
	return out
}

// confidence is the best score discounted by the runner-up's closeness;
// the best's own header or implementation is no rival.
func (l *locator) confidence() float64 {
	s := l.sorted()
	if len(s) == 0 {
		return 0
	}
	top := s[0]
	margin := 1.0
	for _, h := range s[1:] {
		if h.Root == top.Root && counterparts(h.Path, top.Path) {
			continue
		}
		margin = min(1, (top.Score-h.Score)*10)
		break
	}
	return top.Score * (confidenceFloor + (1-confidenceFloor)*margin)
}

// counterparts reports a header and an implementation of one stem.
func counterparts(a, b string) bool {
	sa, ea := splitExt(path.Base(a))
	sb, eb := splitExt(path.Base(b))
	return strings.EqualFold(sa, sb) && isHeader(strings.ToLower(ea)) != isHeader(strings.ToLower(eb))
}

func (l *locator) fileID(file string) (int32, int, string, bool) {
	root, rel, ok := l.e.ix.RootOf(file)
	if !ok {
		return 0, 0, "", false
	}
	id, ok := l.e.byPath[root][rel]
	return id, root, rel, ok
}

// symbols adds the files defining what the term names.
func (l *locator) symbols(fq *FindQuery, impl bool) {
	si := l.e.sym
	n, ok := si.bySq[fq.Squashed]
	if !ok {
		return
	}
	var types []string
	for _, r := range si.names[n].refs {
		ref := &si.refs[r]
		id, root, rel, ok := l.fileID(ref.file)
		if !ok {
			continue
		}
		s := ref.sym
		if s.Kind.IsType() {
			types = append(types, s.Name)
		}
		score := symbolEvidence(s.Kind) + locateSymbolLift
		if impl && isHeader(pathExt(rel)) {
			score *= implHeaderFactor
		}
		rng := s.Select
		l.add(LocateHit{File: id, Root: root, Path: rel, Range: &rng, Score: score, Via: "symbol",
			Reason: fmt.Sprintf("symbol: %s %s", s.Kind, s.Qualified())})
	}
	if !impl || len(types) == 0 {
		return
	}
	// The file defining the type's methods is its implementation.
	count := map[int32]int{}
	first := map[int32]*symbols.Symbol{}
	for _, r := range si.members[fq.Squashed] {
		ref := &si.refs[r]
		id, _, rel, ok := l.fileID(ref.file)
		if !ok || isHeader(strings.ToLower(pathExt(rel))) {
			continue
		}
		count[id]++
		if first[id] == nil {
			first[id] = ref.sym
		}
	}
	for id, n := range count {
		f := &l.e.files[id]
		rng := first[id].Select
		l.add(LocateHit{File: id, Root: int(f.root), Path: f.path, Range: &rng, Score: symImplScore + locateSymbolLift, Via: "symbol",
			Reason: fmt.Sprintf("symbol: implements %s (%d members)", types[0], n)})
	}
}

// locateSymbolLift puts locate's symbol step above its file-name step: a
// definition named by the term is better evidence of "where is X" than a
// file whose name merely resembles it. On find's scale (symbolEvidence)
// plus this: a type 0.95, a function 0.90, a member 0.85, the file
// defining a type's methods 0.97.
const locateSymbolLift = 0.05

// recover takes the next recovery step that applies, and reports whether
// there was one.
func (l *locator) recover(ctx context.Context, fq *FindQuery, impl bool) bool {
	if l.tried == nil {
		l.tried = map[string]bool{}
	}
	s := l.sorted()
	switch {
	case !l.tried["content"] && l.e.content != nil && len(fq.Words) > 0:
		l.tried["content"] = true
		l.res.Strategies = append(l.res.Strategies, "content")
		hits, _, err := l.e.content.Search(ctx, content.Query{Words: fq.Words}, content.SearchOptions{
			Keep: func(file string) bool { _, _, _, ok := l.fileID(file); return ok },
		})
		if err != nil {
			return false
		}
		for _, h := range hits {
			id, root, rel, ok := l.fileID(h.File)
			if !ok {
				continue
			}
			rng := symbols.Range{Start: symbols.Position{Line: uint32(h.Line), Col: uint32(h.Col)}, End: symbols.Position{Line: uint32(h.Line), Col: uint32(h.Col)}}
			word := "match"
			if h.Count != 1 {
				word = "matches"
			}
			l.add(LocateHit{File: id, Root: root, Path: rel, Range: &rng, Score: 0.55 + 0.05*float64(min(h.Count, 5)), Via: "content",
				Reason: fmt.Sprintf("content: %d %s: %s", h.Count, word, h.Text)})
		}
		return true
	case len(s) > 0 && impl && !l.tried["implementation"] && isHeader(strings.ToLower(pathExt(s[0].Path))):
		// The header is known, its implementation not yet read.
		l.tried["implementation"] = true
		l.res.Strategies = append(l.res.Strategies, "alternate")
		if c, ok := l.e.Alternate(filepath.Join(l.e.ix.Roots[s[0].Root], filepath.FromSlash(s[0].Path))); ok {
			l.add(LocateHit{File: c.File, Root: c.Root, Path: c.Path, Score: min(1, s[0].Score+0.02), Via: "file",
				Reason: "file: implementation of " + s[0].Path})
		}
		return true
	case len(s) > 0 && !l.tried["header"] && extFamily[strings.ToLower(pathExt(s[0].Path))] == "c" && !isHeader(strings.ToLower(pathExt(s[0].Path))):
		// An implementation is found: offer its header beside it.
		l.tried["header"] = true
		l.res.Strategies = append(l.res.Strategies, "alternate")
		if c, ok := l.e.Alternate(filepath.Join(l.e.ix.Roots[s[0].Root], filepath.FromSlash(s[0].Path))); ok {
			l.add(LocateHit{File: c.File, Root: c.Root, Path: c.Path, Score: s[0].Score * 0.9, Via: "file",
				Reason: "file: header of " + s[0].Path})
		}
		return true
	}
	return false
}

func (l *locator) finish(limit int) *LocateResult {
	l.res.Confidence = round3(l.confidence())
	s := l.sorted()
	if len(s) > limit {
		s = s[:limit]
	}
	for i := range s {
		s[i].Score = round3(min(s[i].Score, 1))
	}
	l.res.Results = s
	if l.res.Results == nil {
		l.res.Results = []LocateHit{}
	}
	return l.res
}

func pathExt(p string) string {
	_, ext := splitExt(path.Base(p))
	return ext
}
