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
// (Sync adds what a new index walked); when the kernel's watch limit runs
// out, Watcher says so through Exhausted and the caller falls back to
// rescanning.
type Watcher struct {
	w       *fsnotify.Watcher
	onPaths func([]string)
	logf    func(string, ...any)

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
	done   chan struct{}
}

// watchLimit is the system's watch limit (a variable for tests).
var watchLimit = systemWatchLimit

// Watch starts a watcher; onPaths receives each batch of changed absolute
// paths (created, written, removed or renamed) as the kernel reports them.
func Watch(onPaths func([]string), logf func(string, ...any)) (*Watcher, error) {
	fw, err := fsnotify.NewBufferedWatcher(4096)
	if err != nil {
		return nil, err
	}
	if logf == nil {
		logf = func(string, ...any) {}
	}
	w := &Watcher{w: fw, onPaths: onPaths, logf: logf, lost: map[string]bool{}, done: make(chan struct{})}
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
		if w.synced != nil && watchedDir(w.synced, p) && !w.lost[p] {
			if _, err := filepath.EvalSymlinks(p); err != nil {
				w.lost[p] = true
			}
		}
	}
}

// watchedDir reports whether absolute p is what a watcher synced with ix
// watches: one of its roots or its directories.
func watchedDir(ix *Index, p string) bool {
	root, rel, ok := ix.RootOf(p)
	return ok && (rel == "" || ix.HasDir(root, rel))
}

// WatchLimit is the most watches the system lets this user hold, 0 when
// it is not known.
func WatchLimit() int { return watchLimit() }

// watchable reports whether a watcher can hold every directory of ix:
// the roots and its directories within the system's watch limit (when
// one is known).
func watchable(ix *Index) bool {
	limit := watchLimit()
	return limit <= 0 || len(ix.Dirs)+len(ix.Roots) <= limit
}

// Sync watches the roots and every directory of ix not yet watched, and
// returns the directories newly watched: files made in them between the
// walk and the watch were missed, so the caller should Update them once
// more. It reports false when the kernel's watch limit has run out.
func (w *Watcher) Sync(ix *Index) (added []string, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.exhausted {
		return nil, false
	}
	// Roots and directories are distinct (CleanRoots drops nested roots):
	// the limit is known before every directory's path is made.
	if !watchable(ix) {
		// More directories than the system lets one user watch: adding
		// watches until the kernel refuses took time and kernel memory,
		// all then given up.
		w.exhausted = true
		w.logf("file watcher: %d directories and the system's inotify limit is %d watches; falling back to periodic rescans%s", len(ix.Dirs)+len(ix.Roots), watchLimit(), raiseWatchLimit)
		return nil, false
	}
	var want []string // directories to watch, absolute
	unwatch := func(p string) {
		_ = w.w.Remove(p)
		delete(w.lost, p)
	}
	if last := w.synced; last != nil && slices.Equal(last.Roots, ix.Roots) {
		// An index updated from the last one: what its directories gained
		// and lost, read from both lists in order — a change to a large
		// tree is not a map of every directory (that was most of the
		// time a change took to be answered).
		eachDiff(last.Dirs, ix.Dirs, func(d File) { unwatch(ix.Abs(d)) },
			func(d File) { want = append(want, ix.Abs(d)) })
		for p := range w.lost {
			if watchedDir(ix, p) {
				want = append(want, p)
			}
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
		want = slices.Clone(ix.Roots)
		for _, d := range ix.Dirs {
			want = append(want, ix.Abs(d))
		}
	}
	clear(w.lost)
	for _, d := range want {
		if err := w.w.Add(d); err != nil {
			if isWatchLimit(err) {
				w.exhausted = true
				w.logf("file watcher: the system's inotify watch limit is reached (%v); falling back to periodic rescans%s", err, raiseWatchLimit)
				return added, false
			}
			// Vanished meanwhile: its parent's event covers it, and should
			// the walk find it again, the next Sync tries it again.
			w.lost[d] = true
			continue
		}
		added = append(added, d)
	}
	w.synced = ix
	return added, true
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
