package treewatch

import (
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"wayfind/workspace"
)

// A rescan costs at most a rescanShare-th of the time: small trees are
// polled every RescanEvery, a tree whose walk takes seconds less often.
func TestRescanPeriod(t *testing.T) {
	every := 5 * time.Second
	for _, c := range []struct {
		walk, want time.Duration
	}{
		{0, every},
		{every / rescanShare, every}, // the crossing: still every
		{every/rescanShare + time.Second, rescanShare * (every/rescanShare + time.Second)}, // past it: rescanShare walks
		{7 * time.Second, 70 * time.Second},                                                // a million files
	} {
		if got := rescanPeriod(every, c.walk); got != c.want {
			t.Errorf("rescanPeriod(%v, %v) = %v, want %v", every, c.walk, got, c.want)
		}
	}
}

// fakeHost serves one index and records what the tracker queues.
type fakeHost struct {
	ix      *workspace.Index
	walked  time.Time
	mu      sync.Mutex
	changed []string
	edited  []string
	// next, when set, is served from the call after the next: a base
	// swapped in while a poll reads the one it was handed.
	next *workspace.Index
}

func (h *fakeHost) Served() (*workspace.Index, time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	ix := h.ix
	if h.next != nil {
		h.ix, h.next = h.next, nil // swapped in once this one is handed out
	}
	return ix, h.walked
}
func (h *fakeHost) Roots() []string { return h.ix.Roots }
func (h *fakeHost) Changed(p []string) {
	h.mu.Lock()
	h.changed = append(h.changed, p...)
	h.mu.Unlock()
}
func (h *fakeHost) Edited(p []string)   { h.mu.Lock(); h.edited = append(h.edited, p...); h.mu.Unlock() }
func (h *fakeHost) ReadsContents() bool { return true }
func (h *fakeHost) Pace()               {}
func (h *fakeHost) Busy() func()        { return func() {} }
func (h *fakeHost) AfterPass()          {}

func walked(t *testing.T, files ...string) *fakeHost {
	t.Helper()
	dir := t.TempDir()
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	roots, err := workspace.CleanRoots([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	ix := workspace.Build(roots, workspace.Options{})
	return &fakeHost{ix: ix, walked: start}
}

// TestPollStatsSeedsTheFirstPoll: the stats a full pass takes while
// polling are the first rescan's baseline, so that it re-checks only the
// files edited since rather than, with nothing to compare, every file;
// and a tracker that watches takes none.
func TestPollStatsSeedsTheFirstPoll(t *testing.T) {
	h := walked(t, "src/a.go", "src/b.go")
	tr := New(h, Options{RescanEvery: time.Hour})
	defer tr.Close()
	if st := tr.PollStats(h.ix); st != nil {
		t.Fatalf("a tracker that does not poll stat'ed %d files", len(st))
	}
	tr.StartPolling()
	if st := tr.PollStats(h.ix); len(st) != 2 {
		t.Fatalf("PollStats while polling: %d stats, want 2", len(st))
	}
	a := h.ix.Abs(workspace.File{Root: 0, Path: "src/a.go"})
	later := time.Now().Add(time.Minute)
	os.Chtimes(a, later, later)
	tr.rescan()
	if !slices.Equal(h.edited, []string{a}) {
		t.Errorf("the first rescan after the pass re-checks %v, want only %s", h.edited, a)
	}
}

// TestRescanLetsGoOfASwappedIndex: a base swapped in while a rescan
// stat'ed the index it replaced (its Rebased came first) is what the
// poll's stats align with afterwards — not the replaced index, which
// with its base they held until the next poll.
func TestRescanLetsGoOfASwappedIndex(t *testing.T) {
	h := walked(t, "src/a.go", "src/b.go")
	tr := New(h, Options{RescanEvery: time.Hour})
	defer tr.Close()
	tr.StartPolling()
	tr.rescan() // the first poll: its stats are the baseline
	os.WriteFile(filepath.Join(h.ix.Roots[0], "src", "c.go"), nil, 0o644)
	replaced := h.ix
	h.next = workspace.Build(replaced.Roots, workspace.Options{})
	tr.rescan()
	if got := tr.restat.Aligned(); got != h.ix || got == replaced {
		t.Errorf("the poll's stats align with %p; want the index swapped in, %p (replaced: %p)", got, h.ix, replaced)
	}
}

// TestPartWatchedPartPolled: a tree past the watch limit is watched in
// part — inotify watches, then fanotify marks — and polled for the rest.
// With no marks, a file made in a directory no watch holds is queued by
// PollNow, at once, and one made in a watched directory by the watcher;
// the tracker is not Watching (not every directory is seen as it
// changes) but Polling. With marks for the rest, it is Watching and a
// file made in a marked directory is queued by its event.
func TestPartWatchedPartPolled(t *testing.T) {
	for _, c := range []struct {
		name  string
		marks int // the system's mark limit: the watcher takes half
	}{
		{"no marks", 0},
		{"marks for the rest", 6},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := walked(t, "a/x.go", "b/y.go", "c/z.go")
			// The root and 3 directories; a limit of 3 gives the watcher
			// 1: the root, and a, b and c are marked or polled.
			if c.marks > 0 && workspace.CanMark() != nil {
				t.Skip("no fanotify marks here:", workspace.CanMark())
			}
			tr := New(h, Options{RescanEvery: time.Hour, Watch: workspace.WatchOptions{
				Limit: func() int { return 3 }, MarkLimit: func() int { return c.marks }, InPart: true}})
			defer tr.Close()
			tr.Start()
			marked := c.marks > 0
			if marked != tr.Watching(h.ix.Roots) || marked == tr.Polling() {
				t.Fatalf("watching %v, polling %v", tr.Watching(h.ix.Roots), tr.Polling())
			}
			root := h.ix.Roots[0]
			queued := func(p string) bool {
				h.mu.Lock()
				defer h.mu.Unlock()
				return slices.Contains(h.changed, p)
			}
			awaitQueued := func(p string) {
				t.Helper()
				deadline := time.Now().Add(5 * time.Second)
				for !queued(p) {
					if time.Now().After(deadline) {
						t.Fatalf("%s not queued: %q", p, h.changed)
					}
					time.Sleep(5 * time.Millisecond)
				}
			}
			tr.PollNow() // the first poll: what changed since the walk (nothing)
			made := filepath.Join(root, "b", "new.go")
			if err := os.WriteFile(made, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			if marked {
				awaitQueued(made)
			} else {
				later := time.Now().Add(time.Minute) // whatever the clock's grain
				os.Chtimes(filepath.Join(root, "b"), later, later)
				tr.PollNow()
				if !queued(made) {
					t.Fatalf("a file made in an unwatched directory: queued %q", h.changed)
				}
			}
			top := filepath.Join(root, "top.go")
			if err := os.WriteFile(top, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			awaitQueued(top)
		})
	}
}

// TestSyncSpacesTheRescans: the walk a full index came from, however it
// came (a cold start's included), spaces polling's rescans (rescanPeriod)
// from the Sync that follows it: a tree whose walk took seconds is not
// walked again a RescanEvery later. A Sync after a change (no walk) keeps
// the last walk's spacing.
func TestSyncSpacesTheRescans(t *testing.T) {
	h := walked(t, "src/a.go")
	every := 5 * time.Second
	tr := New(h, Options{RescanEvery: every})
	defer tr.Close()
	tr.StartPolling()
	period := func() time.Duration { return rescanPeriod(every, time.Duration(tr.walkTook.Load())) }
	if got := period(); got != every {
		t.Fatalf("before any walk: rescans every %v, want %v", got, every)
	}
	for _, c := range []struct {
		name   string
		walked time.Time
		least  time.Duration
	}{
		{"after a walk of 7 s", time.Now().Add(-7 * time.Second), 70 * time.Second},
		{"after a change", time.Time{}, 70 * time.Second},
	} {
		tr.Sync(h.ix, c.walked)
		if got := period(); got < c.least {
			t.Errorf("%s: rescans every %v, want at least %v", c.name, got, c.least)
		}
	}
}
