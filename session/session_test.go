package session

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"wayfind/history"
	"wayfind/rank"
	"wayfind/symbols"
	"wayfind/vcs/vcstest"
	"wayfind/workspace"
)

func write(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		t.Fatal(err)
	}
}

func has(t *testing.T, s *Session, rel string) bool {
	t.Helper()
	eng, err := s.Engine(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	res, err := eng.Resolve(context.Background(), rank.ResolveRequest{Path: rel})
	if err != nil {
		t.Fatal(err)
	}
	return res.Exact
}

func TestChangesReportedAreInTheNextAnswer(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "src", "a.go"))
	s := New(Options{Symbols: noCache})
	defer s.Close()
	s.SetRoots([]string{dir})
	if !has(t, s, "src/a.go") {
		t.Fatal("first index misses src/a.go")
	}
	write(t, filepath.Join(dir, "src", "new", "b.go"))
	s.Changed([]string{filepath.Join(dir, "src", "new")})
	if !has(t, s, "src/new/b.go") {
		t.Fatal("a created directory's file is not in the next answer")
	}
	os.Remove(filepath.Join(dir, "src", "a.go"))
	s.Changed([]string{filepath.Join(dir, "src", "a.go")})
	if has(t, s, "src/a.go") {
		t.Fatal("a deleted file is still answered")
	}
}

// TestSlowBuildsArriveByTheTimer: what the watcher saw is applied by
// the timer when a build takes longer than a request waits for
// (treewatch.Queue.Due).
func TestSlowBuildsArriveByTheTimer(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.go"))
	s := New(Options{Symbols: noCache})
	defer s.Close()
	s.SetRoots([]string{dir})
	if !has(t, s, "a.go") {
		t.Fatal("first index misses a.go")
	}
	s.changes.Built(time.Hour)
	write(t, filepath.Join(dir, "b.go"))
	s.watched([]string{dir})
	deadline := time.Now().Add(5 * time.Second)
	for !has(t, s, "b.go") {
		if time.Now().After(deadline) {
			t.Fatal("a change the watcher saw was never applied")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestWatcherSeesChurn(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.go"))
	s := New(Options{Watch: true, Symbols: noCache})
	defer s.Close()
	s.SetRoots([]string{dir})
	if !has(t, s, "a.go") {
		t.Fatal("first index misses a.go")
	}
	write(t, filepath.Join(dir, "deep", "er", "b.go"))
	if err := os.Rename(filepath.Join(dir, "a.go"), filepath.Join(dir, "deep", "c.go")); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !(has(t, s, "deep/er/b.go") && has(t, s, "deep/c.go") && !has(t, s, "a.go")) {
		if time.Now().After(deadline) {
			t.Fatal("the watcher did not report the churn within 5 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	// A file made in a directory created after the index must be seen too.
	write(t, filepath.Join(dir, "deep", "er", "d.go"))
	for !has(t, s, "deep/er/d.go") {
		if time.Now().After(deadline) {
			t.Fatal("a file in a new directory was not seen")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestEngineWaitsForTheRootsIndex(t *testing.T) {
	s := New(Options{WaitReady: 50 * time.Millisecond, Symbols: noCache})
	defer s.Close()
	if _, err := s.Engine(context.Background()); err != ErrNotReady {
		t.Fatalf("no roots ever indexed: got %v, want ErrNotReady", err)
	}
	dir := t.TempDir()
	write(t, filepath.Join(dir, "x.go"))
	s.SetRoots([]string{dir, filepath.Join(dir, "missing")})
	if !has(t, s, "x.go") {
		t.Fatal("missing x.go")
	}
	if st := s.Status(); !st.Ready || st.Files != 1 || len(st.Roots) != 1 {
		t.Fatalf("status %+v", st)
	}
}

// TestHistoryPersists: visits inside the roots are remembered, weightiest
// first, across a restart; files outside the roots are not.
func TestHistoryPersists(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	write(t, filepath.Join(dir, "a", "x.go"))
	write(t, filepath.Join(dir, "b", "y.go"))
	open := func() *Session {
		s := New(Options{Symbols: symbols.IndexerOptions{CacheDir: cache}, NoContent: true, NoSymbols: true, Logf: t.Logf})
		s.SetRoots([]string{dir})
		return s
	}
	s := open()
	for _, f := range []string{"a/x.go", "b/y.go", "b/y.go", "../outside.go"} {
		s.Visit(filepath.Join(dir, f), history.Focus)
	}
	got := s.Frecent(5)
	if len(got) != 2 || got[0].Path() != filepath.Join(dir, "b", "y.go") || got[0].Weight <= got[1].Weight {
		t.Fatalf("history %+v", got)
	}
	if r := s.Recent(5, false); len(r) != 2 || r[0].Path() != filepath.Join(dir, "b", "y.go") {
		t.Fatalf("recent %v", r)
	}
	s.Close()
	again := open()
	defer again.Close()
	if got := again.Frecent(5); len(got) != 2 || got[0].Path() != filepath.Join(dir, "b", "y.go") {
		t.Fatalf("after restart %+v", got)
	}
	// A deleted file is forgotten at the next full index.
	if err := os.Remove(filepath.Join(dir, "b", "y.go")); err != nil {
		t.Fatal(err)
	}
	if _, err := again.Reindex(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := again.Frecent(5); len(got) != 1 || got[0].Path() != filepath.Join(dir, "a", "x.go") {
		t.Fatalf("after the file went: %+v", got)
	}
}

// noCache keeps the tests' symbols out of the user's cache directory.
var noCache = symbols.IndexerOptions{CacheDir: "-"}

// TestSymbolsFollowTheSession: symbols index after the files, follow
// changes reported to the session, and Reindex parses them again.
func TestSymbolsFollowTheSession(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n\nfunc Alpha() {}\n"), 0o644)
	s := New(Options{Symbols: noCache})
	defer s.Close()
	s.SetRoots([]string{dir})
	eng, err := s.SymbolEngine(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if ms, _ := eng.SearchSymbols(context.Background(), rank.SymbolRequest{Query: "Alpha"}); len(ms) != 1 {
		t.Fatalf("Alpha: %+v", ms)
	}
	os.WriteFile(filepath.Join(dir, "b.py"), []byte("class Beta:\n    pass\n"), 0o644)
	s.Changed([]string{filepath.Join(dir, "b.py")})
	deadline := time.Now().Add(5 * time.Second)
	for {
		eng, _ = s.SymbolEngine(context.Background())
		if ms, _ := eng.SearchSymbols(context.Background(), rank.SymbolRequest{Query: "Beta"}); len(ms) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a new file's symbols never arrived")
		}
		time.Sleep(10 * time.Millisecond)
	}
	st, err := s.Reindex(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SymbolEngine(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st = s.Status(); st.Symbols != 2 || !st.SymbolsReady {
		t.Errorf("after reindex: %+v", st)
	}
}

// TestSavedIndexAnswersFirst: a server new to a root answers from the
// file index the last one saved (Open), brought up to date by directory
// times — a file made and one deleted since are answered at once — and
// marked stale while its walk checks what times cannot tell (an ignore
// file edited in place); the walk's files then replace it, and are saved
// for the next.
func TestSavedIndexAnswersFirst(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "src", "a.go"))
	write(t, filepath.Join(dir, "src", "gone.go"))
	write(t, filepath.Join(dir, "lib", "ignored.go"))
	hourAgo := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(dir, "lib"), hourAgo, hourAgo) // no entry of it changes
	ignore := filepath.Join(dir, ".gitignore")
	if err := os.WriteFile(ignore, []byte("ignored.go\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := Options{Symbols: symbols.IndexerOptions{CacheDir: t.TempDir()}}
	first := New(opts)
	first.SetRoots([]string{dir})
	if !has(t, first, "src/gone.go") || has(t, first, "lib/ignored.go") {
		t.Fatal("first index: want src/gone.go, not lib/ignored.go")
	}
	first.Close()

	os.Remove(filepath.Join(dir, "src", "gone.go"))
	write(t, filepath.Join(dir, "src", "new.go"))
	if err := os.WriteFile(ignore, []byte("# nothing\n"), 0o644); err != nil { // in place: no directory's time moves
		t.Fatal(err)
	}
	walking, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	opts.Walk.Progress = func(read, found int64) {
		once.Do(func() { close(walking); <-release })
	}
	second := New(opts)
	defer second.Close()
	second.SetRoots([]string{dir})
	<-walking
	if st := second.Status(); !st.Ready || !st.IndexStale || st.Files != 3 {
		t.Errorf("during the walk: %+v, want ready and stale with 3 files", st)
	}
	if has(t, second, "src/gone.go") || !has(t, second, "src/new.go") || has(t, second, "lib/ignored.go") {
		t.Error("during the walk: want the saved index brought up to date by directory times")
	}
	close(release)
	waitState(t, second, func(cur *snapshot) bool { return !cur.stale })
	if st := second.Status(); st.IndexStale || !has(t, second, "lib/ignored.go") {
		t.Errorf("after the walk: %+v, and the walk's files must answer", st)
	}
	second.Close()
	third := New(Options{Symbols: opts.Symbols})
	defer third.Close()
	third.SetRoots([]string{dir})
	if !has(t, third, "src/new.go") || !has(t, third, "lib/ignored.go") {
		t.Error("the walk's files were not saved for the next server")
	}
}

// TestSealedSegmentsServe: after its walk a server serves its index and
// engine from their segments, mapped; the next server on the tree maps
// both at once, answering the same; a reindex finding the same files
// keeps what is mapped; a file added is applied, and the next server
// finds it by directory times and writes the base that holds it.
func TestSealedSegmentsServe(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"src/a.go", "src/server/http.go", "lib/Ärger.ts", "docs/readme.md"} {
		write(t, filepath.Join(dir, filepath.FromSlash(p)))
	}
	var logs logLines
	opts := Options{Symbols: symbols.IndexerOptions{CacheDir: t.TempDir()}, Logf: logs.add}
	first := New(opts)
	first.SetRoots([]string{dir})
	if cur := waitState(t, first, func(cur *snapshot) bool { return cur.sealed }); !cur.sealed || len(cur.ix.SavedIDs()) != 1 || !has(t, first, "src/server/http.go") {
		t.Fatalf("sealed snapshot: %+v", cur)
	}
	first.Close()

	logs = logLines{}
	second := New(opts)
	defer second.Close()
	second.SetRoots([]string{dir})
	if !logs.wait("indexed 4 files") || !slices.ContainsFunc(logs.all(), func(l string) bool { return strings.Contains(l, "engine mapped") }) {
		t.Fatalf("the second server did not map the saved engine: %q", logs.all())
	}
	mapped := second.snap.Load()
	if !mapped.sealed || !has(t, second, "lib/Ärger.ts") || !has(t, second, "src/a.go") {
		t.Fatalf("the mapped engine does not answer: %+v", mapped)
	}
	if _, err := second.Reindex(context.Background()); err != nil {
		t.Fatal(err)
	}
	if cur := second.snap.Load(); cur.ix != mapped.ix || cur.eng != mapped.eng {
		t.Error("a reindex of the same files replaced what was mapped")
	}

	write(t, filepath.Join(dir, "src", "new.go"))
	second.Changed([]string{filepath.Join(dir, "src", "new.go")})
	if !has(t, second, "src/new.go") {
		t.Error("a file added to a sealed index is not found")
	}
	second.Close()
	logs = logLines{}
	third := New(opts)
	defer third.Close()
	third.SetRoots([]string{dir})
	if cur := waitState(t, third, func(cur *snapshot) bool { return cur.sealed }); cur.ix.Len() != 5 || !has(t, third, "src/new.go") {
		t.Errorf("the file added was not written in the base: %v", cur.ix.Files())
	}
}

// TestHistoryReadDuringTheVerifyingWalk: a server restarted on a known
// repository reads its history while the walk verifies the saved index,
// not after it — a request waiting for the history pauses that walk, and
// after a real restart on git's own tree "builtin-rm.c" waited its 3 s
// and was withheld while the walk waited for it in turn.
func TestHistoryReadDuringTheVerifyingWalk(t *testing.T) {
	repo := vcstest.New(t)
	repo.Write("builtin-rm.c", vcstest.Text("rm", 20))
	repo.Commit("rm")
	repo.Mv("builtin-rm.c", "builtin/rm.c")
	repo.Commit("move")
	opts := Options{Symbols: symbols.IndexerOptions{CacheDir: t.TempDir()}}
	first := New(opts)
	first.SetRoots([]string{repo.Dir})
	if !has(t, first, "builtin/rm.c") || !first.WaitHistory(context.Background(), 10*time.Second) {
		t.Fatal("the first server did not index the repository")
	}
	first.Close()

	// Every reader of the walk is held, not only the first.
	walking, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	opts.Walk.Progress = func(read, found int64) {
		once.Do(func() { close(walking) })
		<-release
	}
	second := New(opts)
	defer second.Close()
	defer close(release)
	second.SetRoots([]string{repo.Dir})
	<-walking
	if !second.Status().IndexStale {
		t.Fatal("not answering from the saved index")
	}
	if !second.WaitHistory(context.Background(), 10*time.Second) {
		t.Fatal("the history was not read while the walk verified the saved index")
	}
	if !second.Status().IndexStale {
		t.Error("the walk was not held: the history may have followed it")
	}
}

// logLines collects a session's log.
type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) add(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func (l *logLines) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.lines)
}

// wait reports whether a line containing sub is logged within 10 s.
func (l *logLines) wait(sub string) bool {
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if slices.ContainsFunc(l.all(), func(line string) bool { return strings.Contains(line, sub) }) {
			return true
		}
	}
	return false
}

// TestPacedWalkDoesNotWaitForItsWaiter: a request that waits for the
// index (a change its client reported) while the walk verifying a saved
// index gives way to requests must not hold that walk up: pace would
// pause it 50 ms a directory for as long as the request lasts.
func TestPacedWalkDoesNotWaitForItsWaiter(t *testing.T) {
	dir := t.TempDir()
	for i := range 1000 {
		write(t, filepath.Join(dir, fmt.Sprintf("d%d", i), "f.go"))
	}
	opts := Options{Symbols: symbols.IndexerOptions{CacheDir: t.TempDir()}, NoSymbols: true, NoContent: true}
	first := New(opts)
	first.SetRoots([]string{dir})
	if _, err := first.Engine(context.Background()); err != nil {
		t.Fatal(err)
	}
	first.Close()

	walking, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	opts.Walk.Progress = func(read, found int64) {
		once.Do(func() { close(walking); <-release })
	}
	s := New(opts)
	defer s.Close()
	s.SetRoots([]string{dir})
	<-walking
	end := s.Begin()
	defer end()
	write(t, filepath.Join(dir, "d0", "new.go"))
	s.Changed([]string{filepath.Join(dir, "d0", "new.go")})
	done := make(chan time.Time)
	go func() {
		s.Engine(context.Background())
		done <- time.Now()
	}()
	time.Sleep(20 * time.Millisecond) // the request is blocked on the walk
	released := time.Now()
	close(release)
	select {
	case at := <-done:
		if took := at.Sub(released); took > 6*time.Second {
			t.Errorf("the request waited %v for a walk of 1000 directories", took)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the request waited for the walk, the walk for the request")
	}
	if !has(t, s, "d0/new.go") {
		t.Error("the reported file is not in the answer")
	}
}

// TestPollingSeesChurn: without a watcher, rescans find files made and
// deleted that nobody reported (each rescan checks the tree against the
// index and applies the directories that differ).
func TestPollingSeesChurn(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "src", "a.go"))
	s := New(Options{RescanEvery: 20 * time.Millisecond, Symbols: noCache, NoContent: true})
	defer s.Close()
	s.SetRoots([]string{dir})
	if !has(t, s, "src/a.go") {
		t.Fatal("first index misses src/a.go")
	}
	s.tree.StartPolling()
	write(t, filepath.Join(dir, "src", "deep", "er", "b.go"))
	os.Remove(filepath.Join(dir, "src", "a.go"))
	deadline := time.Now().Add(10 * time.Second)
	for !has(t, s, "src/deep/er/b.go") || has(t, s, "src/a.go") {
		if time.Now().After(deadline) {
			t.Fatal("polling did not see a file made and one deleted")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestPollingDirTimes: between rescans, a poll of the directories' times
// finds a file made (in a directory made too) and one deleted, and
// nothing when nothing changed.
func TestPollingDirTimes(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "src", "a.go"))
	write(t, filepath.Join(dir, "src", "b.go"))
	s := New(Options{Symbols: noCache, NoContent: true})
	defer s.Close()
	s.SetRoots([]string{dir})
	if !has(t, s, "src/a.go") {
		t.Fatal("first index misses src/a.go")
	}
	s.tree.PollDirs() // the first: what changed while the walk ran (nothing)
	s.tree.PollDirs()
	if !s.changes.Settled(time.Now(), 0) {
		t.Fatal("polls of an unchanged tree queued changes")
	}
	write(t, filepath.Join(dir, "src", "deep", "c.go"))
	os.Remove(filepath.Join(dir, "src", "a.go"))
	later := time.Now().Add(time.Minute) // whatever the clock's grain
	os.Chtimes(filepath.Join(dir, "src"), later, later)
	s.tree.PollDirs()
	deadline := time.Now().Add(5 * time.Second)
	for !has(t, s, "src/deep/c.go") || has(t, s, "src/a.go") {
		if time.Now().After(deadline) {
			t.Fatal("a poll of the directories' times missed a file made and one deleted")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestPollingSeesEdits: without a watcher, a file edited in place (its
// directory unchanged) reaches the symbols at a later poll — the first
// poll re-checks every file, the next ones those whose stat changed.
func TestPollingSeesEdits(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "src", "a.go")
	write(t, a)
	os.WriteFile(a, []byte("package a\n\nfunc Alpha() {}\n"), 0o644)
	s := New(Options{RescanEvery: 20 * time.Millisecond, Symbols: noCache, NoContent: true})
	defer s.Close()
	s.SetRoots([]string{dir})
	if _, err := s.SymbolEngine(context.Background()); err != nil {
		t.Fatal(err)
	}
	s.tree.StartPolling()
	for i, name := range []string{"Beta", "Gamma"} { // an edit before the first poll or after it, then one surely after
		os.WriteFile(a, []byte("package a\n\nfunc "+name+"() {}\n"), 0o644)
		deadline := time.Now().Add(10 * time.Second)
		for {
			eng, _ := s.SymbolEngine(context.Background())
			if ms, _ := eng.SearchSymbols(context.Background(), rank.SymbolRequest{Query: name}); len(ms) == 1 && ms[0].Symbol.Name == name {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("edit %d: polling never saw %s", i, name)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// TestReindexFindsWhatWasNotReported: a reindex checks the whole tree
// against what is served and serves what a fresh walk lists — files and
// directories come and gone unreported, an ignore file edited in place
// (which directory times cannot tell) — and keeps what is served, mapped
// as it is, when the tree holds the same files.
func TestReindexFindsWhatWasNotReported(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"src/a.go", "src/b.go", "docs/x.md", "old/deep/y.go", "gen/out.go"} {
		write(t, filepath.Join(dir, f))
	}
	s := New(Options{Symbols: noCache})
	defer s.Close()
	s.SetRoots([]string{dir})
	if !has(t, s, "src/a.go") {
		t.Fatal("first index misses src/a.go")
	}
	ignore := func(text string) func() {
		return func() { os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(text), 0o644) }
	}
	for _, step := range []struct {
		name   string
		change func()
	}{
		{"nothing changed", func() {}},
		{"a file added in a new directory", func() { write(t, filepath.Join(dir, "src", "new", "c.go")) }},
		{"a file removed", func() { os.Remove(filepath.Join(dir, "src", "b.go")) }},
		{"a directory tree removed", func() { os.RemoveAll(filepath.Join(dir, "old")) }},
		{"a file renamed", func() { os.Rename(filepath.Join(dir, "docs", "x.md"), filepath.Join(dir, "docs", "z.md")) }},
		{"an ignore file excludes a directory", ignore("gen/\n")},
		{"the ignore file edited in place to let it in again", ignore("nothing\n")},
	} {
		before := s.snap.Load()
		step.change()
		if _, err := s.Reindex(context.Background()); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		cur := s.snap.Load()
		walked := workspace.Build([]string{dir}, workspace.Options{})
		if !slices.Equal(cur.ix.Files(), walked.Files()) || !slices.Equal(cur.ix.Dirs, walked.Dirs) || !slices.Equal(cur.ix.Skipped, walked.Skipped) {
			t.Errorf("%s: served %v, a walk lists %v", step.name, cur.ix.Files(), walked.Files())
		}
		if step.name == "nothing changed" && (cur.ix != before.ix || cur.eng != before.eng) {
			t.Errorf("%s: what was served was replaced", step.name)
		}
		for _, f := range walked.Files() {
			if !has(t, s, f.Path) {
				t.Errorf("%s: %s is not answered", step.name, f.Path)
			}
		}
	}
}

// TestReindexWaitsAsBackground: a reindex, inside a request, counts as
// waiting for the background work from its start, so that pace never
// holds that work behind it — also while the index is being rebuilt,
// before the reindex waits for the passes.
func TestReindexWaitsAsBackground(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n\nfunc Alpha() {}\n"), 0o644)
	s := New(Options{Symbols: noCache})
	defer s.Close()
	s.SetRoots([]string{dir})
	if _, err := s.SymbolEngine(context.Background()); err != nil {
		t.Fatal(err)
	}
	end := s.Begin()     // the request the reindex arrives in
	s.files.apply.Lock() // the rebuild waits here, the reindex for it
	held := true
	defer func() {
		if held { // a failure below still lets the rebuild, and Close, go on
			s.files.apply.Unlock()
		}
	}()
	done := make(chan error, 1)
	go func() {
		_, err := s.Reindex(context.Background())
		done <- err
	}()
	for deadline := time.Now().Add(10 * time.Second); !s.req.AllWaiting(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("a reindex under way: not every request in progress counts as waiting for the background work")
		}
	}
	s.files.apply.Unlock()
	held = false
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	end()
	if st := s.Status(); st.Symbols != 1 || !st.SymbolsReady {
		t.Errorf("after the reindex: %+v", st)
	}
}

// TestNewGenerationStopsTheFullPass: a full pass over a generation that
// a later one replaces (a reindex, the roots set again) stops where it
// is rather than parse every file for answers nobody will see; the
// reindex's pass parses them all again.
func TestNewGenerationStopsTheFullPass(t *testing.T) {
	const files = 20
	dir := t.TempDir()
	for i := range files {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d.go", i)), []byte("package f\n\nfunc F() {}\n"), 0o644)
	}
	held, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	var parsed atomic.Int32
	s := New(Options{NoContent: true, Symbols: symbols.IndexerOptions{CacheDir: "-", Workers: 1,
		// The first pass is held at its first call, until a reindex is
		// asked.
		Pace:     func() { once.Do(func() { close(held); <-release }) },
		Progress: func(int, int) { parsed.Add(1) },
	}})
	defer s.Close()
	s.SetRoots([]string{dir})
	<-held
	s.mu.Lock()
	first := s.want
	s.mu.Unlock()
	reindexed := make(chan error, 1)
	go func() {
		_, err := s.Reindex(context.Background())
		reindexed <- err
	}()
	for wanted := false; !wanted; time.Sleep(time.Millisecond) {
		s.mu.Lock()
		wanted = s.want > first
		s.mu.Unlock()
	}
	close(release)
	if err := <-reindexed; err != nil {
		t.Fatal(err)
	}
	if st := s.Status(); st.Symbols != files || !st.SymbolsReady {
		t.Fatalf("after the reindex's pass: %+v", st)
	}
	// The first pass may hand out a file or two before it sees it is
	// stopped; run whole, it parses every file.
	if n := parsed.Load(); n >= 2*files-files/2 {
		t.Errorf("%d files parsed over two generations of %d files: the first pass was not stopped", n, files)
	}
}

// TestWaitingRequestAnswersFromTheBaseSwappedIn: a request that waits for
// the passes (LocateEngine, as a reindex does) answers from the snapshot
// served when its wait ends — after a reindex that found a file made,
// the base compacted from the walk — not from the one served when it
// began, which it would otherwise keep on the heap through the pass (at
// 1M files the walk's copy of the tree and the base it was over).
func TestWaitingRequestAnswersFromTheBaseSwappedIn(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"src/a.go", "src/b.go", "docs/readme.md"} {
		write(t, filepath.Join(dir, filepath.FromSlash(p)))
	}
	s := New(Options{Symbols: symbols.IndexerOptions{CacheDir: t.TempDir()}})
	defer s.Close()
	s.SetRoots([]string{dir})
	waitState(t, s, func(cur *snapshot) bool { return cur.sealed })
	if _, err := s.LocateEngine(context.Background()); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		write(t, filepath.Join(dir, "src", fmt.Sprintf("made%d.go", i)))
		reindexed := make(chan error, 1)
		wanted := passHost{background{s}}.Wanted()
		go func() {
			_, err := s.Reindex(context.Background())
			reindexed <- err
		}()
		for (passHost{background{s}}).Wanted() == wanted { // the reindex asked for
			time.Sleep(time.Millisecond)
		}
		eng, err := s.LocateEngine(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if err := <-reindexed; err != nil {
			t.Fatal(err)
		}
		cur := s.snap.Load()
		if !cur.sealed || eng.Index() != cur.ix {
			t.Fatalf("reindex %d: answered from %p (%d files), served %p (%d files, sealed %v)", i, eng.Index(), eng.Index().Len(), cur.ix, cur.ix.Len(), cur.sealed)
		}
	}
}
