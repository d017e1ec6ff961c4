package workspace

import (
	"errors"
	"io/fs"
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
// (WatchOptions.InPart, watchBudget): past inotify's budget by fanotify
// marks, the kernel's second budget (dirMarks, markBudget), and the
// directories left out of both are Unwatched, for the caller to poll;
// else not at all.
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
	// marks hold the directories past inotify's budget, within
	// markBudget (InPart only; opened by the first Sync that needs them;
	// noMarks where the system gives none); fanned are synced's
	// directories a mark holds (index order), marked how many marks are
	// held, and fannedLost that an event said one of fanned is gone.
	marks      *dirMarks
	noMarks    bool
	fanned     []File
	marked     int
	fannedLost bool
	done       chan struct{}
}

// heldBy is what holds a directory Sync was asked to watch.
type heldBy int

const (
	unheld   heldBy = iota // no watch: left for the caller to poll
	byWatch                // an inotify watch
	byMark                 // a fanotify mark
	vanished               // gone before its watch: its parent's event covers it
)

// WatchOptions are how a watcher meets the kernel's watch limit.
type WatchOptions struct {
	// Limit is the most watches the system lets this user hold (nil: the
	// system's, WatchLimit), and MarkLimit the most fanotify marks (nil:
	// the system's).
	Limit     func() int
	MarkLimit func() int
	// InPart: a tree past the limit is watched in part (watchBudget,
	// then marks within markBudget) and the rest left to the caller to
	// poll; else not at all, the whole polled. Watches held cost the
	// process memory (the watcher's own map of each path), which a
	// server's memory bound at a million files cannot spare, where a
	// daemon answering fresh lives on them.
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
	if opts.MarkLimit == nil {
		opts.MarkLimit = systemMarkLimit
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
				w.overflowed()
				continue
			}
			w.logf("file watcher: %v", err)
		}
	}
}

// overflowed: events were lost, and only a rescan of the roots can
// recover.
func (w *Watcher) overflowed() {
	w.logf("file watcher overflowed; rescanning")
	w.mu.Lock()
	var roots []string
	if w.synced != nil {
		roots = slices.Clone(w.synced.Roots)
	}
	w.mu.Unlock()
	w.onPaths(roots)
}

// fromMarks takes the marks' events as the loop takes inotify's.
func (w *Watcher) fromMarks(paths []string, overflowed bool) {
	if len(paths) > 0 {
		w.forget(paths)
		w.onPaths(paths)
	}
	if overflowed {
		w.overflowed()
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
				if w.isFanned(p) {
					w.marked--
					w.fannedLost = true
				} else {
					w.held--
				}
			}
		}
	}
}

// isUnwatched reports whether absolute p is one of the synced index's
// directories no watch holds; w.mu is held.
func (w *Watcher) isUnwatched(p string) bool { return w.listed(w.unwatched, p) }

// isFanned reports whether absolute p is one of the synced index's
// directories a mark holds; w.mu is held.
func (w *Watcher) isFanned(p string) bool { return w.listed(w.fanned, p) }

// listed reports whether absolute p is in list, directories of the
// synced index in its order.
func (w *Watcher) listed(list []File, p string) bool {
	if len(list) == 0 {
		return false
	}
	root, rel, ok := w.synced.RootOf(p)
	if !ok {
		return false
	}
	_, found := slices.BinarySearchFunc(list, File{Root: root, Path: filepath.ToSlash(rel)}, CompareFiles)
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
// is known); else, watching in part, its share of the limit (shareOf) —
// the rest of the tree marked (markBudget) or polled (Unwatched), a stat
// a directory; else none.
func watchBudget(ix *Index, limit int, inPart bool) int {
	n := len(ix.Dirs) + len(ix.Roots)
	switch {
	case limit <= 0 || n <= limit:
		return n
	case inPart:
		return shareOf(limit)
	}
	return 0
}

// markBudget is how many fanotify marks a watcher watching in part may
// hold, its share of the system's limit (none when unknown).
func markBudget(limit int) int { return shareOf(max(limit, 0)) }

// shareOf is a watcher's share of one of the kernel's per-user budgets
// when its tree will not fit: half, the other half left to the user's
// editors and tools, which watch trees of their own.
func shareOf(limit int) int { return limit / 2 }

// Sync watches the roots and every directory of ix not yet watched,
// within watchBudget and then markBudget, and returns the directories
// newly watched: files made in them between the walk and the watch were
// missed, so the caller should Update them once more. The directories
// left out, for the budgets or because the kernel refused more, are
// Unwatched. It reports false when not even the roots can be watched, or
// when the kernel refused a watcher that may not watch in part: the
// caller polls the whole tree.
func (w *Watcher) Sync(ix *Index) (added []string, ok bool) {
	var drop *dirMarks // marks let go of, closed once w.mu is free: their loop may wait on it
	defer func() {
		if drop != nil {
			drop.close()
		}
	}()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.exhausted {
		return nil, false
	}
	dropMarks := func() {
		drop, w.marks = w.marks, nil
		w.fanned, w.marked, w.fannedLost = nil, 0, false
	}
	limit := w.opts.Limit()
	budget := watchBudget(ix, limit, w.opts.InPart)
	full := budget == len(ix.Dirs)+len(ix.Roots)
	marks := 0
	if w.opts.InPart {
		marks = markBudget(w.opts.MarkLimit())
	}
	// giveUp leaves the whole tree to polling (the caller closes the
	// watcher): not even the roots can be watched, or the kernel refused
	// a watcher that may not watch in part.
	giveUp := func() ([]string, bool) {
		w.exhausted = true
		w.synced, w.unwatched = nil, nil
		dropMarks()
		return nil, false
	}
	refused, markRefused := false, false // a kernel's limit reached: no more are tried
	markFailed := false                  // a directory refused a mark for a reason of its own (said once)
	mark := func(p string) heldBy {
		if markRefused || w.marked >= marks || w.noMarks {
			return unheld
		}
		if w.marks == nil {
			m, err := newDirMarks(w.fromMarks)
			if err != nil {
				w.noMarks = true
				w.logf("file watcher: no fanotify marks here (%v); polling the directories inotify cannot hold", err)
				return unheld
			}
			w.marks = m
		}
		err := w.marks.add(p)
		switch {
		case err == nil:
			w.marked++
			added = append(added, p)
			return byMark
		case errors.Is(err, fs.ErrNotExist):
			w.lost[p] = true
			return vanished
		case isMarkLimit(err):
			w.logf("file watcher: the system's fanotify mark limit is reached (%v) after %d marks; polling the directories left out", err, w.marked)
			markRefused = true
		case !markFailed:
			// This directory's own (unreadable, on a file system without
			// handles): it is polled, and the next ones still marked.
			markFailed = true
			w.logf("file watcher: no fanotify mark for %s (%v); polling it and any other so refused", p, err)
		}
		return unheld
	}
	watch := func(p string) heldBy {
		if !refused && w.held < budget {
			err := w.w.Add(p)
			if err == nil {
				w.held++
				added = append(added, p)
				return byWatch
			}
			if !isWatchLimit(err) {
				// Vanished meanwhile: its parent's event covers it, and
				// should the walk find it again, the next Sync tries it
				// again.
				w.lost[p] = true
				return vanished
			}
			refused = true
			then := "falling back to periodic rescans"
			if w.opts.InPart {
				then = "marking or polling the directories left out"
			}
			w.logf("file watcher: the system's inotify watch limit is reached (%v) after %d watches; %s%s", err, w.held, then, raiseWatchLimit)
		}
		return mark(p)
	}
	unwatch := func(p string) {
		switch {
		case w.lost[p], w.isUnwatched(p):
			// A watch the kernel dropped (a directory deleted) may be
			// removed before forget hears of it: it was held all the same.
			_ = w.w.Remove(p)
		case w.isFanned(p):
			w.marks.remove(p)
			w.marked--
		default:
			_ = w.w.Remove(p)
			w.held--
		}
		delete(w.lost, p)
	}
	// sortedUnion is a directory list in index order, without repeats.
	sortedUnion := func(a, b []File) []File {
		u := append(slices.Clone(a), b...)
		slices.SortFunc(u, CompareFiles)
		return slices.CompactFunc(u, func(a, b File) bool { return CompareFiles(a, b) == 0 })
	}
	var unwatched, fanned []File
	if last := w.synced; last != nil && slices.Equal(last.Roots, ix.Roots) {
		// An index updated from the last one: what its directories gained
		// and lost, read from both lists in order — a change to a large
		// tree is not a map of every directory (that was most of the
		// time a change took to be answered).
		var came []File
		goneUnwatched, goneFanned := false, w.fannedLost
		eachDiff(last.Dirs, ix.Dirs, func(d File) {
			p := ix.Abs(d)
			goneUnwatched = goneUnwatched || w.isUnwatched(p)
			goneFanned = goneFanned || w.isFanned(p)
			unwatch(p)
		}, func(d File) { came = append(came, d) })
		lost := w.lost
		w.lost = map[string]bool{}
		for p := range lost {
			if watchedDir(ix, p) {
				root, rel, _ := ix.RootOf(p)
				came = append(came, File{Root: root, Path: filepath.ToSlash(rel)})
			}
		}
		for _, d := range came {
			switch watch(ix.Abs(d)) {
			case unheld:
				unwatched = append(unwatched, d)
			case byMark:
				fanned = append(fanned, d)
			}
		}
		// Most updates leave both lists as they stand (a change to a large
		// tree is not a look at every directory it left out); else each is
		// the last less the directories gone (the marked, less those lost
		// too: one marked again is among the new), and the new, in index
		// order.
		merged := func(list []File, gone bool, drop func(File) bool, added []File) []File {
			if len(added) == 0 && !gone {
				return list
			}
			kept := list
			if gone {
				kept = slices.DeleteFunc(slices.Clone(list), drop)
			}
			return sortedUnion(kept, added)
		}
		unwatched = merged(w.unwatched, goneUnwatched, func(d File) bool { return !ix.HasDir(d.Root, d.Path) }, unwatched)
		fanned = merged(w.fanned, goneFanned, func(d File) bool { return !ix.HasDir(d.Root, d.Path) || lost[ix.Abs(d)] }, fanned)
		w.fannedLost = false
	} else {
		dropMarks() // every mark goes with the group
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
			if h := watch(r); h != byWatch && h != vanished {
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
			switch watch(ix.Abs(d)) {
			case unheld:
				unwatched = append(unwatched, d)
			case byMark:
				fanned = append(fanned, d)
			}
		}
		if !full && len(unwatched)+len(fanned) > 0 {
			w.logf("file watcher: %d directories and the system's inotify limit is %d watches; watching %d, marking %d (fanotify), polling the times of %d%s", len(ix.Dirs)+len(ix.Roots), limit, w.held, w.marked, len(unwatched), raiseWatchLimit)
		}
	}
	if refused && !w.opts.InPart {
		// The tree fit the limit, but others' watches left too few: a
		// watcher that may not watch in part polls the whole tree, as
		// WatchOptions.InPart says.
		return giveUp()
	}
	w.synced, w.unwatched, w.fanned = ix, unwatched, fanned
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
	w.mu.Lock()
	m := w.marks
	w.marks = nil
	w.mu.Unlock()
	if m != nil {
		m.close() // w.mu free: the marks' loop may wait on it
	}
	return err
}

// CanMark reports why this system gives no fanotify marks (nil when it
// does): a watcher watching in part then polls what inotify cannot hold.
func CanMark() error {
	m, err := newDirMarks(func([]string, bool) {})
	if err == nil {
		m.close()
	}
	return err
}
