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
// applied (how changes are seen is the session's tracker's: package
// treewatch).
type filePass struct {
	apply sync.Mutex // serialises index builds and updates
	kick  chan struct{}
	// buildTook is how long the last engine build for the tree took
	// (ns): whether a request may build one for what the watcher saw
	// (requestApplies).
	buildTook atomic.Int64
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
// none to give, polling). It is for front ends whose client turned out
// not to report file changes after all.
func (s *Session) StartWatching() { s.tree.Start() }

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
	defer s.req.Waiting()()
	s.mu.Lock()
	s.want++
	s.idx.Supersede(s.want)
	s.idx.ForgetFrom(s.want)
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
			s.repo.Kick()
			s.opts.Logf("answering from the saved index of %d files (%.0f ms, engine %s) while the walk checks it",
				o.Index.Len(), snap.indexMs, map[bool]string{true: "mapped", false: "built"}[o.Mapped])
			paced := walk
			paced.Pace = s.pace
			snap = s.verify(snap, paced)
		}
	} else {
		// A reindex walks the whole tree, checking each directory against
		// what is served rather than listing it again, unpaced: it was
		// asked for.
		snap = s.verify(&snapshot{gen: gen, ix: cur.ix, eng: cur.eng, sealed: cur.sealed}, walk)
	}
	snap.indexMs = msSince(start)
	s.store(snap)
	s.files.apply.Unlock()
	s.opts.Logf("indexed %d files under %d roots in %.0f ms", snap.ix.Len(), len(roots), snap.indexMs)
	progress(100, "indexed", true)
	s.idx.Full(snap.gen)
	s.repo.Kick()
	s.tree.Sync(snap.ix, snap.walked)
	s.scheduleApply()
	// What the walk read is garbage now, and its pages read: the base is
	// written from the heap's copy first when there is one.
	if !snap.sealed {
		s.compactNow()
	} else {
		s.afterPass()
	}
}

// verify walks the tree to check the index snap serves, each directory
// against the index (workspace.Verify); the snapshot that follows serves
// snap's index and engine, no longer stale, when the tree holds the same
// files, else updated for what differs — as a fresh build would answer
// (the differential test), with no second index of the tree held beside
// the one served.
func (s *Session) verify(snap *snapshot, walk workspace.Options) *snapshot {
	walked := time.Now()
	changed := workspace.Verify(snap.ix, walk)
	s.tree.Walked(time.Since(walked))
	next := &snapshot{gen: snap.gen, ix: snap.ix, eng: snap.eng, sealed: snap.sealed, walked: walked}
	if len(changed) == 0 {
		return next
	}
	s.opts.Logf("the index served differs from the tree in %d directories", len(changed))
	if ix, files := workspace.Update(snap.ix, s.opts.Walk, changed); ix != snap.ix {
		next.ix, next.sealed = ix, false
		if files { // else only directories differ: the engine stays
			next.eng = s.buildEngine(snap.eng, ix)
			s.pruneHistory(ix)
		}
	}
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
		s.tree.Walked(time.Since(start)) // a root re-walked: a rescan
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
	s.idx.Recheck(contentChanges(cur.ix, next, paths))
	if next != cur.ix {
		s.tree.Sync(next, time.Time{})
		s.repo.Kick() // files came or went: a checkout, a pull?
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
