package session

import (
	"context"
	"time"

	"wayfind/base"
	"wayfind/memory"
	"wayfind/workspace"
)

// A snapshot is served from its base — the saved file index (files.idx)
// and the engine written beside it (engine.seg), both immutable segments
// mapped read-only, whose pages are the kernel's page cache, shared by
// every process on the root — or, after a walk or a change, from copies
// on the heap. Compaction writes what the heap serves as a new base and
// swaps it in: one worker (upkeepLoop) decides when, as soon as a walk
// has built a whole tree, else once changes have stood and requests
// paused (compactIdle). Each write goes to a temporary file renamed into
// place (workspace.WriteRootCache), so a killed writer leaves the last
// good base; a replaced base stays mapped for the questions that still
// read it, and its pages are dropped.

// compactor is the compaction's state, under Session.mu.
type compactor struct {
	// owed is closed once the compaction a walk asked for is done (nil:
	// none owed); the full pass waits for it, to read the base rather
	// than hold the heap's copy of the tree through the pass.
	owed chan struct{}
	// tried is the last snapshot compaction was tried on (its seq): a
	// failure is not retried until the snapshot changes.
	tried uint64
}

// compactIdle is how long changes stand, with no request running, before
// they are compacted: past a burst of edits or questions, so that a
// stream of changes is written once.
const compactIdle = 10 * time.Second

// compactNow asks for the served snapshot to be compacted at once (a
// walk built it whole).
func (s *Session) compactNow() {
	s.mu.Lock()
	if s.compaction.owed == nil {
		s.compaction.owed = make(chan struct{})
	}
	s.mu.Unlock()
	s.kickUpkeep()
}

// compactDue reports whether cur is to be compacted now: it is on the
// heap, not stale, not tried, and either a walk owes it or it has stood
// compactIdle with no request and no change pending.
func (s *Session) compactDue(cur *snapshot, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ok, owed := s.compactable(cur); !ok || owed {
		return ok
	}
	return !s.req.Running() && len(s.files.pending) == 0 &&
		now.Sub(time.Unix(0, s.req.LastEnded())) >= compactIdle && now.Sub(s.files.lastApply) >= compactIdle
}

// compactable reports whether cur may be compacted — on the heap, not
// stale, not tried — and whether a walk owes its base. Under s.mu.
func (s *Session) compactable(cur *snapshot) (ok, owed bool) {
	if cur == nil || cur.sealed || cur.stale || cur.seq == s.compaction.tried {
		return false, false
	}
	return true, s.compaction.owed != nil
}

// writeOwedBase writes the base a walk owes before the session goes
// (Close, once its loops have ended: a walk that ended as the session
// closed owes it after the upkeep loop stopped), its last snapshot not
// yet compacted: the next start maps it rather than build the engine
// again. A large tree's compaction, paced behind a stream of questions,
// may not have come to it; with no request left, it is not held back.
func (s *Session) writeOwedBase() {
	cur := s.snap.Load()
	s.mu.Lock()
	ok, owed := s.compactable(cur)
	s.mu.Unlock()
	if ok && owed {
		written := make(chan struct{})
		go s.work.Release(written)
		s.compact(cur, closeLockWait)
		close(written)
		s.settleOwed()
	}
}

// closeLockWait is the longest a session going waits for another
// process's hold on the index's lock to write the base it owes: its exit
// is not held up for it, the next start builds what it did not write.
const closeLockWait = time.Second

// settleOwed marks the owed compaction done, if it was.
func (s *Session) settleOwed() {
	s.mu.Lock()
	if s.compaction.owed != nil {
		close(s.compaction.owed)
		s.compaction.owed = nil
	}
	s.mu.Unlock()
}

// compact writes snap as a new base and serves it in snap's place — the
// same files in the same order, so answers and the passes' indexes do
// not change. Nothing happens when the cache is off or the snapshot was
// replaced meanwhile (a change applied): the heap's copy stays. It
// gives way to requests (pace). It reports whether it swapped.
//
// lockWait bounds the wait for another process holding the index's lock.
func (s *Session) compact(snap *snapshot, lockWait time.Duration) bool {
	defer s.busy(true)()
	start := time.Now()
	s.mu.Lock()
	s.compaction.tried = snap.seq
	s.mu.Unlock()
	paced := s.opts.Walk
	paced.Pace = s.pace
	ctx, cancel := context.WithTimeout(context.Background(), lockWait)
	unlock, locked := workspace.LockIndex(ctx, s.cacheDir, snap.ix.Roots)
	cancel()
	if !locked {
		return false
	}
	ix, eng, err := base.Write(s.cacheDir, snap.ix, snap.eng, paced, snap.indexSavedAt)
	unlock()
	if err != nil {
		s.opts.Logf("not compacted: %v", err)
		return false
	}
	s.files.apply.Lock()
	defer s.files.apply.Unlock()
	if s.snap.Load() != snap {
		return false
	}
	base := *snap
	base.ix, base.eng, base.sealed = ix, eng, true
	s.store(&base)
	s.idx.Repoint()
	s.opts.Logf("serving %d files from their segments, mapped (%.0f ms)", ix.Len(), msSince(start))
	return true
}

// kickUpkeep wakes the upkeep loop (a walk owes a compaction, a change
// was applied).
func (s *Session) kickUpkeep() {
	select {
	case s.upkeep <- struct{}{}:
	default:
	}
}

// upkeepLoop is the one worker behind compaction and the idle drop of
// what requests read: woken by a walk or a change, and every
// compactIdle/4 to see whether requests have paused.
func (s *Session) upkeepLoop() {
	tick := time.NewTicker(compactIdle / 4)
	defer tick.Stop()
	var released int64 // the last request's end when what requests read was last dropped
	var asked int64    // the last request's end at the last wake
	for {
		select {
		case <-s.stop:
			return
		case <-tick.C:
		case <-s.upkeep:
		}
		memory.BoundHeap() // what requests allocated since is collected past it
		asked = s.whileAsked(asked)
		now := time.Now()
		compacted := false
		if cur := s.snap.Load(); s.compactDue(cur, now) {
			compacted = s.compact(cur, s.opts.WaitReady)
		}
		s.settleOwed()
		last := s.req.LastEnded()
		if compacted || memory.IdleDue(released, last, s.req.Running(), now, releaseIdle) {
			// A compaction leaves the heap's copies and the pages it
			// read: one drop serves it and the requests before it.
			s.afterPass()
			released = last
		}
	}
}
