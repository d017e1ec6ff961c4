// Package service is the one request layer between the front ends (the
// LSP server, the MCP server, the CLI) and the engine: one function per
// question, each taking typed parameters, applying the rules every front
// end shares — which index to wait for, limits and thresholds, the
// navigation history, confinement to the roots — and returning the wire
// shapes. A front end parses its own protocol, calls one of these and
// formats the answer; it decides nothing else.
//
// Errors the caller must fix wrap rank.ErrInput (LSP: InvalidParams; MCP:
// a tool error; CLI: exit 2). A file read_resolved cannot serve wraps
// ErrUnreadable.
package service

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"wayfind/history"
	"wayfind/pathlit"
	"wayfind/rank"
	"wayfind/session"
	"wayfind/vcs"
	"wayfind/wire"
	"wayfind/workspace"
)

// Workspace is what a request needs from a workspace: session.Session
// (the servers' live one) provides it.
type Workspace interface {
	// Engine answers from the file index, with symbols, contents and the
	// model when they are there; it waits for nothing else.
	Engine(ctx context.Context) (*rank.Engine, error)
	// SymbolEngine waits for the symbol index.
	SymbolEngine(ctx context.Context) (*rank.Engine, error)
	// LocateEngine waits for the symbol and content indexes.
	LocateEngine(ctx context.Context) (*rank.Engine, error)
	// Frecent lists up to n visited files, weightiest first; Recent, most
	// recent first, a person's or (agents) anyone's; Visit adds one (an
	// absolute path).
	Frecent(n int) []history.Visit
	Recent(n int, agents bool) []history.Visit
	// Current is the file a person last went to, while it still says
	// where they are (history.Store.Current).
	Current() (history.Visit, bool)
	Visit(file string, why history.Reason)
	Status() session.Status
	Reindex(ctx context.Context) (session.Status, error)
	// WaitHistory waits (at most d) until the roots' repository history
	// is read; false when it is still being read.
	WaitHistory(ctx context.Context, d time.Duration) bool
}

// Service answers requests over one workspace. It is safe for concurrent use.
type Service struct {
	ws      Workspace
	skipped skippedListing // the skipped directories' files, listed lately
}

// New returns the request layer over ws.
func New(ws Workspace) *Service { return &Service{ws: ws} }

// ErrUnreadable is wrapped by Read's refusals: no file clearly meant, not
// a file of the index, binary, or an I/O failure.
var ErrUnreadable = errors.New("cannot read")

func invalid(format string, args ...any) error { return rank.InputError(fmt.Sprintf(format, args...)) }

// checkLimit is the rule every listing shares: 0 means the default.
func checkLimit(limit int) error {
	if limit < 0 {
		return invalid("limit must not be negative")
	}
	return nil
}

// checkListing is the rule of a ranked listing: its limit, and its cut-off
// (a threshold or a confidence, named so in the error) in 0..1.
func checkListing(limit int, cutoff string, v float64) error {
	if err := checkLimit(limit); err != nil {
		return err
	}
	if v < 0 || v > 1 {
		return invalid("%s must be between 0 and 1", cutoff)
	}
	return nil
}

// Resolve turns a wrong, stale or mistyped path into the file it meant.
func (s *Service) Resolve(ctx context.Context, p ResolveParams) (wire.Resolve, int, error) {
	eng, res, err := s.resolve(ctx, &p)
	if err != nil {
		return wire.Resolve{}, 0, err
	}
	if !res.Exact && p.placed != placedNowhere && p.placed != placedForeign {
		out, ok, doubt := offIndex(ctx, eng, p, len(res.Candidates) == 0, &s.skipped)
		if ok {
			return out, len(out.Candidates), nil
		}
		if doubt {
			res.Withhold()
		}
	}
	followLine(ctx, eng, res)
	clampLine(eng, res)
	anchorLine(eng, res)
	out := wire.FromResolve(eng.Index().Roots, res)
	out.HistoryPending = p.historyPending
	if p.Record != "" && res.Resolved != nil {
		c := res.Resolved
		s.ws.Visit(eng.Index().Abs(workspace.File{Root: c.Root, Path: c.Path}), p.Record)
	}
	return out, len(out.Candidates), nil
}

// resolve asks the index; p.History, when nil, becomes the workspace's.
func (s *Service) resolve(ctx context.Context, p *ResolveParams) (*rank.Engine, *rank.ResolveResult, error) {
	if err := checkLimit(p.Limit); err != nil {
		return nil, nil, err
	}
	eng, err := s.ws.Engine(ctx)
	if err != nil {
		return nil, nil, err
	}
	p.weighed = s.history(p.History)
	if p.From == "" && p.Current == "" && p.History == nil {
		p.Current = s.current()
	}
	res, placed, asked, err := resolvePlaced(ctx, eng, p.request())
	if err != nil {
		return nil, nil, err
	}
	p.placed, p.Path = placed, asked
	guardResult(eng.Index().Roots, res)
	noteRerank(ctx, res.Rerank)
	if !res.Exact && res.Moved == nil && res.Gone == nil && !s.ws.WaitHistory(ctx, 0) {
		// A path that names no file may be an old one, and the history
		// that would say so is still being read: wait for it a little,
		// then ask again; past that, a guess from names alone
		// (builtin-rm.c → builtin.h) is not given as the answer.
		if !p.noWait && s.ws.WaitHistory(ctx, HistoryWait) {
			return s.resolveOnce(ctx, p)
		}
		res.Withhold()
		p.historyPending = true
		for i := range res.Candidates {
			res.Candidates[i].Reasons = append(res.Candidates[i].Reasons, "history:pending")
		}
	}
	return eng, res, nil
}

// HistoryWait bounds how long a path that names no file waits for the
// repository's history: a short history is read soon after the file
// index, a long one takes longer (docs/BENCHMARKS.md, "The agent hook": a
// first call's history read); past it the answer says history:pending
// instead.
const HistoryWait = 3 * time.Second

// resolveOnce asks the engine again, now with the history.
func (s *Service) resolveOnce(ctx context.Context, p *ResolveParams) (*rank.Engine, *rank.ResolveResult, error) {
	eng, err := s.ws.Engine(ctx)
	if err != nil {
		return nil, nil, err
	}
	res, _, _, err := resolvePlaced(ctx, eng, p.request())
	if err != nil {
		return nil, nil, err
	}
	if p.placed == placedForeign {
		foreignOnly(res) // p.Path is the foreign path's tail, asked again
	}
	guardResult(eng.Index().Roots, res)
	noteRerank(ctx, res.Rerank)
	return eng, res, nil
}

// history is the history a request weighs: the one it brings (files,
// most recent last; [] for none), else the workspace's.
func (s *Service) history(own []string) []rank.Visit {
	if own == nil {
		return s.visits()
	}
	return rank.Recency(own)
}

// current is the file a person last went to, standing for the current
// file of a request that names none ("" when it says nothing any more).
func (s *Service) current() string {
	if v, ok := s.ws.Current(); ok {
		return v.Path()
	}
	return ""
}

// visits is the workspace's history as the engine weighs it.
func (s *Service) visits() []rank.Visit { return EngineVisits(s.ws.Frecent(rank.MaxVisits)) }

// EngineVisits is a history as the engine weighs it: absolute paths,
// frecency weights.
func EngineVisits(vs []history.Visit) []rank.Visit {
	out := make([]rank.Visit, len(vs))
	for i, v := range vs {
		out[i] = rank.Visit{File: v.Path(), Weight: v.Weight}
	}
	return out
}

// Find is the fuzzy file search. It answers from the file index at once:
// it is what a picker calls on every keystroke. Nothing typed lists the
// recent files, most recent first.
func (s *Service) Find(ctx context.Context, p FindParams) (wire.Files, int, error) {
	if err := checkListing(p.Limit, "threshold", p.Threshold); err != nil {
		return wire.Files{}, 0, err
	}
	eng, err := s.ws.Engine(ctx)
	if err != nil {
		return wire.Files{}, 0, err
	}
	req := p.request()
	if strings.TrimSpace(p.Query) == "" {
		// In order, one more than asked (the current file may be among them).
		for _, v := range s.ws.Recent(rank.ResultLimit(p.Limit)+1, p.Agent) {
			req.History = append(req.History, rank.Visit{File: v.Path(), Weight: 1})
		}
	} else {
		req.History = s.visits()
		if req.Current == "" {
			req.Current = s.current()
		}
	}
	start := time.Now()
	res, err := eng.Find(ctx, req)
	noteEngine(ctx, start)
	if err != nil {
		return wire.Files{}, 0, err
	}
	noteRerank(ctx, res.Rerank)
	out := wire.FromFind(eng.Index().Roots, res)
	// A query naming a directory the index skips (node_modules/semver
	// satisfies) searches it too.
	if dirs := namedSkipped(eng.Index(), p.Query); len(dirs) > 0 {
		out = findInSkipped(ctx, eng.Index().Roots, dirs, p, out)
	}
	return out, len(out.Matches), nil
}

// Locate answers "where is X implemented". The cascade reads symbols and
// contents, so it waits for both: an answer must not depend on timing.
func (s *Service) Locate(ctx context.Context, p LocateParams) (wire.Locate, int, error) {
	if err := checkListing(p.Limit, "minConfidence", p.MinConfidence); err != nil {
		return wire.Locate{}, 0, err
	}
	eng, err := s.ws.LocateEngine(ctx)
	if err != nil {
		return wire.Locate{}, 0, err
	}
	current := p.Current
	if current == "" {
		current = s.current()
	}
	res, err := eng.Locate(ctx, rank.LocateRequest{Query: p.Query, Limit: p.Limit, MinConfidence: p.MinConfidence,
		Current: current, History: s.visits()})
	if err != nil {
		return wire.Locate{}, 0, err
	}
	out := wire.FromLocate(eng.Index().Roots, res)
	return out, len(out.Results), nil
}

// Symbols searches definitions by name. Nothing typed (an editor opening
// its picker sends "") is nothing to rank: an empty list, at once.
func (s *Service) Symbols(ctx context.Context, p SymbolParams) ([]wire.SymbolInformation, int, error) {
	if err := checkLimit(p.Limit); err != nil {
		return nil, 0, err
	}
	if q := rank.ParseSymbolQuery(p.Query); q.Name == "" && len(q.Qualifier) == 0 {
		return []wire.SymbolInformation{}, 0, nil
	}
	eng, err := s.ws.SymbolEngine(ctx)
	if err != nil {
		return nil, 0, err
	}
	ms, err := eng.SearchSymbols(ctx, rank.SymbolRequest{Query: p.Query, Limit: p.Limit, Exact: p.Exact})
	if err != nil {
		return nil, 0, err
	}
	return wire.FromSymbols(ms), len(ms), nil
}

// Alternate is the header for an implementation and back (nil when there
// is none); file is a local path.
func (s *Service) Alternate(ctx context.Context, file string) (*wire.Alternate, error) {
	eng, err := s.ws.Engine(ctx)
	if err != nil {
		return nil, err
	}
	c, ok := eng.Alternate(file)
	if !ok {
		return nil, nil
	}
	return &wire.Alternate{URI: wire.URI(eng.Index().Roots, c.Root, c.Path), Path: c.Path}, nil
}

// Status is the workspace's state.
func (s *Service) Status() wire.Status { return wire.FromStatus(s.ws.Status()) }

// Reindex re-reads the roots and waits for every index.
func (s *Service) Reindex(ctx context.Context) (wire.Status, error) {
	st, err := s.ws.Reindex(ctx)
	if err != nil {
		return wire.Status{}, err
	}
	return wire.FromStatus(st), nil
}

// Visit records that a file (a file:// URI or an absolute path) was looked
// at, for a reason (history.ParseReason: "" is open).
func (s *Service) Visit(file, reason string) error {
	why, err := history.ParseReason(reason)
	if err != nil {
		return invalid("%v", err)
	}
	abs, ok := wire.FilePath(file)
	if !ok {
		return invalid("not a file URI or absolute path: %q", file)
	}
	s.ws.Visit(abs, why)
	return nil
}

// Metrics collects what a request reports beyond its answer, for a front
// end's metrics line: put one in the context with WithMetrics.
type Metrics struct {
	EngineMs float64 // time in the engine's ranking (rank.Engine.Find, Resolve)
	RerankMs float64 // time in the model, when it was asked
}

type metricsKey struct{}

// WithMetrics returns a context whose requests fill m.
func WithMetrics(ctx context.Context, m *Metrics) context.Context {
	return context.WithValue(ctx, metricsKey{}, m)
}

// noteEngine adds the time since start, spent in the engine, to ctx's
// metrics.
func noteEngine(ctx context.Context, start time.Time) {
	if m, ok := ctx.Value(metricsKey{}).(*Metrics); ok {
		m.EngineMs += float64(time.Since(start).Microseconds()) / 1000
	}
}

func noteRerank(ctx context.Context, st rank.RerankStats) {
	if m, ok := ctx.Value(metricsKey{}).(*Metrics); ok && st.Candidates > 0 {
		m.RerankMs += st.Ms
	}
}

// Literal judges one path literal of the document at docPath (absolute)
// as find/resolvePath reads that path from that document — the same
// request, the workspace's history, the repository's — and then by
// pathlit's rules; roots are the ones the answer's paths are in.
func (s *Service) Literal(ctx context.Context, docPath string, lit pathlit.Literal) (ref pathlit.Ref, roots []string, ok bool, err error) {
	p := ResolveParams{Path: lit.Text, From: docPath, Link: lit.Link, Limit: 1, noWait: true}
	eng, res, err := s.resolve(ctx, &p)
	if err != nil {
		if errors.Is(err, rank.ErrInput) {
			return pathlit.Ref{}, nil, false, nil // not a path after all
		}
		return pathlit.Ref{}, nil, false, err
	}
	ix := eng.Index()
	ref, ok = pathlit.Judge(ix, res, docPath, lit)
	return ref, ix.Roots, ok, nil
}

// MovedDir says where the files of a directory that no file of today is
// under went, when the repository's history moved most of them to one
// directory (rank.Engine.MovedDir): nil when it did not, or dir is not
// a directory of a root. A directory that names its root from inside it
// (rootNamedAgain) is the directory after the root's name when that is
// one of today (Followed 0: no history), else where the history moved
// that.
func (s *Service) MovedDir(ctx context.Context, dir string) (*wire.DirMove, error) {
	eng, err := s.ws.Engine(ctx)
	if err != nil {
		return nil, err
	}
	q, err := rank.ParsePath(dir)
	if err != nil {
		return nil, err
	}
	ix := eng.Index()
	root, rel, ok := 0, q.Path, !q.Absolute
	if q.Absolute {
		root, rel, ok = ix.RootOf(string(filepath.Separator) + filepath.FromSlash(q.Path))
	}
	if !ok || q.Up > 0 {
		return nil, nil
	}
	if rest, again := rootNamedAgain(ix, root, rel); again {
		if ix.HoldsUnder(root, rest) {
			// The root named from inside it, before a directory of today:
			// that directory, no history followed.
			return &wire.DirMove{From: rel, To: rest, URI: wire.FileURI(filepath.Join(ix.Roots[root], filepath.FromSlash(rest)))}, nil
		}
		rel = rest // where the history moved what follows the name
	}
	m, ok := eng.MovedDir(root, rel)
	if !ok {
		return nil, nil
	}
	return &wire.DirMove{From: m.From, To: m.To, URI: wire.FileURI(filepath.Join(ix.Roots[root], filepath.FromSlash(m.To))),
		Moved: m.Moved, Followed: m.Followed, Commit: wire.HistoryNoteOf(m.From, vcs.Fate{Commit: m.Commit})}, nil
}
