package session

import (
	"bufio"
	"errors"
	"io/fs"
	"path/filepath"
	"runtime/debug"
	"time"
	"weak"

	"wayfind/rank"
	"wayfind/segment"
	"wayfind/workspace"
)

// A tree's index and engine are served from segments (package segment):
// the saved file index (workspace's files.idx) and the engine built from
// it (engineName), both mapped read-only. Their pages are the kernel's
// page cache, shared with every server on the root and dropped under
// pressure instead of swapped; the heap keeps what changes. A server
// restarted on a known tree maps both and answers at once (a million
// files: a second or less, against two to build the engine); after a
// walk, what it built is written out and mapped back in its place
// (seal).

// engineName is the engine's segment, in the first root's cache
// directory: it names the saved index of every root it was built over
// (rank.Engine.Put).
const engineName = "engine.seg"

// mappedEngine is the engine saved for ix (loaded from saved files),
// read where it lies, or nil when there is none for that index.
func (s *Session) mappedEngine(ix *workspace.Index) *rank.Engine {
	return SavedEngine(s.cacheDir, ix, s.opts.Logf)
}

// SavedEngine is the engine a server saved beside the index ix was
// loaded from (cacheDir: the cache directory), mapped; nil when there is
// none for that very index.
func SavedEngine(cacheDir string, ix *workspace.Index, logf func(string, ...any)) *rank.Engine {
	if len(ix.SavedIDs()) == 0 {
		return nil
	}
	seg, err := segment.Open(filepath.Join(workspace.RootCacheDir(cacheDir, ix.Roots[0]), engineName), rank.SegmentKind)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			logf("saved engine not read: %v", err)
		}
		return nil
	}
	eng, err := rank.Mapped(seg, ix)
	seg.Release() // the check read every page; questions bring back theirs
	if err != nil {
		logf("saved engine not used: %v", err)
		return nil
	}
	return eng
}

// seal serves snap from segments: its index as saved (SaveIndex has
// written it; loaded back unless snap's is already the saved one) and
// its engine written beside it, both mapped, in place of what the walk
// and rank.New built on the heap — the same files in the same order, so
// answers and the passes' indexes do not change. Nothing happens when
// the cache is off, a save is missing or the snapshot was replaced
// meanwhile (a change applied): the heap snapshot stays. It returns the
// index now served, for freeBuilt once the heap's copy is garbage, or nil
// when it did not seal. opt is the walk's options with a Pace: the
// seal gives way to requests.
func (s *Session) seal(snap *snapshot, opt workspace.Options) *workspace.Index {
	start := time.Now()
	ix := snap.ix
	if len(ix.SavedIDs()) == 0 {
		loaded, ok := workspace.LoadIndex(s.cacheDir, ix.Roots, opt)
		same := ok && workspace.SameFiles(loaded, ix)
		if ok {
			// The comparison read every path (150 MB at a million
			// files): dropped now, not held through the engine's write
			// and check as well.
			loaded.Release()
		}
		if !same {
			return nil
		}
		ix = loaded
	}
	w := segment.NewWriter(rank.SegmentKind)
	w.Pace = opt.Pace
	if !snap.eng.Put(w, ix) {
		return nil
	}
	if err := workspace.WriteRootCache(s.cacheDir, ix.Roots[0], engineName, func(bw *bufio.Writer) error {
		_, err := w.WriteTo(bw)
		return err
	}); err != nil {
		s.opts.Logf("engine not saved: %v", err)
		return nil
	}
	eng := s.mappedEngine(ix)
	if eng == nil {
		return nil
	}
	s.files.apply.Lock()
	defer s.files.apply.Unlock()
	if s.snap.Load() != snap {
		return nil
	}
	sealed := *snap
	sealed.ix, sealed.eng, sealed.sealed = ix, eng, true
	s.store(&sealed)
	ix.Release() // what questions read meanwhile
	// And what the replaced snapshot read: an index changed from a saved
	// one reads its paths from that one's pages (160 MB at a million
	// files, kept resident beside the new segments' until the server
	// exited).
	snap.ix.Release()
	snap.eng.Release()
	s.opts.Logf("serving %d files from their segments, mapped (%.0f ms)", len(ix.Files), float64(time.Since(start).Microseconds())/1000)
	return ix
}

// releaseWhenIdle drops the served segments' pages (releaseMapped) and
// returns the heap's garbage once requests that may have read
// them have paused for mappedIdle. The page
// cache maps a file in large folios, so a question that reads a few
// hundred paths across the tree maps megabytes: after 1,227 questions at
// a million files the server held 236 MB of its segments' pages beside
// 256 MB of its own, nearly the whole of both segments, until the next
// pass (a hundred questions mapped 185 MB).
func (s *Session) releaseWhenIdle() {
	defer s.wg.Done()
	tick := time.NewTicker(mappedIdle / 4)
	defer tick.Stop()
	var released int64 // lastRequest when the pages were last dropped
	// tried is the last snapshot sealApplied was tried on, held weakly:
	// held, it kept that snapshot's heap index and engine (150 MB at a
	// million files) alive beside the sealed ones that replaced them.
	var tried weak.Pointer[snapshot]
	for {
		select {
		case <-s.stop:
			return
		case <-tick.C:
		}
		sealed := false
		if cur := s.snap.Load(); cur != tried.Value() && s.sealDue(cur, time.Now()) {
			tried = weak.Make(cur)
			sealed = s.sealApplied(cur)
		}
		last := s.lastRequest.Load()
		// A seal leaves the heap's copies and the pages it read: one
		// release and collection serves it and the requests before it.
		if sealed || releaseDue(last, released, s.active.Load(), time.Now()) {
			s.releaseMapped()
			// And the answers' garbage, and what changes applied
			// meanwhile left: the heap may grow by a quarter between
			// collections (boundHeap), and what a collection frees goes
			// back to the system at the runtime's pace. Idle, a
			// collection costs no one a wait, whatever the tree: at 57k
			// files, ten renames left the server at 76 MB, 55 of them
			// freed heap, against 34 before them.
			debug.FreeOSMemory()
			released = last
		}
	}
}

// sealDue reports whether cur is a snapshot changes left on the heap
// (applyPending: an index spliced, an engine updated or built) that has
// stood for mappedIdle with no request running or answered and nothing
// pending: a pause in which to seal it.
func (s *Session) sealDue(cur *snapshot, now time.Time) bool {
	if cur == nil || cur.sealed || cur.stale || s.active.Load() > 0 || now.Sub(time.Unix(0, s.lastRequest.Load())) < mappedIdle {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if sealing := s.files.sealing; sealing != nil {
		select {
		case <-sealing:
		default:
			return false // a build's own seal is under way
		}
	}
	return len(s.files.pending) == 0 && now.Sub(s.files.lastApply) >= mappedIdle
}

// sealApplied saves cur's index and serves it and its engine from their
// segments (seal), giving way to requests; it reports whether it sealed,
// the heap's copies then garbage for releaseWhenIdle to return.
// Changes applied between walks were served from the heap until the next
// walk — for good, with a watcher: at a million files, ten renames left
// the server at 310 MB once idle, against 206 before them.
func (s *Session) sealApplied(cur *snapshot) bool {
	paced := s.opts.Walk
	paced.Pace = s.pace
	if err := workspace.SaveIndex(s.cacheDir, cur.ix, paced); err != nil {
		s.opts.Logf("file index not saved: %v", err)
		return false
	}
	return s.seal(cur, paced) != nil
}

// releaseDue: requests ran since the pages were last dropped (the one
// that ended last at last, UnixNano; released is last then), none runs
// now, and the last ended mappedIdle ago.
func releaseDue(last, released int64, active int32, now time.Time) bool {
	return last != released && active == 0 && now.Sub(time.Unix(0, last)) >= mappedIdle
}

// mappedIdle is how long requests pause before their pages are dropped:
// past a burst of questions (an agent's, a user typing into a picker),
// so that a question rarely maps again what the one before it read. A
// page dropped is mapped again from the page cache, not read from the
// disk: at a million files a hundred questions asked again after a drop
// took no longer than before it (median 1.6–1.8 ms against 2.2–2.7), and
// idle after 600 questions the server went from 418–438 MB to 255, and
// to 173 with the answers' garbage returned too.
const mappedIdle = 10 * time.Second

// releaseMapped drops the served segments' pages from the process after
// a pass that read all of them (every path, for the symbol and content
// passes or a poll's stats): they stay in the kernel's page cache, and a
// question brings back the few it reads. Without it a settled server at
// a million files kept every page of its 160 MB of paths resident.
func (s *Session) releaseMapped() {
	if cur := s.snap.Load(); cur != nil { // an index changed since it was mapped reads paths from it still
		cur.ix.Release()
		cur.eng.Release()
	}
}
