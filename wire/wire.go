// Package wire holds the JSON shapes of docs/API.md that every front
// end (CLI, LSP, MCP) answers with, and their conversion from rank's
// results. It decides nothing: field names and nesting only.
package wire

import (
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"wayfind/rank"
	"wayfind/session"
	"wayfind/symbols"
	"wayfind/vcs"
)

// Position and Range are LSP's: 0-based line and UTF-16 character.
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Match is one find/files result.
type Match struct {
	URI       string   `json:"uri"`
	Path      string   `json:"path"`
	Score     float64  `json:"score"`
	MatchedIn []string `json:"matchedIn"`
	Reason    string   `json:"reason,omitempty"`
	// Ignored: the file is in a directory the index leaves out, listed
	// because the query named that directory.
	Ignored bool `json:"ignored,omitempty"`
}

// Files is find/files' result.
type Files struct {
	Matches       []Match `json:"matches"`
	TotalSearched int     `json:"totalSearched"`
	Truncated     bool    `json:"truncated"`
}

// Candidate is one find/resolvePath candidate.
type Candidate struct {
	URI     string   `json:"uri"`
	Path    string   `json:"path"`
	Score   float64  `json:"score"`
	Reasons []string `json:"reasons"`
	Range   *Range   `json:"range,omitempty"`
	// Ignored (an extension): the file exists but the index leaves it out
	// (.gitignore, node_modules, .git): the path named it exactly.
	Ignored bool `json:"ignored,omitempty"`
}

// Resolve is find/resolvePath's result.
type Resolve struct {
	Resolved   *Candidate  `json:"resolved"`
	Candidates []Candidate `json:"candidates"`
	Exact      bool        `json:"exact"`
	// Moved (an extension): the path is one the repository's history
	// followed to the resolved file. Gone: the history deleted the file
	// the path names, with no successor; nothing is resolved.
	Moved *HistoryNote `json:"moved,omitempty"`
	Gone  *HistoryNote `json:"gone,omitempty"`
	// Confidence (an extension): how often an answer given on this basis
	// is the file meant, measured on real work; resolved is set only at
	// rank.ResolvedConfidence or above. Basis: the rule that put the first
	// candidate first (rank/confidence.go).
	Confidence float64 `json:"confidence"`
	Basis      string  `json:"basis,omitempty"`
	// Class (an extension): the kind of answer the confidence was
	// measured for: the basis and its strength (rank.Class).
	Class string `json:"class,omitempty"`
	// HistoryPending (an extension): a path that names no file was
	// answered before the roots' history was read, so nothing is
	// resolved: the history may yet follow the path elsewhere, and the
	// same question asked once it is read may be answered (the
	// candidates, if any, carry the reason history:pending).
	HistoryPending bool `json:"historyPending,omitempty"`
}

// HistoryNote is what the repository's history says of an old path: the
// commit that moved it away or deleted it.
type HistoryNote struct {
	Path    string `json:"path"`    // the old path, root-relative
	Commit  string `json:"commit"`  // the full hash
	Date    string `json:"date"`    // committer date, YYYY-MM-DD (UTC)
	Subject string `json:"subject"` // the commit's subject line
	// LastPath (gone): the path the file had when it was deleted, when
	// it was renamed on the way.
	LastPath string `json:"lastPath,omitempty"`
}

// HistoryNoteOf is the note of an old path's fate.
func HistoryNoteOf(old string, f vcs.Fate) *HistoryNote {
	n := &HistoryNote{Path: old, Commit: f.Commit.Hash, Subject: f.Commit.Subject,
		Date: time.Unix(f.Commit.Time, 0).UTC().Format("2006-01-02")}
	if f.Deleted && f.LastPath != old {
		n.LastPath = f.LastPath
	}
	return n
}

// FileURI is the file:// URI of an absolute path.
func FileURI(abs string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// FilePath is the local path a file:// URI (or a plain absolute path)
// names: FileURI's inverse, the one place URIs become paths.
func FilePath(u string) (string, bool) {
	if strings.HasPrefix(u, "file:") {
		parsed, err := url.Parse(u)
		if err != nil || parsed.Path == "" {
			return "", false
		}
		p := filepath.FromSlash(parsed.Path)
		return p, filepath.IsAbs(p)
	}
	if filepath.IsAbs(u) {
		return u, true
	}
	return "", false
}

// URI is the file:// URI of a root-relative path.
func URI(roots []string, root int, rel string) string {
	return FileURI(filepath.Join(roots[root], filepath.FromSlash(rel)))
}

// FromFind converts the engine's find result.
func FromFind(roots []string, res *rank.FindResult) Files {
	out := Files{Matches: []Match{}, TotalSearched: res.TotalSearched, Truncated: res.Truncated}
	for _, m := range res.Matches {
		out.Matches = append(out.Matches, Match{URI: URI(roots, m.Root, m.Path), Path: m.Path, Score: m.Score, MatchedIn: m.MatchedIn, Reason: m.Reason})
	}
	return out
}

// FromResolve converts the engine's resolve result; the range is there when
// the query carried a line.
func FromResolve(roots []string, res *rank.ResolveResult) Resolve {
	out := Resolve{Exact: res.Exact, Candidates: []Candidate{}, Confidence: res.Confidence, Basis: string(res.Basis), Class: string(res.Class())}
	for _, c := range res.Candidates {
		out.Candidates = append(out.Candidates, candidate(roots, c, res))
	}
	if res.Resolved != nil {
		r := candidate(roots, *res.Resolved, res)
		out.Resolved = &r
	}
	if m := res.Moved; m != nil {
		out.Moved = HistoryNoteOf(m.From, m.Fate)
	}
	if g := res.Gone; g != nil {
		out.Gone = HistoryNoteOf(g.Path, g.Fate)
	}
	return out
}

func candidate(roots []string, c rank.Candidate, res *rank.ResolveResult) Candidate {
	wc := Candidate{URI: URI(roots, c.Root, c.Path), Path: c.Path, Score: c.Score, Reasons: c.Reasons}
	if res.Line > 0 {
		p := Position{Line: res.Line - 1, Character: max(res.Col-1, 0)}
		wc.Range = &Range{Start: p, End: p}
	}
	return wc
}

// LocateHit is one find/locate result.
type LocateHit struct {
	URI    string  `json:"uri"`
	Path   string  `json:"path"`
	Range  *Range  `json:"range,omitempty"`
	Score  float64 `json:"score"`
	Via    string  `json:"via"`
	Reason string  `json:"reason"`
}

// Locate is find/locate's result.
type Locate struct {
	Term       string      `json:"term"`
	Impl       bool        `json:"impl"`
	Strategies []string    `json:"strategies"`
	Results    []LocateHit `json:"results"`
	Confidence float64     `json:"confidence"`
}

// FromLocate converts the engine's locate result.
func FromLocate(roots []string, res *rank.LocateResult) Locate {
	out := Locate{Term: res.Term, Impl: res.Impl, Strategies: res.Strategies, Results: []LocateHit{}, Confidence: res.Confidence}
	for _, h := range res.Results {
		hit := LocateHit{URI: URI(roots, h.Root, h.Path), Path: h.Path, Score: h.Score, Via: string(h.Via), Reason: h.Reason}
		if h.Range != nil {
			r := FromRange(*h.Range)
			hit.Range = &r
		}
		out.Results = append(out.Results, hit)
	}
	return out
}

// SymbolInformation is LSP's flat symbol (workspace/symbol, wayfind
// symbols), with the workspace-relative path API.md puts on every result.
type SymbolInformation struct {
	Name          string   `json:"name"`
	Kind          int      `json:"kind"`
	ContainerName string   `json:"containerName,omitempty"`
	Location      Location `json:"location"`
	Path          string   `json:"path,omitempty"`
	Score         float64  `json:"score,omitempty"`
	// Location.Range is the name's range, where an editor puts the cursor
	// (as gopls answers). SelectionRange (an extension) is the same;
	// DeclarationRange (an extension) spans the whole declaration.
	SelectionRange   *Range `json:"selectionRange,omitempty"`
	DeclarationRange *Range `json:"declarationRange,omitempty"`
}

// Location is LSP's.
type Location struct {
	URI   string `json:"uri"`
	Range Range  `json:"range"`
}

// DocumentSymbol is LSP's hierarchical symbol (textDocument/documentSymbol).
type DocumentSymbol struct {
	Name           string           `json:"name"`
	Detail         string           `json:"detail,omitempty"`
	Kind           int              `json:"kind"`
	Range          Range            `json:"range"`
	SelectionRange Range            `json:"selectionRange"`
	Children       []DocumentSymbol `json:"children,omitempty"`
}

// FromRange converts a symbol range.
func FromRange(r symbols.Range) Range {
	return Range{
		Start: Position{Line: int(r.Start.Line), Character: int(r.Start.Col)},
		End:   Position{Line: int(r.End.Line), Character: int(r.End.Col)},
	}
}

// FromSymbols converts workspace/symbol matches.
func FromSymbols(ms []rank.SymbolMatch) []SymbolInformation {
	out := make([]SymbolInformation, len(ms))
	for i, m := range ms {
		out[i] = SymbolInformation{
			Name:          m.Symbol.Name,
			Kind:          int(m.Symbol.Kind),
			ContainerName: m.Symbol.Container,
			Location:      Location{URI: FileURI(m.File), Range: FromRange(m.Symbol.Select)},
			Path:          m.Path,
			Score:         m.Score,
		}
		sel, decl := FromRange(m.Symbol.Select), FromRange(m.Symbol.Range)
		out[i].SelectionRange, out[i].DeclarationRange = &sel, &decl
	}
	return out
}

// FromDocument nests a file's symbols (in source order) by their ranges.
func FromDocument(syms []symbols.Symbol) []DocumentSymbol {
	var roots []DocumentSymbol
	// Parents first, by index; then the tree is built bottom-up from them.
	parent := make([]int, len(syms))
	var stack []int
	before := func(a, b symbols.Position) bool {
		return a.Line < b.Line || a.Line == b.Line && a.Col <= b.Col
	}
	for i, s := range syms {
		for len(stack) > 0 && !before(s.Range.End, syms[stack[len(stack)-1]].Range.End) {
			stack = stack[:len(stack)-1]
		}
		parent[i] = -1
		if len(stack) > 0 {
			parent[i] = stack[len(stack)-1]
		}
		stack = append(stack, i)
	}
	children := make([][]int, len(syms))
	var top []int
	for i, p := range parent {
		if p < 0 {
			top = append(top, i)
		} else {
			children[p] = append(children[p], i)
		}
	}
	var build func(i int) DocumentSymbol
	build = func(i int) DocumentSymbol {
		s := syms[i]
		d := DocumentSymbol{Name: s.Name, Detail: s.Container, Kind: int(s.Kind), Range: FromRange(s.Range), SelectionRange: FromRange(s.Select)}
		for _, c := range children[i] {
			d.Children = append(d.Children, build(c))
		}
		return d
	}
	for _, i := range top {
		roots = append(roots, build(i))
	}
	return roots
}

// Status is find/status's result (and MCP's roots_list and reindex_paths).
type Status struct {
	Ready   bool     `json:"ready"`
	Roots   []string `json:"roots"`
	Files   int      `json:"files"`
	Symbols int      `json:"symbols"`
	IndexMs float64  `json:"indexMs"`
	// Extensions: whether the symbol index is complete, how long its last
	// full pass took, how many files locate's content search reads and
	// whether its index covers the current roots.
	SymbolsReady bool    `json:"symbolsReady"`
	SymbolsMs    float64 `json:"symbolsMs"`
	ContentFiles int     `json:"contentFiles"`
	ContentReady bool    `json:"contentReady"`
	// IndexStale: the answers come from the file index an earlier server
	// saved, until this one's walk has verified it.
	IndexStale bool        `json:"indexStale"`
	Model      ModelStatus `json:"model"`
	// CopyOrder: whether find's fitted order of a shared name's copies is
	// loaded (without it the formula orders them), and why not.
	CopyOrder CopyOrderStatus `json:"copyOrder"`
	// VCS is the repository history: null when no root is in a
	// repository, ready false until it is read.
	VCS *VCSStatus `json:"vcs"`
}

// VCSStatus is find/status' vcs object.
type VCSStatus struct {
	Kind    string `json:"kind"`
	Ready   bool   `json:"ready"`
	Commits int    `json:"commits"`
	Renames int    `json:"renames"`
	// Detection: "similarity", "exact" (a partial clone or a store
	// missing the blobs every rename needed) or "mixed" (similarity where
	// git could read the blobs, exact renames where it could not).
	Detection string  `json:"detection,omitempty"`
	Head      string  `json:"head"`
	Ms        float64 `json:"ms"`
}

// ModelStatus is find/status's model: API.md's loaded and name, and what
// else an operator needs to know.
type ModelStatus struct {
	Loaded    bool    `json:"loaded"`
	Name      string  `json:"name"`
	Precision string  `json:"precision,omitempty"`
	LoadMs    float64 `json:"loadMs,omitempty"`
	Reranked  int64   `json:"reranked"`
	Reason    string  `json:"reason,omitempty"` // why not loaded
}

// CopyOrderStatus is find/status's copyOrder.
type CopyOrderStatus struct {
	Loaded bool    `json:"loaded"`
	LoadMs float64 `json:"loadMs,omitempty"`
	Reason string  `json:"reason,omitempty"` // why not loaded
}

// FromStatus converts a session's status.
func FromStatus(st session.Status) Status {
	out := Status{Ready: st.Ready, Roots: []string{}, Files: st.Files, IndexMs: st.IndexMs,
		Symbols: st.Symbols, SymbolsReady: st.SymbolsReady, SymbolsMs: st.SymbolsMs, ContentFiles: st.ContentFiles, ContentReady: st.ContentReady,
		IndexStale: st.IndexStale, Model: ModelStatus(st.Model), CopyOrder: CopyOrderStatus(st.CopyOrder)}
	if v := st.VCS; v != nil {
		out.VCS = &VCSStatus{Kind: v.Kind, Ready: v.Ready, Commits: v.Commits, Renames: v.Renames, Detection: string(v.Detection), Head: v.Head, Ms: v.Ms}
	}
	for _, r := range st.Roots {
		out.Roots = append(out.Roots, FileURI(r))
	}
	return out
}

// Alternate is find/alternate's result: the header of an implementation
// or the implementation of a header.
type Alternate struct {
	URI  string `json:"uri"`
	Path string `json:"path"`
}

// Read is MCP read_resolved's answer: what was read, from where, and why.
type Read struct {
	Path      string   `json:"path"`
	URI       string   `json:"uri"`
	Requested string   `json:"requested"`
	Exact     bool     `json:"exact"`
	Reasons   []string `json:"reasons,omitempty"`
	Size      int64    `json:"size"`
	Truncated bool     `json:"truncated"`
	Text      string   `json:"text"`
}

// NamedDir is a directory of today a path that is not there names by its
// last components (`src` at the top of a tree of modules: `core/src`),
// with how many files lie below it.
type NamedDir struct {
	Path  string `json:"path"` // root-relative
	URI   string `json:"uri"`
	Files int    `json:"files"`
}

// DirMove is where the history moved a directory's files.
type DirMove struct {
	From     string       `json:"from"` // root-relative
	To       string       `json:"to"`
	URI      string       `json:"uri"` // of To
	Moved    int          `json:"moved"`
	Followed int          `json:"followed"`
	Commit   *HistoryNote `json:"commit"`
}
