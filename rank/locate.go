package rank

import (
	"context"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"wayfind/content"
	"wayfind/symbols"
)

// Locate answers "where is X (implemented)" by a cascade, one strategy at
// a time, evidence before similarity, stopping as soon as the evidence is
// sufficient (question.go reads the question):
//
//  1. symbol: definitions named by the body (or a reading of it — without
//     kind words at its ends, then without filler words):
//     a type 0.95, a function 0.90, a member 0.85 (symbolEvidence +
//     locateSymbolLift); a definition named in another case than the one
//     written, or in a test, counts less; asked for the implementation,
//     the file that defines a type's methods 0.97, above the header
//     declaring it;
//  2. file: file names through Find, whatever the symbols found. A file
//     named the term itself is as good as a definition (0.96) unless a
//     symbol of that name is defined in another file (0.93: a rival, so
//     neither is confident); a file whose name merely resembles the term
//     keeps fileLike of Find's score, never enough to stop the cascade;
//  3. recovery, when the above are empty or weak: the body's text as a
//     phrase (four words or more), the body's words in the files' text
//     (literally or joined by [ _-]?: 0.55 + 0.05 per match up to five),
//     a header's implementation when the implementation was asked for and
//     only the header was found, and the header beside an implementation.
//     Quoted text is searched as a phrase first, whatever its length;
//  4. nothing: no results and confidence 0, never a guess.
//
// Confidence is the best score, discounted when the runner-up (other than
// the best's own header or implementation) is close; callers act on it at
// DefaultMinConfidence.

// isStub reports a file of declarations only — a Python stub, a
// TypeScript declaration file — whose definitions are written elsewhere.
func isStub(p string) bool {
	lp := strings.ToLower(p)
	return strings.HasSuffix(lp, ".pyi") || strings.HasSuffix(lp, ".d.ts") || strings.HasSuffix(lp, ".d.mts") || strings.HasSuffix(lp, ".d.cts")
}

// Via is the strategy that found a hit.
type Via string

const (
	ViaFile    Via = "file"
	ViaSymbol  Via = "symbol"
	ViaContent Via = "content"
)

// recoveryStep is one recovery step of the cascade (recover), as a bit of
// the set locator.tried.
type recoveryStep uint8

const (
	stepPhrase recoveryStep = 1 << iota
	stepContent
	stepImplementation
	stepHeader
)

// took reports whether step was taken, and marks it taken.
func (l *locator) took(step recoveryStep) bool {
	was := l.tried&step != 0
	l.tried |= step
	return was
}

// maxRecovery bounds the recovery steps of one query.
const maxRecovery = 3

// LocateRequest is find/locate's input: a question such as "where is
// CommandRouter implemented" or just a name.
type LocateRequest struct {
	Query string
	Limit int
	// MinConfidence stops the cascade once reached (0: DefaultMinConfidence).
	MinConfidence float64
	// Current and History say where the user works (affinity.go): among
	// answers of equal score, the nearer comes first; Authored, what the
	// user committed lately (Authorship).
	Current  string
	History  []Visit
	Authored Authored
}

// LocateHit is one answer and the strategy that found it.
type LocateHit struct {
	File   int32
	Root   int
	Path   string
	Range  *symbols.Range // where a symbol or a content match is, when known
	Score  float64
	Via    Via
	Reason string
	// definition: Range is where the body's name is defined in the file.
	definition bool
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

// SymbolLookup is what locate asks of the symbols: the definitions filed
// under a name key and the members of the types filed under a container
// key (symbols.Symbol's NameKey and ContainerKey). The engine's
// SymbolIndex answers it from memory; symbols.Lookup, the CLI's, from the
// on-disk cache, reading only the entries it needs.
type SymbolLookup interface {
	Named(key string) []symbols.Ref
	Members(key string) []symbols.Ref
}

// WithSymbolLookup returns an engine whose locate asks src about symbols
// (when it has no SymbolIndex of its own).
func (e *Engine) WithSymbolLookup(src SymbolLookup) *Engine {
	c := *e
	c.lookup = src
	return &c
}

func (e *Engine) symbolLookup() SymbolLookup {
	if e.sym != nil {
		return e.sym
	}
	return e.lookup // nil or set
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
	q := readQuestion(req.Query)
	if q.phrase == "" && len(q.body) == 0 {
		return nil, inputError("the question names nothing to look for")
	}
	min := req.MinConfidence
	if min <= 0 {
		min = DefaultMinConfidence
	}
	limit := ResultLimit(req.Limit)
	term := q.phrase
	if term == "" {
		term = strings.Join(q.body, " ")
	}
	l := &locator{e: e, q: &q, res: &LocateResult{Term: term, Impl: q.impl, Strategies: []string{}, Results: []LocateHit{}}, hits: map[int32]int{},
		aff: e.newAffinity(req.Current, req.History, req.Authored)}
	if q.phrase != "" && !identifier.MatchString(q.phrase) {
		// Quoted text is what to find, as written.
		if err := l.phrase(ctx, q.phrase, phraseQuoted); err != nil {
			return nil, err
		}
		return l.inContext(ctx, req.Query, min, limit)
	}
	if q.phrase != "" {
		q.body = []string{q.phrase} // a quoted name is a name
	}
	// 1. Symbols.
	if src := e.symbolLookup(); src != nil {
		l.res.Strategies = append(l.res.Strategies, "symbol")
		l.symbols(src)
	}
	// 2. File names, always: a file named the term may be the answer
	// beside the header that declares it ("command_router").
	l.res.Strategies = append(l.res.Strategies, "file")
	if err := l.files(ctx); err != nil {
		return nil, err
	}
	// A long body that names nothing whole may be quoted text.
	if l.guessed && q.quotation() && e.content != nil {
		l.tried = stepPhrase
		if err := l.phrase(ctx, q.text, phraseUnquoted); err != nil {
			return nil, err
		}
	}
	// 3. Recovery.
	for step := 0; step < maxRecovery && l.confidence() < min; step++ {
		ok, err := l.recover(ctx)
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
	}
	return l.inContext(ctx, req.Query, min, limit)
}

// inContext finishes a question that quoted part of a longer text ("find
// There's no 'user-agent' header") when the quotation alone was not
// enough: the whole text, found, holds the quotation in its context.
func (l *locator) inContext(ctx context.Context, query string, min float64, limit int) (*LocateResult, error) {
	if l.q.embedded && l.confidence() < min && l.e.content != nil {
		if whole := readQuestionQuoted(query, false); whole.quotation() {
			before := map[int32]float64{}
			for _, h := range l.res.Results {
				before[h.File] = h.Score
			}
			if err := l.phrase(ctx, whole.text, phraseInContext); err != nil {
				return nil, err
			}
			// Found in context, the files holding the quotation alone
			// answer only part of the question.
			found := 0
			for _, h := range l.res.Results {
				if s, ok := before[h.File]; !ok || s != h.Score {
					found++
				}
			}
			for i := range l.res.Results {
				if h := &l.res.Results[i]; found > 0 && h.Score == before[h.File] {
					h.Score *= droppedWords
				}
			}
		}
	}
	return l.finish(limit), nil
}

// identifier is text that may be a name: a quoted name is looked up as a
// symbol before its text is searched.
var identifier = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

type locator struct {
	e     *Engine
	q     *question
	named string // the squashed name the symbols matched ("" when none)
	// guessed: the symbols matched a reading without some of the body's
	// words.
	guessed bool
	res     *LocateResult
	hits    map[int32]int // file → index in res.Results
	tried   recoveryStep  // the recovery steps taken, a set
	aff     *affinity
}

// add keeps each file once, with its best evidence.
func (l *locator) add(h LocateHit) {
	if i, ok := l.hits[h.File]; ok {
		old := &l.res.Results[i]
		if old.Score >= h.Score {
			return
		}
		// Stronger evidence for a file keeps the line of the definition
		// found in it: "where is CartClient implemented" opens at the
		// struct, not at line 1 of the file named for it, nor at its
		// first method.
		if old.definition && !h.definition {
			h.Range, h.definition = old.Range, true
		}
		*old = h
		return
	}
	l.hits[h.File] = len(l.res.Results)
	l.res.Results = append(l.res.Results, h)
}

func (l *locator) sorted() []LocateHit {
	out := append([]LocateHit(nil), l.res.Results...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Score == out[j].Score && l.aff != nil {
			// Equally good answers: the one nearer where the user works.
			if ai, aj := l.aff.of(l.e, out[i].File).value, l.aff.of(l.e, out[j].File).value; ai != aj {
				return ai > aj
			}
		}
		return RanksBefore(out[i].Score, out[j].Score, out[i].Path, out[j].Path, out[i].Root, out[j].Root)
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
	id, ok := l.e.fileID(root, rel)
	return id, root, rel, ok
}

// symbols adds the files defining what the body names, reading by
// reading, until one names something.
func (l *locator) symbols(src SymbolLookup) {
	for _, reading := range l.q.names() {
		written := strings.Join(reading, "")
		refs := src.Named(squash(written))
		if len(refs) == 0 {
			continue
		}
		l.named = squash(written)
		l.res.Term = strings.Join(reading, " ")
		// A reading that dropped words the body had ("to a DynamoDB
		// table**" read as DynamoDBTable) is a guess: a little less, and
		// a long body is then searched as text too (Locate).
		guess := 1.0
		if l.guessed = len(reading) < len(l.q.bare()); l.guessed {
			guess = droppedWords
		}
		// Written as one name (not as words), its spelling counts:
		// "opendir" asks for opendir before openDir.
		asName := len(reading) == 1
		var types []string
		for i := range refs {
			id, root, rel, ok := l.fileID(refs[i].File)
			if !ok {
				continue
			}
			s := &refs[i].Symbol
			if s.Kind.IsType() {
				types = append(types, s.Name)
			}
			score := (symbolEvidence(s.Kind) + locateSymbolLift) * guess
			if l.q.impl && isHeader(pathExt(rel)) {
				score *= implHeaderFactor
			}
			if asName && s.Name != written {
				score *= otherCase
			}
			if isTestPath(rel) || isStub(rel) {
				score *= definedInTest
			}
			rng := s.Select
			l.add(LocateHit{File: id, Root: root, Path: rel, Range: &rng, Score: score, Via: ViaSymbol,
				Reason: fmt.Sprintf("symbol: %s %s", s.Kind, s.Qualified()), definition: true})
		}
		if l.q.impl && len(types) > 0 {
			l.implementations(src, types[0])
		}
		return
	}
}

// implementations adds the files defining the methods of the type named
// l.named: where it is implemented.
func (l *locator) implementations(src SymbolLookup, typ string) {
	count := map[int32]int{}
	first := map[int32]*symbols.Symbol{}
	members := src.Members(l.named)
	for i := range members {
		id, _, rel, ok := l.fileID(members[i].File)
		if !ok || isHeader(strings.ToLower(pathExt(rel))) {
			continue
		}
		count[id]++
		if first[id] == nil {
			first[id] = &members[i].Symbol
		}
	}
	for id, n := range count {
		f := l.e.file(id)
		rng := first[id].Select
		score := symImplScore + locateSymbolLift
		if isTestPath(l.e.filePath(id)) {
			score *= definedInTest
		}
		l.add(LocateHit{File: id, Root: int(f.root), Path: l.e.filePath(id), Range: &rng, Score: score, Via: ViaSymbol,
			Reason: fmt.Sprintf("symbol: implements %s (%d members)", typ, n)})
	}
}

// files adds the files whose names match the body (Find, names only).
func (l *locator) files(ctx context.Context) error {
	term := strings.Join(l.q.body, " ")
	found, err := l.e.WithSymbols(nil).Find(ctx, FindRequest{Query: term, Limit: maxLocateFiles, Impl: l.q.impl, oneWordTypos: true})
	if err != nil {
		if errors.Is(err, ErrInput) {
			return nil // a body that is no file name ("x < y"): other steps may still find it
		}
		return err
	}
	for _, m := range found.Matches {
		stem, _ := splitExt(path.Base(m.Path))
		dir := path.Base(path.Dir(m.Path))
		score := m.Score * fileLike
		reason := "file: " + m.Reason
		if namedAs(stem, l.q.body) || namedAs(dir+"/"+stem, l.q.body) {
			score, reason = fileNamed, "file: named "+term
			if best := l.definedElsewhere(m.Root, m.Path); best > 0 {
				score, reason = min(fileNamed, best-rivalBelow), "file: named "+term+" (a definition of that name is elsewhere)"
			}
		}
		if l.q.impl && isHeader(strings.ToLower(pathExt(m.Path))) {
			score *= implHeader
		}
		if isTestPath(m.Path) {
			score *= implTest
		}
		l.add(LocateHit{File: m.File, Root: m.Root, Path: m.Path, Score: score, Via: ViaFile, Reason: reason})
	}
	return l.movedFile(ctx, term)
}

// movedFile: a term that is the name (or the path) of a file the
// repository's history moved, and that no file has today, is that file,
// where it is now ("where is builtin-rm.c" → builtin/rm.c, moved).
func (l *locator) movedFile(ctx context.Context, term string) error {
	if l.e.repo == nil {
		return nil
	}
	q, err := ParsePath(term)
	if err != nil {
		return nil // no path: nothing for the history to say
	}
	if strings.Contains(term, "/") {
		if _, ok, _ := l.e.exact(q, 0, "", false); ok {
			return nil // a file of today has the path
		}
	} else if len(l.e.named(strings.ToLower(term))) > 0 {
		return nil // files of today have the name
	}
	st, err := l.e.readStale(ctx, ResolveRequest{Path: term}, q)
	if err != nil || st == nil || st.fate.Deleted || !(st.exact || strings.HasSuffix("/"+st.old, "/"+term)) {
		return err
	}
	c := l.e.staleCandidate(st)
	l.add(LocateHit{File: c.File, Root: c.Root, Path: c.Path, Score: fileNamed, Via: ViaFile,
		Reason: "file: " + term + " moved (" + c.Reasons[0] + ")"})
	return nil
}

// namedAs reports a file stem (or "dir/stem") that is the body itself:
// the same words in any case and with any separators, or — for a name
// written with separators of its own (GL_X_EXT) — the same separators
// too (glxext.h is not GL_X_EXT).
func namedAs(stem string, body []string) bool {
	if len(body) == 1 && strings.ContainsAny(body[0], "_-.") {
		return strings.EqualFold(strings.ReplaceAll(strings.ReplaceAll(stem, "-", "_"), "/", "_"), strings.ReplaceAll(body[0], "-", "_"))
	}
	return squash(stem) == squash(strings.Join(body, ""))
}

// maxContentHits bounds the files a content step reads matches from:
// text in more files than this is no evidence of where one thing is, and
// reading on costs time for every file.
const maxContentHits = 20

// maxNameHits and nameBudget bound the search for a name's declaration
// among the files that mention it (a field used in sixty files, declared
// in one): more files than a phrase's, for a bounded time.
const (
	maxNameHits = 80
	nameBudget  = 30 * time.Millisecond
)

// maxLocateFiles bounds the file names the file step considers.
const maxLocateFiles = 20

// definedElsewhere is the best score of a definition of the name the
// symbols matched in a file other than p and its header or
// implementation (0: none).
func (l *locator) definedElsewhere(root int, p string) float64 {
	best := 0.0
	for _, h := range l.res.Results {
		if h.Via == ViaSymbol && !(h.Root == root && (h.Path == p || counterparts(h.Path, p))) {
			best = max(best, h.Score)
		}
	}
	return best
}

// phrase adds the files holding text as written (score), or in another
// case (a little less) when none holds it so.
func (l *locator) phrase(ctx context.Context, text string, score float64) error {
	if n := len(l.res.Strategies); n == 0 || l.res.Strategies[n-1] != "phrase" {
		l.res.Strategies = append(l.res.Strategies, "phrase")
	}
	hits, err := l.search(ctx, content.Query{Phrase: text})
	if err != nil {
		return err
	}
	for _, h := range hits {
		s, how := score, "as written"
		if !h.hit.Exact {
			s, how = score-phraseFolded, "in another case"
		}
		if isTestPath(h.Path) {
			s *= definedInTest
		}
		h.Score, h.Reason = s, fmt.Sprintf("content: phrase %s, %d %s: %s", how, h.hit.Count, plural(h.hit.Count, "match", "matches"), h.hit.Text)
		l.add(h.LocateHit)
	}
	return nil
}

type contentHit struct {
	LocateHit
	hit content.Hit
}

// search runs a content query over the engine's files.
func (l *locator) search(ctx context.Context, q content.Query) ([]contentHit, error) {
	opt := content.SearchOptions{
		Keep:    func(file string) bool { _, _, _, ok := l.fileID(file); return ok },
		MaxHits: maxContentHits,
	}
	if q.Whole {
		// A name: the file declaring it may come after many that use it,
		// and the line declaring it after many uses in its file.
		opt.MaxHits, opt.Budget = maxNameHits, nameBudget
		opt.Select = func(file string, m content.Match) bool { return declares(m, pathExt(file)) }
	}
	hits, _, err := l.e.content.Search(ctx, q, opt)
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, nil // a query no pattern can hold: nothing found
	}
	var out []contentHit
	for _, h := range hits {
		id, root, rel, ok := l.fileID(h.File)
		if !ok {
			continue
		}
		rng := symbols.Range{Start: symbols.Position{Line: uint32(h.Line), Col: uint32(h.Col)}, End: symbols.Position{Line: uint32(h.Line), Col: uint32(h.Col)}}
		out = append(out, contentHit{LocateHit{File: id, Root: root, Path: rel, Range: &rng, Via: ViaContent}, h})
	}
	return out, nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// mentions adds the files whose text holds the name the body reads as:
// a name written as one (EmitMetaFile, idle_conn) as written first, whole;
// words (mod roots) joined or apart, whole words first. A file whose match
// looks like the name's declaration (declares) is better evidence than
// one that only uses it.
func (l *locator) mentions(ctx context.Context) error {
	// The body's words as they stand first ("base of code" is
	// BaseOfCode, "def bound" DEF_BOUND), then a name written as one as
	// written, then without kind or filler words; whole words before
	// parts.
	var queries []content.Query
	seen := map[string]bool{}
	var loose []string
	words := func(ws []string) {
		if fq, err := ParseFind(strings.Join(ws, " ")); err == nil && len(fq.Words) > 0 && !seen[strings.Join(fq.Words, " ")] {
			seen[strings.Join(fq.Words, " ")] = true
			queries = append(queries, content.Query{Words: fq.Words, Whole: true})
			loose = fq.Words
		}
	}
	if len(l.q.body) > 1 {
		words(l.q.body)
	}
	if bare := l.q.bare(); len(bare) == 1 && identifier.MatchString(bare[0]) {
		queries = append(queries, content.Query{Phrase: bare[0], Whole: true})
	}
	words(l.q.bare())
	words(l.q.plain())
	if loose != nil {
		queries = append(queries, content.Query{Words: loose})
	}
	if len(queries) == 0 {
		return nil
	}
	l.res.Strategies = append(l.res.Strategies, "content")
	for _, cq := range queries {
		hits, err := l.search(ctx, cq)
		if err != nil {
			return err
		}
		for _, h := range hits {
			h.Score = contentMention + contentPerMatch*float64(min(h.hit.Count, contentMatches))
			h.Reason = fmt.Sprintf("content: %d %s: %s", h.hit.Count, plural(h.hit.Count, "match", "matches"), h.hit.Text)
			for _, m := range h.hit.Matches {
				if h.hit.Exact && !m.Exact {
					continue // the name as written is asked, not another case of it
				}
				if declares(m, pathExt(h.Path)) {
					// Two declarations (a field, a local variable): the
					// file using the name more is the more likely home.
					h.Score = contentDeclares + contentDeclaresUse*float64(min(h.hit.Count, contentMatches))
					if cq.Phrase != "" && !h.hit.Exact {
						h.Score -= phraseFolded
					}
					h.Range = &symbols.Range{Start: symbols.Position{Line: uint32(m.Line), Col: uint32(m.Col)}, End: symbols.Position{Line: uint32(m.Line), Col: uint32(m.Col)}}
					h.Reason = "content: declares it: " + m.Text
					break
				}
			}
			l.add(h.LocateHit)
		}
		if len(hits) > 0 {
			return nil
		}
	}
	return nil
}

// declKeywords introduce a declaration of the name after them, in the
// languages wayfind indexes and the formats beside them; localKeywords
// among them declare a local when indented (inside a function).
var (
	declKeywords = set("func", "type", "var", "const", "let", "def", "class", "struct", "enum", "interface", "fn",
		"trait", "module", "record", "union", "typedef", "#define", "define", "val", "function", "object", "local", "alias")
	localKeywords = set("var", "let", "const", "val", "local")
	// statementWords open statements, not declarations: "return x;".
	statementWords = set("return", "case", "goto", "delete", "throw", "else", "if", "while", "for", "do", "sizeof", "new", "not", "and", "or", "in", "yield", "await")
)

// declares reports a match that looks like the declaration of the name
// it matched, in a file of extension ext: after a declaring keyword
// ("func wild", "class Wild", "#define WILD"), as a key or an assignment
// opening its line ("wild:", "wild = 1"; in Go those are a literal's key
// and an assignment), as a Go field ("wild bool"), as a C-family field or
// variable ("const node_type m_type;"), as an attribute assigned
// ("self.wild ="), as a Go method ("func (p *pp) wild(") or a C++ method
// defined outside its class ("void Session::open() {").
func declares(m content.Match, ext string) bool {
	if m.Len == 0 {
		return false
	}
	before := strings.TrimSpace(m.Text[:m.At])
	after := strings.TrimSpace(m.Text[m.At+m.Len:])
	assigned := strings.HasPrefix(after, "=") && !strings.HasPrefix(after, "==")
	lang := extFamily[strings.ToLower(ext)]
	if strings.EqualFold(ext, "go") {
		lang = "go"
	}
	if before == "" {
		if after == "" {
			return false
		}
		// gofmt aligns the specs of a const or var block ("fileNamed
		// = …" with spaces before "="); a statement has one.
		aligned := strings.HasPrefix(m.Text[m.At+m.Len:], "  ")
		switch c := after[0]; {
		case c == ':':
			return lang != "go" && !strings.HasPrefix(after, "::")
		case c == '=':
			return assigned && (lang != "go" || aligned)
		default:
			return lang == "go" && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '*' || c == '[')
		}
	}
	last := before[strings.LastIndexAny(before, " \t(")+1:]
	indented := m.Col > m.At
	switch {
	case declKeywords[last] || last == "" && strings.HasPrefix(before, "#") && strings.Contains(before, "define"):
		return !(localKeywords[last] && indented)
	case (last == "self." || last == "this." || last == "@") && assigned:
		return true
	case strings.HasPrefix(before, "func ") && strings.HasSuffix(before, ")") && (strings.HasPrefix(after, "(") || strings.HasPrefix(after, "[")):
		return true
	case lang == "c" && strings.HasPrefix(after, "::") && !strings.HasSuffix(before, "::") && !statementWords[strings.Fields(before)[0]]:
		return true // C++: "void SessionManager::open() {" implements the class
	case (lang == "c" || lang == "jvm" || lang == "cs") && after != "" && strings.ContainsRune(";[,=", rune(after[0])) && !strings.HasPrefix(after, "=="):
		// "Type name;": what comes before is a type, not an expression.
		first := strings.Fields(before)[0]
		return !statementWords[first] && !strings.ContainsAny(before, "=(.!?") && !strings.HasSuffix(before, "->") &&
			!strings.HasPrefix(before, "//") && !strings.HasPrefix(before, "*") && !strings.HasPrefix(before, "/*")
	}
	return false
}

// recover takes the next recovery step that applies, and reports whether
// there was one.
func (l *locator) recover(ctx context.Context) (bool, error) {
	s := l.sorted()
	switch {
	case l.e.content != nil && l.q.quotation() && !l.took(stepPhrase):
		return true, l.phrase(ctx, l.q.text, phraseUnquoted)
	case l.e.content != nil && !l.took(stepContent):
		return true, l.mentions(ctx)
	case len(s) > 0 && l.q.impl && isHeader(strings.ToLower(pathExt(s[0].Path))) && !l.took(stepImplementation):
		// The header is known, its implementation not yet read.
		l.res.Strategies = append(l.res.Strategies, "alternate")
		if c, ok := l.e.Alternate(filepath.Join(l.e.ix.Roots[s[0].Root], filepath.FromSlash(s[0].Path))); ok {
			l.add(LocateHit{File: c.File, Root: c.Root, Path: c.Path, Score: min(1, s[0].Score+implementationLift), Via: ViaFile,
				Reason: "file: implementation of " + s[0].Path})
		}
		return true, nil
	case len(s) > 0 && extFamily[strings.ToLower(pathExt(s[0].Path))] == "c" && !isHeader(strings.ToLower(pathExt(s[0].Path))) && !l.took(stepHeader):
		// An implementation is found: offer its header beside it.
		l.res.Strategies = append(l.res.Strategies, "alternate")
		if c, ok := l.e.Alternate(filepath.Join(l.e.ix.Roots[s[0].Root], filepath.FromSlash(s[0].Path))); ok {
			l.add(LocateHit{File: c.File, Root: c.Root, Path: c.Path, Score: s[0].Score * implHeader, Via: ViaFile,
				Reason: "file: header of " + s[0].Path})
		}
		return true, nil
	}
	return false, nil
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
