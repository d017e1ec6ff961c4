// Package session keeps one workspace's engine current for the long-lived
// front ends (the LSP and MCP servers): it owns the roots, indexes them in
// the background, applies file changes (from the client or its own
// watcher), and remembers where the user has been. It ranks nothing; every
// answer comes from the rank.Engine it hands out.
package session

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"wayfind/content"
	"wayfind/rank"
	"wayfind/symbols"
	"wayfind/workspace"
)

// Options configure a Session.
type Options struct {
	Walk workspace.Options
	// HistorySize bounds the navigation history; 0 means DefaultHistory.
	HistorySize int
	// Watch starts a server-side file watcher. Front ends whose client
	// reports file changes itself leave it off and call Changed.
	Watch bool
	// WaitReady bounds how long Engine waits for an index of the current
	// roots; 0 means DefaultWaitReady.
	WaitReady time.Duration
	// Progress, when set, hears each full index: percentage 0..100 and a
	// short message; done is true once, at the end.
	Progress func(pct int, msg string, done bool)
	// Logf receives what an operator may want to know.
	Logf func(format string, args ...any)
	// RescanEvery is the polling period once the watcher is unavailable;
	// 0 means 5 s.
	RescanEvery time.Duration
	// Symbols configures the symbol indexer, which runs in the background
	// after each file index (files are searchable before symbols are).
	Symbols symbols.IndexerOptions
	// NoSymbols turns symbol indexing off.
	NoSymbols bool
	// NoContent turns the index of file contents (locate's recovery) off.
	NoContent bool
	// SymbolProgress, when set, hears each full symbol pass like Progress.
	SymbolProgress func(pct int, msg string, done bool)
}

// Defaults.
const (
	DefaultHistory   = 32
	DefaultWaitReady = 20 * time.Second
	debounce         = 30 * time.Millisecond
	// minApplyGap is the least time between two engine rebuilds for file
	// changes, and so the most a reported change can wait.
	minApplyGap = 100 * time.Millisecond
)

// ErrNotReady is returned when no index of the roots finished in time.
var ErrNotReady = errors.New("the workspace index is still being built; try again shortly")

// ErrClosed is returned after Close.
var ErrClosed = errors.New("session closed")

// Session is safe for concurrent use.
type Session struct {
	opts Options

	snap        atomic.Pointer[snapshot]
	active      atomic.Int32 // requests in progress (Begin)
	lastRequest atomic.Int64 // when the last one ended, UnixNano
	waiting     atomic.Int32 // requests waiting in SymbolEngine

	mu        sync.Mutex
	roots     []string
	want      int           // generation of full index wanted (roots changed, reindex asked)
	swapped   chan struct{} // closed and replaced whenever snap changes
	pending   []string      // changed paths not yet applied
	timer     *time.Timer   // debounced apply of pending
	timerSet  bool          // timer is scheduled
	reported  bool          // pending holds changes a client reported
	lastApply time.Time     // when pending changes were last applied
	history   []string
	closed    bool

	apply   sync.Mutex // serialises index builds and updates
	kick    chan struct{}
	watchMu sync.Mutex
	watcher *workspace.Watcher // nil when off or replaced by polling
	polling bool
	stop    chan struct{}
	wg      sync.WaitGroup

	symx     *symbols.Indexer
	symIndex atomic.Pointer[rank.SymbolIndex]
	cx       *content.Indexer // nil when off
	cIndex   atomic.Pointer[content.Index]
	model    atomic.Pointer[modelState]
	symKick  chan struct{}
	// Under mu: the symbol work asked for and done.
	symFull    *snapshot         // a full pass over this snapshot's files is due
	symPaths   []string          // paths to re-check
	symContent map[string][]byte // unsaved editor content by file
	symGen     int               // generation whose symbols the last full pass indexed (-1: none)
	contentGen int               // generation whose contents it indexed (-1: none)
	symDone    chan struct{}     // closed and replaced after each pass
	symMs      float64           // duration of the last full pass
}

type snapshot struct {
	gen     int
	ix      *workspace.Index
	eng     *rank.Engine
	indexMs float64
}

// New starts a session with no roots; SetRoots gives it some.
func New(opts Options) *Session {
	if opts.HistorySize <= 0 {
		opts.HistorySize = DefaultHistory
	}
	if opts.WaitReady <= 0 {
		opts.WaitReady = DefaultWaitReady
	}
	if opts.RescanEvery <= 0 {
		opts.RescanEvery = 5 * time.Second
	}
	if opts.Logf == nil {
		opts.Logf = func(string, ...any) {}
	}
	s := &Session{opts: opts, swapped: make(chan struct{}), kick: make(chan struct{}, 1), stop: make(chan struct{}),
		symKick: make(chan struct{}, 1), symGen: -1, contentGen: -1, symDone: make(chan struct{})}
	if opts.Watch {
		s.StartWatching()
	}
	s.wg.Add(1)
	go s.indexLoop()
	// Background indexing pauses while requests run (see Begin): answers
	// come first.
	background := runtime.NumCPU()
	if !opts.NoContent {
		s.cx = &content.Indexer{Workers: background, Pace: s.pace}
	}
	if !opts.NoSymbols || !opts.NoContent {
		so := opts.Symbols
		if so.Workers == 0 {
			so.Workers = background
		}
		if so.Pace == nil {
			so.Pace = s.pace
		}
		if so.Logf == nil {
			so.Logf = opts.Logf
		}
		user := so.Progress
		so.Progress = func(done, total int) {
			if user != nil {
				user(done, total)
			}
			s.symbolProgress(done, total)
		}
		if !opts.NoSymbols {
			s.symx = symbols.NewIndexer(so)
		}
		s.wg.Add(1)
		go s.symbolLoop()
	}
	return s
}

// StartWatching starts the server-side watcher (or, when the system has
// none to give, periodic rescans). It is for front ends whose client
// turned out not to report file changes after all.
func (s *Session) StartWatching() {
	s.watchMu.Lock()
	if s.watcher != nil || s.polling {
		s.watchMu.Unlock()
		return
	}
	w, err := workspace.Watch(s.watched, s.opts.Logf)
	if err != nil {
		s.watchMu.Unlock()
		s.opts.Logf("file watcher unavailable (%v); rescanning every %s", err, s.opts.RescanEvery)
		s.startPolling()
		return
	}
	s.watcher = w
	s.watchMu.Unlock()
	if cur := s.snap.Load(); cur != nil {
		s.watch(cur.ix, true)
	}
}

// SetRoots replaces the roots (directories that do not exist are dropped
// with a log line) and starts indexing them in the background.
func (s *Session) SetRoots(roots []string) []string {
	var clean []string
	for _, r := range roots {
		c, err := workspace.CleanRoots([]string{r})
		if err != nil {
			s.opts.Logf("ignoring workspace folder: %v", err)
			continue
		}
		clean = append(clean, c...)
	}
	clean, _ = workspace.CleanRoots(clean) // drop nested and duplicate roots
	s.mu.Lock()
	s.roots = clean
	s.want++
	s.mu.Unlock()
	s.kickIndex()
	return clean
}

// Roots returns the roots asked for (the index may still be catching up).
func (s *Session) Roots() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.roots)
}

func (s *Session) kickIndex() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// Reindex rebuilds the index from scratch and waits for it, symbols
// (parsed again whatever the cache says) and contents included.
func (s *Session) Reindex(ctx context.Context) (Status, error) {
	if s.symx != nil {
		s.symx.Forget()
	}
	s.mu.Lock()
	s.want++
	s.mu.Unlock()
	s.kickIndex()
	if _, err := s.LocateEngine(ctx); err != nil {
		return s.Status(), err
	}
	return s.Status(), nil
}

func (s *Session) indexLoop() {
	defer s.wg.Done()
	for {
		select {
		case <-s.stop:
			return
		case <-s.kick:
		}
		for {
			s.mu.Lock()
			gen, roots := s.want, slices.Clone(s.roots)
			s.mu.Unlock()
			if cur := s.snap.Load(); cur != nil && cur.gen == gen {
				break
			}
			s.build(gen, roots)
		}
	}
}

// build indexes roots from scratch as generation gen.
func (s *Session) build(gen int, roots []string) {
	s.apply.Lock()
	start := time.Now()
	progress := s.progressFunc()
	progress(0, "walking", false)
	walk := s.opts.Walk
	var last atomic.Int64
	var shown atomic.Int32
	walk.Progress = func(read, found int64) {
		now := time.Now().UnixMilli()
		if prev := last.Load(); now-prev < 100 || !last.CompareAndSwap(prev, now) {
			return
		}
		// The walk finds directories as it reads them, so read/found can
		// fall back; a progress bar must not.
		pct := int32(80 * read / max(found, 1))
		for {
			old := shown.Load()
			if pct <= old {
				return
			}
			if shown.CompareAndSwap(old, pct) {
				break
			}
		}
		progress(int(pct), "walking", false)
	}
	ix := workspace.Build(roots, walk)
	progress(80, "indexing names", false)
	eng := rank.New(ix)
	snap := &snapshot{gen: gen, ix: ix, eng: eng, indexMs: float64(time.Since(start).Microseconds()) / 1000}
	s.store(snap)
	s.apply.Unlock()
	s.opts.Logf("indexed %d files under %d roots in %.0f ms", len(ix.Files), len(roots), snap.indexMs)
	progress(100, "indexed", true)
	s.queueSymbols(snap, nil)
	s.watch(ix, true)
	s.scheduleApply()
}

func (s *Session) progressFunc() func(int, string, bool) {
	if s.opts.Progress == nil {
		return func(int, string, bool) {}
	}
	return s.opts.Progress
}

func (s *Session) store(snap *snapshot) {
	s.snap.Store(snap)
	s.mu.Lock()
	close(s.swapped)
	s.swapped = make(chan struct{})
	s.mu.Unlock()
}

// watch brings the watcher up to date with ix. Directories it starts
// watching may have gained files between the walk and the watch: they are
// queued as changed once more (after a full index, the roots are, which
// re-walks them in the background and changes the engine only if a file
// came or went).
func (s *Session) watch(ix *workspace.Index, full bool) {
	s.watchMu.Lock()
	w := s.watcher
	s.watchMu.Unlock()
	if w == nil {
		return
	}
	added, ok := w.Sync(ix)
	if !ok {
		s.startPolling()
	}
	if full {
		added = ix.Roots
	}
	if len(added) > 0 {
		s.watched(added)
	}
}

// startPolling replaces the watcher by periodic rescans of the roots.
func (s *Session) startPolling() {
	s.watchMu.Lock()
	defer s.watchMu.Unlock()
	if s.polling {
		return
	}
	s.polling = true
	if s.watcher != nil {
		_ = s.watcher.Close()
		s.watcher = nil
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		t := time.NewTicker(s.opts.RescanEvery)
		defer t.Stop()
		for {
			select {
			case <-s.stop:
				return
			case <-t.C:
				// Without a watcher no event names an edited file: the
				// indexers re-check every file's size and time as well.
				roots := s.Roots()
				s.watched(roots)
				s.queueSymbols(nil, roots)
			}
		}
	}()
}

// Changed reports paths (absolute) that were created, changed or deleted.
// They are applied shortly, or at once by the next Engine call, so the next
// answer reflects them.
func (s *Session) Changed(paths []string) {
	s.changed(paths, true)
}

// watched queues what the session's own watcher or rescans saw: applied
// within minApplyGap, not necessarily before the next answer (a stream of
// file events must not rebuild the engine for every request).
func (s *Session) watched(paths []string) {
	s.changed(paths, false)
}

func (s *Session) changed(paths []string, reported bool) {
	if len(paths) == 0 {
		return
	}
	s.mu.Lock()
	s.pending = append(s.pending, paths...)
	s.reported = s.reported || reported
	s.mu.Unlock()
	s.scheduleApply()
}

func (s *Session) scheduleApply() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || len(s.pending) == 0 {
		return
	}
	// The timer runs from the first change of a batch and is not pushed
	// back by later ones: a steady stream of changes (a build writing
	// files) is applied every so often, not when it stops.
	if s.timerSet {
		return
	}
	s.timerSet = true
	delay := max(debounce, minApplyGap-time.Since(s.lastApply))
	if s.timer == nil {
		s.timer = time.AfterFunc(delay, func() { s.applyPending() })
		return
	}
	s.timer.Reset(delay)
}

// applyPending folds the pending changes into a new snapshot.
func (s *Session) applyPending() {
	s.apply.Lock()
	s.mu.Lock()
	paths := s.pending
	s.pending = nil
	s.timerSet, s.reported = false, false
	s.lastApply = time.Now()
	s.mu.Unlock()
	cur := s.snap.Load()
	if len(paths) == 0 || cur == nil {
		if cur == nil && len(paths) > 0 { // nothing indexed yet: the first build sees it all
			s.opts.Logf("dropping %d changes before the first index", len(paths))
		}
		s.apply.Unlock()
		return
	}
	next, changed := workspace.Update(cur.ix, s.opts.Walk, paths)
	if next != cur.ix {
		snap := &snapshot{gen: cur.gen, ix: next, eng: cur.eng, indexMs: cur.indexMs}
		if changed {
			snap.eng = rank.New(next)
		}
		s.store(snap)
	}
	s.apply.Unlock()
	s.queueSymbols(nil, contentChanges(cur.ix, next, paths))
	if next != cur.ix {
		s.watch(next, false)
	}
}

// contentChanges narrows reported paths to the files whose symbols and
// text may have changed: files named themselves (edited, created or
// deleted), and files the update added or removed. A directory or root
// reported as a whole (a re-walk) needs no re-reading of the files that
// stayed: their own events say when they change.
func contentChanges(prev, next *workspace.Index, paths []string) []string {
	var out []string
	for _, p := range paths {
		if prev.Has(p) || next.Has(p) {
			out = append(out, p)
			continue
		}
		if _, _, inside := next.RootOf(p); !inside {
			out = append(out, p) // outside the roots now: let the indexers drop what they had
		}
	}
	if next != prev {
		out = append(out, workspace.Diff(prev, next)...)
	}
	return out
}

// Engine returns an engine over the current roots with every reported
// change applied. It waits (up to Options.WaitReady, or until ctx ends)
// for the first index of the roots; after that it answers from the
// previous roots' index if there is one, else returns ErrNotReady.
func (s *Session) Engine(ctx context.Context) (*rank.Engine, error) {
	s.mu.Lock()
	want, closed := s.want, s.closed
	s.mu.Unlock()
	if closed {
		return nil, ErrClosed
	}
	deadline := time.NewTimer(s.opts.WaitReady)
	defer deadline.Stop()
	for {
		cur := s.snap.Load()
		if cur != nil && cur.gen >= want {
			break
		}
		s.mu.Lock()
		swapped := s.swapped
		s.mu.Unlock()
		if cur = s.snap.Load(); cur != nil && cur.gen >= want {
			break
		}
		select {
		case <-swapped:
			continue
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-deadline.C:
		}
		if cur := s.snap.Load(); cur != nil {
			return cur.eng, nil
		}
		return nil, ErrNotReady
	}
	s.mu.Lock()
	// Changes a client reported are in the next answer. What the watcher
	// saw is, too, unless the engine was rebuilt under minApplyGap ago:
	// then the timer applies it within that gap. Rebuilding for every
	// request under a stream of file events only churned memory.
	apply := len(s.pending) > 0 && (s.reported || time.Since(s.lastApply) >= minApplyGap)
	s.mu.Unlock()
	if apply {
		s.applyPending()
	}
	return s.withSymbols(s.snap.Load().eng), nil
}

func (s *Session) withSymbols(e *rank.Engine) *rank.Engine {
	if si := s.symIndex.Load(); si != nil {
		e = e.WithSymbols(si)
	}
	if ci := s.cIndex.Load(); ci != nil {
		e = e.WithContent(ci)
	}
	if m := s.model.Load(); m != nil && m.r != nil {
		e = e.WithReranker(m.r, m.opts)
	}
	return e
}

// ModelStatus describes the reranking model for find/status.
type ModelStatus struct {
	Loaded    bool
	Name      string
	Precision string
	LoadMs    float64
	Reranked  int64
	Reason    string // why no model is loaded, when one was asked for
}

type modelState struct {
	r        rank.Reranker
	opts     rank.RerankOptions
	status   ModelStatus
	reranked func() int64
}

// SetModel makes every engine the session hands out ask r about close
// calls (nil r records why there is no model). reranked reports the
// model's running count of reranked queries.
func (s *Session) SetModel(r rank.Reranker, opts rank.RerankOptions, st ModelStatus, reranked func() int64) {
	st.Loaded = r != nil
	s.model.Store(&modelState{r: r, opts: opts, status: st, reranked: reranked})
}

// Status describes the session for find/status.
type Status struct {
	Ready   bool
	Roots   []string
	Files   int
	IndexMs float64
	// Symbols counts the symbols indexed; SymbolsReady is true once the
	// current roots' symbols have all been read.
	Symbols      int
	SymbolsReady bool
	SymbolsMs    float64
	// ContentFiles counts the files whose text locate can search.
	ContentFiles int
	Model        ModelStatus
}

// Status answers at once, without waiting for an index.
func (s *Session) Status() Status {
	s.mu.Lock()
	want, roots := s.want, slices.Clone(s.roots)
	s.mu.Unlock()
	st := Status{Roots: roots}
	if cur := s.snap.Load(); cur != nil {
		st.Ready = cur.gen >= want
		st.Files = len(cur.ix.Files)
		st.IndexMs = cur.indexMs
	}
	st.Symbols = s.symIndex.Load().Len()
	st.ContentFiles = s.cIndex.Load().Len()
	if m := s.model.Load(); m != nil {
		st.Model = m.status
		if m.reranked != nil {
			st.Model.Reranked = m.reranked()
		}
	}
	s.mu.Lock()
	st.SymbolsReady = s.symGen >= want && s.symFull == nil
	st.SymbolsMs = s.symMs
	s.mu.Unlock()
	return st
}

// Begin marks a request in progress until the returned func is called;
// background indexing pauses meanwhile.
func (s *Session) Begin() (end func()) {
	s.active.Add(1)
	return func() {
		s.lastRequest.Store(time.Now().UnixNano())
		s.active.Add(-1)
	}
}

// awaitQuiet delays a full background pass until no request has run for
// quiet, or at most maxWait: an editor's burst of requests at start-up is
// answered before the symbol and content passes take their share of the
// machine.
func (s *Session) awaitQuiet(quiet, maxWait time.Duration) {
	deadline := time.Now().Add(maxWait)
	for time.Now().Before(deadline) {
		last := time.Unix(0, s.lastRequest.Load())
		if s.waiting.Load() > 0 || (s.active.Load() == 0 && time.Since(last) >= quiet) {
			return // quiet, or a request waits for this very pass
		}
		select {
		case <-s.stop:
			return
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// pace holds a background indexing worker while requests run, for at most
// maxPause at a time so that constant traffic cannot starve indexing.
func (s *Session) pace() {
	const maxPause = 50 * time.Millisecond
	// Requests waiting for the background work itself do not hold it up.
	for waited := time.Duration(0); s.active.Load() > s.waiting.Load() && waited < maxPause; waited += time.Millisecond {
		time.Sleep(time.Millisecond)
	}
	// Let a request that has just arrived run on this processor now rather
	// than at Go's next preemption.
	runtime.Gosched()
}

// Visit records that the user or an agent looked at a file (absolute path
// or file:// URI); resolvePath weighs recent files when a request brings
// no history of its own.
func (s *Session) Visit(file string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i := slices.Index(s.history, file); i >= 0 {
		s.history = slices.Delete(s.history, i, i+1)
	}
	s.history = append(s.history, file)
	if over := len(s.history) - s.opts.HistorySize; over > 0 {
		s.history = slices.Delete(s.history, 0, over)
	}
}

// History returns the visited files, most recent last.
func (s *Session) History() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.history)
}

// Close stops indexing and watching.
func (s *Session) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	if s.timer != nil {
		s.timer.Stop()
	}
	s.mu.Unlock()
	close(s.stop)
	if m := s.model.Load(); m != nil {
		if c, ok := m.r.(interface{ Close() }); ok {
			defer c.Close() // after the loops that may still be answering
		}
	}
	s.watchMu.Lock()
	if s.watcher != nil {
		_ = s.watcher.Close()
		s.watcher = nil
	}
	s.watchMu.Unlock()
	s.wg.Wait()
}
