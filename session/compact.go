package session

import (
	"time"

	"wayfind/compaction"
	"wayfind/memory"
	"wayfind/rank"
	"wayfind/workspace"
)

// The session's base is written and swapped in by its compactor (package
// compaction); one worker (upkeepLoop) decides when: as soon as a walk
// has served what is not the base (compactNow), else once changes have
// stood and requests paused (compactIdle) — unless all they left on the
// heap is an overlay over the base (compaction.Snapshot.Overlay).

// compactIdle is how long changes stand, with no request running, before
// they are compacted: past a burst of edits or questions, so that a
// stream of changes is written once.
const compactIdle = 10 * time.Second

// compactNow asks for the served snapshot to be compacted at once (a
// walk built it whole).
func (s *Session) compactNow() {
	s.compactor.Owe()
	wake(s.upkeep)
}

// view is what compaction sees of cur.
func (cur *snapshot) view() compaction.Snapshot {
	if cur == nil {
		return compaction.Snapshot{}
	}
	heap := !cur.sealed && !cur.stale
	return compaction.Snapshot{Seq: cur.seq, Index: cur.ix, Engine: cur.eng, Heap: heap, Overlay: heap && cur.eng.Mapped(), SavedAt: cur.indexSavedAt}
}

// compactDue reports whether cur is to be compacted now: a walk owes it,
// or it has stood compactIdle with no request and no change pending.
func (s *Session) compactDue(cur *snapshot, now time.Time) bool {
	quiet := !s.req.Running() && s.changes.Settled(now, compactIdle) &&
		now.Sub(time.Unix(0, s.req.LastEnded())) >= compactIdle
	return s.compactor.Due(cur.view(), quiet)
}

// compactHost is the session as its compactor sees it.
type compactHost struct{ s *Session }

// Swap serves the base written from snapshot seq in its place — the same
// files in the same order, so answers and the passes' indexes do not
// change — and has the passes point their paths at it, and the tracker
// its directories: nothing then holds the index replaced, whose base is
// let go (package segment).
func (h compactHost) Swap(seq uint64, ix *workspace.Index, eng *rank.Engine) bool {
	s := h.s
	s.files.apply.Lock()
	cur := s.snap.Load()
	if cur == nil || cur.seq != seq {
		s.files.apply.Unlock()
		return false
	}
	base := *cur
	base.ix, base.eng, base.sealed = ix, eng, true
	s.store(&base)
	// Under the lock: a change applied after the swap syncs the tracker after this.
	s.tree.Sync(ix, time.Time{})
	s.files.apply.Unlock()
	// Outside it: the rebase reads every path of both; changes wait on the lock.
	s.tree.Rebased(ix)
	s.idx.Repoint()
	return true
}

func (h compactHost) Current() compaction.Snapshot { return h.s.snap.Load().view() }

func (h compactHost) Busy(readsEngine bool) (done func()) { return h.s.busy(readsEngine) }
func (h compactHost) Pace()                               { h.s.pace() }

// writeOwedBase writes the base a walk owes before the session goes
// (Close, once its loops have ended: a walk that ended as the session
// closed owes it after the upkeep loop stopped), its last snapshot not
// yet compacted: the next start maps it rather than build the engine
// again. A large tree's compaction, paced behind a stream of questions,
// may not have come to it; with no request left, it is not held back.
func (s *Session) writeOwedBase() {
	cur := s.snap.Load()
	if ok, owed := s.compactor.Compactable(cur.view()); ok && owed {
		s.compactor.Compact(cur.view(), closeLockWait)
		s.compactor.Settle()
	}
}

// closeLockWait is the longest a session going waits for another
// process's hold on the index's lock to write the base it owes: its exit
// is not held up for it, the next start builds what it did not write.
const closeLockWait = time.Second

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
			compacted = s.compactor.Compact(cur.view(), s.opts.WaitReady)
		}
		s.compactor.Settle()
		last := s.req.LastEnded()
		if compacted || memory.IdleDue(released, last, s.req.Running(), now, releaseIdle) {
			// A compaction leaves the heap's copies and the pages it
			// read: one drop serves it and the requests before it.
			s.afterPass()
			released = last
		}
	}
}
