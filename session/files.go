package session

import (
	"context"
	"slices"
	"sync"
	"time"

	"wayfind/base"
	"wayfind/memory"
	"wayfind/workspace"
)

// filePass is the file index pass's state (how changes are seen and
// batched is the session's tracker's and queue's: package treewatch).
type filePass struct {
	apply sync.Mutex // serialises index builds and updates
	kick  chan struct{}
}

// The file index pass: walking the roots into a snapshot, keeping it
// current from the watcher (or polling, or the client's reports), and
// handing each new snapshot to the symbol and content passes.

// StartWatching starts the server-side watcher (or, when the system has
// none to give, polling). It is for front ends whose client turned out
// not to report file changes after all.
func (s *Session) StartWatching() { s.tree.Start() }

// wake signals a loop's kick channel ch, unless a signal is pending.
func wake(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// Reindex rebuilds the index from scratch and waits for it, symbols
// (parsed again whatever the cache says: passes.Indexes.ForgetFrom) and
// contents included. The request waits for background work, so it
// counts as waiting for it: pace does not hold the work up for it.
func (s *Session) Reindex(ctx context.Context) (Status, error) {
	defer s.req.Waiting()()
	s.mu.Lock()
	s.want++
	s.idx.Supersede(s.want)
	s.idx.ForgetFrom(s.want)
	s.mu.Unlock()
	wake(s.files.kick)
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

// supersededWait bounds how long a walk waits for the pass it
// superseded to stop: a pass stops within one file or one of its save's
// transactions, far less than this, and a walk is never held long
// behind one that does not.
const supersededWait = 2 * time.Second

// build indexes roots as generation gen. Roots new to the session are
// opened (Open): a saved index, brought up to date by directory times,
// answers at once — marked stale until a walk paced behind the requests
// has checked what times cannot tell (workspace.Verify) — else they are
// walked. A reindex walks them again.
func (s *Session) build(gen int, roots []string) {
	// The pass this generation superseded gives back what it held first.
	s.idx.AwaitSuperseded(gen, supersededWait)
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
		s.hist.PruneGone(o.Index) // before the index is seen: its answers weigh no gone file
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
	s.changes.Schedule()
	// What the walk read is garbage now, and its pages read: the base is
	// written from the heap's copy first, an overlay's too (the full pass
	// would lay its index flat on the heap: compaction.Snapshot.Overlay).
	if !snap.sealed {
		s.compactNow()
	} else {
		s.afterPass()
	}
}

// verify walks the tree to check the index snap serves (base.Check):
// the snapshot that follows serves what the tree holds, no longer stale.
func (s *Session) verify(snap *snapshot, walk workspace.Options) *snapshot {
	c := base.Check(snap.ix, snap.eng, walk)
	next := &snapshot{gen: snap.gen, ix: c.Index, eng: c.Engine, sealed: snap.sealed && c.Index == snap.ix, walked: c.Walked}
	if c.Differ > 0 {
		s.opts.Logf("the index served differs from the tree in %d directories", c.Differ)
	}
	if c.BuildTook > 0 {
		s.changes.Built(c.BuildTook)
		s.hist.PruneGone(c.Index)
	}
	return next
}

// walkOptions are the session's walk options with its progress reports:
// a walk's share is the first 80%. The memory's limit follows what the
// walk keeps (growing).
func (s *Session) walkOptions() (workspace.Options, func(int, string, bool)) {
	progress := s.opts.Progress
	walk := s.opts.Walk
	user := walk.Progress
	pct := workspace.Percent(80, 100*time.Millisecond, func(pct int, advanced bool) {
		s.growing()
		if advanced {
			progress(pct, "walking", false)
		}
	})
	walk.Progress = func(read, found int64) {
		if user != nil {
			user(read, found)
		}
		pct(read, found)
	}
	return walk, progress
}

func msSince(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }

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
func (s *Session) Changed(paths []string) { s.changes.Add(paths, true) }

// watched queues what the session's own watcher or rescans saw: applied
// shortly, not necessarily before the next answer (a stream of file
// events must not rebuild the engine for every request:
// treewatch.Queue.Due).
func (s *Session) watched(paths []string) { s.changes.Add(paths, false) }

// applyPending folds the pending changes into a new snapshot.
func (s *Session) applyPending() {
	s.files.apply.Lock()
	paths, done := s.changes.Take()
	defer done()
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
			snap.eng = base.Engine(cur.eng, next)
			s.changes.Built(time.Since(built))
			s.opts.Logf("applied %d changed paths: %d files, engine built in %.0f ms", len(paths), next.Len(), msSince(built))
		}
		s.store(snap)
	}
	s.files.apply.Unlock()
	s.idx.Recheck(contentChanges(cur.ix, next, paths))
	if next != cur.ix {
		s.tree.Sync(next, time.Time{})
		s.repo.Kick() // files came or went: a checkout, a pull?
		wake(s.upkeep)
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
