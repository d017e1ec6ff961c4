package session

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"time"

	"wayfind/rank"
	"wayfind/vcs"
)

// repoPass keeps each root's repository record (vcs.Record) and the
// engine's view of them (rank.RepoHistory) current. It runs after the
// file index (a saved one answering while the walk verifies it counts),
// off the request path: the first answers never wait for git; a path
// that names no file, asked before the record is read, waits for it a
// little (service.HistoryWait).
type repoPass struct {
	kick chan struct{}
	hist atomic.Pointer[rank.RepoHistory]
	// Under Session.mu:
	records map[string]*vcs.Record // by root
	roots   []string               // the roots hist was built for
	done    bool                   // hist covers the current roots' HEADs
	ms      float64                // the last pass's duration
	inRepo  bool                   // a current root is in a git work tree (SetRoots, each pass)
}

// repoRecheck: how often a pass looks at HEAD without being kicked — a
// commit, a pull or a checkout that changed no indexed file (the watcher
// sees files, not .git) is seen within this.
const repoRecheck = 30 * time.Second

// kickRepo asks for a pass (after a full index, after file changes).
func (s *Session) kickRepo() {
	select {
	case s.repo.kick <- struct{}{}:
	default:
	}
}

// repoLoop runs the passes one at a time until the session closes.
func (s *Session) repoLoop() {
	defer s.wg.Done()
	ctx, cancel := s.untilClosed()
	defer cancel()
	t := time.NewTicker(repoRecheck)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-s.repo.kick:
		case <-t.C:
		}
		s.repoSync(ctx)
	}
}

// repoSync brings every root's record up to HEAD (read from the cache
// the first time) and, when any changed, the engine's view of them.
func (s *Session) repoSync(ctx context.Context) {
	if s.snap.Load() == nil {
		return // after the first file index: answers come first
	}
	start := time.Now()
	roots := s.Roots()
	inRepo := inRepository(roots) // a repository made since the roots were set
	s.mu.Lock()
	if slices.Equal(s.roots, roots) {
		s.repo.inRepo = inRepo
	}
	prev := s.repo.records
	built := s.repo.roots
	s.mu.Unlock()
	next := make(map[string]*vcs.Record, len(roots))
	list := make([]*vcs.Record, len(roots))
	changed := !slices.Equal(built, roots)
	for i, r := range roots {
		rec, err := vcs.Sync(ctx, s.cacheDir, r, prev[r], s.opts.Logf)
		switch {
		case ctx.Err() != nil:
			return
		case errors.Is(err, vcs.ErrNoRepository):
		case err != nil:
			s.opts.Logf("history of %s not read: %v", r, err)
			rec = prev[r] // what was read before still holds
		}
		next[r], list[i] = rec, rec
		changed = changed || rec != prev[r]
	}
	var h *rank.RepoHistory
	if changed {
		h = rank.NewRepoHistory(roots, list)
	}
	s.mu.Lock()
	if !slices.Equal(s.roots, roots) {
		s.mu.Unlock()
		s.kickRepo() // the roots changed under the pass: again
		return
	}
	s.repo.records, s.repo.roots, s.repo.done = next, roots, true
	if changed {
		s.repo.hist.Store(h)
		s.repo.ms = float64(time.Since(start).Microseconds()) / 1000
	}
	s.mu.Unlock()
	if changed {
		n, renames := 0, 0
		for _, rec := range list {
			if rec != nil {
				n += rec.Commits
				renames += rec.Renames
			}
		}
		s.opts.Logf("history: %d commits, %d renames under %d roots in %.0f ms", n, renames, len(roots), s.repo.ms)
	}
}

// VCSStatus is find/status' vcs object: nil when no root is in a
// repository.
type VCSStatus struct {
	Kind    string
	Ready   bool
	Commits int
	Renames int
	// Detection: how the roots' renames were detected (vcs.Detection,
	// joined over the roots; "" before any is read).
	Detection vcs.Detection
	Head      string // the first root's HEAD
	Ms        float64
}

// WaitHistory waits, at most d, until the current roots' repository
// history is read (true at once when no root is in a repository).
func (s *Session) WaitHistory(ctx context.Context, d time.Duration) bool {
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	tick := time.NewTicker(historyPoll)
	defer tick.Stop()
	for {
		if st := s.vcsStatus(); st == nil || st.Ready {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-deadline.C:
			return false
		case <-tick.C:
		}
	}
}

// historyPoll: how often WaitHistory looks (a history is read in tens of
// milliseconds at the least).
const historyPoll = 10 * time.Millisecond

// inRepository: some root is in a git work tree (a stat or two a root).
func inRepository(roots []string) bool {
	for _, r := range roots {
		if vcs.InRepository(r) {
			return true
		}
	}
	return false
}

// vcsStatus is the current roots' history state, nil when none is in a
// repository.
func (s *Session) vcsStatus() *VCSStatus {
	s.mu.Lock()
	records, done, built, ms, in := s.repo.records, s.repo.done, s.repo.roots, s.repo.ms, s.repo.inRepo
	roots := s.roots
	s.mu.Unlock()
	if !in {
		return nil
	}
	st := &VCSStatus{Kind: "git", Ready: done && slices.Equal(built, roots), Ms: ms}
	for _, r := range roots {
		rec := records[r]
		if rec == nil {
			continue
		}
		st.Commits += rec.Commits
		st.Renames += rec.Renames
		st.Detection = st.Detection.Join(rec.Detection)
		if st.Head == "" {
			st.Head = rec.Head
		}
	}
	return st
}
