package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"wayfind/base"
	"wayfind/history"
	"wayfind/rank"
	"wayfind/service"
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
	// pending: the answers are made before the repository's history was
	// read whole, and why (withRepoHistory); "" when it was.
	pending string
	// unread: a root's history is being read in the background and none
	// of it was there to answer from (withRepoHistory).
	unread bool
}

// newOneShot opens the roots' remembered history beside eng.
func newOneShot(eng *rank.Engine, logf func(string, ...any)) oneShot {
	h := history.New(history.Options{CacheDir: workspace.CacheDirOf("", logf), Logf: logf})
	h.SetRoots(eng.Index().Roots)
	return oneShot{eng: eng, hist: h, logf: logf}
}

// withRepoHistory is w with the roots' repository histories attached,
// from the cache every process shares (vcs.Cached), brought up to HEAD
// here when that is a short read (at most historyInProcess commits);
// ok is false when no root is in a repository. A longer read — a long
// log the first time — is left to a `wayfind history` in the background
// (started unless another process is reading already, or caches are off
// and it would keep nothing); the answer is
// made meanwhile from what the cache holds — an older record at once,
// none after waiting at most service.HistoryWait for the reader — and
// w.pending says so in one line. Only a question the
// index could not answer exactly pays for any of it.
func (w oneShot) withRepoHistory(ctx context.Context) (oneShot, bool) {
	roots := w.eng.Index().Roots
	base := workspace.CacheDirOf("", w.logf)
	recs := make([]*vcs.Record, len(roots))
	found := false
	for i, r := range roots {
		rec, behind, reading, err := vcs.Cached(ctx, base, r, historyWaitable, w.logf)
		var notOwned *vcs.NotOwnedError
		switch {
		case errors.As(err, &notOwned):
			// Answered as outside a repository, saying why: the user
			// can lift git's refusal, wayfind cannot.
			w.pending = notOwnedNote(notOwned)
		case errors.Is(err, vcs.ErrNoRepository):
			continue
		case err != nil:
			w.logf("history of %s not read: %v", r, err)
			continue
		case behind > 0 && !reading && behind <= historyInProcess:
			if rec, err = vcs.Sync(ctx, base, r, rec, w.logf); err != nil {
				w.logf("history of %s not read: %v", r, err)
			}
		case behind > 0 && workspace.CachesOff(base):
			// A reader in the background would keep nothing of its
			// read, and every call would start another on the whole
			// log: the names alone answer, by their own rules (as
			// outside a repository: no history is coming to change
			// them), and say why.
			w.pending = uncachedNote
		case behind > 0:
			if !reading {
				if err := startHistoryRead(r); err != nil {
					w.logf("history of %s not started in the background: %v", r, err)
				}
			}
			fresh := false
			if rec == nil && behind <= historyWaitable {
				// Nothing to answer from yet, and a log the reader may
				// finish while this call can wait.
				rec, fresh = waitForHistory(ctx, base, r, rec, w.logf)
			}
			if !fresh {
				// An older record (before an amend, a reset, a pull too
				// long to read here) answers at once.
				w.pending = pendingNote(rec)
				w.unread = w.unread || rec == nil
			}
		}
		recs[i], found = rec, found || rec != nil || w.pending != ""
	}
	if !found {
		return w, false
	}
	w.eng = w.eng.WithRepoHistory(rank.NewRepoHistory(roots, recs))
	return w, true
}

// historyInProcess: the most commits a one-shot process reads itself
// before it answers — a pull's, a branch's, a small repository's whole
// log; more is left to the background reader, the answer made meanwhile.
// historyWaitable: the longest log worth waiting for the background
// reader to finish (at most service.HistoryWait) when there is nothing
// to answer from yet; past it the answer is made at once.
const (
	historyInProcess = 2000
	historyWaitable  = 4 * historyInProcess
)

// waitForHistory waits, at most service.HistoryWait, for the background
// reader to bring root's cache to HEAD: the record it holds then, and
// whether that is at HEAD.
func waitForHistory(ctx context.Context, base, root string, rec *vcs.Record, logf func(string, ...any)) (*vcs.Record, bool) {
	ctx, cancel := context.WithTimeout(ctx, service.HistoryWait)
	defer cancel()
	tick := time.NewTicker(historyPoll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return rec, false
		case <-tick.C:
		}
		now, behind, _, err := vcs.Cached(ctx, base, root, 0, logf)
		if err != nil {
			continue
		}
		if now != nil {
			rec = now
		}
		if behind == 0 {
			return rec, true
		}
	}
}

// historyPoll: how often a one-shot process looks whether the background
// reader has saved the history.
const historyPoll = 100 * time.Millisecond

// uncachedNote is the line an answer carries when the history is too
// long to read for one call and caches are off.
const uncachedNote = "wayfind's caches are off, and this repository's history is too long to read for one call; this answer is from the file names alone"

// notOwnedNote is the line an answer carries when git refuses the
// repository as another user's.
func notOwnedNote(e *vcs.NotOwnedError) string {
	return fmt.Sprintf("git refuses to read this repository's history, owned by another user (%s); this answer is from the file names alone", e.Remedy())
}

// pendingNote is the line an answer made before the history was read
// carries.
func pendingNote(rec *vcs.Record) string {
	if rec == nil {
		return "wayfind is reading this repository's history in the background; this answer is from the file names alone"
	}
	return fmt.Sprintf("wayfind is reading this repository's latest commits in the background; this answer is from the history as of %.12s", rec.Head)
}

func (w oneShot) Engine(context.Context) (*rank.Engine, error)       { return w.eng, nil }
func (w oneShot) SymbolEngine(context.Context) (*rank.Engine, error) { return w.eng, nil }
func (w oneShot) LocateEngine(context.Context) (*rank.Engine, error) { return w.eng, nil }
func (w oneShot) Visit(string, history.Reason)                       {}

func (w oneShot) Frecent(n int) []history.Visit { return w.hist.Frecent(n) }
func (w oneShot) Recent(n int, agents bool) []history.Visit {
	return w.hist.Recent(n, agents)
}

// Current: a shell command is not in a file; where a person last went
// is known only to the server they went there in.
func (oneShot) Current() (history.Visit, bool) { return history.Visit{}, false }

// WaitHistory: the CLI reads the history when it asks (withRepoHistory),
// and has waited for it then; a root whose history was not there to
// answer from, and is being read, is as a server's still reading it
// (find/status's vcs.ready false): a path that names no file is not
// resolved on names alone.
func (w oneShot) WaitHistory(context.Context, time.Duration) bool { return !w.unread }

func (w oneShot) Status() session.Status {
	ix := w.eng.Index()
	return session.Status{Ready: true, Roots: ix.Roots, Files: ix.Len()}
}

func (w oneShot) Reindex(context.Context) (session.Status, error) {
	return session.Status{}, errors.New("the CLI indexes afresh on every run")
}

// openIndex opens the roots for a one-shot process (base.Open), a
// base that could not be written for the next process a warning.
func openIndex(cache string, roots []string, opt workspace.Options, warn func(string, ...any)) (*workspace.Index, *rank.Engine) {
	o := base.Open(cache, roots, opt, base.OpenOptions{Wait: indexWait, WriteBase: true})
	if o.SaveErr != nil && !workspace.CachesOff(cache) {
		warn("index of %s not saved: %v", roots[0], o.SaveErr)
	}
	return o.Index, o.Engine
}

// indexWait bounds how long a one-shot process waits for another's walk
// of the same roots before it walks them itself: within the hook's
// budget, with time left to answer.
const indexWait = service.HistoryWait
