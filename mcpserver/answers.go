package mcpserver

import (
	"path/filepath"
	"strings"

	"wayfind/symbols"
	"wayfind/wire"
)

// An agent pays for every byte it reads, so MCP answers are the LSP's
// trimmed: the root once at the top and root-relative paths (no per-item
// URI), 1-based line and column (as editors and compilers print them),
// kind names instead of LSP's numbers, and one short "why" per item.

// place is where in a file: 1-based; 0 when unknown.
type place struct {
	Line int `json:"line,omitempty"`
	Col  int `json:"col,omitempty"`
}

func placeOf(r *wire.Range) place {
	if r == nil {
		return place{}
	}
	return place{Line: r.Start.Line + 1, Col: r.Start.Character + 1}
}

type fileHit struct {
	Path  string  `json:"path"`
	Score float64 `json:"score"`
	Why   string  `json:"why,omitempty"`
	place
	Root int `json:"root,omitempty"` // index into roots, when there are several
}

// rooted names the roots once: "root" for one, "roots" for several.
type rooted struct {
	Root  string   `json:"root,omitempty"`
	Roots []string `json:"roots,omitempty"`
}

func rootedOf(roots []string) rooted {
	if len(roots) == 1 {
		return rooted{Root: roots[0]}
	}
	return rooted{Roots: roots}
}

// rootIndex is the root a file:// URI lies under (0 when one or unknown).
func rootIndex(roots []string, uri string) int {
	if len(roots) < 2 {
		return 0
	}
	abs, _ := wire.FilePath(uri)
	for i, r := range roots {
		if strings.HasPrefix(abs, r+string(filepath.Separator)) {
			return i
		}
	}
	return 0
}

type filesAnswer struct {
	rooted
	Matches   []fileHit `json:"matches"`
	Searched  int       `json:"searched"`
	Truncated bool      `json:"truncated,omitempty"`
}

func filesOf(roots []string, f wire.Files) filesAnswer {
	out := filesAnswer{rooted: rootedOf(roots), Matches: []fileHit{}, Searched: f.TotalSearched, Truncated: f.Truncated}
	for _, m := range f.Matches {
		out.Matches = append(out.Matches, fileHit{Path: m.Path, Score: m.Score, Why: m.Reason, Root: rootIndex(roots, m.URI)})
	}
	return out
}

type resolveAnswer struct {
	rooted
	Resolved *fileHit `json:"resolved"`
	Exact    bool     `json:"exact,omitempty"`
	// Others are the candidates besides the resolved file.
	Others []fileHit `json:"others,omitempty"`
	// Moved: the path was an old one the repository's history followed;
	// Gone: the history deleted its file (resolved is then null: stop
	// looking).
	Moved *wire.HistoryNote `json:"moved,omitempty"`
	Gone  *wire.HistoryNote `json:"gone,omitempty"`
	// Confidence: how often an answer like this one is the file meant
	// (resolved is null below 0.9: others is then the best order).
	Confidence float64 `json:"confidence"`
	// HistoryPending: answered before the repository's history was read
	// (wire.Resolve.HistoryPending): asked again in a moment, an old
	// path may be followed to today's file.
	HistoryPending bool `json:"historyPending,omitempty"`
}

func resolveOf(roots []string, r wire.Resolve) resolveAnswer {
	out := resolveAnswer{rooted: rootedOf(roots), Exact: r.Exact, Moved: r.Moved, Gone: r.Gone, Confidence: r.Confidence, HistoryPending: r.HistoryPending}
	hit := func(c wire.Candidate) fileHit {
		return fileHit{Path: c.Path, Score: c.Score, Why: strings.Join(c.Reasons, ","), place: placeOf(c.Range), Root: rootIndex(roots, c.URI)}
	}
	if r.Resolved != nil {
		h := hit(*r.Resolved)
		out.Resolved = &h
	}
	for _, c := range r.Candidates {
		if r.Resolved != nil && c.URI == r.Resolved.URI {
			continue
		}
		out.Others = append(out.Others, hit(c))
	}
	return out
}

type locateHit struct {
	fileHit
	Via string `json:"via"`
}

type locateAnswer struct {
	rooted
	Term       string      `json:"term"`
	Confidence float64     `json:"confidence"`
	Tried      []string    `json:"tried"`
	Results    []locateHit `json:"results"`
}

func locateOf(roots []string, l wire.Locate) locateAnswer {
	out := locateAnswer{rooted: rootedOf(roots), Term: l.Term, Confidence: l.Confidence, Tried: l.Strategies, Results: []locateHit{}}
	for _, h := range l.Results {
		out.Results = append(out.Results, locateHit{fileHit{Path: h.Path, Score: h.Score, Why: h.Reason, place: placeOf(h.Range), Root: rootIndex(roots, h.URI)}, h.Via})
	}
	return out
}

type symbolHit struct {
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	Container string `json:"in,omitempty"`
	Path      string `json:"path"`
	place
	Root int `json:"root,omitempty"`
}

type symbolsAnswer struct {
	rooted
	Symbols []symbolHit `json:"symbols"`
}

func symbolsOf(roots []string, ss []wire.SymbolInformation) symbolsAnswer {
	out := symbolsAnswer{rooted: rootedOf(roots), Symbols: []symbolHit{}}
	for _, s := range ss {
		at := s.SelectionRange // the name, not the declaration's first byte
		if at == nil {
			at = &s.Location.Range
		}
		out.Symbols = append(out.Symbols, symbolHit{Name: s.Name, Kind: symbols.Kind(s.Kind).String(), Container: s.ContainerName,
			Path: s.Path, place: placeOf(at), Root: rootIndex(roots, s.Location.URI)})
	}
	return out
}
