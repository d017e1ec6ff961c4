// Package lsp is wayfind's language server: a thin adapter that decodes
// LSP messages, asks the session's rank.Engine, and encodes the answers
// (docs/API.md). It scores nothing itself.
package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strconv"
	"sync"
	"syscall"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"wayfind/rank"
	"wayfind/service"
	"wayfind/session"
	"wayfind/symbols"
	"wayfind/workspace"
)

// LSP error codes beyond JSON-RPC's.
const (
	codeRequestCancelled jsonrpc2.Code = -32800
	codeRequestFailed    jsonrpc2.Code = -32803
)

// Options configure Serve.
type Options struct {
	// Version is reported in serverInfo.
	Version string
	// ParentCheck is how often the client's processId is checked; 0 means 3 s.
	ParentCheck time.Duration
}

// server is one client's connection.
type server struct {
	opts   Options
	conn   jsonrpc2.Conn
	stderr *lineWriter
	exit   chan int

	mu    sync.Mutex
	state int // stateNew, stateRunning, stateShutdown
	sess  *session.Session
	// svc is the request layer over sess, one for the session's life:
	// what it remembers between requests (the listing of the directories
	// the index skips) lasts across them.
	svc         *service.Service
	init        initOptions
	folders     []string // workspace folder paths as the client named them
	caps        clientCaps
	inflight    map[string]context.CancelFunc
	docs        map[protocol.DocumentURI]*document
	progressSeq int
	symbolSeq   int
	life        context.Context // ends when Serve returns
	slots       chan struct{}   // requests being answered (maxInFlight)
}

// maxInFlight bounds the requests answered concurrently; each holds its
// result until the client reads it.
const maxInFlight = 64

const (
	stateNew = iota
	stateRunning
	stateShutdown
)

type clientCaps struct {
	progress     bool // window.workDoneProgress
	dynamicWatch bool // workspace.didChangeWatchedFiles.dynamicRegistration
	processID    int
	hierSymbols  bool // textDocument.documentSymbol.hierarchicalDocumentSymbolSupport
}

// initOptions are initialize's initializationOptions (API.md).
type initOptions struct {
	IncludeDirs  []string `json:"includeDirs"`
	ExcludeGlobs []string `json:"excludeGlobs"`
	History      struct {
		Size int `json:"size"`
	} `json:"history"`
	Model struct {
		Dir       string `json:"dir"`
		Precision string `json:"precision"`
		TopK      int    `json:"topK"`
		// Extensions: the ONNX Runtime library, its threads, and when and
		// how much the model counts (see rank.RerankOptions).
		OrtLib  string  `json:"ortLib"`
		Threads int     `json:"threads"`
		Margin  float64 `json:"margin"`
		Weight  float64 `json:"weight"`
	} `json:"model"`
	Diagnostics *bool `json:"diagnostics"`
	// MaxFileBytes (an extension) is the symbol indexer's per-file size
	// limit; 0 means 1 MB.
	MaxFileBytes int `json:"maxFileBytes"`
}

func (o *initOptions) diagnostics() bool { return o.Diagnostics == nil || *o.Diagnostics }

// Serve runs the server over in/out until the client says exit, in closes,
// or the client process disappears, and returns the process exit code:
// 0 after shutdown, 1 otherwise (as LSP specifies).
func Serve(ctx context.Context, in io.ReadCloser, out io.Writer, stderr io.Writer, opts Options) int {
	if opts.ParentCheck <= 0 {
		opts.ParentCheck = 3 * time.Second
	}
	s := &server{
		opts:     opts,
		stderr:   &lineWriter{w: stderr},
		exit:     make(chan int, 1),
		inflight: map[string]context.CancelFunc{},
		docs:     map[protocol.DocumentURI]*document{},
		slots:    make(chan struct{}, maxInFlight),
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.life = ctx
	s.conn = jsonrpc2.NewConn(newStream(in, out, in))
	s.conn.Go(ctx, oneErrorType(s.handle))
	var code int
	select {
	case code = <-s.exit:
	case <-s.conn.Done():
		s.logf("input closed (%v); exiting", s.conn.Err())
		code = s.exitCode()
	case <-ctx.Done():
		code = s.exitCode()
	}
	s.mu.Lock()
	sess := s.sess
	for _, c := range s.inflight {
		c()
	}
	s.mu.Unlock()
	cancel() // ends calls to the client still waiting for an answer (progress tokens)
	if sess != nil {
		sess.Close()
	}
	_ = s.conn.Close()
	return code
}

func (s *server) exitCode() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == stateShutdown {
		return 0
	}
	return 1
}

// handle runs on the connection's read loop: notifications are applied in
// order, right here (they are quick, and a didChangeWatchedFiles must be
// in place before the request that follows it); requests run on their own
// goroutines so that a slow one, or one waiting for the index, blocks
// nothing and can be cancelled.
func (s *server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	call, isCall := req.(*jsonrpc2.Call)
	if !isCall {
		s.guard(req.Method(), func() { s.notification(ctx, req.Method(), req.Params()) })
		return nil
	}
	method := req.Method()
	s.mu.Lock()
	state := s.state
	s.mu.Unlock()
	switch {
	case method == "initialize":
		start := time.Now()
		res, err := s.initialize(req.Params())
		s.metric(method, start, -1, err)
		return reply(context.Background(), res, err)
	case state == stateNew:
		return reply(context.Background(), nil, jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "initialize first"))
	case method == "shutdown":
		s.mu.Lock()
		s.state = stateShutdown
		s.mu.Unlock()
		s.metric(method, time.Now(), -1, nil)
		return reply(context.Background(), nil, nil)
	case state == stateShutdown:
		return reply(context.Background(), nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the server is shutting down"))
	}
	h, ok := requests[method]
	if !ok {
		return reply(context.Background(), nil, jsonrpc2.NewError(jsonrpc2.MethodNotFound, "method not supported: "+method))
	}
	// Backpressure: at most maxInFlight requests are answered at once. A
	// client that pipelines thousands without reading the answers stops
	// being read (its writes block) instead of growing this process.
	select {
	case s.slots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	key := idKey(call.ID())
	rctx, cancel := context.WithCancel(ctx)
	s.mu.Lock()
	s.inflight[key] = cancel
	sess := s.sess
	s.mu.Unlock()
	go func() {
		defer func() { <-s.slots }()
		if sess != nil && method != "find/status" {
			// A status question asks after the background work — a client
			// waiting for it polls it — and does not hold that work up.
			defer sess.Begin()()
		}
		defer func() {
			s.mu.Lock()
			delete(s.inflight, key)
			s.mu.Unlock()
			cancel()
		}()
		start := time.Now()
		var res any
		var n int
		var err error
		rm := &service.Metrics{}
		mctx := service.WithMetrics(rctx, rm)
		s.guard(method, func() { res, n, err = h(s, mctx, req.Params()) })
		if err == nil && res == nil && rctx.Err() != nil {
			err = rctx.Err()
		}
		err = replyError(err)
		elapsed := time.Since(start)
		// A cancelled request's context is done; the reply must not use it.
		// The answer goes out first, its metrics line after.
		_ = reply(context.Background(), res, err)
		s.metricElapsed(method, elapsed, n, err, rm)
	}()
	return nil
}

// guard turns a panic in a handler into a log line (and, for requests, an
// internal error): one bad request must not take the server down.
func (s *server) guard(method string, f func()) {
	defer func() {
		if r := recover(); r != nil {
			s.logf("panic in %s: %v\n%s", method, r, debug.Stack())
		}
	}()
	f()
}

// replyError maps engine and session errors to JSON-RPC ones.
func replyError(err error) error {
	var rpc *jsonrpc2.Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &rpc):
		return err
	case errors.Is(err, context.Canceled):
		return jsonrpc2.NewError(codeRequestCancelled, "request cancelled")
	case errors.Is(err, rank.ErrInput):
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	case errors.Is(err, session.ErrNotReady), errors.Is(err, context.DeadlineExceeded):
		return jsonrpc2.NewError(codeRequestFailed, err.Error())
	}
	return jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
}

// idKey names a request id the same way whether it came as a Call's id or
// inside $/cancelRequest (where the library fails on numbers).
func idKey(id jsonrpc2.ID) string { return fmt.Sprintf("%q", id) }

func cancelKey(raw json.RawMessage) (string, bool) {
	var n json.Number
	if err := json.Unmarshal(raw, &n); err == nil {
		if i, err := n.Int64(); err == nil {
			return "#" + strconv.FormatInt(i, 10), true
		}
		return "", false
	}
	var str string
	if err := json.Unmarshal(raw, &str); err == nil {
		return strconv.Quote(str), true
	}
	return "", false
}

// decode unmarshals params, reporting a type mismatch as InvalidParams.
func decode(raw json.RawMessage, v any) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, "invalid params: "+err.Error())
	}
	return nil
}

func (s *server) initialize(raw json.RawMessage) (any, error) {
	var p protocol.InitializeParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	var opts initOptions
	if p.InitializationOptions != nil {
		b, _ := json.Marshal(p.InitializationOptions)
		if string(b) == "[]" {
			b = []byte("{}") // Lua's empty table: Neovim sends {} as []
		}
		if err := decode(b, &opts); err != nil {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "initializationOptions: "+err.Error())
		}
	}
	var folders []string
	for _, f := range p.WorkspaceFolders {
		if path, ok := uriPath(f.URI); ok {
			folders = append(folders, path)
		}
	}
	if len(folders) == 0 && p.RootURI != "" {
		if path, ok := uriPath(string(p.RootURI)); ok {
			folders = append(folders, path)
		}
	}
	if len(folders) == 0 && p.RootPath != "" {
		folders = append(folders, p.RootPath)
	}
	caps := clientCaps{processID: int(p.ProcessID)}
	if w := p.Capabilities.Window; w != nil {
		caps.progress = w.WorkDoneProgress
	}
	if td := p.Capabilities.TextDocument; td != nil && td.DocumentSymbol != nil {
		caps.hierSymbols = td.DocumentSymbol.HierarchicalDocumentSymbolSupport
	}
	if w := p.Capabilities.Workspace; w != nil && w.DidChangeWatchedFiles != nil {
		caps.dynamicWatch = w.DidChangeWatchedFiles.DynamicRegistration
	}
	s.mu.Lock()
	if s.state != stateNew {
		s.mu.Unlock()
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize was already called")
	}
	s.state = stateRunning
	s.init, s.folders, s.caps = opts, folders, caps
	s.sess = session.New(session.Options{
		Walk: workspace.Options{
			IncludeDirs:  opts.IncludeDirs,
			ExcludeGlobs: opts.ExcludeGlobs,
			Logf:         s.logf,
		},
		HistorySize:    opts.History.Size,
		Watch:          !caps.dynamicWatch,
		Progress:       s.progress,
		SymbolProgress: s.symbolProgress,
		Logf:           s.userLog,
		Symbols:        symbols.IndexerOptions{MaxBytes: opts.MaxFileBytes},
	})
	s.mu.Unlock()
	if caps.processID > 0 {
		go s.watchParent(caps.processID)
	}
	service.LoadModel(s.sess, service.ModelConfig{Dir: opts.Model.Dir, Precision: opts.Model.Precision, Lib: opts.Model.OrtLib,
		Threads: opts.Model.Threads, TopK: opts.Model.TopK, Margin: opts.Model.Margin, Weight: opts.Model.Weight}, s.userLog)
	return initializeResult{Capabilities: s.capabilities(), ServerInfo: serverInfo{Name: "wayfind", Version: s.opts.Version}}, nil
}

// capabilities advertises what works, nothing more.
func (s *server) capabilities() serverCapabilities {
	caps := serverCapabilities{
		TextDocumentSync:        textDocumentSync{OpenClose: true, Change: int(protocol.TextDocumentSyncKindFull)},
		DefinitionProvider:      true,
		WorkspaceSymbolProvider: true,
		DocumentSymbolProvider:  true,
		Workspace:               workspaceCaps{WorkspaceFolders: workspaceFoldersCaps{Supported: true, ChangeNotifications: true}},
		Experimental: experimentalCaps{Find: []string{"find/status", "find/resolvePath", "find/files", "find/locate",
			"find/reindex", "find/alternate", "find/visited"}},
	}
	if s.init.diagnostics() {
		caps.CodeActionProvider = &codeActionOptions{CodeActionKinds: []string{"quickfix"}}
	}
	return caps
}

// initialized starts indexing and asks the client to watch files.
func (s *server) initialized() {
	s.mu.Lock()
	sess, folders, caps := s.sess, s.folders, s.caps
	s.mu.Unlock()
	sess.SetRoots(folders)
	if caps.dynamicWatch {
		go s.registerWatcher(sess)
	}
}

func (s *server) registerWatcher(sess *session.Session) {
	params := registrationParams{Registrations: []registration{{ID: "wayfind-watch", Method: "workspace/didChangeWatchedFiles",
		RegisterOptions: watchedFilesRegOptions{Watchers: []fileWatcher{{GlobPattern: "**/*"}}}}}}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := s.conn.Call(ctx, "client/registerCapability", params, nil); err != nil {
		s.logf("client/registerCapability failed (%v); watching files myself", err)
		sess.StartWatching()
	}
}

// watchParent exits when the client process is gone: an orphaned server
// must not keep running.
func (s *server) watchParent(pid int) {
	t := time.NewTicker(s.opts.ParentCheck)
	defer t.Stop()
	for {
		select {
		case <-s.conn.Done():
			return
		case <-t.C:
		}
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			s.logf("client process %d is gone; exiting", pid)
			s.exitWith(1)
			return
		}
	}
}

func (s *server) exitWith(code int) {
	select {
	case s.exit <- code:
	default:
	}
}

// notification applies a client notification.
func (s *server) notification(ctx context.Context, method string, raw json.RawMessage) {
	if method == "exit" {
		s.exitWith(s.exitCode())
		return
	}
	s.mu.Lock()
	state, sess := s.state, s.sess
	s.mu.Unlock()
	if state == stateNew || sess == nil {
		return // before initialize, only exit means anything
	}
	if h, ok := notifications[method]; ok {
		h(s, ctx, sess, raw)
	}
}

func (s *server) cancelRequest(_ context.Context, _ *session.Session, raw json.RawMessage) {
	var p struct {
		ID json.RawMessage `json:"id"`
	}
	if decode(raw, &p) != nil {
		return
	}
	if key, ok := cancelKey(p.ID); ok {
		s.mu.Lock()
		cancel := s.inflight[key]
		s.mu.Unlock()
		if cancel != nil {
			cancel()
		}
	}
}

func (s *server) didChangeWatchedFiles(_ context.Context, sess *session.Session, raw json.RawMessage) {
	var p protocol.DidChangeWatchedFilesParams
	if decode(raw, &p) != nil {
		return
	}
	var paths []string
	for _, c := range p.Changes {
		if path, ok := uriPath(string(c.URI)); ok {
			paths = append(paths, path)
		}
	}
	sess.Changed(paths)
}

func (s *server) didChangeWorkspaceFolders(_ context.Context, _ *session.Session, raw json.RawMessage) {
	var p protocol.DidChangeWorkspaceFoldersParams
	if decode(raw, &p) != nil {
		return
	}
	s.changeFolders(p.Event)
}

// visited is find/visited: a file the user or an agent looked at, and
// why (open, focus, agent). A notification has no answer, so bad params
// are logged.
func (s *server) visited(_ context.Context, sess *session.Session, raw json.RawMessage) {
	var p struct {
		URI    string `json:"uri"`
		Reason string `json:"reason"`
	}
	if err := decode(raw, &p); err != nil {
		s.logf("find/visited: %v", err)
		return
	}
	if err := service.New(sess).Visit(p.URI, p.Reason); err != nil {
		s.logf("find/visited: %v", err)
	}
}

func (s *server) changeFolders(ev protocol.WorkspaceFoldersChangeEvent) {
	s.mu.Lock()
	removed := map[string]bool{}
	for _, f := range ev.Removed {
		if p, ok := uriPath(f.URI); ok {
			removed[p] = true
		}
	}
	var folders []string
	for _, f := range s.folders {
		if !removed[f] {
			folders = append(folders, f)
		}
	}
	for _, f := range ev.Added {
		if p, ok := uriPath(f.URI); ok {
			folders = append(folders, p)
		}
	}
	s.folders = folders
	sess := s.sess
	s.mu.Unlock()
	sess.SetRoots(folders)
}

// logf writes an operator's log line to stderr.
func (s *server) logf(format string, args ...any) {
	s.stderr.printf("wayfind: "+format, args...)
}

// userLog is for what a user should see too: window/logMessage, or
// stderr when the client cannot be told. Not both: editors show the
// server's stderr and its log messages in one place (VS Code's output
// channel, Neovim's lsp.log), where every line came twice.
func (s *server) userLog(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	go func() {
		if err := s.conn.Notify(context.Background(), "window/logMessage", logMessageParams{Type: int(protocol.MessageTypeInfo), Message: "wayfind: " + msg}); err != nil {
			s.logf("%s", msg)
		}
	}()
}

// metric writes the one JSON line per request: method, elapsed ms, result
// count (-1 when a count means nothing) and the error, if any.
func (s *server) metric(method string, start time.Time, n int, err error, rms ...*service.Metrics) {
	s.metricElapsed(method, time.Since(start), n, err, rms...)
}

func (s *server) metricElapsed(method string, elapsed time.Duration, n int, err error, rms ...*service.Metrics) {
	m := struct {
		Method    string  `json:"method"`
		ElapsedMs float64 `json:"elapsedMs"`
		Results   int     `json:"results"`
		EngineMs  float64 `json:"engineMs,omitempty"`
		RerankMs  float64 `json:"rerankMs,omitempty"`
		Error     string  `json:"error,omitempty"`
	}{Method: method, ElapsedMs: float64(elapsed.Microseconds()) / 1000, Results: n}
	if len(rms) > 0 && rms[0] != nil {
		m.EngineMs, m.RerankMs = rms[0].EngineMs, rms[0].RerankMs
	}
	if err != nil {
		m.Error = err.Error()
	}
	b, _ := json.Marshal(m)
	s.stderr.printf("%s", b)
}

// lineWriter serialises whole lines to stderr from many goroutines.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineWriter) printf(format string, args ...any) {
	if l.w == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, format+"\n", args...)
}
