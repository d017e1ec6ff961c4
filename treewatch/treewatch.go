// Package treewatch is how a live workspace sees its tree change: a
// watcher on every directory (workspace.Watcher), or, for the directories
// the system has no watch to give (the kernel's watch limit: a tree over
// it is watched in part, and with no watcher at all not at all), polling
// — a stat of each such directory between rescans (workspace.DirTimes),
// and rescans at their own period that check what times cannot tell
// (workspace.Verify) and find files edited in place by their stats
// (workspace.Restat). It says what changed; its host (the session)
// applies it.
package treewatch

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"wayfind/workspace"
)

// Host is the workspace a Tracker watches for.
type Host interface {
	// Served is the index served now and when the walk it comes from
	// began (nil before the first).
	Served() (*workspace.Index, time.Time)
	// Roots are the roots asked for (the index may still be catching
	// up).
	Roots() []string
	// Changed queues paths (absolute) whose entries changed — files or
	// directories made, deleted, renamed, or a root to walk again — to
	// be applied shortly.
	Changed(paths []string)
	// Edited asks for the contents of paths (files, or roots: every
	// file) to be read again; ReadsContents says whether anything does.
	Edited(paths []string)
	ReadsContents() bool
	// Pace holds background work while requests run; Busy marks it
	// under way until done is called; AfterPass is the memory's moment
	// after work that read the whole tree.
	Pace()
	Busy() (done func())
	AfterPass()
}

// Options configure a Tracker.
type Options struct {
	// RescanEvery is the least period between rescans once polling.
	RescanEvery time.Duration
	// Walk is how a rescan walks the roots.
	Walk workspace.Options
	// Watch is how the watcher meets the kernel's watch limit: a tree
	// past it watched in part (InPart) or polled whole.
	Watch workspace.WatchOptions
	Logf  func(format string, args ...any)
}

// Tracker watches or polls its host's roots. It is safe for concurrent
// use.
type Tracker struct {
	host Host
	opts Options

	mu      sync.Mutex
	watcher *workspace.Watcher // nil when off or replaced by polling
	// polling: the poll loop runs — for the directories the watcher
	// leaves out, or for all when there is no watcher.
	polling bool
	// pollMu keeps one poll of the directories' times at a time: the
	// loop's and PollNow's.
	pollMu sync.Mutex
	closed bool
	// watching: the watcher holds every directory of the roots named
	// (Sync succeeded for the index of those roots); nil when it does
	// not.
	watching atomic.Pointer[[]string]
	// walkTook is how long the last walk of every root took (ns), with a
	// poll's stat of every file: the polling period grows with it
	// (rescanPeriod).
	walkTook atomic.Int64
	restat   workspace.Restat // polling's file stats, seeded by a full pass (PollStats)
	// dirTimes are polling's directory stats, and dirPollTook (ns) how
	// long their last poll took (PollDirs): polls of them come between
	// the rescans, rescanPeriod of each apart.
	dirTimes    workspace.DirTimes
	dirPollTook atomic.Int64
	stop        chan struct{}
	wg          sync.WaitGroup
}

// New makes a tracker for host that neither watches nor polls yet
// (Start, StartPolling).
func New(host Host, opts Options) *Tracker {
	if opts.Logf == nil {
		opts.Logf = func(string, ...any) {}
	}
	return &Tracker{host: host, opts: opts, stop: make(chan struct{})}
}

// Start watches the roots, or polls them when the system has no watcher
// to give; the index served is watched at once.
func (t *Tracker) Start() {
	t.mu.Lock()
	if t.watcher != nil || t.polling || t.closed {
		t.mu.Unlock()
		return
	}
	w, err := workspace.Watch(t.host.Changed, t.opts.Logf, t.opts.Watch)
	if err != nil {
		t.mu.Unlock()
		t.opts.Logf("file watcher unavailable (%v); rescanning every %s", err, t.opts.RescanEvery)
		t.StartPolling()
		return
	}
	t.watcher = w
	t.mu.Unlock()
	if ix, walked := t.host.Served(); ix != nil {
		t.Sync(ix, walked)
	}
}

// Sync brings the watcher up to date with ix. Directories it starts
// watching may have gained files between the walk and the watch: they are
// queued as changed once more. After a full index (walked, not zero: when
// its walk began) those are the directories modified since the walk
// began (workspace.ChangedSince): re-walking the roots whole would do
// the first index's work twice. The directories the watcher cannot hold
// (the kernel's watch limit) are polled beside it; when it cannot hold
// even the roots, polling replaces it.
func (t *Tracker) Sync(ix *workspace.Index, walked time.Time) {
	if !walked.IsZero() {
		// The roots' last walk, however it came (a cold start's, a saved
		// index's check, a reindex): the rescans are spaced by it
		// (rescanPeriod), or polling would walk the whole tree again a
		// RescanEvery after the walk it follows.
		t.Walked(time.Since(walked))
	}
	t.mu.Lock()
	w := t.watcher
	t.mu.Unlock()
	if w == nil {
		return
	}
	added, ok := w.Sync(ix)
	if !ok {
		t.StartPolling()
	}
	_, unwatched := w.Unwatched()
	if ok && len(unwatched) > 0 {
		t.startLoop()
	}
	if !walked.IsZero() {
		added = workspace.EntryChanges(ix, workspace.ChangedSince(ix, walked, t.host.Pace))
	}
	if len(added) > 0 {
		t.host.Changed(added)
	}
	if ok && len(unwatched) == 0 {
		// Watching once what changed before the watches is queued too:
		// an answer applied after it holds every change since the walk.
		roots := slices.Clone(ix.Roots)
		t.watching.Store(&roots)
	} else {
		t.watching.Store(nil)
	}
}

// Watching reports whether a watcher holds every directory of roots, so
// that a change on disk is seen as it is made.
func (t *Tracker) Watching(roots []string) bool {
	w := t.watching.Load()
	return w != nil && slices.Equal(*w, roots)
}

// Polling reports whether the roots are polled, in whole or in part.
func (t *Tracker) Polling() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.polling
}

// Walked records how long a walk of every root took: polling's rescans
// are spaced by it (rescanPeriod).
func (t *Tracker) Walked(took time.Duration) { t.walkTook.Store(int64(took)) }

// Rebased has polling's file and directory stats align with ix, which
// replaces the index they were taken of (workspace.Restat.Rebase,
// workspace.DirTimes.Rebase): that index, and its base, are let go.
func (t *Tracker) Rebased(ix *workspace.Index) {
	t.restat.Rebase(ix)
	t.dirTimes.Rebase(ix)
}

// overtaken is the end of a poll of ix: when a base was swapped in while
// it stat'ed, the swap's Rebased came first, and the poll's stats, of the
// index it replaced, would hold that index's base mapped until the next
// poll — they are rebased again.
func (t *Tracker) overtaken(ix *workspace.Index) {
	if served, _ := t.host.Served(); served != nil && served != ix {
		t.Rebased(served)
	}
}

// PollStats is, while polling, every file of ix stat'ed — the first
// poll's baseline, so that it re-checks only files edited since rather
// than every file — for a full pass that decides by them; nil otherwise.
func (t *Tracker) PollStats(ix *workspace.Index) []workspace.FileStat {
	if !t.Polling() {
		return nil
	}
	stats := workspace.StatFiles(ix, t.host.Pace)
	t.restat.Seed(ix, stats)
	if served, _ := t.host.Served(); served != nil {
		// A base swapped in while the pass stat'ed (Rebased came first).
		t.restat.Rebase(served)
	}
	return stats
}

// rescanShare bounds the time polling spends walking: the period between
// rescans is at least this many times the last walk of the roots, so
// that walks never overlap however large the tree: at ten, a rescan
// costs at most a tenth of one core.
const rescanShare = 10

// rescanPeriod is the wait between rescans: every (RescanEvery), unless
// the last walk took longer than a rescanShare-th of that. The polls of
// the directories' times between them are spaced so too, by their own
// time (PollDirs).
func rescanPeriod(every, walkTook time.Duration) time.Duration {
	return max(every, rescanShare*walkTook)
}

// StartPolling replaces the watcher by polling the roots until Close.
func (t *Tracker) StartPolling() {
	t.mu.Lock()
	t.watching.Store(nil)
	if t.watcher != nil {
		_ = t.watcher.Close()
		t.watcher = nil
	}
	t.mu.Unlock()
	t.startLoop()
}

// startLoop starts the poll loop, once: the times of the directories no
// watch holds between rescans of the roots, until Close.
func (t *Tracker) startLoop() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.polling || t.closed {
		return
	}
	t.polling = true
	t.wg.Add(1)
	go func() {
		defer t.wg.Done()
		lastRescan := time.Now()
		for {
			select {
			case <-t.stop:
				return
			case <-time.After(rescanPeriod(t.opts.RescanEvery, time.Duration(t.dirPollTook.Load()))):
			}
			if time.Since(lastRescan) >= rescanPeriod(t.opts.RescanEvery, time.Duration(t.walkTook.Load())) {
				t.rescan()
				lastRescan = time.Now()
			} else {
				t.PollDirs()
			}
		}
	}()
}

// PollDirs is polling's quick look between rescans: the directories no
// watch holds whose time moved (workspace.DirTimes), narrowed to the
// entries that changed (EntryChanges), queued: a stat a directory, where
// a rescan reads every one, so a file made is seen within seconds on any
// tree. It gives way to requests (Pace).
func (t *Tracker) PollDirs() {
	defer t.host.Busy()()
	t.pollDirs(t.host.Pace)
}

// PollNow is PollDirs for a request that waits on it, at full speed: once
// it returns, every change made before it to a directory no watch holds
// is queued — with the watcher's own (the host's to apply), every change
// to the tree. Nothing is polled when the watcher holds every directory.
func (t *Tracker) PollNow() {
	if t.Polling() {
		t.pollDirs(nil)
	}
}

func (t *Tracker) pollDirs(pace func()) {
	t.pollMu.Lock()
	defer t.pollMu.Unlock()
	ix, walked := t.host.Served()
	if ix == nil || !slices.Equal(ix.Roots, t.host.Roots()) {
		return // new roots are the next rescan's
	}
	t.mu.Lock()
	w := t.watcher
	t.mu.Unlock()
	start := time.Now()
	var dirs []string
	n := len(ix.Dirs) + len(ix.Roots)
	if w == nil {
		dirs = t.dirTimes.Changed(ix, walked, pace)
	} else {
		roots, unwatched := w.Unwatched()
		if !slices.Equal(roots, ix.Roots) {
			return // the watcher's next Sync is this index's
		}
		n = len(unwatched)
		dirs = t.dirTimes.ChangedIn(ix, unwatched, walked, pace)
	}
	t.overtaken(ix)
	changed := workspace.EntryChanges(ix, dirs)
	took := time.Since(start)
	t.dirPollTook.Store(int64(took))
	if len(changed) > 0 {
		t.opts.Logf("polled %d directories' times in %.0f ms: %d entries changed", n, float64(took.Microseconds())/1000, len(changed))
	}
	t.host.Changed(changed)
}

// rescan is one poll of the roots: the walk compares the tree with the
// index (workspace.Verify, giving way to requests) and only the
// directories that differ are queued; without a watcher no event names
// an edited file, so every file is stat'ed too and those whose size or
// time changed since the last poll are re-checked by the indexers (at
// the first poll, with nothing to compare, every file).
func (t *Tracker) rescan() {
	defer t.host.Busy()()
	roots := t.host.Roots()
	ix, _ := t.host.Served()
	if ix == nil || !slices.Equal(ix.Roots, roots) {
		t.host.Changed(roots)
		t.host.Edited(roots)
		return
	}
	walk := t.opts.Walk
	walk.Pace = t.host.Pace // nothing waits on it: answers come from the index meanwhile
	start := time.Now()
	t.host.Changed(workspace.Verify(ix, walk))
	if t.host.ReadsContents() {
		if edited, ok := t.restat.Changed(ix, t.host.Pace); !ok {
			t.host.Edited(roots)
		} else if len(edited) > 0 {
			t.host.Edited(edited)
		}
		t.overtaken(ix)
	}
	t.Walked(time.Since(start))
	t.host.AfterPass() // the stats read every path
}

// Close stops watching and polling, and waits for a poll under way.
func (t *Tracker) Close() {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return
	}
	t.closed = true
	close(t.stop)
	if t.watcher != nil {
		_ = t.watcher.Close()
		t.watcher = nil
	}
	t.mu.Unlock()
	t.wg.Wait()
}
