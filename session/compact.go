package session

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"wayfind/rank"
	"wayfind/segment"
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

// engineName is the engine's segment, in the first root's cache
// directory: it names the saved index of every root it was built over
// (rank.Engine.Put).
const engineName = "engine.seg"

// SavedEngine is the engine a server saved beside the index ix was
// loaded from (cacheDir: the cache directory), mapped; nil when there is
// none for that very index. logf, when set, hears why a saved engine
// is not used.
func SavedEngine(cacheDir string, ix *workspace.Index, logf func(string, ...any)) *rank.Engine {
	if len(ix.SavedIDs()) == 0 {
		return nil
	}
	if logf == nil {
		logf = func(string, ...any) {}
	}
	seg, err := segment.Open(filepath.Join(workspace.RootCacheDir(cacheDir, ix.Roots[0]), engineName), rank.SegmentKind)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			logf("saved engine not read: %v", err)
		}
		return nil
	}
	eng, err := rank.Mapped(seg, ix)
	if err != nil {
		logf("saved engine not used: %v", err)
		return nil
	}
	return eng
}

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
	return s.active.Load() == 0 && len(s.files.pending) == 0 &&
		now.Sub(time.Unix(0, s.lastRequest.Load())) >= compactIdle && now.Sub(s.files.lastApply) >= compactIdle
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
		go s.releaseLoop(written)
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
	ix, eng, err := writeBase(s.cacheDir, snap.ix, snap.eng, paced, snap.indexSavedAt)
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
	s.askRepoint()
	s.opts.Logf("serving %d files from their segments, mapped (%.0f ms)", ix.Len(), msSince(start))
	return true
}

// writeBase writes ix and eng as their roots' base in cacheDir — the
// index saved (unless it is a saved one), the engine beside it — and
// reads both back, mapped: what a process serves in their place. The
// caller holds the index's lock (workspace.LockIndex), so what is read
// back is what was written. opt.Pace, when set, paces the writes.
//
// indexSavedAt, when not zero, is when ix itself was saved (Open saves a
// walk's index at once, for the processes opening the tree beside it):
// when the saved index is still of that time and reads back as ix, it is
// not written again — a large tree's compaction after a cold start, paced
// behind the first questions, was often cut short by the server's exit
// before it wrote the engine, and the next start built it.
func writeBase(cacheDir string, ix *workspace.Index, eng *rank.Engine, opt workspace.Options, indexSavedAt time.Time) (*workspace.Index, *rank.Engine, error) {
	if cacheDir == "-" {
		return nil, nil, errors.New("no cache")
	}
	if len(ix.SavedIDs()) == 0 {
		saved, ok := savedAsIs(cacheDir, ix, opt, indexSavedAt)
		if !ok {
			if err := workspace.SaveIndex(cacheDir, ix, opt); err != nil {
				return nil, nil, fmt.Errorf("file index not saved: %w", err)
			}
			afterWrite()
			if saved, ok = workspace.LoadIndex(cacheDir, ix.Roots, opt); !ok {
				return nil, nil, errors.New("the saved file index did not read back")
			}
		}
		ix = saved
		afterRead(ix, nil)
	}
	w := segment.NewWriter(rank.SegmentKind)
	w.Pace = opt.Pace
	if !eng.Put(w, ix) {
		return nil, nil, errors.New("the engine is not of the saved index")
	}
	if err := workspace.WriteRootCache(cacheDir, ix.Roots[0], engineName, func(bw *bufio.Writer) error {
		_, err := w.WriteTo(bw)
		return err
	}); err != nil {
		return nil, nil, fmt.Errorf("engine not saved: %w", err)
	}
	afterWrite()
	mapped := SavedEngine(cacheDir, ix, func(string, ...any) {})
	if mapped == nil {
		return nil, nil, errors.New("the saved engine did not read back")
	}
	afterRead(ix, mapped)
	return ix, mapped, nil
}

// savedAsIs is the saved index of ix's roots, read, when it was saved at
// indexSavedAt and holds ix's very files, directories and skipped
// directories.
func savedAsIs(cacheDir string, ix *workspace.Index, opt workspace.Options, indexSavedAt time.Time) (*workspace.Index, bool) {
	if at, ok := workspace.SavedAt(cacheDir, ix.Roots); !ok || indexSavedAt.IsZero() || !at.Equal(indexSavedAt) {
		return nil, false
	}
	saved, ok := workspace.LoadIndex(cacheDir, ix.Roots, opt)
	if !ok || !workspace.SameFiles(saved, ix) {
		return nil, false
	}
	return saved, true
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
	defer s.wg.Done()
	tick := time.NewTicker(compactIdle / 4)
	defer tick.Stop()
	var released int64 // lastRequest when what requests read was last dropped
	var asked int64    // lastRequest at the last wake
	for {
		select {
		case <-s.stop:
			return
		case <-tick.C:
		case <-s.upkeep:
		}
		boundHeap() // what requests allocated since is collected past it
		asked = s.whileAsked(asked)
		now := time.Now()
		compacted := false
		if cur := s.snap.Load(); s.compactDue(cur, now) {
			compacted = s.compact(cur, s.opts.WaitReady)
		}
		s.settleOwed()
		last, due := s.idleRelease(released, now)
		if compacted || due {
			// A compaction leaves the heap's copies and the pages it
			// read: one drop serves it and the requests before it.
			s.afterPass()
			released = last
		}
	}
}
