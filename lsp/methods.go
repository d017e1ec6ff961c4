package lsp

import (
	"context"
	"encoding/json"
	"net/url"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"

	"wayfind/rank"
	"wayfind/session"
	"wayfind/wire"
)

// handler answers one request: the result, how many results it holds (for
// the metrics line; -1 when a count means nothing), and an error.
type handler func(s *server, ctx context.Context, raw json.RawMessage) (any, int, error)

var requests map[string]handler

func init() {
	requests = map[string]handler{
		"find/status":                 (*server).status,
		"find/resolvePath":            (*server).resolvePath,
		"find/files":                  (*server).files,
		"find/locate":                 (*server).locate,
		"find/reindex":                (*server).reindex,
		"find/alternate":              (*server).alternate,
		"textDocument/documentLink":   (*server).documentLink,
		"textDocument/definition":     (*server).definition,
		"textDocument/codeAction":     (*server).codeAction,
		"workspace/symbol":            (*server).workspaceSymbol,
		"textDocument/documentSymbol": (*server).documentSymbol,
	}
}

func (s *server) session() *session.Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sess
}

func (s *server) status(ctx context.Context, raw json.RawMessage) (any, int, error) {
	var p struct {
		// Runtime (an extension, for soak tests and operators) adds the
		// process's goroutines and heap, after a collection when GC is set.
		Runtime bool `json:"runtime"`
		GC      bool `json:"gc"`
	}
	_ = json.Unmarshal(raw, &p) // find/status takes {} and tolerates anything
	st := s.session().Status()
	out := struct {
		wire.Status
		Runtime *runtimeStats `json:"runtime,omitempty"`
	}{Status: wire.FromStatus(st)}
	if p.Runtime {
		out.Runtime = readRuntime(p.GC)
	}
	return out, st.Files, nil
}

type runtimeStats struct {
	Goroutines int     `json:"goroutines"`
	HeapMB     float64 `json:"heapMB"`
	// What the Go runtime holds from the system beyond the live heap.
	SysMB      float64 `json:"sysMB"`
	RetainedMB float64 `json:"retainedMB"` // heap spans kept, not returned
	StackMB    float64 `json:"stackMB"`
	// Where the rest is (spans in use beyond live objects, GC metadata,
	// span structures, other runtime data).
	InuseMB float64 `json:"inuseMB"`
	GCMB    float64 `json:"gcMB"`
	SpanMB  float64 `json:"spanMB"`
	OtherMB float64 `json:"otherMB"`
}

func readRuntime(gc bool) *runtimeStats {
	if gc {
		debug.FreeOSMemory() // collects, then returns what it can to the OS
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	mb := func(b uint64) float64 { return float64(b) / (1 << 20) }
	return &runtimeStats{Goroutines: runtime.NumGoroutine(), HeapMB: mb(m.HeapAlloc), SysMB: mb(m.Sys - m.HeapReleased),
		RetainedMB: mb(m.HeapIdle - m.HeapReleased), StackMB: mb(m.StackSys),
		InuseMB: mb(m.HeapInuse), GCMB: mb(m.GCSys), SpanMB: mb(m.MSpanSys), OtherMB: mb(m.OtherSys + m.BuckHashSys + m.MCacheSys)}
}

func (s *server) reindex(ctx context.Context, raw json.RawMessage) (any, int, error) {
	st, err := s.session().Reindex(ctx)
	if err != nil {
		return nil, 0, err
	}
	return wire.FromStatus(st), st.Files, nil
}

// engine waits for an index of the current roots.
func (s *server) engine(ctx context.Context) (*rank.Engine, error) {
	return s.session().Engine(ctx)
}

func (s *server) resolvePath(ctx context.Context, raw json.RawMessage) (any, int, error) {
	var p struct {
		Path    *string   `json:"path"`
		From    string    `json:"from"`
		History *[]string `json:"history"`
		Limit   int       `json:"limit"`
	}
	if err := decode(raw, &p); err != nil {
		return nil, 0, err
	}
	if p.Path == nil {
		return nil, 0, jsonrpc2.NewError(jsonrpc2.InvalidParams, "path is required")
	}
	if p.Limit < 0 {
		return nil, 0, jsonrpc2.NewError(jsonrpc2.InvalidParams, "limit must not be negative")
	}
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, 0, err
	}
	history := s.session().History()
	if p.History != nil { // [] means "no history", not "the server's"
		history = *p.History
	}
	res, err := eng.Resolve(ctx, rank.ResolveRequest{Path: *p.Path, From: p.From, History: history, Limit: p.Limit})
	if err != nil {
		return nil, 0, err
	}
	noteRerank(ctx, res.Rerank)
	out := wire.FromResolve(eng.Index().Roots, res)
	return out, len(out.Candidates), nil
}

// checkQuery refuses the params every search request shares the rules of:
// a query that must be present and a limit that must not be negative.
func checkQuery(query *string, limit int) error {
	switch {
	case query == nil:
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, "query is required")
	case limit < 0:
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, "limit must not be negative")
	}
	return nil
}

func (s *server) files(ctx context.Context, raw json.RawMessage) (any, int, error) {
	var p struct {
		Query     *string `json:"query"`
		Limit     int     `json:"limit"`
		Threshold float64 `json:"threshold"`
		Impl      bool    `json:"impl"`
		Exact     bool    `json:"exact"`
	}
	if err := decode(raw, &p); err != nil {
		return nil, 0, err
	}
	if err := checkQuery(p.Query, p.Limit); err != nil {
		return nil, 0, err
	}
	if p.Threshold < 0 || p.Threshold > 1 {
		return nil, 0, jsonrpc2.NewError(jsonrpc2.InvalidParams, "threshold must be between 0 and 1")
	}
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, 0, err
	}
	res, err := eng.Find(ctx, rank.FindRequest{Query: *p.Query, Limit: p.Limit, Threshold: p.Threshold, Impl: p.Impl, Exact: p.Exact})
	if err != nil {
		return nil, 0, err
	}
	noteRerank(ctx, res.Rerank)
	out := wire.FromFind(eng.Index().Roots, res)
	return out, len(out.Matches), nil
}

func (s *server) locate(ctx context.Context, raw json.RawMessage) (any, int, error) {
	var p struct {
		Query         *string `json:"query"`
		Limit         int     `json:"limit"`
		MinConfidence float64 `json:"minConfidence"` // an extension: where the cascade stops
	}
	if err := decode(raw, &p); err != nil {
		return nil, 0, err
	}
	if err := checkQuery(p.Query, p.Limit); err != nil {
		return nil, 0, err
	}
	if p.MinConfidence < 0 || p.MinConfidence > 1 {
		return nil, 0, jsonrpc2.NewError(jsonrpc2.InvalidParams, "minConfidence must be between 0 and 1")
	}
	// The cascade reads symbols and contents: wait for them like
	// workspace/symbol does, so that an answer does not depend on timing.
	eng, err := s.session().LocateEngine(ctx)
	if err != nil {
		return nil, 0, err
	}
	res, err := eng.Locate(ctx, rank.LocateRequest{Query: *p.Query, Limit: p.Limit, MinConfidence: p.MinConfidence})
	if err != nil {
		return nil, 0, err
	}
	out := wire.FromLocate(eng.Index().Roots, res)
	return out, len(out.Results), nil
}

func (s *server) alternate(ctx context.Context, raw json.RawMessage) (any, int, error) {
	var p struct {
		URI *string `json:"uri"`
	}
	if err := decode(raw, &p); err != nil {
		return nil, 0, err
	}
	if p.URI == nil {
		return nil, 0, jsonrpc2.NewError(jsonrpc2.InvalidParams, "uri is required")
	}
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, 0, err
	}
	path, ok := uriPath(*p.URI)
	if !ok {
		return nil, 0, jsonrpc2.NewError(jsonrpc2.InvalidParams, "uri must be a file:// URI")
	}
	c, ok := eng.Alternate(path)
	if !ok {
		return nil, 0, nil
	}
	roots := eng.Index().Roots
	return map[string]string{"uri": wire.URI(roots, c.Root, c.Path), "path": c.Path}, 1, nil
}

// uriPath turns a file:// URI (or a plain absolute path) into a local path.
func uriPath(u string) (string, bool) {
	if strings.HasPrefix(u, "file:") {
		parsed, err := url.Parse(u)
		if err != nil || parsed.Path == "" {
			return "", false
		}
		return filepath.FromSlash(parsed.Path), true
	}
	if filepath.IsAbs(u) {
		return u, true
	}
	return "", false
}

// progress reports a full index as $/progress when the client can show
// it: create a token, then begin, reports, end.
func (s *server) progress(pct int, msg string, done bool) {
	s.reportProgress("index", &s.progressSeq, pct, msg, done)
}

// symbolProgress does the same for a full symbol pass, under tokens of its
// own (it runs after, and may overlap, the next file index).
func (s *server) symbolProgress(pct int, msg string, done bool) {
	s.reportProgress("symbols", &s.symbolSeq, pct, msg, done)
}

func (s *server) reportProgress(kind string, seq *int, pct int, msg string, done bool) {
	s.mu.Lock()
	enabled := s.caps.progress
	if pct == 0 && !done {
		*seq++
	}
	token := "wayfind-" + kind + "-" + strconv.Itoa(*seq)
	s.mu.Unlock()
	if !enabled {
		return
	}
	ctx := s.life
	if pct == 0 && !done {
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		if _, err := s.conn.Call(cctx, "window/workDoneProgress/create", map[string]any{"token": token}, nil); err != nil {
			s.logf("window/workDoneProgress/create: %v", err)
		}
		_ = s.conn.Notify(ctx, "$/progress", map[string]any{"token": token, "value": map[string]any{
			"kind": "begin", "title": "wayfind: indexing " + kind, "message": msg, "percentage": 0, "cancellable": false,
		}})
		return
	}
	if done {
		_ = s.conn.Notify(ctx, "$/progress", map[string]any{"token": token, "value": map[string]any{"kind": "end", "message": msg}})
		return
	}
	// Percentage is written out even when 0: the library's type drops it.
	_ = s.conn.Notify(ctx, "$/progress", map[string]any{"token": token, "value": map[string]any{"kind": "report", "message": msg, "percentage": pct}})
}
