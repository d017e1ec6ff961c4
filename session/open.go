package session

import (
	"context"
	"time"

	"wayfind/rank"
	"wayfind/workspace"
)

// Opened is a set of roots as Open found them: the file index and the
// engine over it.
type Opened struct {
	Index  *workspace.Index
	Engine *rank.Engine
	// Saved: Index is the one a server or an earlier process saved,
	// brought up to date by the directories whose time moved since; what
	// times cannot tell (an ignore file edited in place) is a walk's to
	// find. False: Index is a walk's, made here.
	Saved bool
	// Mapped: Engine is read from the segment saved beside Index, where
	// it lies (nothing had changed since the save).
	Mapped bool
	// Walked is when the walk Index comes from began; zero for a saved
	// index.
	Walked time.Time
	// SaveErr: the walk's index could not be saved for the next process.
	SaveErr error
}

// Open is the one way a front end opens its roots — the servers' session
// at its start, the CLI, the hook: the index a server or an earlier
// process saved for them in cacheDir ("-": none), brought up to date by
// the directories whose time moved since the save (workspace.DirTimes: a
// stat of each directory, where a walk reads them all), with the engine
// saved beside it mapped, or updated from it for the few files that
// changed (rank.Engine.Updated); else a walk, saved for the next process.
// Many processes opening the same roots at once (an agent's parallel
// tool calls, an editor and its agent) walk once: the first walks under
// the index's lock, the others wait for it at most wait, then read what
// it saved — or, past the wait, walk themselves.
func Open(cacheDir string, roots []string, opt workspace.Options, wait time.Duration) Opened {
	if o, ok := openSaved(cacheDir, roots, opt); ok {
		return o
	}
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	unlock, locked := workspace.LockIndex(ctx, cacheDir, roots)
	cancel()
	if locked {
		defer unlock()
		if o, ok := openSaved(cacheDir, roots, opt); ok { // the walker before us saved it
			return o
		}
	}
	o := Opened{Walked: time.Now()}
	o.Index = workspace.Build(roots, opt)
	if cacheDir != "-" {
		// Saved for the next process, and served as saved: its paths
		// read where the file is mapped, the walk's copies garbage.
		if o.SaveErr = workspace.SaveIndex(cacheDir, o.Index, opt); o.SaveErr == nil {
			if saved, ok := workspace.LoadIndex(cacheDir, roots, opt); ok {
				o.Index = saved
			}
		}
	}
	o.Engine = rank.New(o.Index)
	return o
}

// openSaved is Open from the saved index, when there is one.
func openSaved(cacheDir string, roots []string, opt workspace.Options) (Opened, bool) {
	at, ok := workspace.SavedAt(cacheDir, roots)
	if !ok {
		return Opened{}, false
	}
	saved, ok := workspace.LoadIndex(cacheDir, roots, opt)
	if !ok {
		return Opened{}, false
	}
	o := Opened{Index: saved, Saved: true}
	var times workspace.DirTimes
	// Each directory's entries against the saved ones (EntryChanges): a
	// file made at the top of the tree is that file to read, not the tree.
	if changed := workspace.EntryChanges(saved, times.Changed(saved, at, opt.Pace)); len(changed) > 0 {
		if next, ok := workspace.Update(saved, opt, changed); ok {
			o.Index = next
		}
	}
	base := SavedEngine(cacheDir, saved, opt.Logf)
	switch {
	case base != nil && o.Index == saved:
		o.Engine, o.Mapped = base, true
	case base != nil:
		o.Engine = base.Updated(o.Index) // nil when much changed
	}
	if o.Engine == nil {
		o.Engine = rank.New(o.Index)
	}
	return o, true
}
