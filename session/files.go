package session

import (
	"context"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"wayfind/base"
	"wayfind/memory"
	"wayfind/rank"
	"wayfind/workspace"
)

// filePass is the file index pass's state: what changed and when it is
// applied, and how changes are seen (the watcher, or polling).
type filePass struct {
	apply   sync.Mutex // serialises index builds and updates
	kick    chan struct{}
	watchMu sync.Mutex
	watcher *workspace.Watcher // nil when off or replaced by polling
	polling bool
	// watching: the watcher holds every directory of the roots named
	// (Sync succeeded for the snapshot of those roots); nil when it
	// does not (Status.Watching).
	watching atomic.Pointer[[]string]
	// walkTook is how long the last walk of every root took (ns), with a
	// poll's stat of every file: the polling period grows with it
	// (rescanPeriod).
	walkTook atomic.Int64
	// buildTook is how long the last engine build for the tree took
	// (ns): whether a request may build one for what the watcher saw
	// (requestApplies).
	buildTook atomic.Int64
	restat    workspace.Restat // polling's file stats, seeded by a full pass
	// dirTimes are polling's directory stats, and dirPollTook (ns) how
	// long their last poll took (pollDirs): polls of them come between
	// the rescans, rescanPeriod of each apart.
	dirTimes    workspace.DirTimes
	dirPollTook atomic.Int64
	// Under Session.mu:
	pending  []string    // changed paths not yet applied
	timer    *time.Timer // debounced apply of pending
	timerSet bool        // timer is scheduled
	reported bool        // pending holds changes a client reported
	// applyingReported: changes a client reported are being applied
	// (the timer took them): a request waits for them too.
	applyingReported bool
	lastApply        time.Time // when pending changes were last applied
}

// The file index pass: walking the roots into a snapshot, keeping it
// current from the watcher (or polling, or the client's reports), and
// handing each new snapshot to the symbol and content passes.

// StartWatching starts the server-side watcher (or, when the system has
// none to give, periodic rescans). It is for front ends whose client
// turned out not to report file changes after all.
func (s *Session) StartWatching() {
	s.files.watchMu.Lock()
	if s.files.watcher != nil || s.files.polling {
		s.files.watchMu.Unlock()
		return
	}
	w, err := workspace.Watch(s.watched, s.opts.Logf)
	if err != nil {
		s.files.watchMu.Unlock()
		s.opts.Logf("file watcher unavailable (%v); rescanning every %s", err, s.opts.RescanEvery)
		s.startPolling()
		return
	}
	s.files.watcher = w
	s.files.watchMu.Unlock()
	if cur := s.snap.Load(); cur != nil {
		s.watch(cur.ix, cur.walked)
	}
}

func (s *Session) kickIndex() {
	select {
	case s.files.kick <- struct{}{}:
	default:
	}
}

// Reindex rebuilds the index from scratch and waits for it, symbols
// (parsed again whatever the cache says) and contents included.
//
// The request waits for background work, so it counts as waiting for it
// (pace does not hold the work up for it), and the symbols are forgotten
// by the pass loop before the full pass, not here: a reindex asked while
// a pass held the symbol indexer waited for that pass, which pace held
// behind the reindex's own request for its longest pause at every file,
// so that a large tree's reindex never returned.
func (s *Session) Reindex(ctx context.Context) (Status, error) {
	s.waiting.Add(1)
	defer s.waiting.Add(-1)
	s.mu.Lock()
	s.want++
	s.supersede()
	s.bg.forgetAt = s.want
	s.mu.Unlock()
	s.kickIndex()
	if _, err := s.LocateEngine(ctx); err != nil {
		return s.Status(), err
	}
	// Nor is a rebuild done while a saved index answers for the walk.
	err := s.awaitSnapshot(ctx, func(cur *snapshot) bool { return cur == nil || !cur.stale })
	return s.Status(), err
}

func (s *Session) indexLoop() {
	defer s.wg.Done()
	for {
		select {
		case <-s.stop:
			return
		case <-s.files.kick:
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

// build indexes roots as generation gen. Roots new to the session are
// opened (Open): a saved index, brought up to date by directory times,
// answers at once — marked stale until a walk paced behind the requests
// has checked what times cannot tell (workspace.Verify) — else they are
// walked. A reindex walks them again.
func (s *Session) build(gen int, roots []string) {
	defer s.busy(false)()
	s.files.apply.Lock()
	start := time.Now()
	walk, progress := s.walkOptions()
	progress(0, "walking", false)
	var snap *snapshot
	if cur := s.snap.Load(); cur == nil || !slices.Equal(cur.ix.Roots, roots) {
		o := base.Open(s.cacheDir, roots, walk, base.OpenOptions{Wait: s.opts.WaitReady})
		if o.SaveErr != nil {
			s.opts.Logf("file index not saved: %v", o.SaveErr)
		}
		s.pruneHistory(o.Index) // before the index is seen: its answers weigh no gone file
		snap = &snapshot{gen: gen, ix: o.Index, eng: o.Engine, sealed: o.Mapped, walked: o.Walked, indexSavedAt: o.IndexSavedAt}
		if o.Saved {
			snap.stale, snap.indexMs = true, msSince(start)
			s.store(snap)
			// The repository's history needs an index to answer beside,
			// not a verified one: read during the walk, an old path asked
			// now is not kept waiting for it.
			s.kickRepo()
			s.opts.Logf("answering from the saved index of %d files (%.0f ms, engine %s) while the walk checks it",
				o.Index.Len(), snap.indexMs, map[bool]string{true: "mapped", false: "built"}[o.Mapped])
			snap = s.verify(snap, walk)
		}
	} else {
		// A reindex walks the whole tree, checking each directory against
		// what is served (workspace.Verify) rather than listing it again:
		// the served index and engine are updated for what differs (as a
		// fresh build would answer: the differential test), kept as they
		// are when nothing does, and the walk holds no second index of
		// the tree beside the one served.
		walked := time.Now()
		changed := workspace.Verify(cur.ix, walk)
		s.files.walkTook.Store(int64(time.Since(walked)))
		snap = &snapshot{gen: gen, ix: cur.ix, eng: cur.eng, sealed: cur.sealed, walked: walked}
		if len(changed) > 0 {
			if ix, ok := workspace.Update(cur.ix, s.opts.Walk, changed); ok && ix != cur.ix {
				snap.ix, snap.sealed = ix, false
				snap.eng = s.buildEngine(cur.eng, ix)
				s.pruneHistory(ix)
			}
		}
	}
	snap.indexMs = msSince(start)
	s.store(snap)
	s.files.apply.Unlock()
	s.opts.Logf("indexed %d files under %d roots in %.0f ms", snap.ix.Len(), len(roots), snap.indexMs)
	progress(100, "indexed", true)
	s.queuePasses(snap, nil)
	s.kickRepo()
	s.watch(snap.ix, snap.walked)
	s.scheduleApply()
	// What the walk read is garbage now, and its pages read: the base is
	// written from the heap's copy first when there is one.
	if !snap.sealed {
		s.compactNow()
	} else {
		s.afterPass()
	}
}

// verify walks the tree behind the requests (paced) to check the saved
// index snap serves; the snapshot that follows serves snap's index and
// engine, no longer stale, when the tree holds the same files, else what
// differs applied.
func (s *Session) verify(snap *snapshot, walk workspace.Options) *snapshot {
	walk.Pace = s.pace
	walked := time.Now()
	changed := workspace.Verify(snap.ix, walk)
	s.files.walkTook.Store(int64(time.Since(walked)))
	next := &snapshot{gen: snap.gen, ix: snap.ix, eng: snap.eng, sealed: snap.sealed, walked: walked}
	if len(changed) == 0 {
		return next
	}
	s.opts.Logf("the saved index differs from the tree in %d directories", len(changed))
	next.ix, _ = workspace.Update(snap.ix, s.opts.Walk, changed)
	next.eng, next.sealed = s.buildEngine(snap.eng, next.ix), false
	s.pruneHistory(next.ix)
	return next
}

// buildEngine is the engine of ix: updated from base for the few files
// that changed (rank.Engine.Updated, linear in the tree with no name
// split), else built from scratch (base nil: always).
func (s *Session) buildEngine(base *rank.Engine, ix *workspace.Index) *rank.Engine {
	built := time.Now()
	var eng *rank.Engine
	if base != nil {
		eng = base.Updated(ix)
	}
	if eng == nil {
		eng = rank.New(ix)
	}
	s.files.buildTook.Store(int64(time.Since(built)))
	return eng
}

// walkOptions are the session's walk options with its progress reports:
// a walk's share is the first 80%.
func (s *Session) walkOptions() (workspace.Options, func(int, string, bool)) {
	progress := s.progressFunc()
	walk := s.opts.Walk
	var last atomic.Int64
	var shown atomic.Int32
	walk.Progress = func(read, found int64) {
		if s.opts.Walk.Progress != nil {
			s.opts.Walk.Progress(read, found)
		}
		now := time.Now().UnixMilli()
		if prev := last.Load(); now-prev < 100 || !last.CompareAndSwap(prev, now) {
			return
		}
		s.growing()
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
	return walk, progress
}

func msSince(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }

// pruneHistory forgets visited files that are gone: not in the index and
// not on disk (a file the index leaves out, opened anyway, stays).
func (s *Session) pruneHistory(ix *workspace.Index) {
	for i, root := range ix.Roots {
		s.hist.Prune(root, func(rel string) bool {
			if ix.Contains(i, rel) {
				return true
			}
			_, err := os.Stat(ix.Abs(workspace.File{Root: i, Path: rel}))
			return err == nil
		})
	}
}

func (s *Session) progressFunc() func(int, string, bool) {
	if s.opts.Progress == nil {
		return func(int, string, bool) {}
	}
	return s.opts.Progress
}

func (s *Session) store(snap *snapshot) {
	snap.seq = s.seq.Add(1)
	if prev := s.snap.Swap(snap); prev != nil {
		memory.AfterRead(prev.ix, prev.eng) // replaced: what it read goes
	}
	s.mu.Lock()
	close(s.swapped)
	s.swapped = make(chan struct{})
	s.mu.Unlock()
}

// watch brings the watcher up to date with ix. Directories it starts
// watching may have gained files between the walk and the watch: they are
// queued as changed once more. After a full index (walked, not zero: when
// its walk began) those are the directories modified since the walk
// began (workspace.ChangedSince): re-walking the roots whole would do
// the first index's work twice.
func (s *Session) watch(ix *workspace.Index, walked time.Time) {
	s.files.watchMu.Lock()
	w := s.files.watcher
	s.files.watchMu.Unlock()
	if w == nil {
		return
	}
	added, ok := w.Sync(ix)
	if !ok {
		s.startPolling()
	}
	if !walked.IsZero() {
		added = workspace.EntryChanges(ix, workspace.ChangedSince(ix, walked, s.pace))
	}
	if len(added) > 0 {
		s.watched(added)
	}
	if ok {
		// Watching once what changed before the watches is queued too:
		// an answer after CaughtUp then holds every change since the walk.
		roots := slices.Clone(ix.Roots)
		s.files.watching.Store(&roots)
	}
}

// rescanShare bounds the time polling spends walking: the period between
// rescans is at least this many times the last walk of the roots, so
// that walks never overlap however large the tree: at ten, a rescan
// costs at most a tenth of one core.
const rescanShare = 10

// rescanPeriod is the wait between rescans: every (RescanEvery), unless
// the last walk took longer than a rescanShare-th of that. The polls of
// the directories' times between them are spaced so too, by their own
// time (pollDirs).
func rescanPeriod(every, walkTook time.Duration) time.Duration {
	return max(every, rescanShare*walkTook)
}

// isPolling reports whether the session polls the roots (rescan).
func (s *Session) isPolling() bool {
	s.files.watchMu.Lock()
	defer s.files.watchMu.Unlock()
	return s.files.polling
}

// startPolling replaces the watcher by periodic rescans of the roots.
func (s *Session) startPolling() {
	s.files.watchMu.Lock()
	defer s.files.watchMu.Unlock()
	if s.files.polling {
		return
	}
	s.files.polling = true
	s.files.watching.Store(nil)
	if s.files.watcher != nil {
		_ = s.files.watcher.Close()
		s.files.watcher = nil
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		lastRescan := time.Now()
		for {
			select {
			case <-s.stop:
				return
			case <-time.After(rescanPeriod(s.opts.RescanEvery, time.Duration(s.files.dirPollTook.Load()))):
			}
			if time.Since(lastRescan) >= rescanPeriod(s.opts.RescanEvery, time.Duration(s.files.walkTook.Load())) {
				s.rescan()
				lastRescan = time.Now()
			} else {
				s.pollDirs()
			}
		}
	}()
}

// pollDirs is polling's quick look between rescans: the directories whose
// time moved (workspace.DirTimes), narrowed to the entries that changed
// (EntryChanges), applied: a stat a directory, where a rescan reads
// every one, so a file made is seen within seconds on any tree.
func (s *Session) pollDirs() {
	defer s.busy(false)()
	cur := s.snap.Load()
	if cur == nil || !slices.Equal(cur.ix.Roots, s.Roots()) {
		return // new roots are the next rescan's
	}
	start := time.Now()
	changed := workspace.EntryChanges(cur.ix, s.files.dirTimes.Changed(cur.ix, cur.walked, s.pace))
	took := time.Since(start)
	s.files.dirPollTook.Store(int64(took))
	if len(changed) > 0 {
		s.opts.Logf("polled %d directories' times in %.0f ms: %d entries changed", len(cur.ix.Dirs)+len(cur.ix.Roots), float64(took.Microseconds())/1000, len(changed))
	}
	s.watched(changed)
}

// rescan is one poll of the roots: the walk compares the tree with the
// index (workspace.Verify, giving way to requests) and only the
// directories that differ are applied; without a watcher no event names
// an edited file, so every file is stat'ed too and those whose size or
// time changed since the last poll are re-checked by the indexers (at
// the first poll, with nothing to compare, every file).
func (s *Session) rescan() {
	defer s.busy(false)()
	roots := s.Roots()
	cur := s.snap.Load()
	if cur == nil || !slices.Equal(cur.ix.Roots, roots) {
		s.watched(roots)
		s.queuePasses(nil, roots)
		return
	}
	walk := s.opts.Walk
	walk.Pace = s.pace // nothing waits on it: answers come from the index meanwhile
	start := time.Now()
	s.watched(workspace.Verify(cur.ix, walk))
	if s.bg.symx != nil || s.bg.cx != nil { // else nothing reads contents
		if edited, ok := s.files.restat.Changed(cur.ix, s.pace); !ok {
			s.queuePasses(nil, roots)
		} else if len(edited) > 0 {
			s.queuePasses(nil, edited)
		}
	}
	s.files.walkTook.Store(int64(time.Since(start)))
	s.afterPass() // the stats read every path
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
	s.files.pending = append(s.files.pending, paths...)
	s.files.reported = s.files.reported || reported
	s.mu.Unlock()
	s.scheduleApply()
}

func (s *Session) scheduleApply() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || len(s.files.pending) == 0 {
		return
	}
	// The timer runs from the first change of a batch and is not pushed
	// back by later ones: a steady stream of changes (a build writing
	// files) is applied every so often, not when it stops.
	if s.files.timerSet {
		return
	}
	s.files.timerSet = true
	delay := max(debounce, minApplyGap-time.Since(s.files.lastApply))
	if s.files.timer == nil {
		s.files.timer = time.AfterFunc(delay, func() { s.applyPending() })
		return
	}
	s.files.timer.Reset(delay)
}

// applyPending folds the pending changes into a new snapshot.
func (s *Session) applyPending() {
	s.files.apply.Lock()
	s.mu.Lock()
	paths := s.files.pending
	s.files.pending = nil
	s.files.applyingReported = s.files.reported
	s.files.timerSet, s.files.reported = false, false
	s.files.lastApply = time.Now()
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.files.applyingReported = false
		s.mu.Unlock()
	}()
	cur := s.snap.Load()
	if len(paths) == 0 || cur == nil {
		if cur == nil && len(paths) > 0 { // nothing indexed yet: the first build sees it all
			s.opts.Logf("dropping %d changes before the first index", len(paths))
		}
		s.files.apply.Unlock()
		return
	}
	start := time.Now()
	next, changed := workspace.Update(cur.ix, s.opts.Walk, paths)
	if slices.ContainsFunc(paths, func(p string) bool { return slices.Contains(cur.ix.Roots, p) }) {
		s.files.walkTook.Store(int64(time.Since(start))) // a root re-walked: a rescan
	}
	if next != cur.ix {
		snap := &snapshot{gen: cur.gen, ix: next, eng: cur.eng, walked: cur.walked, indexMs: cur.indexMs}
		if changed {
			built := time.Now()
			snap.eng = s.buildEngine(cur.eng, next)
			s.opts.Logf("applied %d changed paths: %d files, engine built in %.0f ms", len(paths), next.Len(), msSince(built))
		}
		s.store(snap)
	}
	s.files.apply.Unlock()
	s.queuePasses(nil, contentChanges(cur.ix, next, paths))
	if next != cur.ix {
		s.watch(next, time.Time{})
		s.kickRepo() // files came or went: a checkout, a pull?
		s.kickUpkeep()
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
