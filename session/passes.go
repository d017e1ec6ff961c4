package session

import (
	"context"
	"sync/atomic"
	"time"

	"wayfind/content"
	"wayfind/memory"
	"wayfind/rank"
	"wayfind/symbols"
	"wayfind/workspace"
)

// backgroundPasses is the state of the passes that follow the file index:
// the symbol index and locate's content index, the work asked for and the
// work done.
type backgroundPasses struct {
	symx     *symbols.Indexer // nil when off
	symIndex atomic.Pointer[rank.SymbolIndex]
	cx       *content.Indexer // nil when off
	cIndex   atomic.Pointer[content.Index]
	kick     chan struct{}
	// Under Session.mu:
	full       *snapshot         // a full pass over this snapshot's files is due
	forgetAt   int               // a full pass of this generation or later parses every file again (Reindex; 0: none)
	paths      []string          // paths to re-check
	edits      map[string][]byte // unsaved editor content by file
	symGen     int               // generation whose symbols the last full pass indexed (-1: none)
	contentGen int               // generation whose contents it indexed (-1: none)
	symDone    chan struct{}     // closed and replaced after each pass
	// stopFull stops the full pass under way, over generation fullGen
	// (nil: none runs).
	stopFull context.CancelFunc
	fullGen  int
	// repoint: a base was swapped in since the indexes were last
	// pointed at the served index's paths (repointPasses).
	repoint bool
	symMs   float64 // duration of the last full pass
}

// queuePasses asks for the background passes that follow the file index
// — symbols, then file contents (locate's recovery) — over snap's files in
// full, or a re-check of paths. A full pass supersedes the paths queued
// before it.
func (s *Session) queuePasses(snap *snapshot, paths []string) {
	if s.bg.symx == nil && s.bg.cx == nil {
		return
	}
	s.mu.Lock()
	if snap != nil {
		s.bg.full, s.bg.paths = snap, nil
	} else {
		s.bg.paths = append(s.bg.paths, paths...)
	}
	s.mu.Unlock()
	select {
	case s.bg.kick <- struct{}{}:
	default:
	}
}

// untilClosed is a background loop's context: cancelled when the
// session closes (or by the loop's own cancel).
func (s *Session) untilClosed() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		select {
		case <-s.stop:
		case <-ctx.Done():
		}
		cancel()
	}()
	return ctx, cancel
}

// passLoop runs the symbol and content passes one at a time, off the
// request path, until the session closes.
func (s *Session) passLoop() {
	defer s.wg.Done()
	ctx, cancel := s.untilClosed()
	defer cancel()
	for {
		select {
		case <-s.stop:
			return
		case <-s.bg.kick:
		}
		for {
			s.mu.Lock()
			full, paths, edits := s.bg.full, s.bg.paths, s.bg.edits
			s.bg.full, s.bg.paths, s.bg.edits = nil, nil, nil
			forget := full != nil && s.bg.forgetAt > 0 && full.gen >= s.bg.forgetAt
			if forget {
				s.bg.forgetAt = 0
			}
			repoint := s.bg.repoint
			s.bg.repoint = false
			s.mu.Unlock()
			done := s.busy(false)
			if repoint {
				s.repointPasses()
			}
			if forget && s.bg.symx != nil {
				s.bg.symx.Forget() // here, where no pass holds the indexer
			}
			if full == nil && len(paths) == 0 && len(edits) == 0 {
				done()
				break
			}
			var err error
			if full != nil {
				pctx, end := s.supersedable(ctx, full.gen)
				err = s.fullPass(pctx, full.gen)
				end()
			} else {
				err = s.refreshPass(ctx, paths, edits)
			}
			done()
			if err != nil {
				s.finishPass(-1)
				if ctx.Err() != nil {
					return // closed
				}
			}
		}
	}
}

// supersedable is the context of a full pass over generation gen, until
// end: ended when the session closes, or when a later generation is
// wanted (supersede) — a pass whose answers would be replaced as soon as
// they were made does not hold the memory of its tables beside the walk
// of the next.
func (s *Session) supersedable(ctx context.Context, gen int) (_ context.Context, end func()) {
	ctx, stop := context.WithCancel(ctx)
	s.mu.Lock()
	s.bg.stopFull, s.bg.fullGen = stop, gen
	if gen < s.want {
		stop()
	}
	s.mu.Unlock()
	return ctx, func() {
		s.mu.Lock()
		s.bg.stopFull = nil
		s.mu.Unlock()
		stop()
	}
}

// supersede stops the full pass under way when its generation is older
// than the one wanted. Under s.mu, where want grows.
func (s *Session) supersede() {
	if s.bg.stopFull != nil && s.bg.fullGen < s.want {
		s.bg.stopFull()
	}
}

// fullPass indexes every file of the current snapshot, for generation
// gen: symbols first (workspace/symbol may answer then), then contents.
func (s *Session) fullPass(ctx context.Context, gen int) error {
	s.mu.Lock()
	owed := s.compaction.owed
	s.mu.Unlock()
	if owed != nil {
		select { // the snapshot to read is the compacted one (build)
		case <-owed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	s.awaitQuiet(100*time.Millisecond, 2*time.Second)
	cur := s.snap.Load()
	start := time.Now()
	memory.BoundHeap()
	s.symbolProgressStart()
	// While polling, the files are stat'ed before either indexer reads
	// one: the content pass decides by these stats, and they are the
	// first poll's baseline (an edit after them is seen by both).
	var stats []workspace.FileStat
	if s.isPolling() {
		stats = workspace.StatFiles(cur.ix, s.pace)
		s.files.restat.Seed(cur.ix, stats)
	}
	if s.bg.symx != nil {
		table, st, err := s.bg.symx.Sync(ctx, cur.ix)
		if err != nil {
			return err
		}
		memory.ReleaseMapped() // the save's sorted keys read every path
		s.bg.symIndex.Store(rank.NewSymbolIndex(table, cur.ix.Roots))
		s.opts.Logf("symbols: %d in %d files (%d parsed, %d from the cache) in %.0f ms",
			st.Symbols, st.Files, st.Parsed, st.FromCache, float64(time.Since(start).Microseconds())/1000)
		s.afterPass() // what the symbols freed goes back before the content pass grows
	}
	s.markSymbols(gen, float64(time.Since(start).Microseconds())/1000)
	if s.bg.cx != nil {
		cstart := time.Now()
		ci, err := s.bg.cx.SyncStat(ctx, cur.ix, stats)
		if err != nil {
			return err
		}
		s.bg.cIndex.Store(ci)
		s.opts.Logf("contents: %d files in %.0f ms", ci.Len(), float64(time.Since(cstart).Microseconds())/1000)
	}
	s.afterPass()
	s.finishPass(gen)
	return nil
}

// refreshPass re-reads the symbols and contents of paths, and takes the
// editor's unsaved text of edited files.
func (s *Session) refreshPass(ctx context.Context, paths []string, edits map[string][]byte) error {
	cur := s.snap.Load()
	if s.bg.symx != nil {
		table, err := s.bg.symx.Refresh(ctx, cur.ix, paths)
		if err != nil {
			return err
		}
		for file, text := range edits {
			if table, err = s.bg.symx.SetContent(ctx, file, text); err != nil {
				s.opts.Logf("symbols: %s: %v", file, err)
			}
		}
		if table != s.bg.symIndex.Load().Table() {
			s.bg.symIndex.Store(rank.NewSymbolIndex(table, cur.ix.Roots))
		}
	}
	if s.bg.cx != nil && len(paths) > 0 {
		ci, err := s.bg.cx.Refresh(ctx, cur.ix, paths)
		if err != nil {
			return err
		}
		s.bg.cIndex.Store(ci)
	}
	s.finishPass(-1)
	return nil
}

// askRepoint has the pass loop point the indexes' paths at the served
// index's (repointPasses), between passes: a base was swapped in.
func (s *Session) askRepoint() {
	s.mu.Lock()
	s.bg.repoint = true
	s.mu.Unlock()
	select {
	case s.bg.kick <- struct{}{}:
	default:
	}
}

// repointPasses points the symbol and content indexes' paths at the
// served index's own strings of them, when it keeps them (a base,
// mapped): the indexes let go of the index they were read from — a
// replaced base, whose pages every pass over their paths read back in,
// or a walk's strings on the heap.
func (s *Session) repointPasses() {
	cur := s.snap.Load()
	if cur == nil {
		return
	}
	if s.bg.symx != nil {
		t := s.bg.symx.Repoint(cur.ix)
		if si := s.bg.symIndex.Load(); si != nil && si.Table() != t {
			s.bg.symIndex.Store(si.Repointed(t))
		}
	}
	if s.bg.cx != nil {
		if ci := s.bg.cx.Repoint(cur.ix); ci != nil {
			s.bg.cIndex.Store(ci)
		}
	}
	// The pages of both bases it read and the path lists it replaced go
	// at once: the compaction's own drop (upkeepLoop) may have come
	// before this repoint, which runs beside it.
	s.afterPass()
}

// markSymbols records that a full pass has indexed the symbols of
// generation gen, and wakes whoever waits for them.
func (s *Session) markSymbols(gen int, ms float64) {
	s.mu.Lock()
	s.bg.symGen, s.bg.symMs = gen, ms
	close(s.bg.symDone)
	s.bg.symDone = make(chan struct{})
	s.mu.Unlock()
	if s.opts.SymbolProgress != nil {
		s.opts.SymbolProgress(100, "symbols indexed", true)
	}
}

// finishPass records a finished pass (gen ≥ 0 for a full one, whose
// contents are now indexed too) and wakes whoever waits.
func (s *Session) finishPass(gen int) {
	s.mu.Lock()
	if gen >= 0 {
		s.bg.contentGen = gen
	}
	close(s.bg.symDone)
	s.bg.symDone = make(chan struct{})
	s.mu.Unlock()
}

func (s *Session) symbolProgressStart() {
	if s.opts.SymbolProgress != nil {
		s.opts.SymbolProgress(0, "symbols", false)
	}
}

// symbolProgress turns parse counts into percentages, at most one report
// per percent.
func (s *Session) symbolProgress(done, total int) {
	if s.opts.SymbolProgress == nil || total == 0 {
		return
	}
	pct := 100 * done / total
	if pct == 100 || pct == 0 || (100*(done-1)/total) == pct {
		return
	}
	s.opts.SymbolProgress(pct, "symbols", false)
}

// SymbolEngine is Engine once the current roots' symbols are indexed too:
// it waits for the first full pass of the roots (bounded like Engine),
// then answers from what is indexed, which after a timeout may be part of
// the workspace.
func (s *Session) SymbolEngine(ctx context.Context) (*rank.Engine, error) {
	return s.passEngine(ctx, func() int { return s.bg.symGen })
}

// LocateEngine is SymbolEngine once the files' contents are indexed too
// (locate's recovery reads them).
func (s *Session) LocateEngine(ctx context.Context) (*rank.Engine, error) {
	return s.passEngine(ctx, func() int { return s.bg.contentGen })
}

// passEngine waits until gen() (read under mu) covers the roots asked
// for and no full pass is queued; a refresh of a few changed files is not
// waited for.
func (s *Session) passEngine(ctx context.Context, gen func() int) (*rank.Engine, error) {
	eng, err := s.Engine(ctx)
	if err != nil || (s.bg.symx == nil && s.bg.cx == nil) {
		return eng, err
	}
	deadline := time.NewTimer(s.opts.WaitReady)
	defer deadline.Stop()
	s.waiting.Add(1)
	defer s.waiting.Add(-1)
	for {
		s.mu.Lock()
		ready := gen() >= s.want && s.bg.full == nil
		done := s.bg.symDone
		s.mu.Unlock()
		if ready {
			break
		}
		select {
		case <-done:
			continue
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-deadline.C:
			s.opts.Logf("still indexing symbols and contents; answering from what is indexed so far (%d symbols)", s.bg.symIndex.Load().Len())
		}
		break
	}
	return s.withIndexes(eng), nil
}

// UpdateContent queues the symbols of a document's unsaved content (the
// latest text of each file wins); Changed on the file, after a save or
// close, reads the disk again.
func (s *Session) UpdateContent(file string, text []byte) {
	if s.bg.symx == nil {
		return
	}
	s.mu.Lock()
	if s.bg.edits == nil {
		s.bg.edits = map[string][]byte{}
	}
	s.bg.edits[file] = text
	s.mu.Unlock()
	select {
	case s.bg.kick <- struct{}{}:
	default:
	}
}
