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

	"wayfind/compaction"
	"wayfind/history"
	"wayfind/memory"
	"wayfind/pacing"
	"wayfind/passes"
	"wayfind/rank"
	"wayfind/rerank"
	"wayfind/symbols"
	"wayfind/treewatch"
	"wayfind/workspace"
)

// Options configure a Session.
type Options struct {
	Walk workspace.Options
	// HistorySize bounds the files the navigation history remembers per
	// root; 0 means history.DefaultLimit.
	HistorySize int
	// Now is the history's clock (the replay benchmark's); nil: time.Now.
	Now func() time.Time
	// Watch starts a server-side file watcher. Front ends whose client
	// reports file changes itself leave it off and call Changed.
	Watch bool
	// WatchInPart: a tree past the kernel's watch limit is watched in
	// part and the rest polled (workspace.WatchOptions.InPart), for a
	// front end that answers fresh on demand (Fresh: the daemon); else
	// it is polled whole.
	WatchInPart bool
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

// DefaultWaitReady is how long Engine waits for the roots' first index.
const DefaultWaitReady = 20 * time.Second

// ErrNotReady is returned when no index of the roots finished in time.
var ErrNotReady = errors.New("the workspace index is still being built; try again shortly")

// ErrClosed is returned after Close.
var ErrClosed = errors.New("session closed")

// Session is safe for concurrent use. Its live state is here; the file
// index pass (filePass, files.go) keeps its own, and the packages it
// tells theirs (passes, treewatch, compaction, pacing).
type Session struct {
	opts Options

	snap atomic.Pointer[snapshot]
	// req are the requests, which background work gives way to
	// (pacing); work is that work, whose reads are dropped as it goes.
	req  pacing.Requests
	work *memory.Work

	mu      sync.Mutex
	roots   []string
	want    int           // generation of full index wanted (roots changed, reindex asked)
	swapped chan struct{} // closed and replaced whenever snap changes
	closed  bool
	hist    *history.Store // where the user has been, per root (persisted)
	// cacheDir is where the roots' caches live (workspace.CacheDirOf,
	// decided once: "-" when there is none).
	cacheDir string

	model     rank.ModelSlot
	copyOrder atomic.Pointer[copyOrdered]
	files     filePass
	compactor *compaction.Compactor
	upkeep    chan struct{} // wakes the upkeep loop: a walk owes a compaction, a change was applied
	seq       atomic.Uint64 // the last snapshot's (store)
	tree      *treewatch.Tracker
	changes   *treewatch.Queue
	idx       *passes.Indexes
	repo      *passes.Repo
	stop      chan struct{}
	wg        sync.WaitGroup
	// done ends the memory's release loop: at Close's end, not at stop —
	// the passes wind down and the owed base is written after stop.
	done chan struct{}
}

type snapshot struct {
	gen     int
	ix      *workspace.Index
	eng     *rank.Engine
	indexMs float64
	// stale marks an index saved by an earlier server, answered from
	// while this one's walk verifies it.
	stale bool
	// sealed: the index and engine are the base, read from their
	// segments where they lie (compact.go), not copies on the heap.
	sealed bool
	// seq numbers the snapshots in the order they were served.
	seq uint64
	// walked is when the walk this index comes from began.
	walked time.Time
	// indexSavedAt is when ix itself was saved (base.Opened.IndexSavedAt;
	// zero: not known to be).
	indexSavedAt time.Time
}

// New starts a session with no roots; SetRoots gives it some.
func New(opts Options) *Session {
	if opts.WaitReady <= 0 {
		opts.WaitReady = DefaultWaitReady
	}
	if opts.RescanEvery <= 0 {
		opts.RescanEvery = 5 * time.Second
	}
	if opts.Logf == nil {
		opts.Logf = func(string, ...any) {}
	}
	if opts.Progress == nil {
		opts.Progress = func(int, string, bool) {}
	}
	s := &Session{opts: opts, swapped: make(chan struct{}), stop: make(chan struct{}), done: make(chan struct{})}
	s.cacheDir = workspace.CacheDirOf(opts.Symbols.CacheDir, opts.Logf)
	s.hist = history.New(history.Options{CacheDir: s.cacheDir,
		Limit: opts.HistorySize, Logf: opts.Logf, Now: opts.Now})
	s.files.kick = make(chan struct{}, 1)
	s.work = memory.NewWork()
	s.upkeep = make(chan struct{}, 1)
	s.repo = passes.NewRepo(s.cacheDir, opts.Logf)
	s.compactor = compaction.New(compactHost{s}, s.cacheDir, opts.Walk, opts.Logf)
	// Background indexing pauses while requests run (see Begin): answers
	// come first.
	s.idx = passes.NewIndexes(passHost{background{s}}, passes.Options{Symbols: opts.Symbols, NoSymbols: opts.NoSymbols, NoContent: opts.NoContent,
		CacheDir: s.cacheDir, Workers: runtime.NumCPU(), Logf: opts.Logf, SymbolProgress: opts.SymbolProgress})
	s.changes = treewatch.NewQueue(s.applyPending)
	s.loadCopyOrder()
	s.tree = treewatch.New(treeHost{background{s}}, treewatch.Options{RescanEvery: opts.RescanEvery, Walk: opts.Walk, Logf: opts.Logf,
		Watch: workspace.WatchOptions{InPart: opts.WatchInPart}})
	if opts.Watch {
		s.tree.Start()
	}
	// The passes' context ends when the session closes.
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-s.stop
		cancel()
	}()
	go s.work.Release(s.done)
	for _, loop := range []func(){s.indexLoop, s.upkeepLoop, func() { s.repo.Run(ctx) }, func() { s.idx.Run(ctx) }} {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			loop()
		}()
	}
	return s
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
	s.hist.SetRoots(clean)
	s.repo.SetRoots(clean)
	s.mu.Lock()
	s.roots = clean
	s.want++
	s.idx.Supersede(s.want)
	s.mu.Unlock()
	wake(s.files.kick)
	return clean
}

// Begin marks a request in progress until end is called: background
// work gives way to it meanwhile (package pacing).
func (s *Session) Begin() (end func()) { return s.req.Begin() }

// Roots returns the roots asked for (the index may still be catching up).
func (s *Session) Roots() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.roots)
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
	deadline, stop := context.WithTimeout(ctx, s.opts.WaitReady)
	defer stop()
	if err := s.awaitSnapshot(deadline, func(cur *snapshot) bool { return cur != nil && cur.gen >= want }); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if cur := s.snap.Load(); cur != nil { // the previous roots' index
			return cur.eng, nil
		}
		return nil, ErrNotReady
	}
	if s.requestApplies() {
		// The request waits for the index, which may be walking paced
		// (verifying a saved index): it must not hold that walk up.
		done := s.req.Waiting()
		s.applyPending()
		done()
	}
	return s.withIndexes(s.snap.Load().eng), nil
}

// CaughtUp returns once every change the watcher has seen so far is
// applied (waiting for an apply under way), whatever the engine's build
// costs: a process asking on behalf of another — an agent's hook — has
// no later answer to see the change in. Engine, by contrast, leaves a
// costly build to the timer.
//
// It returns ctx's error when ctx ends first (an apply under way, or
// this one, a large one after the watcher overflowed, goes on).
func (s *Session) CaughtUp(ctx context.Context) error {
	if _, err := s.Engine(ctx); err != nil {
		return err
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
	}
	s.wg.Add(1) // under mu, before Close's Wait
	s.mu.Unlock()
	waited := s.req.Waiting()
	applied := make(chan struct{})
	go func() {
		defer s.wg.Done()
		defer waited()
		defer close(applied)
		s.applyPending()
	}()
	select {
	case <-applied:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Fresh returns once the answers are as fresh as a stat of every
// directory would make them: the directories no watch holds are stat'ed
// now (none when a watcher holds them all), and every change seen is
// applied (CaughtUp).
func (s *Session) Fresh(ctx context.Context) error {
	s.tree.PollNow()
	return s.CaughtUp(ctx)
}

// awaitSnapshot waits until ok holds of the snapshot served, or ctx
// ends (its error).
func (s *Session) awaitSnapshot(ctx context.Context, ok func(*snapshot) bool) error {
	for {
		s.mu.Lock()
		swapped := s.swapped
		s.mu.Unlock()
		if ok(s.snap.Load()) {
			return nil
		}
		select {
		case <-swapped:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// requestApplies reports whether a request applies the pending changes
// before it is answered (treewatch.Queue.Due).
func (s *Session) requestApplies() bool {
	files := 0
	if cur := s.snap.Load(); cur != nil {
		files = cur.ix.Len()
	}
	return s.changes.Due(files)
}

// withIndexes attaches to e what the background has ready: the symbol
// index, the content index and the reranking model.
func (s *Session) withIndexes(e *rank.Engine) *rank.Engine {
	if si := s.idx.Symbols(); si != nil {
		e = e.WithSymbols(si)
	}
	if ci := s.idx.Contents(); ci != nil {
		e = e.WithContent(ci)
	}
	e = s.model.Attach(e)
	if c := s.copyOrder.Load(); c != nil && c.o != nil {
		e = e.WithCopyOrder(c.o)
	}
	if h := s.repo.History(e.Index().Roots); h != nil {
		e = e.WithRepoHistory(h)
		e.LearnTieWeights() // off the request path: the first find would pay
	}
	return e
}

// CopyOrderStatus is find/status's copyOrder: whether find's fitted
// order of a shared name's copies (rank/copyorder.go) is loaded, and if
// not, why (the formula orders them).
type CopyOrderStatus struct {
	Loaded bool
	LoadMs float64
	Reason string
}

type copyOrdered struct {
	o  rank.CopyOrder
	st CopyOrderStatus
}

// loadCopyOrder gives the session find's fitted order of a shared name's
// copies (rerank.LoadCopyOrder: trees shipped in the binary), so that
// every front end's engines order them alike; where it cannot be read,
// the formula orders them, and the log and find/status say why.
func (s *Session) loadCopyOrder() {
	o, err := rerank.LoadCopyOrder(len(rank.CopyFeatureNames))
	if err != nil {
		s.opts.Logf("the fitted order of a name's copies is not loaded, the formula orders them: %v", err)
		s.SetCopyOrder(nil, CopyOrderStatus{Reason: err.Error()})
		return
	}
	s.SetCopyOrder(o, CopyOrderStatus{LoadMs: o.LoadMs})
}

// SetCopyOrder makes the engines handed out from now on order a shared
// name's copies by o (nil: by the formula, st.Reason saying why).
func (s *Session) SetCopyOrder(o rank.CopyOrder, st CopyOrderStatus) {
	st.Loaded = o != nil
	s.copyOrder.Store(&copyOrdered{o: o, st: st})
}

// Model is the slot for the reranking model every engine the session
// hands out asks about close calls (service.LoadModel fills it).
func (s *Session) Model() *rank.ModelSlot { return &s.model }

// Status describes the session for find/status.
type Status struct {
	Ready   bool
	Roots   []string
	Files   int
	IndexMs float64
	// IndexStale is true while answers come from the file index an
	// earlier server saved, before this one's walk has checked it.
	IndexStale bool
	// Watching: a watcher holds every directory of the roots, so a
	// change on disk is seen as it is made (CaughtUp applies it); false
	// while polling, before the watcher is set up, or without one (a
	// client reports changes itself).
	Watching bool
	// Polling: changes are looked for by polling the directories no
	// watch holds — all of them without a watcher, those past the
	// kernel's watch limit with one (WatchInPart; Fresh stats them at
	// once).
	Polling bool
	// Symbols counts the symbols indexed; SymbolsReady is true once the
	// current roots' symbols have all been read.
	Symbols      int
	SymbolsReady bool
	SymbolsMs    float64
	// ContentFiles counts the files whose text locate can search.
	ContentFiles int
	// ContentReady is true once the current roots' text is indexed.
	ContentReady bool
	Model        rank.ModelStatus
	CopyOrder    CopyOrderStatus
	// VCS is the repository history's state; nil when no root is in a
	// repository.
	VCS *passes.VCSStatus
}

// Status answers at once, without waiting for an index.
func (s *Session) Status() Status {
	s.mu.Lock()
	want, roots := s.want, slices.Clone(s.roots)
	s.mu.Unlock()
	st := Status{Roots: roots, Watching: s.tree.Watching(roots), Polling: s.tree.Polling(), VCS: s.repo.Status(),
		Symbols: s.idx.Symbols().Len(), ContentFiles: s.idx.Contents().Len(), Model: s.model.Status()}
	if c := s.copyOrder.Load(); c != nil {
		st.CopyOrder = c.st
	}
	if cur := s.snap.Load(); cur != nil {
		st.Ready, st.Files, st.IndexMs, st.IndexStale = cur.gen >= want, cur.ix.Len(), cur.indexMs, cur.stale
	}
	st.SymbolsReady, st.ContentReady, st.SymbolsMs = s.idx.State(want)
	return st
}

// Visit records that the user or an agent looked at a file (an absolute
// path); a file outside the roots is not remembered.
func (s *Session) Visit(file string, why history.Reason) {
	roots := s.Roots()
	if i, rel, ok := (&workspace.Index{Roots: roots}).RootOf(file); ok && rel != "" {
		s.hist.Visit(roots[i], rel, why)
	}
}

// Frecent lists up to n visited files, weightiest first.
func (s *Session) Frecent(n int) []history.Visit { return s.hist.Frecent(n) }

// Recent lists up to n visited files, most recent first: a person's,
// or with agents anyone's (history.Store.Recent).
func (s *Session) Recent(n int, agents bool) []history.Visit { return s.hist.Recent(n, agents) }

// Close stops indexing and watching.
func (s *Session) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.changes.Close()
	s.mu.Unlock()
	close(s.stop)
	defer s.model.Close() // after the loops that may still be answering
	s.tree.Close()
	s.wg.Wait()
	s.writeOwedBase()
	close(s.done)
	s.hist.Close() // what is pending reaches the disk
}

// Current is the file a person last went to, while it says where they
// are (history.Store.Current).
func (s *Session) Current() (history.Visit, bool) { return s.hist.Current() }
