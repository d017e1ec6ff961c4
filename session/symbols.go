package session

import (
	"context"
	"time"

	"wayfind/rank"
)

// queueSymbols asks the symbol loop for a full pass over snap's files or a
// re-check of paths. A full pass supersedes the paths queued before it.
// The loop keeps the content index (locate's recovery) current as well.
func (s *Session) queueSymbols(snap *snapshot, paths []string) {
	if s.symx == nil && s.cx == nil {
		return
	}
	s.mu.Lock()
	if snap != nil {
		s.symFull, s.symPaths = snap, nil
	} else {
		s.symPaths = append(s.symPaths, paths...)
	}
	s.mu.Unlock()
	select {
	case s.symKick <- struct{}{}:
	default:
	}
}

// symbolLoop runs symbol passes one at a time, off the request path.
func (s *Session) symbolLoop() {
	defer s.wg.Done()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-s.stop
		cancel()
	}()
	for {
		select {
		case <-s.stop:
			return
		case <-s.symKick:
		}
		for {
			s.mu.Lock()
			full, paths, edits := s.symFull, s.symPaths, s.symContent
			s.symFull, s.symPaths, s.symContent = nil, nil, nil
			s.symBusy = full != nil || len(paths) > 0 || len(edits) > 0
			s.mu.Unlock()
			if !s.symBusy {
				break
			}
			if full != nil {
				s.awaitQuiet(100*time.Millisecond, 2*time.Second)
			}
			cur := s.snap.Load()
			if full != nil {
				start := time.Now()
				s.symbolProgressStart()
				if s.symx != nil {
					table, st, err := s.symx.Sync(ctx, cur.ix)
					if err != nil {
						s.finishSymbols(-1, 0)
						return // closed
					}
					s.symIndex.Store(rank.NewSymbolIndex(table))
					s.opts.Logf("symbols: %d in %d files (%d parsed, %d from the cache) in %.0f ms",
						st.Symbols, st.Files, st.Parsed, st.FromCache, float64(time.Since(start).Microseconds())/1000)
				}
				if s.cx != nil {
					cstart := time.Now()
					ci, err := s.cx.Sync(ctx, cur.ix)
					if err != nil {
						s.finishSymbols(-1, 0)
						return
					}
					s.cIndex.Store(ci)
					s.opts.Logf("contents: %d files in %.0f ms", ci.Len(), float64(time.Since(cstart).Microseconds())/1000)
				}
				s.finishSymbols(full.gen, float64(time.Since(start).Microseconds())/1000)
				continue
			}
			if s.symx != nil {
				table, err := s.symx.Refresh(ctx, cur.ix, paths)
				if err != nil {
					s.finishSymbols(-1, 0)
					return
				}
				for file, text := range edits {
					if table, err = s.symx.SetContent(ctx, file, text); err != nil {
						s.opts.Logf("symbols: %s: %v", file, err)
					}
				}
				if table != s.symIndex.Load().Table() {
					s.symIndex.Store(rank.NewSymbolIndex(table))
				}
			}
			if s.cx != nil && len(paths) > 0 {
				ci, err := s.cx.Refresh(ctx, cur.ix, paths)
				if err != nil {
					s.finishSymbols(-1, 0)
					return
				}
				s.cIndex.Store(ci)
			}
			s.finishSymbols(-1, 0)
		}
	}
}

// finishSymbols records a finished pass (gen ≥ 0 for a full one) and wakes
// whoever waits for symbols.
func (s *Session) finishSymbols(gen int, ms float64) {
	s.mu.Lock()
	if gen >= 0 {
		s.symGen, s.symMs = gen, ms
		if s.opts.SymbolProgress != nil {
			defer s.opts.SymbolProgress(100, "symbols indexed", true)
		}
	}
	s.symBusy = false
	close(s.symDone)
	s.symDone = make(chan struct{})
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

// SymbolEngine is Engine once the current roots' symbols and contents are
// indexed too: it waits for the first full pass of the roots (bounded like
// Engine), then answers from what is indexed, which after a timeout may
// be part of the workspace.
func (s *Session) SymbolEngine(ctx context.Context) (*rank.Engine, error) {
	eng, err := s.Engine(ctx)
	if err != nil || (s.symx == nil && s.cx == nil) {
		return eng, err
	}
	deadline := time.NewTimer(s.opts.WaitReady)
	defer deadline.Stop()
	s.waiting.Add(1)
	defer s.waiting.Add(-1)
	for {
		s.mu.Lock()
		// Ready once a full pass covered the roots asked for and none is
		// queued; a refresh of a few changed files is not waited for.
		ready := s.symGen >= s.want && s.symFull == nil
		done := s.symDone
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
			s.opts.Logf("symbols still indexing; answering from %d symbols indexed so far", s.symIndex.Load().Len())
		}
		break
	}
	return s.withSymbols(eng), nil
}

// UpdateContent queues the symbols of a document's unsaved content (the
// latest text of each file wins); Changed on the file, after a save or
// close, reads the disk again.
func (s *Session) UpdateContent(file string, text []byte) {
	if s.symx == nil {
		return
	}
	s.mu.Lock()
	if s.symContent == nil {
		s.symContent = map[string][]byte{}
	}
	s.symContent[file] = text
	s.mu.Unlock()
	select {
	case s.symKick <- struct{}{}:
	default:
	}
}
