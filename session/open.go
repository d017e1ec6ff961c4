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
	// Mapped: Index and Engine are the base, read from their segments
	// where they lie.
	Mapped bool
	// Walked is when the walk Index comes from began; zero for a saved
	// index.
	Walked time.Time
	// SaveErr: the walk's index, or the base, could not be written for
	// the next process.
	SaveErr error
	// baseAt is when the base read was written (workspace.SavedAt).
	baseAt time.Time
	// indexSavedAt is when Open saved the walk's Index (zero: it did
	// not): the compaction that follows need not write it again.
	indexSavedAt time.Time
}

// OpenOptions are how Open waits and what it writes.
type OpenOptions struct {
	// Wait bounds how long it waits for another process's walk of the
	// same roots.
	Wait time.Duration
	// WriteBase: what Open built is written as the base before it
	// returns (writeBase), for a one-shot process, whose next run maps
	// it. A server leaves it to its compaction, paced behind requests.
	WriteBase bool
}

// Open is the one way a front end opens its roots — the servers' session
// at its start, the CLI, the hook: the base a server or an earlier
// process wrote for them in cacheDir ("-": none), the index brought up to
// date by the directories whose time moved since (workspace.DirTimes: a
// stat of each directory, where a walk reads them all), the engine mapped
// when nothing changed, else updated from it for the few files that did
// (rank.Engine.Updated); with no base, a walk, whose index is saved (and,
// for a server, served from where it was saved, mapped). Many
// processes opening the same roots at once (an agent's parallel tool
// calls, an editor and its agent) walk and write once: under the index's
// lock, the others waiting for it at most oo.Wait, then reading what it
// wrote — or, past the wait, walking themselves.
func Open(cacheDir string, roots []string, opt workspace.Options, oo OpenOptions) Opened {
	o, ok := openBase(cacheDir, roots, opt)
	if ok && (o.Mapped || !oo.WriteBase) {
		return o
	}
	ctx, cancel := context.WithTimeout(context.Background(), oo.Wait)
	unlock, locked := workspace.LockIndex(ctx, cacheDir, roots)
	cancel()
	if locked {
		defer unlock()
	}
	// What the holder of the lock wrote, read again only when it wrote.
	if at, saved := workspace.SavedAt(cacheDir, roots); saved != ok || saved && !at.Equal(o.baseAt) {
		o, ok = openBase(cacheDir, roots, opt)
	}
	if ok && (o.Mapped || !oo.WriteBase) {
		return o
	}
	if !ok {
		o = Opened{Walked: time.Now(), Index: workspace.Build(roots, opt)}
		if locked && cacheDir != "-" && !oo.WriteBase {
			if o.SaveErr = workspace.SaveIndex(cacheDir, o.Index, opt); o.SaveErr == nil {
				o.indexSavedAt, _ = workspace.SavedAt(cacheDir, roots)
				// Served from where it was saved, mapped: the walk's
				// strings of every path go at once, not after the
				// compaction paced behind the first questions.
				if saved, ok := workspace.LoadIndex(cacheDir, roots, opt); ok {
					afterRead(saved, nil)
					o.Index = saved
				}
			}
		}
		o.Engine = rank.New(o.Index)
	}
	if !locked || cacheDir == "-" || !oo.WriteBase {
		return o
	}
	if ix, eng, err := writeBase(cacheDir, o.Index, o.Engine, opt, time.Time{}); err != nil {
		o.SaveErr = err
	} else {
		o.Index, o.Engine, o.Mapped = ix, eng, true
	}
	return o
}

// openBase is Open from the base, when there is one.
func openBase(cacheDir string, roots []string, opt workspace.Options) (Opened, bool) {
	at, ok := workspace.SavedAt(cacheDir, roots)
	if !ok {
		return Opened{}, false
	}
	saved, ok := workspace.LoadIndex(cacheDir, roots, opt)
	if !ok {
		return Opened{}, false
	}
	afterRead(saved, nil)
	o := Opened{Index: saved, Saved: true, baseAt: at}
	var times workspace.DirTimes
	// Each directory's entries against the saved ones (EntryChanges): a
	// file made at the top of the tree is that file to read, not the tree.
	if changed := workspace.EntryChanges(saved, times.Changed(saved, at, opt.Pace)); len(changed) > 0 {
		if next, ok := workspace.Update(saved, opt, changed); ok {
			o.Index = next
		}
	}
	base := SavedEngine(cacheDir, saved, opt.Logf)
	afterRead(nil, base)
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
