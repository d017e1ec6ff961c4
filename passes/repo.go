package passes

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"wayfind/rank"
	"wayfind/vcs"
)

// Repo keeps each root's repository record (vcs.Record) and the engine's
// view of them (rank.RepoHistory) current. Its passes run after the file
// index (a saved one answering while the walk verifies it counts: the
// host's first Kick), off the request path: the first answers never wait
// for git; a path that names no file, asked before the record is read,
// waits for it a little (service.HistoryWait).
type Repo struct {
	cacheDir string
	logf     func(string, ...any)
	kick     chan struct{}
	kicked   atomic.Bool // the host has an index to answer beside
	hist     atomic.Pointer[rank.RepoHistory]

	mu      sync.Mutex
	roots   []string               // the roots wanted (SetRoots)
	records map[string]*vcs.Record // by root
	built   []string               // the roots hist was built for
	done    bool                   // hist covers the built roots' HEADs
	ms      float64                // the last pass's duration
	inRepo  bool                   // a root wanted is in a git work tree (SetRoots, each pass)

	// refused: the roots whose repository git refuses as another
	// user's, said once each (sync's own: Run's goroutine alone reads
	// and writes it).
	refused map[string]bool
}

// NewRepo makes the repository pass over the caches in cacheDir; Run
// runs it.
func NewRepo(cacheDir string, logf func(string, ...any)) *Repo {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	return &Repo{cacheDir: cacheDir, logf: logf, kick: make(chan struct{}, 1)}
}

// repoRecheck: how often a pass looks at HEAD without being kicked — a
// commit, a pull or a checkout that changed no indexed file (the watcher
// sees files, not .git) is seen within this.
const repoRecheck = 30 * time.Second

// SetRoots sets the roots whose history is read (a stat or two a root to
// know whether any is in a repository).
func (r *Repo) SetRoots(roots []string) {
	in := inRepository(roots)
	r.mu.Lock()
	r.roots, r.inRepo = slices.Clone(roots), in
	r.mu.Unlock()
}

// Kick asks for a pass: the host has an index of the roots (the first
// kick lets the passes begin), or files came or went (a checkout, a
// pull?).
func (r *Repo) Kick() {
	r.kicked.Store(true)
	select {
	case r.kick <- struct{}{}:
	default:
	}
}

// History is the engine's view of the records, when it was built for
// roots (nil otherwise).
func (r *Repo) History(roots []string) *rank.RepoHistory {
	if h := r.hist.Load(); h != nil && slices.Equal(h.Roots(), roots) {
		return h
	}
	return nil
}

// Run runs the passes one at a time until ctx ends.
func (r *Repo) Run(ctx context.Context) {
	t := time.NewTicker(repoRecheck)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-r.kick:
		case <-t.C:
		}
		r.sync(ctx)
	}
}

// sync brings every root's record up to HEAD (read from the cache the
// first time) and, when any changed, the engine's view of them.
func (r *Repo) sync(ctx context.Context) {
	if !r.kicked.Load() {
		return // after the first file index: answers come first
	}
	start := time.Now()
	r.mu.Lock()
	roots := r.roots
	r.mu.Unlock()
	inRepo := inRepository(roots) // a repository made since the roots were set
	r.mu.Lock()
	if slices.Equal(r.roots, roots) {
		r.inRepo = inRepo
	}
	prev, built := r.records, r.built
	r.mu.Unlock()
	next := make(map[string]*vcs.Record, len(roots))
	list := make([]*vcs.Record, len(roots))
	changed := !slices.Equal(built, roots)
	for i, root := range roots {
		rec, err := vcs.Sync(ctx, r.cacheDir, root, prev[root], r.logf)
		var notOwned *vcs.NotOwnedError
		switch {
		case ctx.Err() != nil:
			return
		case errors.As(err, &notOwned):
			// Answered as outside a repository; said once, with how
			// the user lifts it (a pass every repoRecheck would say it
			// again and again).
			if !r.refused[root] {
				if r.refused == nil {
					r.refused = map[string]bool{}
				}
				r.refused[root] = true
				r.logf("history of %s not read: %v (%s)", root, err, notOwned.Remedy())
			}
		case errors.Is(err, vcs.ErrNoRepository):
		case err != nil:
			r.logf("history of %s not read: %v", root, err)
			rec = prev[root] // what was read before still holds
		}
		next[root], list[i] = rec, rec
		changed = changed || rec != prev[root]
	}
	var h *rank.RepoHistory
	if changed {
		h = rank.NewRepoHistory(roots, list)
	}
	r.mu.Lock()
	if !slices.Equal(r.roots, roots) {
		r.mu.Unlock()
		r.Kick() // the roots changed under the pass: again
		return
	}
	r.records, r.built, r.done = next, roots, true
	if changed {
		r.hist.Store(h)
		r.ms = msSince(start)
	}
	ms := r.ms
	r.mu.Unlock()
	if changed {
		n, renames := 0, 0
		for _, rec := range list {
			if rec != nil {
				n += rec.Commits
				renames += rec.Renames
			}
		}
		r.logf("history: %d commits, %d renames under %d roots in %.0f ms", n, renames, len(roots), ms)
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

// Wait waits, at most d, until the roots' repository history is read
// (true at once when no root is in a repository).
func (r *Repo) Wait(ctx context.Context, d time.Duration) bool {
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	tick := time.NewTicker(historyPoll)
	defer tick.Stop()
	for {
		if st := r.Status(); st == nil || st.Ready {
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

// historyPoll: how often Wait looks (a history is read in tens of
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

// Status is the roots' history state, nil when none is in a repository.
func (r *Repo) Status() *VCSStatus {
	r.mu.Lock()
	records, done, built, ms, in, roots := r.records, r.done, r.built, r.ms, r.inRepo, r.roots
	r.mu.Unlock()
	if !in {
		return nil
	}
	st := &VCSStatus{Kind: "git", Ready: done && slices.Equal(built, roots), Ms: ms}
	for _, root := range roots {
		rec := records[root]
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
