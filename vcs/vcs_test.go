package vcs

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"wayfind/vcs/vcstest"
	"wayfind/workspace"
)

func build(t *testing.T, dir string, prev *Record) *Record {
	t.Helper()
	rec, err := Build(context.Background(), dir, prev)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

func TestFates(t *testing.T) {
	r := vcstest.New(t)
	r.Write("builtin-rm.c", vcstest.Text("rm", 30))
	r.Write("loader.c", vcstest.Text("loader", 30))
	r.Write("a.txt", vcstest.Text("a", 30))
	r.Write("keep.c", vcstest.Text("keep", 30))
	r.Commit("start")
	r.Mv("builtin-rm.c", "rm.c")
	mv1 := r.Commit("flatten")
	r.Mv("rm.c", "builtin/rm.c")
	mv2 := r.Commit("Move into builtin/")
	r.Git("rm", "-q", "loader.c")
	del := r.Commit("remove legacy loader")
	// a.txt moves away, then a new, unrelated a.txt is born and deleted.
	r.Mv("a.txt", "docs/a.txt")
	docs := r.Commit("docs")
	r.Write("a.txt", vcstest.Text("other", 30))
	r.Commit("a new a.txt")
	r.Git("rm", "-q", "a.txt")
	del2 := r.Commit("drop the new a.txt")

	rec := build(t, r.Dir, nil)
	cases := []struct {
		old     string
		path    string // "" for deleted
		commit  string
		subject string
	}{
		{"builtin-rm.c", "builtin/rm.c", mv1, "flatten"}, // the commit that left the old name
		{"rm.c", "builtin/rm.c", mv2, "Move into builtin/"},
		{"loader.c", "", del, "remove legacy loader"},
		// A later a.txt was deleted; the one before moved on and lives:
		// the name leads there (and says what became of the later one).
		{"a.txt", "docs/a.txt", docs, "docs"},
	}
	for _, c := range cases {
		f, ok := rec.Fate(c.old)
		if !ok {
			t.Errorf("%s: no fate", c.old)
			continue
		}
		if f.Path != c.path || f.Deleted != (c.path == "") || f.Commit.Hash != c.commit || f.Commit.Subject != c.subject {
			t.Errorf("%s: got %+v, want path %q commit %s %q", c.old, f, c.path, c.commit, c.subject)
		}
		if f.Commit.Time != 1714564800 {
			t.Errorf("%s: commit time %d", c.old, f.Commit.Time)
		}
	}
	if f, _ := rec.Fate("a.txt"); f.LaterDeleted.Hash != del2 {
		t.Errorf("a.txt: the later file's deletion %+v, want %s", f.LaterDeleted, del2)
	}
	for _, live := range []string{"keep.c", "builtin/rm.c", "docs/a.txt", "never-was.c"} {
		if f, ok := rec.Fate(live); ok {
			t.Errorf("%s is no stale path, got %+v", live, f)
		}
	}
	if got := strings.Join(rec.Gone(), " "); got != "a.txt builtin-rm.c loader.c rm.c" {
		t.Errorf("Gone() = %q", got)
	}
	if rec.Renames != 3 || rec.Commits != 7 {
		t.Errorf("renames %d commits %d, want 3 and 7", rec.Renames, rec.Commits)
	}
}

// A branch begun before a move edits the old path; its merge carries the
// edit to the new one. The old path must still lead to the new one, not
// to a file the edit seemed to bring back.
func TestBranchEditAfterMove(t *testing.T) {
	r := vcstest.New(t)
	r.Write("old.c", vcstest.Text("old", 30))
	r.Commit("start")
	r.Git("branch", "topic")
	r.Date = "2024-05-02T12:00:00Z"
	r.Mv("old.c", "src/new.c")
	mv := r.Commit("move")
	// The topic's edit is committed after the move: the log, oldest
	// first, shows it after the move, on a path already left.
	r.Date = "2024-05-03T12:00:00Z"
	r.Git("checkout", "-q", "topic")
	r.Write("old.c", vcstest.Text("old", 30)+"topic edit\n")
	r.Commit("edit on a topic")
	r.Git("checkout", "-q", "main")
	r.Git("merge", "-q", "--no-edit", "topic")
	rec := build(t, r.Dir, nil)
	f, ok := rec.Fate("old.c")
	if !ok || f.Path != "src/new.c" || f.Commit.Hash != mv {
		t.Fatalf("old.c: %+v %v, want src/new.c in %s", f, ok, mv)
	}
}

func TestIncrementalAndRewritten(t *testing.T) {
	r := vcstest.New(t)
	r.Write("a.c", vcstest.Text("a", 30))
	r.Commit("one")
	first := build(t, r.Dir, nil)
	if same := build(t, r.Dir, first); same != first {
		t.Error("an unchanged HEAD rebuilt the record")
	}
	r.Mv("a.c", "b.c")
	r.Commit("two")
	next := build(t, r.Dir, first)
	if f, ok := next.Fate("a.c"); !ok || f.Path != "b.c" {
		t.Errorf("after an update a.c → %+v %v", f, ok)
	}
	if next.Commits != 2 {
		t.Errorf("commits %d after one more, want 2", next.Commits)
	}
	if _, ok := first.Fate("a.c"); ok {
		t.Error("the update changed the record it started from")
	}
	// History rewritten: the amended commit renames elsewhere.
	r.Mv("b.c", "c.c")
	r.Git("commit", "-q", "--amend", "-m", "two, amended")
	rewritten := build(t, r.Dir, next)
	if f, ok := rewritten.Fate("a.c"); !ok || f.Path != "c.c" {
		t.Errorf("after a rewrite a.c → %+v %v, want c.c", f, ok)
	}
	if _, ok := rewritten.Fate("b.c"); ok {
		t.Error("b.c never existed in the rewritten history")
	}
	if rewritten.Commits != 2 {
		t.Errorf("commits %d after the rewrite, want 2 (rebuilt, not appended)", rewritten.Commits)
	}
}

// A root below the repository's top speaks its own paths.
func TestRootBelowTop(t *testing.T) {
	r := vcstest.New(t)
	r.Write("pkg/x/old.go", vcstest.Text("x", 30))
	r.Write("other/y.go", vcstest.Text("y", 30))
	r.Commit("one")
	r.Mv("pkg/x/old.go", "pkg/x/new.go")
	r.Mv("other/y.go", "other/z.go")
	r.Commit("two")
	rec := build(t, filepath.Join(r.Dir, "pkg"), nil)
	if rec.Prefix != "pkg/" {
		t.Fatalf("prefix %q", rec.Prefix)
	}
	if f, ok := rec.Fate("x/old.go"); !ok || f.Path != "x/new.go" {
		t.Errorf("x/old.go → %+v %v", f, ok)
	}
	if got := rec.Gone(); len(got) != 1 || got[0] != "x/old.go" {
		t.Errorf("Gone() = %v: only the root's own paths", got)
	}
}

func TestNoRepository(t *testing.T) {
	if _, err := Build(context.Background(), t.TempDir(), nil); err != ErrNoRepository {
		t.Fatalf("got %v, want ErrNoRepository", err)
	}
	r := vcstest.New(t) // no commit yet
	if _, err := Build(context.Background(), r.Dir, nil); err != ErrNoRepository {
		t.Fatalf("empty repository: got %v, want ErrNoRepository", err)
	}
}

func TestCoChanged(t *testing.T) {
	r := vcstest.New(t)
	r.Write("a.go", vcstest.Text("a", 5))
	r.Write("b.go", vcstest.Text("b", 5))
	r.Write("c.go", vcstest.Text("c", 5))
	r.Commit("one")
	for i := range 3 {
		r.Write("a.go", vcstest.Text("a", 6+i))
		r.Write("b.go", vcstest.Text("b", 6+i))
		r.Commit("together")
	}
	r.Write("a.go", vcstest.Text("a", 20))
	r.Write("c.go", vcstest.Text("c", 20))
	r.Commit("once with c")
	rec := build(t, r.Dir, nil)
	got := rec.CoChanged("a.go")
	// "one" (all three) counts once more for each pair.
	if len(got) != 2 || got[0] != (Partner{"b.go", 4}) || got[1] != (Partner{"c.go", 2}) {
		t.Errorf("CoChanged(a.go) = %+v", got)
	}
}

// TestChanges: a file's changes are the commits that touched it under
// any of its names, counted once a commit; a record read from the cache
// and one brought up to date from an older one count the same.
func TestChanges(t *testing.T) {
	r := vcstest.New(t)
	r.Write("a.go", vcstest.Text("a", 5))
	r.Write("b.go", vcstest.Text("b", 5))
	r.Commit("one")
	r.Write("a.go", vcstest.Text("a", 6))
	r.Commit("two")
	r.Mv("a.go", "pkg/a.go")
	r.Commit("move")
	older := build(t, r.Dir, nil)
	r.Write("pkg/a.go", vcstest.Text("a", 7))
	r.Commit("three")
	rec := build(t, r.Dir, nil)
	loaded, _ := roundTrip(t, rec)
	synced := build(t, r.Dir, older)
	for name, rc := range map[string]*Record{"built": rec, "loaded": loaded, "synced": synced} {
		for p, want := range map[string]int{"pkg/a.go": 4, "b.go": 1, "a.go": 0, "none.go": 0} {
			if got := rc.Changes(p); got != want {
				t.Errorf("%s: Changes(%s) = %d, want %d", name, p, got, want)
			}
		}
	}
}

// TestCoChangedBy: a file committed with a busy one fewer times than its
// coPartners others is left out of the busy file's partners, but its own
// partners name the busy file; CoChangedBy reads them backwards, and so
// does a record loaded from the cache.
func TestCoChangedBy(t *testing.T) {
	r := vcstest.New(t)
	for i := range coPartners + 1 {
		times := minCoChange + 1
		if i == coPartners {
			times = minCoChange // the least frequent: left out of hub.go's
		}
		for k := range times {
			r.Write("hub.go", vcstest.Text(fmt.Sprint("hub", i, k), 5))
			r.Write(fmt.Sprintf("x%02d.go", i), vcstest.Text(fmt.Sprint("x", k), 5))
			r.Commit("together")
		}
	}
	rec := build(t, r.Dir, nil)
	last := fmt.Sprintf("x%02d.go", coPartners)
	has := func(ps []Partner, p string) bool {
		return slices.ContainsFunc(ps, func(q Partner) bool { return q.Path == p })
	}
	if has(rec.CoChanged("hub.go"), last) || !has(rec.CoChanged(last), "hub.go") {
		t.Fatalf("partners: hub.go %+v, %s %+v", rec.CoChanged("hub.go"), last, rec.CoChanged(last))
	}
	loaded, _ := roundTrip(t, rec)
	for _, rc := range []*Record{rec, loaded} {
		by := rc.CoChangedBy("hub.go")
		if len(by) != coPartners+1 || by[len(by)-1] != (Partner{last, minCoChange}) {
			t.Errorf("CoChangedBy(hub.go) = %+v", by)
		}
	}
}

// roundTrip saves rec into a cache directory and loads it back; it
// returns the record loaded and the directory.
func roundTrip(t *testing.T, rec *Record) (*Record, string) {
	t.Helper()
	dir := t.TempDir()
	if err := Save(dir, rec); err != nil {
		t.Fatal(err)
	}
	got, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return got, dir
}

func TestCacheRoundTrip(t *testing.T) {
	r := vcstest.New(t)
	r.Write("a.c", vcstest.Text("a", 30))
	r.Write("b.c", vcstest.Text("b", 30))
	r.Commit("one")
	r.Mv("a.c", "x/a.c")
	r.Git("rm", "-q", "b.c")
	r.Commit("two")
	rec := build(t, r.Dir, nil)
	got, dir := roundTrip(t, rec)
	for _, p := range []string{"a.c", "b.c"} {
		want, _ := rec.Fate(p)
		if f, ok := got.Fate(p); !ok || f != want {
			t.Errorf("%s after a round trip: %+v, want %+v", p, f, want)
		}
	}
	if got.Head != rec.Head || got.Commits != rec.Commits {
		t.Errorf("head/commits lost: %+v", got)
	}
	// What is not a record is refused, and Sync rebuilds over it.
	if err := os.WriteFile(filepath.Join(dir, cacheFile), []byte("garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir); err == nil {
		t.Error("garbage loaded")
	}
	if _, err := Load(t.TempDir()); err != ErrNoCache {
		t.Errorf("empty dir: %v", err)
	}
	base := t.TempDir()
	s, err := Sync(context.Background(), base, r.Dir, nil, t.Logf)
	if err != nil || s.Commits != 2 {
		t.Fatalf("Sync: %v %+v", err, s)
	}
	if again, err := Load(workspace.RootCacheDir(base, r.Dir)); err != nil || again.Head != s.Head {
		t.Errorf("Sync wrote no record: %v", err)
	}
}

func TestMapLine(t *testing.T) {
	r := vcstest.New(t)
	var lines []string
	for i := 1; i <= 20; i++ {
		lines = append(lines, "line "+strings.Repeat("x", i))
	}
	r.Write("old.c", strings.Join(lines, "\n")+"\n")
	r.Commit("one")
	// Moved with two lines added at the top and line 10 rewritten.
	lines[9] = "rewritten"
	r.Write("src/new.c", "added 1\nadded 2\n"+strings.Join(lines, "\n")+"\n")
	r.Git("rm", "-q", "old.c")
	r.Commit("move and edit")
	rec := build(t, r.Dir, nil)
	f, ok := rec.Fate("old.c")
	if !ok || f.Path != "src/new.c" {
		t.Fatalf("old.c → %+v %v", f, ok)
	}
	for _, c := range []struct {
		line int
		want LineMap
	}{
		{1, LineMap{3, true}},
		{9, LineMap{11, true}},
		{10, LineMap{12, false}}, // edited: its hunk
		{20, LineMap{22, true}},
	} {
		got, ok := MapLine(context.Background(), r.Dir, rec, "old.c", f, c.line)
		if !ok || got != c.want {
			t.Errorf("line %d → %+v %v, want %+v", c.line, got, ok, c.want)
		}
	}
}

func TestHunks(t *testing.T) {
	diff := []byte("@@ -3,0 +4,2 @@\n+a\n+b\n@@ -10,2 +12 @@\n-x\n-y\n+z\n@@ -20 +21,0 @@\n-gone\n")
	for _, c := range []struct {
		line int
		want LineMap
	}{
		{3, LineMap{3, true}},    // before the insertion point
		{4, LineMap{6, true}},    // after two inserted lines
		{10, LineMap{12, false}}, // in a changed hunk
		{12, LineMap{13, true}},  // after it: +2 −1
		{20, LineMap{22, false}}, // removed: where it was
		{25, LineMap{25, true}},  // +2 −1 −1
	} {
		if got := mapThroughHunks(diff, c.line); got != c.want {
			t.Errorf("line %d → %+v, want %+v", c.line, got, c.want)
		}
	}
}

// A path deleted and later given a file again is the same path: a name
// that was renamed into it leads on to where that path's file went.
func TestPathGivenAgain(t *testing.T) {
	r := vcstest.New(t)
	r.Write("pytest/plugin/__init__.py", vcstest.Text("plugin", 30))
	r.Commit("start")
	r.Mv("pytest/plugin/__init__.py", "_pytest/__init__.py")
	r.Commit("rename the package")
	r.Git("rm", "-q", "_pytest/__init__.py")
	r.Commit("version from setuptools_scm")
	r.Write("_pytest/__init__.py", vcstest.Text("generated again", 3))
	r.Commit("back")
	r.Mv("_pytest/__init__.py", "src/_pytest/__init__.py")
	last := r.Commit("src layout")
	rec := build(t, r.Dir, nil)
	for _, old := range []string{"pytest/plugin/__init__.py", "_pytest/__init__.py"} {
		if f, ok := rec.Fate(old); !ok || f.Deleted || f.Path != "src/_pytest/__init__.py" {
			t.Errorf("%s → %+v %v, want src/_pytest/__init__.py", old, f, ok)
		}
	}
	if f, _ := rec.Fate("_pytest/__init__.py"); f.Commit.Hash != last {
		t.Errorf("_pytest/__init__.py left in %s, want %s", f.Commit.Hash, last)
	}
}

// TestKinOfADelete: a commit that deletes a file and adds one file of the
// same name or stem elsewhere (too little text in common for git to call
// it a rename) leaves the deleted path a kin, where that file is today;
// two such adds, or none, leave none. The kin survives the cache.
func TestKinOfADelete(t *testing.T) {
	r := vcstest.New(t)
	r.Write("sympy/differential_geometry/Rn.py", vcstest.Text("old module", 30))
	r.Write("lib/loader.c", vcstest.Text("loader", 30))
	r.Write("lib/util.c", vcstest.Text("util", 30))
	r.Commit("one")
	r.Git("rm", "-q", "sympy/differential_geometry/Rn.py", "lib/loader.c", "lib/util.c")
	r.Write("sympy/diffgeom/rn.py", vcstest.Text("rewritten from scratch", 30))
	r.Write("src/loader.h", vcstest.Text("a header", 30))
	r.Write("a/util.c", vcstest.Text("first", 30))
	r.Write("b/util.c", vcstest.Text("second", 30))
	r.Commit("two")
	rec := build(t, r.Dir, nil)
	loaded, _ := roundTrip(t, rec)
	for _, got := range []*Record{rec, loaded} {
		for p, want := range map[string]string{"sympy/differential_geometry/Rn.py": "sympy/diffgeom/rn.py", "lib/loader.c": "src/loader.h", "lib/util.c": ""} {
			f, ok := got.Fate(p)
			if !ok || !f.Deleted || f.Kin != want {
				t.Errorf("%s: %+v, want deleted with kin %q", p, f, want)
			}
		}
	}
}

// TestSplit: a rename that changed the file's name and kept little of it
// while its commit added files beside the new one is a split; a rename
// that kept most of the file is not, whatever was added beside it.
func TestSplit(t *testing.T) {
	lines := func(prefix string, from, to int) string {
		var b strings.Builder
		for i := from; i < to; i++ {
			fmt.Fprintf(&b, "%s line %d with enough text to compare\n", prefix, i)
		}
		return b.String()
	}
	r := vcstest.New(t)
	r.Write("testing/test_python.py", lines("python", 0, 30))
	r.Write("lib/module.py", lines("module", 0, 30))
	r.Commit("one")
	r.Git("rm", "-q", "testing/test_python.py", "lib/module.py")
	r.Write("testing/python/fixture.py", lines("python", 0, 18)+lines("fixture", 0, 12))
	r.Write("testing/python/collect.py", lines("python", 18, 30)+lines("collect", 0, 18))
	r.Write("pkg/mod.py", lines("module", 0, 30)+"one more line\n")
	r.Write("pkg/__init__.py", "\n")
	r.Commit("split the tests; move the module into a package")
	rec := build(t, r.Dir, nil)
	loaded, _ := roundTrip(t, rec)
	for _, got := range []*Record{rec, loaded} {
		for p, want := range map[string]Fate{"testing/test_python.py": {Path: "testing/python/fixture.py", Split: true}, "lib/module.py": {Path: "pkg/mod.py"}} {
			f, ok := got.Fate(p)
			if !ok || f.Path != want.Path || f.Split != want.Split {
				t.Errorf("%s: %+v, want %s, split %v", p, f, want.Path, want.Split)
			}
		}
	}
}

// renamedRepo is a repository of two commits, a.c renamed to b.c in the
// second.
func renamedRepo(t *testing.T) *vcstest.Repo {
	r := vcstest.New(t)
	r.Write("a.c", vcstest.Text("a", 30))
	r.Commit("one")
	r.Mv("a.c", "b.c")
	r.Commit("two")
	return r
}

// TestOneReaderAtATime: while a process holds the cache's lock, Cached
// says another is reading and Sync waits for it (here, past its
// context); once it is released, one Sync reads the log and the next
// finds the record at HEAD without reading.
func TestOneReaderAtATime(t *testing.T) {
	r := renamedRepo(t)
	base := t.TempDir()
	unlock, ok := TryLock(base, r.Dir)
	if !ok {
		t.Fatal("the lock of a fresh cache is taken")
	}
	if _, behind, reading, err := Cached(context.Background(), base, r.Dir, 10, t.Logf); err != nil || behind != 2 || !reading {
		t.Fatalf("Cached while locked: behind %d, reading %v, %v; want 2 commits behind, another reading", behind, reading, err)
	}
	if _, again := TryLock(base, r.Dir); again {
		t.Fatal("the lock was taken twice")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	if _, _, err := SyncRead(ctx, base, r.Dir, nil, t.Logf); err == nil {
		t.Fatal("Sync read beside the lock's holder")
	}
	unlock()
	rec, read, err := SyncRead(context.Background(), base, r.Dir, nil, t.Logf)
	if err != nil || !read || rec.Commits != 2 {
		t.Fatalf("Sync after the release: read %v, %+v, %v", read, rec, err)
	}
	if _, read, err := SyncRead(context.Background(), base, r.Dir, nil, t.Logf); err != nil || read {
		t.Fatalf("a second Sync read the log again: %v %v", read, err)
	}
	if _, behind, reading, _ := Cached(context.Background(), base, r.Dir, 10, t.Logf); behind != 0 || reading {
		t.Fatalf("Cached after: behind %d, reading %v", behind, reading)
	}
}

// TestWorktreesShareTheHistory: a new worktree of a repository finds the
// history its main tree read, and after a commit there reads only that
// commit.
func TestWorktreesShareTheHistory(t *testing.T) {
	r := renamedRepo(t)
	base := t.TempDir()
	if _, read, err := SyncRead(context.Background(), base, r.Dir, nil, t.Logf); err != nil || !read {
		t.Fatalf("the main tree's read: %v %v", read, err)
	}
	wt := filepath.Join(t.TempDir(), "wt")
	r.Git("worktree", "add", "-q", "-b", "side", wt)
	rec, behind, _, err := Cached(context.Background(), base, wt, 10, t.Logf)
	if err != nil || rec == nil || behind != 0 {
		t.Fatalf("a new worktree: record %v, %d behind, %v; want the main tree's, at its HEAD", rec != nil, behind, err)
	}
	os.WriteFile(filepath.Join(wt, "c.c"), []byte(vcstest.Text("c", 30)), 0o644)
	for _, args := range [][]string{{"add", "c.c"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "three"}} {
		if out, err := exec.Command("git", append([]string{"-C", wt}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	if _, behind, _, _ := Cached(context.Background(), base, wt, 10, t.Logf); behind != 1 {
		t.Fatalf("after a commit in the worktree: %d behind, want 1", behind)
	}
	if rec, read, err := SyncRead(context.Background(), base, wt, nil, t.Logf); err != nil || !read || rec.Commits != 3 {
		t.Fatalf("the worktree's read: %v %+v %v", read, rec, err)
	}
}

// TestReadResumes: a read stopped half-way leaves its last checkpoint in
// the cache, and the next read extends it to the same record a whole
// read makes; after an amend, the read starts from the checkpoint kept
// behind HEAD, not from the start.
func TestReadResumes(t *testing.T) {
	dir := vcstest.LongLog(t, 2*checkpointCommits+100).Dir
	base := t.TempDir()
	cacheDir := workspace.RootCacheDir(base, dir)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { // stop the reader once it has saved a checkpoint
		for ctx.Err() == nil {
			if _, err := Load(cacheDir); err == nil {
				cancel()
				return
			}
			time.Sleep(time.Millisecond)
		}
	}()
	if _, _, err := SyncRead(ctx, base, dir, nil, t.Logf); err == nil {
		t.Log("the read finished before it was stopped")
	}
	cancel()
	half, err := Load(cacheDir)
	if err != nil {
		t.Fatalf("nothing saved by the stopped read: %v", err)
	}
	rec, read, err := SyncRead(context.Background(), base, dir, nil, t.Logf)
	if err != nil || (!read && half.Commits < rec.Commits) {
		t.Fatalf("the second read: %v %v", read, err)
	}
	whole, err := Build(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Head != whole.Head || rec.Commits != whole.Commits || rec.Renames != whole.Renames {
		t.Errorf("resumed %s %d commits %d renames; whole %s %d %d", rec.Head, rec.Commits, rec.Renames, whole.Head, whole.Commits, whole.Renames)
	}
	if f, ok := rec.Fate("a.c"); !ok || f.Path != "b.c" {
		t.Errorf("a.c after the resumed read: %+v", f)
	}
	cp, err := loadFrom(cacheDir, checkpointName)
	if err != nil || cp.Commits != whole.Commits-checkpointCommits {
		t.Fatalf("the checkpoint behind HEAD: %v, %d commits; want %d", err, cp.Commits, whole.Commits-checkpointCommits)
	}
	if out, err := exec.Command("git", "-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--amend", "-m", "amended").CombinedOutput(); err != nil {
		t.Fatalf("amend: %v %s", err, out)
	}
	after, read, err := SyncRead(context.Background(), base, dir, nil, t.Logf)
	if err != nil || !read || after.Commits != whole.Commits {
		t.Fatalf("after the amend: %v %v %d commits", read, err, after.Commits)
	}
	if f, ok := after.Fate("a.c"); !ok || f.Path != "b.c" {
		t.Errorf("a.c after the amend: %+v", f)
	}
}

// TestAuthored: the record keeps the user's latest commits — git's own
// identity for the root — with their files as named today; another
// author's commits, a deleted file and a whole tree's commit are not theirs to
// weigh, and a changed identity reads the log again.
func TestAuthored(t *testing.T) {
	t.Setenv("GIT_AUTHOR_EMAIL", "t@example.invalid")
	r := vcstest.New(t)
	other := func(msg string) {
		r.Git("add", "-A")
		r.Git("commit", "-q", "--author=o <o@example.invalid>", "-m", msg)
	}
	r.Write("a.go", vcstest.Text("a", 20))
	r.Write("b.go", vcstest.Text("b", 20))
	r.Commit("mine: a and b")
	r.Write("c.go", vcstest.Text("c", 20))
	other("theirs: c")
	r.Mv("a.go", "pkg/a.go")
	r.Write("d.go", vcstest.Text("d", 20))
	r.Commit("mine: a moved, d")
	for i := range AuthoredCommitFiles + 1 {
		r.Write(fmt.Sprintf("sweep/%d.go", i), vcstest.Text(fmt.Sprint(i), 20))
	}
	r.Commit("mine: the whole tree")
	r.Git("rm", "-q", "b.go")
	other("theirs: b deleted")

	rec := build(t, r.Dir, nil)
	want := [][]string{nil, {"d.go", "pkg/a.go"}, {"pkg/a.go"}}
	got := rec.Authored()
	for _, fs := range got {
		slices.Sort(fs)
	}
	if rec.Author != "t@example.invalid" || !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("author %q, authored %q, want %q", rec.Author, got, want)
	}
	dir := t.TempDir()
	if err := Save(dir, rec); err != nil {
		t.Fatal(err)
	}
	if back, err := Load(dir); err != nil || back.Author != rec.Author || !slices.EqualFunc(back.Authored(), rec.Authored(), slices.Equal) {
		t.Fatalf("loaded %v: %q", err, back.Authored())
	}
	base := t.TempDir()
	if synced, err := Sync(context.Background(), base, r.Dir, nil, t.Logf); err != nil || synced.Author != "t@example.invalid" {
		t.Fatalf("sync: %v", err)
	}
	t.Setenv("GIT_AUTHOR_EMAIL", "o@example.invalid")
	theirs := build(t, r.Dir, rec)
	if got := theirs.Authored(); theirs.Author != "o@example.invalid" || !slices.EqualFunc(got, [][]string{nil, {"c.go"}}, slices.Equal) {
		t.Fatalf("another user: %q %q", theirs.Author, got)
	}
	// The cache at HEAD, saved for the user before: without a read, none
	// of theirs is the new user's; read again, the new user's.
	if cached, behind, _, err := Cached(context.Background(), base, r.Dir, 0, t.Logf); err != nil || behind != 0 || cached.Author != "" || len(cached.Authored()) != 0 {
		t.Fatalf("cached for another user: %v %d %+v", err, behind, cached)
	}
	synced, err := Sync(context.Background(), base, r.Dir, nil, t.Logf)
	if err != nil || synced.Author != "o@example.invalid" || !slices.EqualFunc(synced.Authored(), theirs.Authored(), slices.Equal) {
		t.Fatalf("sync for another user: %v %+v", err, synced)
	}
}
