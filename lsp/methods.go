package lsp

import (
	"context"
	"encoding/json"
	"runtime"
	"strconv"
	"time"

	"go.lsp.dev/jsonrpc2"

	"wayfind/memory"
	"wayfind/rank"
	"wayfind/service"
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

// notificationHandler acts on one notification (after initialize; exit is
// handled before any of these).
type notificationHandler func(s *server, ctx context.Context, sess *session.Session, raw json.RawMessage)

var notifications map[string]notificationHandler

func init() {
	document := func(method string) notificationHandler {
		return func(s *server, ctx context.Context, _ *session.Session, raw json.RawMessage) {
			s.documentNotification(ctx, method, raw)
		}
	}
	notifications = map[string]notificationHandler{
		"initialized":                         func(s *server, _ context.Context, _ *session.Session, _ json.RawMessage) { s.initialized() },
		"$/cancelRequest":                     (*server).cancelRequest,
		"workspace/didChangeWatchedFiles":     (*server).didChangeWatchedFiles,
		"workspace/didChangeWorkspaceFolders": (*server).didChangeWorkspaceFolders,
		"find/visited":                        (*server).visited,
		"textDocument/didOpen":                document("textDocument/didOpen"),
		"textDocument/didChange":              document("textDocument/didChange"),
		"textDocument/didClose":               document("textDocument/didClose"),
		"textDocument/didSave":                document("textDocument/didSave"),
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
	out := struct {
		wire.Status
		Runtime *runtimeStats `json:"runtime,omitempty"`
	}{Status: s.service().Status()}
	if p.Runtime {
		out.Runtime = readRuntime(p.GC)
	}
	return out, out.Files, nil
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
		memory.Return()
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	mb := func(b uint64) float64 { return float64(b) / (1 << 20) }
	return &runtimeStats{Goroutines: runtime.NumGoroutine(), HeapMB: mb(m.HeapAlloc), SysMB: mb(m.Sys - m.HeapReleased),
		RetainedMB: mb(m.HeapIdle - m.HeapReleased), StackMB: mb(m.StackSys),
		InuseMB: mb(m.HeapInuse), GCMB: mb(m.GCSys), SpanMB: mb(m.MSpanSys), OtherMB: mb(m.OtherSys + m.BuckHashSys + m.MCacheSys)}
}

func (s *server) reindex(ctx context.Context, raw json.RawMessage) (any, int, error) {
	st, err := s.service().Reindex(ctx)
	return st, st.Files, err
}

// engine waits for an index of the current roots.
func (s *server) engine(ctx context.Context) (*rank.Engine, error) {
	return s.session().Engine(ctx)
}

// service is the request layer over the current session.
func (s *server) service() *service.Service {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.svc == nil && s.sess != nil {
		s.svc = service.New(s.sess)
	}
	return s.svc
}

func (s *server) resolvePath(ctx context.Context, raw json.RawMessage) (any, int, error) {
	var p struct {
		Path    *string   `json:"path"`
		From    string    `json:"from"`
		Link    bool      `json:"link"`
		Current string    `json:"current"`
		History *[]string `json:"history"`
		Limit   int       `json:"limit"`
	}
	if err := decode(raw, &p); err != nil {
		return nil, 0, err
	}
	if p.Path == nil {
		return nil, 0, jsonrpc2.NewError(jsonrpc2.InvalidParams, "path is required")
	}
	params := service.ResolveParams{Path: *p.Path, From: p.From, Link: p.Link, Current: p.Current, Limit: p.Limit}
	if p.History != nil { // [] means "no history", not "the server's"
		params.History = append([]string{}, *p.History...)
	}
	return s.service().Resolve(ctx, params)
}

// required refuses a request without its query.
func required(query *string) error {
	if query == nil {
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, "query is required")
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
		Current   string  `json:"current"` // the active file's URI
	}
	if err := decode(raw, &p); err != nil {
		return nil, 0, err
	}
	if err := required(p.Query); err != nil {
		return nil, 0, err
	}
	return s.service().Find(ctx, service.FindParams{Query: *p.Query, Limit: p.Limit, Threshold: p.Threshold, Impl: p.Impl, Exact: p.Exact, Current: p.Current})
}

func (s *server) locate(ctx context.Context, raw json.RawMessage) (any, int, error) {
	var p struct {
		Query         *string `json:"query"`
		Limit         int     `json:"limit"`
		MinConfidence float64 `json:"minConfidence"` // an extension: where the cascade stops
		Current       string  `json:"current"`       // the active file's URI
	}
	if err := decode(raw, &p); err != nil {
		return nil, 0, err
	}
	if err := required(p.Query); err != nil {
		return nil, 0, err
	}
	return s.service().Locate(ctx, service.LocateParams{Query: *p.Query, Limit: p.Limit, MinConfidence: p.MinConfidence, Current: p.Current})
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
	path, ok := uriPath(*p.URI)
	if !ok {
		return nil, 0, jsonrpc2.NewError(jsonrpc2.InvalidParams, "uri must be a file:// URI")
	}
	alt, err := s.service().Alternate(ctx, path)
	if alt == nil || err != nil {
		return nil, 0, err
	}
	return alt, 1, nil
}

// uriPath turns a file:// URI (or a plain absolute path) into a local path.
func uriPath(u string) (string, bool) { return wire.FilePath(u) }

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
		if _, err := s.conn.Call(cctx, "window/workDoneProgress/create", workDoneProgressCreateParams{Token: token}, nil); err != nil {
			s.logf("window/workDoneProgress/create: %v", err)
		}
		zero, no := 0, false
		_ = s.conn.Notify(ctx, "$/progress", progressParams{Token: token, Value: progressValue{
			Kind: "begin", Title: "wayfind: indexing " + kind, Message: msg, Percentage: &zero, Cancellable: &no,
		}})
		return
	}
	if done {
		_ = s.conn.Notify(ctx, "$/progress", progressParams{Token: token, Value: progressValue{Kind: "end", Message: msg}})
		return
	}
	// Percentage is written out even when 0: the library's type drops it.
	_ = s.conn.Notify(ctx, "$/progress", progressParams{Token: token, Value: progressValue{Kind: "report", Message: msg, Percentage: &pct}})
}
