// Package base opens and writes a workspace's base: the saved file index
// (files.idx) and the engine written beside it (engine.seg), immutable
// segments mapped read-only whose pages are the kernel's page cache,
// shared by every process on the roots. Open is the one way a front end
// opens its roots — the servers' session, the CLI, the MCP server, the
// hook; Write is how a process leaves its snapshot for the next. Each
// write goes to a temporary file renamed into place
// (workspace.WriteRootCache), under the index's lock
// (workspace.LockIndex), so a killed writer leaves the last good base.
package base

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"wayfind/memory"
	"wayfind/rank"
	"wayfind/segment"
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
	// IndexSavedAt is when Open saved the walk's Index (zero: it did
	// not): the compaction that follows need not write it again (Write).
	IndexSavedAt time.Time
}

// OpenOptions are how Open waits and what it writes.
type OpenOptions struct {
	// Wait bounds how long it waits for another process's walk of the
	// same roots.
	Wait time.Duration
	// WriteBase: what Open built is written as the base before it
	// returns (Write), for a one-shot process, whose next run maps
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
		if locked && !workspace.CachesOff(cacheDir) && !oo.WriteBase {
			if o.SaveErr = workspace.SaveIndex(cacheDir, o.Index, opt); o.SaveErr == nil {
				o.IndexSavedAt, _ = workspace.SavedAt(cacheDir, roots)
				// Served from where it was saved, mapped: the walk's
				// strings of every path go at once, not after the
				// compaction paced behind the first questions.
				if saved, ok := workspace.LoadIndex(cacheDir, roots, opt); ok {
					memory.AfterRead(saved, nil)
					o.Index = saved
				}
			}
		}
		o.Engine = rank.New(o.Index)
	}
	if !locked || workspace.CachesOff(cacheDir) || !oo.WriteBase {
		return o
	}
	if ix, eng, err := Write(cacheDir, o.Index, o.Engine, opt, time.Time{}); err != nil {
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
	memory.AfterRead(saved, nil)
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
	memory.AfterRead(nil, base)
	if base != nil && o.Index == saved {
		o.Engine, o.Mapped = base, true
	} else {
		o.Engine = Engine(base, o.Index)
	}
	return o, true
}

// Engine is the engine of ix: prev updated for the few files that
// changed (rank.Engine.Updated, linear in the tree with no name split),
// else built anew (prev nil: always).
func Engine(prev *rank.Engine, ix *workspace.Index) *rank.Engine {
	if prev != nil {
		if eng := prev.Updated(ix); eng != nil {
			return eng
		}
	}
	return rank.New(ix)
}

// Checked is what a walk found of an index served (Check).
type Checked struct {
	// Index and Engine are what the tree holds: those checked when it
	// holds the same files and directories, else updated.
	Index  *workspace.Index
	Engine *rank.Engine
	// Walked is when the walk began.
	Walked time.Time
	// Differ counts the directories that differ; BuildTook is how long
	// the engine took to build again (0: the files did not differ).
	Differ    int
	BuildTook time.Duration
}

// Check walks the tree (walk) to check ix, served with eng, each
// directory against the index rather than listing it again
// (workspace.Verify): ix and eng are kept when the tree holds the same
// files, else updated for what differs — as a fresh build would answer
// (the session's differential test), with no second index of the tree
// held beside the one checked. The engine is built again only when the
// files differ, not when only directories do.
func Check(ix *workspace.Index, eng *rank.Engine, walk workspace.Options) Checked {
	c := Checked{Index: ix, Engine: eng, Walked: time.Now()}
	changed := workspace.Verify(ix, walk)
	c.Differ = len(changed)
	if len(changed) == 0 {
		return c
	}
	update := walk
	update.Pace, update.Progress = nil, nil // the few directories that differ, at once
	next, files := workspace.Update(ix, update, changed)
	c.Index = next
	if files {
		built := time.Now()
		c.Engine = Engine(eng, next)
		c.BuildTook = time.Since(built)
	}
	return c
}

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

// Write writes ix and eng as their roots' base in cacheDir — the
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
func Write(cacheDir string, ix *workspace.Index, eng *rank.Engine, opt workspace.Options, indexSavedAt time.Time) (*workspace.Index, *rank.Engine, error) {
	if workspace.CachesOff(cacheDir) {
		return nil, nil, errors.New("no cache")
	}
	if len(ix.SavedIDs()) == 0 {
		saved, ok := savedAsIs(cacheDir, ix, opt, indexSavedAt)
		if !ok {
			if err := workspace.SaveIndex(cacheDir, ix, opt); err != nil {
				return nil, nil, fmt.Errorf("file index not saved: %w", err)
			}
			memory.AfterWrite()
			if saved, ok = workspace.LoadIndex(cacheDir, ix.Roots, opt); !ok {
				return nil, nil, errors.New("the saved file index did not read back")
			}
		}
		ix = saved
		memory.AfterRead(ix, nil)
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
	memory.AfterWrite()
	mapped := SavedEngine(cacheDir, ix, func(string, ...any) {})
	if mapped == nil {
		return nil, nil, errors.New("the saved engine did not read back")
	}
	memory.AfterRead(ix, mapped)
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
