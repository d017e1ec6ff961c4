package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func paths(ix *Index) string {
	var out []string
	for _, f := range ix.Files() {
		out = append(out, f.Path)
	}
	return strings.Join(out, ",")
}

func build(t *testing.T, dir string, opt Options) *Index {
	t.Helper()
	roots, err := CleanRoots([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	return Build(roots, opt)
}

func TestSymlinksNeverLeaveTheRoot(t *testing.T) {
	outside := t.TempDir()
	write(t, filepath.Join(outside, "secret.txt"), "x")
	dir := t.TempDir()
	write(t, filepath.Join(dir, "src", "a.go"), "")
	must(t, os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "leak.txt")))
	must(t, os.Symlink(outside, filepath.Join(dir, "outdir")))
	must(t, os.Symlink(dir, filepath.Join(dir, "src", "loop")))        // loop to the root
	must(t, os.Symlink("a.go", filepath.Join(dir, "src", "alias.go"))) // a file inside: kept
	must(t, os.Symlink("missing", filepath.Join(dir, "dangling")))
	var logs []string
	var mu sync.Mutex
	ix := build(t, dir, Options{Logf: func(f string, a ...any) {
		mu.Lock()
		logs = append(logs, f)
		mu.Unlock()
	}})
	if got := paths(ix); got != "src/a.go,src/alias.go" {
		t.Fatalf("indexed %s", got)
	}
	if len(logs) == 0 {
		t.Error("a symlink leaving the root was skipped without a log line")
	}
}

func TestNonUTF8NameIsSkippedWithALog(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "ok.go"), "")
	if err := os.WriteFile(filepath.Join(dir, "bad\xff.go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var logged bool
	ix := build(t, dir, Options{Logf: func(string, ...any) { logged = true }})
	if got := paths(ix); got != "ok.go" || !logged {
		t.Fatalf("indexed %s, logged %v", got, logged)
	}
}

func TestUnreadableDirectory(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "ok.go"), "")
	write(t, filepath.Join(dir, "locked", "x.go"), "")
	must(t, os.Chmod(filepath.Join(dir, "locked"), 0))
	defer os.Chmod(filepath.Join(dir, "locked"), 0o755)
	ix := build(t, dir, Options{})
	got := paths(ix)
	if os.Geteuid() == 0 {
		// root reads through permissions: the walk must still work, and see it.
		if got != "locked/x.go,ok.go" {
			t.Fatalf("as root: indexed %s", got)
		}
		return
	}
	if got != "ok.go" {
		t.Fatalf("indexed %s", got)
	}
}

func TestIncludeDirsAndExcludeGlobs(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, ".gitignore"), "vendor/\n*.gen.go\n")
	write(t, filepath.Join(dir, "vendor", "lib", "v.go"), "")
	write(t, filepath.Join(dir, "node_modules", "pkg", "index.js"), "")
	write(t, filepath.Join(dir, "a.gen.go"), "")
	write(t, filepath.Join(dir, "src", "a.go"), "")
	write(t, filepath.Join(dir, "src", "big.bin"), "")
	write(t, filepath.Join(dir, ".git", "info", "exclude"), "*.tmp\n")
	write(t, filepath.Join(dir, "x.tmp"), "")
	write(t, filepath.Join(dir, ".git", "HEAD"), "")

	ix := build(t, dir, Options{})
	if got := paths(ix); got != ".gitignore,src/a.go,src/big.bin" {
		t.Fatalf("default: %s", got)
	}
	// the skipped directories are recorded, version-control metadata not
	if got := paths(&Index{files: ix.Skipped}); got != "node_modules,vendor" {
		t.Fatalf("skipped: %s", got)
	}
	got := paths(build(t, dir, Options{IncludeDirs: []string{"vendor", "node_modules"}, ExcludeGlobs: []string{"*.bin"}}))
	if got != ".gitignore,node_modules/pkg/index.js,src/a.go,vendor/lib/v.go" {
		t.Fatalf("include/exclude: %s", got)
	}
	if got := paths(build(t, dir, Options{NoIgnoreFiles: true})); got != ".gitignore,a.gen.go,src/a.go,src/big.bin,vendor/lib/v.go,x.tmp" {
		t.Fatalf("no ignore files: %s", got)
	}
	// the skipped directories survive an update that rewalks the root's top level
	os.RemoveAll(filepath.Join(dir, "vendor"))
	write(t, filepath.Join(dir, "build", "out.js"), "")
	write(t, filepath.Join(dir, ".gitignore"), "vendor/\n*.gen.go\nbuild/\n")
	next, _ := Update(ix, Options{}, []string{filepath.Join(dir, "vendor"), filepath.Join(dir, "build"), filepath.Join(dir, ".gitignore")})
	if got := paths(&Index{files: next.Skipped}); got != "build,node_modules" {
		t.Fatalf("skipped after update: %s", got)
	}
}

func TestMultipleRootsAndLookup(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	write(t, filepath.Join(a, "x.go"), "")
	write(t, filepath.Join(b, "sub", "y.go"), "")
	nested := filepath.Join(a, "inner")
	write(t, filepath.Join(nested, "z.go"), "")
	roots, err := CleanRoots([]string{a, b, nested, a})
	if err != nil {
		t.Fatal(err)
	}
	if len(roots) != 2 {
		t.Fatalf("roots %v: duplicates and nested roots must fold", roots)
	}
	ix := Build(roots, Options{})
	if ix.Len() != 3 {
		t.Fatalf("files %+v", ix.Files())
	}
	r, rel, ok := ix.RootOf(filepath.Join(b, "sub", "y.go"))
	if !ok || rel != "sub/y.go" || ix.Lookup(r, rel) < 0 {
		t.Fatalf("RootOf/Lookup: %d %q %v", r, rel, ok)
	}
	if _, _, ok := ix.RootOf("/etc/passwd"); ok {
		t.Fatal("a path outside every root was mapped into one")
	}
	if _, _, ok := ix.RootOf(a + "-sibling/x"); ok {
		t.Fatal("a sibling directory sharing the root's prefix was mapped into it")
	}
}

func TestMissingRoot(t *testing.T) {
	if _, err := CleanRoots([]string{filepath.Join(t.TempDir(), "nope")}); err == nil {
		t.Fatal("a missing root was accepted")
	}
	f := filepath.Join(t.TempDir(), "file")
	write(t, f, "")
	if _, err := CleanRoots([]string{f}); err == nil {
		t.Fatal("a file was accepted as a root")
	}
}

func TestWildmatch(t *testing.T) {
	cases := []struct {
		pat, text string
		want      bool
	}{
		{"*.go", "a.go", true},
		{"*.go", "d/a.go", false},
		{"a/**/b", "a/b", true},
		{"a/**/b", "a/x/y/b", true},
		{"a/**/b/c", "a/b/x/b/c", true},
		{"**/gen/**", "x/gen/y.go", true},
		{"**/gen/**", "x/gen", false},
		{"gen/**", "gen", false},
		{"[a-c]x", "bx", true},
		{"[!a-c]x", "bx", false},
		{"[[:digit:]]x", "7x", true},
		{"\\*x", "*x", true},
		{"\\*x", "ax", false},
		{"a?c", "a/c", false},
		{"a**b", "axxb", true},
		{"a**b", "ax/b", false},
	}
	for _, c := range cases {
		if got := wildmatch(c.pat, c.text, true); got != c.want {
			t.Errorf("wildmatch(%q, %q) = %v, want %v", c.pat, c.text, got, c.want)
		}
	}
}

func FuzzWildmatch(f *testing.F) {
	for _, s := range []string{"**/a/**", "[", "[!", "[[:", "\\", "a/**/b/c", "[a-]", "*?*"} {
		f.Add(s, "a/b/c")
	}
	f.Fuzz(func(t *testing.T, pat, text string) {
		wildmatch(pat, text, true)
		wildmatch(pat, text, false)
		// A whole ignore file of it, matched as a file and as a directory.
		rules := (&Rules{}).With(ParseIgnore(pat, ""))
		rules.Ignored(text, false)
		rules.Ignored(text, true)
		(&Rules{}).With(ParseIgnore(pat, "sub/dir")).Ignored("sub/dir/"+text, false)
	})
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestPaceBeforeEachDirectory: a background walk gives way once per
// directory it reads (the roots included), never mid-directory.
func TestPaceBeforeEachDirectory(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"a/b/x.go", "a/c/y.go", "d/z.go", "top.go"} {
		write(t, filepath.Join(dir, p), "")
	}
	var paced atomic.Int32
	ix := build(t, dir, Options{Pace: func() { paced.Add(1) }})
	if want := int32(len(ix.Dirs) + 1); paced.Load() != want {
		t.Errorf("paced %d times for %d directories", paced.Load(), want)
	}
}

// TestPacedWalkReadsOneAtATime: a walk in the background (with Pace)
// has one directory read at a time, so that no read runs beside the
// request Pace gave way to.
func TestPacedWalkReadsOneAtATime(t *testing.T) {
	dir := t.TempDir()
	for i := range 20 {
		write(t, filepath.Join(dir, fmt.Sprintf("d%d/e/x.go", i)), "")
	}
	var inPace, most atomic.Int32
	build(t, dir, Options{Pace: func() {
		n := inPace.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		time.Sleep(time.Millisecond) // room for another worker to arrive
		inPace.Add(-1)
	}})
	if most.Load() != pacedWorkers {
		t.Errorf("%d workers paced at once, want %d", most.Load(), pacedWorkers)
	}
}

// TestWatcherPastTheLimit: a tree with more directories than the
// system lets one user watch is watched in part — the roots, then
// directories in index order up to half the limit — and the rest are
// Unwatched, for polling; a Sync after an update keeps that split,
// watching what it brings while the budget lasts; a tree within the
// limit is watched whole; a root that cannot be watched is no watcher.
func TestWatcherPastTheLimit(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"a/b/x.go", "c/y.go", "d/e/f/z.go"} {
		write(t, filepath.Join(dir, p), "")
	}
	ix := build(t, dir, Options{})
	// 7 directories and the root: a limit of 7 gives this watcher 3.
	w, err := Watch(func([]string) {}, nil, WatchOptions{Limit: func() int { return len(ix.Dirs) }, MarkLimit: noMarks, InPart: true})
	if err != nil {
		t.Skip("no watcher here:", err)
	}
	defer w.Close()
	added, ok := w.Sync(ix)
	wantWatched := []string{dir, filepath.Join(dir, "a"), filepath.Join(dir, "a/b")}
	if !ok || !slices.Equal(added, wantWatched) || len(w.w.WatchList()) != 3 {
		t.Fatalf("past the limit: added %q, ok %v, watching %d; want %q", added, ok, len(w.w.WatchList()), wantWatched)
	}
	roots, unwatched := w.Unwatched()
	if want := []File{{0, "c"}, {0, "d"}, {0, "d/e"}, {0, "d/e/f"}}; !slices.Equal(roots, ix.Roots) || !slices.Equal(unwatched, want) {
		t.Fatalf("unwatched %v, want %v", unwatched, want)
	}
	// An update that removes a watched directory and brings two: one
	// fits the budget freed, the other is left out.
	must(t, os.RemoveAll(filepath.Join(dir, "a/b")))
	write(t, filepath.Join(dir, "a/g/w.go"), "")
	write(t, filepath.Join(dir, "h/v.go"), "")
	next, _ := Update(ix, Options{}, []string{filepath.Join(dir, "a/b"), filepath.Join(dir, "a/g"), filepath.Join(dir, "h")})
	added, ok = w.Sync(next)
	if !ok || !slices.Equal(added, []string{filepath.Join(dir, "a/g")}) {
		t.Fatalf("after the update: added %q, ok %v", added, ok)
	}
	if _, unwatched := w.Unwatched(); !slices.Equal(unwatched, []File{{0, "c"}, {0, "d"}, {0, "d/e"}, {0, "d/e/f"}, {0, "h"}}) {
		t.Fatalf("after the update: unwatched %v", unwatched)
	}

	w2, _ := Watch(func([]string) {}, nil, WatchOptions{Limit: func() int { return len(next.Dirs) + 1 }, MarkLimit: noMarks, InPart: true})
	defer w2.Close()
	if added, ok := w2.Sync(next); !ok || len(added) != len(next.Dirs)+1 {
		t.Errorf("within the limit: added %q, ok %v", added, ok)
	}
	if _, unwatched := w2.Unwatched(); len(unwatched) != 0 {
		t.Errorf("within the limit: unwatched %v", unwatched)
	}

	w3, _ := Watch(func([]string) {}, nil, WatchOptions{Limit: func() int { return 1 }, MarkLimit: noMarks, InPart: true}) // half of it is no watch, not even the root's
	defer w3.Close()
	if added, ok := w3.Sync(next); ok || len(added) > 0 || len(w3.w.WatchList()) > 0 {
		t.Errorf("no room for the root: added %q, ok %v, watching %d", added, ok, len(w3.w.WatchList()))
	}
	// Not asked to watch in part: past the limit, no watch at all.
	w4, _ := Watch(func([]string) {}, nil, WatchOptions{Limit: func() int { return len(next.Dirs) }})
	defer w4.Close()
	if added, ok := w4.Sync(next); ok || len(added) > 0 || len(w4.w.WatchList()) > 0 {
		t.Errorf("past the limit, not in part: added %q, ok %v, watching %d", added, ok, len(w4.w.WatchList()))
	}
}

// noMarks is a system with no fanotify marks to give.
func noMarks() int { return 0 }

// TestWatcherMarksPastTheLimit: past inotify's share the watcher marks
// directories with fanotify, within its share of that limit, and polls
// only the rest; a marked directory's events come as a watched one's;
// one deleted frees its mark for a directory an update brings; a tree
// within inotify's limit opens no marks.
func TestWatcherMarksPastTheLimit(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"a/b/x.go", "c/y.go", "d/e/f/z.go"} {
		write(t, filepath.Join(dir, p), "")
	}
	ix := build(t, dir, Options{})
	events := make(chan []string, 64)
	// 7 directories and the root: limits of 7 and 4 give 3 watches and 2 marks.
	w, err := Watch(func(p []string) { events <- p }, nil, WatchOptions{Limit: func() int { return len(ix.Dirs) }, MarkLimit: func() int { return 4 }, InPart: true})
	if err != nil {
		t.Skip("no watcher here:", err)
	}
	defer w.Close()
	if err := CanMark(); err != nil {
		t.Skip("no fanotify marks here:", err)
	}
	added, ok := w.Sync(ix)
	abs := func(rels ...string) []string {
		var out []string
		for _, r := range rels {
			out = append(out, filepath.Join(dir, filepath.FromSlash(r)))
		}
		return out
	}
	fanned := func() []File {
		w.mu.Lock()
		defer w.mu.Unlock()
		return slices.Clone(w.fanned)
	}
	if want := abs(".", "a", "a/b", "c", "d"); !ok || !slices.Equal(added, want) || len(w.w.WatchList()) != 3 {
		t.Fatalf("past the limit: added %q, ok %v, watching %d; want %q", added, ok, len(w.w.WatchList()), want)
	}
	if got, want := fanned(), []File{{0, "c"}, {0, "d"}}; !slices.Equal(got, want) {
		t.Fatalf("marked %v, want %v", got, want)
	}
	if _, unwatched := w.Unwatched(); !slices.Equal(unwatched, []File{{0, "d/e"}, {0, "d/e/f"}}) {
		t.Fatalf("unwatched %v", unwatched)
	}
	// A marked directory's events: a file made in it, named whole.
	await := func(want string) {
		t.Helper()
		deadline := time.After(5 * time.Second)
		for {
			select {
			case p := <-events:
				if slices.Contains(p, want) {
					return
				}
			case <-deadline:
				t.Fatalf("no event for %s", want)
			}
		}
	}
	write(t, filepath.Join(dir, "c/new.go"), "")
	await(filepath.Join(dir, "c/new.go"))
	// A marked directory deleted: its mark is let go, and the update
	// that brings a directory marks it in its place.
	must(t, os.RemoveAll(filepath.Join(dir, "c")))
	await(filepath.Join(dir, "c"))
	write(t, filepath.Join(dir, "h/v.go"), "")
	next, _ := Update(ix, Options{}, abs("c", "h"))
	added, ok = w.Sync(next)
	if !ok || !slices.Equal(added, abs("h")) {
		t.Fatalf("after the update: added %q, ok %v", added, ok)
	}
	if got, want := fanned(), []File{{0, "d"}, {0, "h"}}; !slices.Equal(got, want) {
		t.Fatalf("after the update: marked %v, want %v", got, want)
	}
	write(t, filepath.Join(dir, "h/later.go"), "")
	await(filepath.Join(dir, "h/later.go"))

	// Within inotify's limit: no marks opened.
	w2, _ := Watch(func([]string) {}, nil, WatchOptions{Limit: func() int { return len(next.Dirs) + 1 }, MarkLimit: func() int { return 4 }, InPart: true})
	defer w2.Close()
	if _, ok := w2.Sync(next); !ok || w2.marks != nil {
		t.Errorf("within the limit: ok %v, marks opened %v", ok, w2.marks != nil)
	}
}

// TestWatcherMarkRefused: a directory that refuses a mark for a reason of
// its own (here: no longer a directory) is polled, and the directories
// after it are still marked.
func TestWatcherMarkRefused(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"a/x.go", "b/y.go", "c/z.go"} {
		write(t, filepath.Join(dir, p), "")
	}
	ix := build(t, dir, Options{})
	must(t, os.RemoveAll(filepath.Join(dir, "b")))
	write(t, filepath.Join(dir, "b"), "") // b is a file now: no directory mark
	// The root and 3 directories: limits of 2 and 10 give 1 watch and 5 marks.
	w, err := Watch(func([]string) {}, nil, WatchOptions{Limit: func() int { return 2 }, MarkLimit: func() int { return 10 }, InPart: true})
	if err != nil {
		t.Skip("no watcher here:", err)
	}
	defer w.Close()
	if err := CanMark(); err != nil {
		t.Skip("no fanotify marks here:", err)
	}
	if _, ok := w.Sync(ix); !ok {
		t.Fatal("not watching")
	}
	_, unwatched := w.Unwatched()
	w.mu.Lock()
	fanned := slices.Clone(w.fanned)
	w.mu.Unlock()
	if !slices.Equal(fanned, []File{{0, "a"}, {0, "c"}}) || !slices.Equal(unwatched, []File{{0, "b"}}) {
		t.Errorf("marked %v, polled %v; want a and c marked, b polled", fanned, unwatched)
	}
}

// TestWatcherFollowsUpdates: a Sync after an Update watches the
// directories the update brought and lets go of those it lost, and a
// directory deleted and made again is watched again — what a Sync over
// every directory watched, found from the two indexes' lists.
func TestWatcherFollowsUpdates(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"a/b/x.go", "c/y.go", "d/z.go"} {
		write(t, filepath.Join(dir, p), "")
	}
	ix := build(t, dir, Options{})
	events := make(chan []string, 64)
	w, err := Watch(func(p []string) { events <- p }, nil, WatchOptions{})
	if err != nil {
		t.Skip("no watcher here:", err)
	}
	defer w.Close()
	if _, ok := w.Sync(ix); !ok {
		t.Fatal("not watching")
	}
	watching := func() []string { // the kernel's watches, as fsnotify holds them
		var out []string
		for _, d := range w.w.WatchList() {
			rel, _ := filepath.Rel(dir, d)
			out = append(out, filepath.ToSlash(rel))
		}
		slices.Sort(out)
		return out
	}
	if got, want := watching(), []string{".", "a", "a/b", "c", "d"}; !slices.Equal(got, want) {
		t.Fatalf("watching %q, want %q", got, want)
	}
	// A directory made, one removed.
	write(t, filepath.Join(dir, "e/f/new.go"), "")
	os.RemoveAll(filepath.Join(dir, "c"))
	next, _ := Update(ix, Options{}, []string{filepath.Join(dir, "e"), filepath.Join(dir, "c")})
	added, ok := w.Sync(next)
	slices.Sort(added)
	if want := []string{filepath.Join(dir, "e"), filepath.Join(dir, "e", "f")}; !ok || !slices.Equal(added, want) {
		t.Errorf("after the update: added %q (ok %v), want %q", added, ok, want)
	}
	if got, want := watching(), []string{".", "a", "a/b", "d", "e", "e/f"}; !slices.Equal(got, want) {
		t.Errorf("watching %q, want %q", got, want)
	}
	// Its new directory's events come. The update's own (e made, c
	// removed) may be delivered after this point, batched: those are
	// passed over until the new file's, within the deadline.
	write(t, filepath.Join(dir, "e/f/later.go"), "")
	timeout := time.After(5 * time.Second)
seen:
	for {
		select {
		case p := <-events:
			if slices.Contains(p, filepath.Join(dir, "e/f/later.go")) {
				break seen
			}
		case <-timeout:
			t.Fatal("no event from a directory the update brought")
		}
	}
	// A directory deleted and made again between two indexes that both
	// hold it: the kernel dropped its watch; the next Sync adds it back.
	os.RemoveAll(filepath.Join(dir, "d"))
	deadline := time.Now().Add(5 * time.Second)
	lost := func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		return w.lost[filepath.Join(dir, "d")]
	}
	for !lost() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond) // the event reaches forget
	}
	write(t, filepath.Join(dir, "d/z.go"), "")
	if added, _ := w.Sync(next); !slices.Equal(added, []string{filepath.Join(dir, "d")}) {
		t.Errorf("a directory made again: added %q", added)
	}
}

// TestWalkOrderIsPathOrder: the index's order is read off the walked
// directories (appendTree), not sorted; names where a directory's order
// by name differs from its paths' ("b" before "b-c" by name, "b-c/x"
// before "b/x" by path) must come out in path order all the same.
func TestWalkOrderIsPathOrder(t *testing.T) {
	dir := t.TempDir()
	rels := []string{
		"b-c/x", "b/w", "b/x-y", "b/x.y/z", "b.d/q", "b.e", "b0", "b0d/e/f", "a.txt", "b-", "b/x.",
		"a/b/c", "a/b.c", "a-/z", "z/z/z/z", "~", "B/c", "b/x/y/z.go", "b/x/y.go",
	}
	for _, r := range rels {
		p := filepath.Join(dir, filepath.FromSlash(r))
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, nil, 0o644))
	}
	ix := build(t, dir, Options{})
	// The tree read off alone (Build would sort what came out of order).
	w := newWalker(ix.Roots, Options{})
	w.queue(w.rootJob(0))
	w.run()
	tree, _ := w.trees[0].appendTree(nil, nil)
	if !slices.IsSortedFunc(tree, CompareFiles) {
		t.Errorf("the walked tree is not in path order: %v", tree)
	}
	var got []string
	for i, f := range ix.Files() {
		got = append(got, f.Path)
		if want := filepath.Join(ix.Roots[0], filepath.FromSlash(f.Path)); ix.AbsAt(i) != want {
			t.Errorf("AbsAt(%d) = %s, want %s", i, ix.AbsAt(i), want)
		}
	}
	want := slices.Clone(got)
	slices.Sort(want)
	if !slices.Equal(got, want) || len(got) != len(rels) {
		t.Errorf("walk order:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestEntryOrderIsPathOrder: appendTree orders a directory's entries as
// the paths at and below them compare, over names made of the bytes
// either side of '/'.
func TestEntryOrderIsPathOrder(t *testing.T) {
	alphabet := []string{"", "a", "b", "-", ".", "0", "~", "ab", "a-", "a.", "a0"}
	key := func(name string, dir bool) string {
		if dir {
			return name + "/"
		}
		return name
	}
	for _, x := range alphabet {
		for _, y := range alphabet {
			a, b := "n"+x, "n"+y
			for _, aDir := range []bool{false, true} {
				for _, bDir := range []bool{false, true} {
					if a == b && aDir != bDir {
						continue // a directory holds no file and directory of one name
					}
					if got, want := compareEntries(a, aDir, b, bDir), strings.Compare(key(a, aDir), key(b, bDir)); got != want {
						t.Errorf("compareEntries(%q, %v, %q, %v) = %d, want %d", a, aDir, b, bDir, got, want)
					}
				}
			}
		}
	}
}

// TestRootSpan: each root's files, by position, in an index of three
// roots, the middle one empty.
func TestRootSpan(t *testing.T) {
	ix := &Index{Roots: []string{"/a", "/b", "/c"}, files: []File{{0, "x"}, {0, "y/z"}, {2, "a"}}}
	for r, want := range [][2]int{{0, 2}, {2, 2}, {2, 3}} {
		if lo, hi := ix.RootSpan(r); lo != want[0] || hi != want[1] {
			t.Errorf("root %d: %d..%d, want %v", r, lo, hi, want)
		}
	}
}

// TestPercent: a walk's progress is its share of the job, and never falls
// back when the walk finds directories faster than it reads them.
func TestPercent(t *testing.T) {
	type heard struct {
		pct      int
		advanced bool
	}
	var got []heard
	p := Percent(80, 0, func(pct int, advanced bool) { got = append(got, heard{pct, advanced}) })
	for _, c := range [][2]int64{{1, 4}, {2, 4}, {3, 12}, {6, 12}, {12, 12}} {
		p(c[0], c[1])
	}
	want := []heard{{20, true}, {40, true}, {40, false}, {40, false}, {80, true}}
	if !slices.Equal(got, want) {
		t.Errorf("heard %v, want %v", got, want)
	}
}
