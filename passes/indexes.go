// Package passes is the work that follows the file index, off the request
// path: the symbol and content passes over each snapshot's files
// (Indexes), and the repository pass that keeps each root's history
// current (Repo). It ranks nothing and serves nothing: the workspace that
// owns it (package session, through Host) says what to index and when,
// and attaches what the passes hold to the engines it hands out.
package passes

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"wayfind/content"
	"wayfind/memory"
	"wayfind/rank"
	"wayfind/symbols"
	"wayfind/workspace"
)

// Host is what the passes need of the workspace they follow.
type Host interface {
	// Index is the file index served now (nil before the first).
	Index() *workspace.Index
	// Wanted is the generation of the full index wanted now.
	Wanted() int
	// BeforeFull returns once a full pass may read the served index (a
	// compaction a walk owes is done: the pass reads the base rather
	// than hold the heap's copy of the tree through it), or ctx's error.
	BeforeFull(ctx context.Context) error
	// AwaitQuiet delays a full pass until requests pause (quiet), for at
	// most maxWait.
	AwaitQuiet(quiet, maxWait time.Duration)
	// PollStats is, while changes are found by polling, every file's
	// stat, the polls' baseline (an edit after it is seen by both the
	// poll and the content pass, which decides by it); nil otherwise.
	PollStats(ix *workspace.Index) []workspace.FileStat
	// Pace holds background work while requests run.
	Pace()
	// Busy marks background work under way until done is called (the
	// memory's moment while it reads: session/memory.go).
	Busy() (done func())
	// AfterPass is the memory's moment after a pass read the whole tree.
	AfterPass()
}

// Options configure the symbol and content passes.
type Options struct {
	// Symbols configures the symbol indexer; its Pace and Logf default
	// to the host's and the passes', its Workers to Workers.
	Symbols symbols.IndexerOptions
	// NoSymbols and NoContent turn either pass off.
	NoSymbols, NoContent bool
	// CacheDir is where the content index's cache lives ("-": none).
	CacheDir string
	// Workers is how many files are read at once.
	Workers int
	Logf    func(format string, args ...any)
	// SymbolProgress, when set, hears each full symbol pass: percentage
	// 0..100 and a short message; done is true once, at the end.
	SymbolProgress func(pct int, msg string, done bool)
}

// Indexes runs the symbol and content passes one at a time (Run): a full
// pass over every file of a generation, or a re-check of changed paths,
// and holds what they made (Symbols, Contents).
type Indexes struct {
	host     Host
	opts     Options
	symx     *symbols.Indexer // nil when off
	symIndex atomic.Pointer[rank.SymbolIndex]
	cx       *content.Indexer // nil when off
	cIndex   atomic.Pointer[content.Index]
	kick     chan struct{}

	mu         sync.Mutex
	full       bool // a full pass over generation fullDue is due
	fullDue    int
	forgetAt   int               // a full pass of this generation or later parses every file again (Reindex; 0: none)
	paths      []string          // paths to re-check
	edits      map[string][]byte // unsaved editor content by file
	symGen     int               // generation whose symbols the last full pass indexed (-1: none)
	contentGen int               // generation whose contents it indexed (-1: none)
	done       chan struct{}     // closed and replaced after each pass
	// stopFull stops the full pass under way, over generation fullGen
	// (nil: none runs); fullEnded is closed once it has ended.
	stopFull  context.CancelFunc
	fullGen   int
	fullEnded chan struct{}
	// repoint: a base was swapped in since the indexes were last
	// pointed at the served index's paths (repoint).
	repoint bool
	symMs   float64 // duration of the last full symbol pass
}

// NewIndexes makes the passes for host; Run runs them.
func NewIndexes(host Host, opts Options) *Indexes {
	if opts.Logf == nil {
		opts.Logf = func(string, ...any) {}
	}
	x := &Indexes{host: host, opts: opts, kick: make(chan struct{}, 1), symGen: -1, contentGen: -1, done: make(chan struct{})}
	if !opts.NoContent {
		x.cx = &content.Indexer{Workers: opts.Workers, Pace: host.Pace, Logf: opts.Logf, CacheDir: opts.CacheDir}
	}
	if !opts.NoSymbols {
		so := opts.Symbols
		if so.Workers == 0 {
			so.Workers = opts.Workers
		}
		if so.Pace == nil {
			so.Pace = host.Pace
		}
		if so.Logf == nil {
			so.Logf = opts.Logf
		}
		user := so.Progress
		so.Progress = func(done, total int) {
			if user != nil {
				user(done, total)
			}
			x.progress(done, total)
		}
		x.symx = symbols.NewIndexer(so)
	}
	return x
}

// On reports whether any pass runs.
func (x *Indexes) On() bool { return x.symx != nil || x.cx != nil }

// Symbols is the symbol index the last pass made (nil: none yet, or off).
func (x *Indexes) Symbols() *rank.SymbolIndex { return x.symIndex.Load() }

// Contents is the content index the last pass made (nil: none yet, or
// off).
func (x *Indexes) Contents() *content.Index { return x.cIndex.Load() }

// Full asks for a full pass over generation gen's files: it supersedes
// the paths queued before it.
func (x *Indexes) Full(gen int) {
	x.mu.Lock()
	x.full, x.fullDue, x.paths = true, gen, nil
	x.mu.Unlock()
	x.wake()
}

// Recheck asks for the symbols and contents of paths to be read again.
func (x *Indexes) Recheck(paths []string) {
	if len(paths) == 0 {
		return
	}
	x.mu.Lock()
	for _, p := range paths {
		// Copied: the index p may lie in can be replaced, and its file
		// let go, before the pass reads the queue (package segment).
		x.paths = append(x.paths, strings.Clone(p))
	}
	x.mu.Unlock()
	x.wake()
}

// Edit queues the symbols of a document's unsaved content (the latest
// text of each file wins); a Recheck of the file, after a save or close,
// reads the disk again.
func (x *Indexes) Edit(file string, text []byte) {
	if x.symx == nil {
		return
	}
	x.mu.Lock()
	if x.edits == nil {
		x.edits = map[string][]byte{}
	}
	x.edits[file] = text
	x.mu.Unlock()
	x.wake()
}

// ForgetFrom has the full pass of generation gen or later parse every
// file again, whatever the cache says (a reindex). The pass loop forgets
// before that pass, where no pass holds the symbol indexer: a reindex
// asked while a pass held it waited for that pass, which pace held
// behind the reindex's own request for its longest pause at every file.
func (x *Indexes) ForgetFrom(gen int) {
	x.mu.Lock()
	x.forgetAt = gen
	x.mu.Unlock()
}

// Repoint has the pass loop point the indexes' paths at the served
// index's (repoint), between passes: a base was swapped in.
func (x *Indexes) Repoint() {
	x.mu.Lock()
	x.repoint = true
	x.mu.Unlock()
	x.wake()
}

func (x *Indexes) wake() {
	if !x.On() {
		return
	}
	select {
	case x.kick <- struct{}{}:
	default:
	}
}

// Supersede stops the full pass under way when its generation is older
// than want: a pass whose answers would be replaced as soon as they were
// made does not hold the memory of its tables beside the walk of the
// next.
func (x *Indexes) Supersede(want int) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.stopFull != nil && x.fullGen < want {
		x.stopFull()
	}
}

// Run runs the passes one at a time until ctx ends.
func (x *Indexes) Run(ctx context.Context) {
	if !x.On() {
		return
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-x.kick:
		}
		for {
			x.mu.Lock()
			full, gen, paths, edits := x.full, x.fullDue, x.paths, x.edits
			x.full, x.paths, x.edits = false, nil, nil
			forget := full && x.forgetAt > 0 && gen >= x.forgetAt
			if forget {
				x.forgetAt = 0
			}
			repoint := x.repoint
			x.repoint = false
			x.mu.Unlock()
			done := x.host.Busy()
			if repoint {
				x.repointIndexes()
			}
			if forget && x.symx != nil {
				x.symx.Forget()
			}
			if !full && len(paths) == 0 && len(edits) == 0 {
				done()
				break
			}
			var err error
			if full {
				pctx, end := x.supersedable(ctx, gen)
				if err = x.fullPass(pctx, gen); err != nil && ctx.Err() == nil {
					// Stopped (Supersede): what it held goes back now,
					// before the next generation's walk, which waits
					// for it (AwaitSuperseded), grows.
					x.host.AfterPass()
				}
				end()
			} else {
				err = x.refreshPass(ctx, paths, edits)
			}
			done()
			if err != nil {
				x.finish(-1)
				if ctx.Err() != nil {
					return
				}
			}
		}
	}
}

// supersedable is the context of a full pass over generation gen, until
// end: ended with ctx, or when a later generation is wanted (Supersede).
func (x *Indexes) supersedable(ctx context.Context, gen int) (_ context.Context, end func()) {
	ctx, stop := context.WithCancel(ctx)
	ended := make(chan struct{})
	x.mu.Lock()
	x.stopFull, x.fullGen, x.fullEnded = stop, gen, ended
	x.mu.Unlock()
	// After stopFull is set: a Supersede before it is seen here.
	if gen < x.host.Wanted() {
		stop()
	}
	return ctx, func() {
		x.mu.Lock()
		x.stopFull, x.fullEnded = nil, nil
		x.mu.Unlock()
		stop()
		close(ended)
	}
}

// AwaitSuperseded waits, at most d, for the full pass under way to end
// when its generation is older than gen (Supersede stopped it) — having
// given back what it held: the walk of generation gen then does not
// grow beside the tables, or the cache save, of the pass it replaces.
func (x *Indexes) AwaitSuperseded(gen int, d time.Duration) {
	x.mu.Lock()
	ended := x.fullEnded
	older := ended != nil && x.fullGen < gen
	x.mu.Unlock()
	if !older {
		return
	}
	select {
	case <-ended:
	case <-time.After(d):
	}
}

// fullPass indexes every file of the served index, for generation gen:
// symbols first (workspace/symbol may answer then), then contents.
func (x *Indexes) fullPass(ctx context.Context, gen int) error {
	if err := x.host.BeforeFull(ctx); err != nil {
		return err
	}
	x.host.AwaitQuiet(100*time.Millisecond, 2*time.Second)
	ix := x.host.Index()
	start := time.Now()
	memory.BoundHeap()
	if x.opts.SymbolProgress != nil {
		x.opts.SymbolProgress(0, "symbols", false)
	}
	stats := x.host.PollStats(ix)
	if x.symx != nil {
		table, st, err := x.symx.Sync(ctx, ix)
		if err != nil {
			return err
		}
		memory.ReleaseMapped() // the save's sorted keys read every path
		x.symIndex.Store(rank.NewSymbolIndex(table, ix.Roots))
		x.opts.Logf("symbols: %d in %d files (%d parsed, %d from the cache) in %.0f ms",
			st.Symbols, st.Files, st.Parsed, st.FromCache, msSince(start))
		x.host.AfterPass() // what the symbols freed goes back before the content pass grows
	}
	x.markSymbols(gen, msSince(start))
	if x.cx != nil {
		cstart := time.Now()
		ci, err := x.cx.SyncStat(ctx, ix, stats)
		if err != nil {
			return err
		}
		x.cIndex.Store(ci)
		x.opts.Logf("contents: %d files in %.0f ms", ci.Len(), msSince(cstart))
	}
	x.host.AfterPass()
	x.finish(gen)
	return nil
}

// refreshPass re-reads the symbols and contents of paths, and takes the
// editor's unsaved text of edited files.
func (x *Indexes) refreshPass(ctx context.Context, paths []string, edits map[string][]byte) error {
	ix := x.host.Index()
	if x.symx != nil {
		table, err := x.symx.Refresh(ctx, ix, paths)
		if err != nil {
			return err
		}
		for file, text := range edits {
			if table, err = x.symx.SetContent(ctx, file, text); err != nil {
				x.opts.Logf("symbols: %s: %v", file, err)
			}
		}
		if table != x.symIndex.Load().Table() {
			x.symIndex.Store(rank.NewSymbolIndex(table, ix.Roots))
		}
	}
	if x.cx != nil && len(paths) > 0 {
		ci, err := x.cx.Refresh(ctx, ix, paths)
		if err != nil {
			return err
		}
		x.cIndex.Store(ci)
	}
	x.finish(-1)
	return nil
}

// repointIndexes points the symbol and content indexes' paths at the
// served index's own strings of them, when it keeps them (a base,
// mapped): the indexes let go of the index they were read from — a
// replaced base, whose pages every pass over their paths read back in,
// or a walk's strings on the heap.
func (x *Indexes) repointIndexes() {
	ix := x.host.Index()
	if ix == nil {
		return
	}
	if x.symx != nil {
		t := x.symx.Repoint(ix)
		if si := x.symIndex.Load(); si != nil && si.Table() != t {
			x.symIndex.Store(si.Repointed(t))
		}
	}
	if x.cx != nil {
		if ci := x.cx.Repoint(ix); ci != nil {
			x.cIndex.Store(ci)
		}
	}
	// The pages of both bases it read and the path lists it replaced go
	// at once: the compaction's own drop may have come before this
	// repoint, which runs beside it.
	x.host.AfterPass()
}

// markSymbols records that a full pass has indexed the symbols of
// generation gen, and wakes whoever waits for them.
func (x *Indexes) markSymbols(gen int, ms float64) {
	x.mu.Lock()
	x.symGen, x.symMs = gen, ms
	close(x.done)
	x.done = make(chan struct{})
	x.mu.Unlock()
	if x.opts.SymbolProgress != nil {
		x.opts.SymbolProgress(100, "symbols indexed", true)
	}
}

// finish records a finished pass (gen ≥ 0 for a full one, whose contents
// are now indexed too) and wakes whoever waits.
func (x *Indexes) finish(gen int) {
	x.mu.Lock()
	if gen >= 0 {
		x.contentGen = gen
	}
	close(x.done)
	x.done = make(chan struct{})
	x.mu.Unlock()
}

// progress turns parse counts into percentages, at most one report per
// percent.
func (x *Indexes) progress(done, total int) {
	if x.opts.SymbolProgress == nil || total == 0 {
		return
	}
	pct := 100 * done / total
	if pct == 100 || pct == 0 || (100*(done-1)/total) == pct {
		return
	}
	x.opts.SymbolProgress(pct, "symbols", false)
}

// State is what the passes have done for generation want: its symbols
// and its contents indexed (no full pass queued); and how long the last
// full symbol pass took.
func (x *Indexes) State(want int) (symbolsReady, contentReady bool, symbolsMs float64) {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.symGen >= want && !x.full, (x.contentGen >= want || x.cx == nil) && !x.full, x.symMs
}

// Which pass Wait waits for.
const (
	ForSymbols  = false
	ForContents = true
)

// Wait returns true once the passes cover the generation want() names
// (read at each pass's end: it may grow meanwhile) — its symbols, and
// its contents too when contents (ForContents) — with no full pass
// queued; a refresh of a few changed files is not waited for. It returns
// false when ctx ends or timeout passes first.
func (x *Indexes) Wait(ctx context.Context, want func() int, contents bool, timeout time.Duration) bool {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		w := want()
		x.mu.Lock()
		gen := x.symGen
		if contents {
			gen = x.contentGen
		}
		ready, done := gen >= w && !x.full, x.done
		x.mu.Unlock()
		if ready {
			return true
		}
		select {
		case <-done:
		case <-ctx.Done():
			return false
		case <-deadline.C:
			return false
		}
	}
}

func msSince(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }
