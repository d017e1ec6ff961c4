package main

import (
	"context"
	"errors"
	"time"

	"wayfind/history"
	"wayfind/rank"
	"wayfind/session"
	"wayfind/vcs"
	"wayfind/workspace"
)

// oneShot is the CLI's workspace for the request layer: one index built
// for one question, nothing live to keep current. Its history is what the
// servers on the same roots remembered (read, never written): a question
// asked from the shell weighs where the editor has been.
type oneShot struct {
	eng  *rank.Engine
	hist *history.Store
	logf func(string, ...any)
}

// newOneShot opens the roots' remembered history beside eng.
func newOneShot(eng *rank.Engine, logf func(string, ...any)) oneShot {
	h := history.New(history.Options{CacheDir: workspace.CacheDirOf("", logf), Logf: logf})
	h.SetRoots(eng.Index().Roots)
	return oneShot{eng: eng, hist: h, logf: logf}
}

// withRepoHistory is w with the roots' repository histories attached
// (read from the cache and brought up to HEAD; the first time, from the
// whole log); ok is false when no root is in a repository. Only a
// question the index could not answer exactly pays for it.
func (w oneShot) withRepoHistory(ctx context.Context) (oneShot, bool) {
	roots := w.eng.Index().Roots
	recs := make([]*vcs.Record, len(roots))
	found := false
	for i, r := range roots {
		rec, err := vcs.Sync(ctx, workspace.CacheDirOf("", w.logf), r, nil, w.logf)
		switch {
		case err == nil:
			recs[i], found = rec, true
		case !errors.Is(err, vcs.ErrNoRepository):
			w.logf("history of %s not read: %v", r, err)
		}
	}
	if !found {
		return w, false
	}
	w.eng = w.eng.WithRepoHistory(rank.NewRepoHistory(roots, recs))
	return w, true
}

func (w oneShot) Engine(context.Context) (*rank.Engine, error)       { return w.eng, nil }
func (w oneShot) SymbolEngine(context.Context) (*rank.Engine, error) { return w.eng, nil }
func (w oneShot) LocateEngine(context.Context) (*rank.Engine, error) { return w.eng, nil }
func (w oneShot) Visit(string, history.Reason)                       {}

func (w oneShot) Frecent(n int) []history.Visit { return w.hist.Frecent(n) }
func (w oneShot) Recent(n int) []history.Visit  { return w.hist.Recent(n) }

// Current: a shell command is not in a file; where a person last went
// is known only to the server they went there in.
func (oneShot) Current() (history.Visit, bool) { return history.Visit{}, false }

// WaitHistory: the CLI reads the history when it asks (withRepoHistory).
func (oneShot) WaitHistory(context.Context, time.Duration) bool { return true }

func (w oneShot) Status() session.Status {
	ix := w.eng.Index()
	return session.Status{Ready: true, Roots: ix.Roots, Files: len(ix.Files)}
}

func (w oneShot) Reindex(context.Context) (session.Status, error) {
	return session.Status{}, errors.New("the CLI indexes afresh on every run")
}
