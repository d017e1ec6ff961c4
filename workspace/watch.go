package workspace

import (
	"errors"
	"path/filepath"
	"slices"
	"sync"
	"unsafe"

	"github.com/fsnotify/fsnotify"
)

// Watcher reports paths that changed under the roots, for Update. Linux
// has no recursive watch, so every indexed directory is watched on its own
// (Sync adds what a new index walked). A tree with more directories than
// the kernel lets this user watch is watched in part when the caller asks
// (WatchOptions.InPart, watchBudget): the directories left out are
// Unwatched, for the caller to poll; else not at all.
type Watcher struct {
	w       *fsnotify.Watcher
	onPaths func([]string)
	logf    func(string, ...any)
	opts    WatchOptions

	mu        sync.Mutex
	exhausted bool
	// synced is the index the last Sync watched: its roots and
	// directories are watched, but for lost — directories an event said
	// are gone (the kernel dropped their watches) or that vanished before
	// their watch, each watched again by the next Sync whose index holds
	// it. No set of the watched paths is kept beside the kernel's own
	// (and fsnotify's): it was a second copy of every directory's path.
	synced *Index
	lost   map[string]bool
	// unwatched are synced's directories no watch holds (index order,
	// never written once made: Unwatched hands it out), and held how
	// many watches this watcher holds, roots included.
	unwatched []File
	held      int
	done      chan struct{}
}

// WatchOptions are how a watcher meets the kernel's watch limit.
type WatchOptions struct {
	// Limit is the most watches the system lets this user hold (nil: the
	// system's, WatchLimit).
	Limit func() int
	// InPart: a tree past the limit is watched in part (watchBudget) and
	// the rest left to the caller to poll; else not at all, the whole
	// polled. Watches held cost the process memory (the watcher's own
	// map of each path), which a server's memory bound at a million
	// files cannot spare, where a daemon answering fresh lives on them.
	InPart bool
}

// Watch starts a watcher; onPaths receives each batch of changed absolute
// paths (created, written, removed or renamed) as the kernel reports them.
func Watch(onPaths func([]string), logf func(string, ...any), opts WatchOptions) (*Watcher, error) {
	fw, err := fsnotify.NewBufferedWatcher(4096)
	if err != nil {
		return nil, err
	}
	if logf == nil {
		logf = func(string, ...any) {}
	}
	if opts.Limit == nil {
		opts.Limit = WatchLimit
	}
	w := &Watcher{w: fw, onPaths: onPaths, logf: logf, opts: opts, lost: map[string]bool{}, done: make(chan struct{})}
	go w.loop()
	return w, nil
}

func (w *Watcher) loop() {
	defer close(w.done)
	for {
		select {
		case ev, ok := <-w.w.Events:
			if !ok {
				return
			}
			batch := []string{ev.Name}
			// Drain what is already queued so a burst becomes one update.
		drain:
			for len(batch) < 1024 {
				select {
				case ev, ok := <-w.w.Events:
					if !ok {
						break drain
					}
					batch = append(batch, ev.Name)
				default:
					break drain
				}
			}
			w.forget(batch)
			w.onPaths(batch)
		case err, ok := <-w.w.Errors:
			if !ok {
				return
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				// Events were lost: only a rescan of the roots can recover.
				w.logf("file watcher overflowed; rescanning")
				w.mu.Lock()
				var roots []string
				if w.synced != nil {
					roots = slices.Clone(w.synced.Roots)
				}
				w.mu.Unlock()
				w.onPaths(roots)
				continue
			}
			w.logf("file watcher: %v", err)
		}
	}
}

// forget notes watched directories that an event says are gone: the
// kernel removed their watches already, and a directory made again under
// the same name must be watched afresh.
func (w *Watcher) forget(paths []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, p := range paths {
		if w.synced != nil && watchedDir(w.synced, p) && !w.lost[p] && !w.isUnwatched(p) {
			if _, err := filepath.EvalSymlinks(p); err != nil {
				w.lost[p] = true
				w.held--
			}
		}
	}
}

// isUnwatched reports whether absolute p is one of the synced index's
// directories no watch holds; w.mu is held.
func (w *Watcher) isUnwatched(p string) bool {
	if len(w.unwatched) == 0 {
		return false
	}
	root, rel, ok := w.synced.RootOf(p)
	if !ok {
		return false
	}
	_, found := slices.BinarySearchFunc(w.unwatched, File{Root: root, Path: filepath.ToSlash(rel)}, CompareFiles)
	return found
}

// watchedDir reports whether absolute p is what a watcher synced with ix
// watches: one of its roots or its directories.
func watchedDir(ix *Index, p string) bool {
	root, rel, ok := ix.RootOf(p)
	return ok && (rel == "" || ix.HasDir(root, rel))
}

// WatchLimit is the most watches the system lets this user hold, 0 when
// it is not known.
func WatchLimit() int { return systemWatchLimit() }

// watchBudget is how many watches a watcher of ix may hold: every
// directory and root when the system's limit holds them all (or no limit
// is known); else, watching in part, half the limit, leaving the other
// half to the user's editors and tools, which watch trees of their own —
// the rest of the tree polled (Unwatched), a stat a directory; else none.
func watchBudget(ix *Index, limit int, inPart bool) int {
	n := len(ix.Dirs) + len(ix.Roots)
	switch {
	case limit <= 0 || n <= limit:
		return n
	case inPart:
		return limit / 2
	}
	return 0
}

// Sync watches the roots and every directory of ix not yet watched,
// within watchBudget, and returns the directories newly watched: files
// made in them between the walk and the watch were missed, so the caller
// should Update them once more. The directories left out, for the budget
// or because the kernel refused more watches, are Unwatched. It reports
// false when not even the roots can be watched, or when the kernel
// refused a watcher that may not watch in part: the caller polls the
// whole tree.
func (w *Watcher) Sync(ix *Index) (added []string, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.exhausted {
		return nil, false
	}
	limit := w.opts.Limit()
	budget := watchBudget(ix, limit, w.opts.InPart)
	full := budget == len(ix.Dirs)+len(ix.Roots)
	// giveUp leaves the whole tree to polling (the caller closes the
	// watcher): not even the roots can be watched, or the kernel refused
	// a watcher that may not watch in part.
	giveUp := func() ([]string, bool) {
		w.exhausted = true
		w.synced, w.unwatched = nil, nil
		return nil, false
	}
	refused := false // the kernel's limit reached: no more watches are tried
	watch := func(p string) bool {
		if refused || w.held >= budget {
			return false
		}
		if err := w.w.Add(p); err != nil {
			if isWatchLimit(err) {
				refused = true
				then := "falling back to periodic rescans"
				if w.opts.InPart {
					then = "polling the directories left out"
				}
				w.logf("file watcher: the system's inotify watch limit is reached (%v) after %d watches; %s%s", err, w.held, then, raiseWatchLimit)
				return false
			}
			// Vanished meanwhile: its parent's event covers it, and should
			// the walk find it again, the next Sync tries it again.
			w.lost[p] = true
			return true
		}
		w.held++
		added = append(added, p)
		return true
	}
	unwatch := func(p string) {
		// A watch the kernel dropped (a directory deleted) may be
		// removed before forget hears of it: it was held all the same.
		_ = w.w.Remove(p)
		if !w.lost[p] && !w.isUnwatched(p) {
			w.held--
		}
		delete(w.lost, p)
	}
	var unwatched []File
	if last := w.synced; last != nil && slices.Equal(last.Roots, ix.Roots) {
		// An index updated from the last one: what its directories gained
		// and lost, read from both lists in order — a change to a large
		// tree is not a map of every directory (that was most of the
		// time a change took to be answered).
		var came []File
		goneUnwatched := false
		eachDiff(last.Dirs, ix.Dirs, func(d File) {
			p := ix.Abs(d)
			goneUnwatched = goneUnwatched || w.isUnwatched(p)
			unwatch(p)
		}, func(d File) { came = append(came, d) })
		lost := w.lost
		w.lost = map[string]bool{}
		for p := range lost {
			if watchedDir(ix, p) && !watch(p) {
				root, rel, _ := ix.RootOf(p)
				came = append(came, File{Root: root, Path: filepath.ToSlash(rel)})
			}
		}
		for _, d := range came {
			if !watch(ix.Abs(d)) {
				unwatched = append(unwatched, d)
			}
		}
		switch {
		case len(unwatched) == 0 && !goneUnwatched:
			// Most updates: the list stands (a change to a large tree is
			// not a look at every directory it left out).
			unwatched = w.unwatched
		default:
			// The last list less the directories gone, and those left out
			// now, in index order.
			kept := w.unwatched
			if goneUnwatched {
				kept = slices.DeleteFunc(slices.Clone(kept), func(d File) bool { return !ix.HasDir(d.Root, d.Path) })
			}
			unwatched = append(slices.Clone(kept), unwatched...)
			slices.SortFunc(unwatched, CompareFiles)
			unwatched = slices.CompactFunc(unwatched, func(a, b File) bool { return CompareFiles(a, b) == 0 })
		}
	} else {
		if last != nil {
			for _, r := range last.Roots {
				unwatch(r)
			}
			for _, d := range last.Dirs {
				unwatch(last.Abs(d))
			}
		}
		clear(w.lost)
		w.held = 0
		for _, r := range ix.Roots {
			if !watch(r) {
				// A root unwatched is every change at the top of the tree
				// unseen: poll it all.
				for _, r := range ix.Roots {
					unwatch(r)
				}
				if budget < len(ix.Roots) {
					w.logf("file watcher: %d directories and the system's inotify limit is %d watches; polling them%s", len(ix.Dirs)+len(ix.Roots), limit, raiseWatchLimit)
				}
				return giveUp()
			}
		}
		for _, d := range ix.Dirs {
			if !watch(ix.Abs(d)) {
				unwatched = append(unwatched, d)
			}
		}
		if !full && len(unwatched) > 0 {
			w.logf("file watcher: %d directories and the system's inotify limit is %d watches; watching %d, polling the times of %d%s", len(ix.Dirs)+len(ix.Roots), limit, w.held, len(unwatched), raiseWatchLimit)
		}
	}
	if refused && !w.opts.InPart {
		// The tree fit the limit, but others' watches left too few: a
		// watcher that may not watch in part polls the whole tree, as
		// WatchOptions.InPart says.
		return giveUp()
	}
	w.synced, w.unwatched = ix, unwatched
	return added, true
}

// Unwatched are the roots of the index the last Sync watched and its
// directories that no watch holds (index order; not to be written), for
// the caller to poll (DirTimes.ChangedIn).
func (w *Watcher) Unwatched() (roots []string, dirs []File) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.synced == nil {
		return nil, nil
	}
	return w.synced.Roots, w.unwatched
}

// eachDiff calls gone for each entry of a (a sorted list, Index order)
// that b lacks, and came for each of b's that a lacks.
func eachDiff(a, b []File, gone, came func(File)) {
	if len(a) == len(b) && unsafe.SliceData(a) == unsafe.SliceData(b) {
		return // one list: an update that changed no directory keeps it
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || i < len(a) && CompareFiles(a[i], b[j]) < 0:
			gone(a[i])
			i++
		case i == len(a) || CompareFiles(a[i], b[j]) > 0:
			came(b[j])
			j++
		default:
			i++
			j++
		}
	}
}

// Close stops the watcher.
func (w *Watcher) Close() error {
	err := w.w.Close()
	<-w.done
	return err
}
