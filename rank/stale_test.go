package rank

import (
	"context"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"wayfind/vcs"
	"wayfind/vcs/vcstest"
	"wayfind/workspace"
)

// staleRepo is a repository whose history moved, renamed, split and
// deleted files, and the engine over its checkout with and without the
// history attached.
func staleRepo(t *testing.T) (with, without *Engine, commits map[string]string) {
	r := vcstest.New(t)
	commits = map[string]string{}
	r.Write("builtin-rm.c", vcstest.Text("rm", 30))
	r.Write("builtin.h", vcstest.Text("builtin header", 3))
	r.Write("loader.c", vcstest.Text("loader", 30))
	r.Write("packages/jest-runner/src/runTest.js", vcstest.Text("run js", 30))
	r.Write("py/plugin/pytest_doctest.py", vcstest.Text("doctest", 30))
	r.Write("docs/configuration_reference.md", vcstest.Text("configuration", 30))
	r.Write("src/other/configuration_reference.md", vcstest.Text("another", 30))
	r.Commit("start")
	r.Mv("builtin-rm.c", "builtin/rm.c")
	r.Mv("py/plugin/pytest_doctest.py", "py/test/plugin/pytest_doctest.py")
	commits["move"] = r.Commit("Move 'builtin-*' into a 'builtin/' subdirectory")
	r.Mv("py/test/plugin/pytest_doctest.py", "src/_pytest/doctest.py")
	r.Mv("docs/configuration_reference.md", "docs/reference/configuration.md")
	commits["doctest"] = r.Commit("doctest plugin into _pytest")
	r.Git("rm", "-q", "loader.c")
	commits["delete"] = r.Commit("remove legacy loader")
	// Rewritten in place in another language: git sees a delete and an add.
	r.Git("rm", "-q", "packages/jest-runner/src/runTest.js")
	r.Write("packages/jest-runner/src/runTest.ts", vcstest.Text("rewritten in ts", 30))
	commits["ts"] = r.Commit("runTest in TypeScript")

	_, without, with = historyEngines(t, r.Dir)
	return with, without, commits
}

// historyEngines are the engines of the repository at dir: over its tree
// alone, and with its history read whole.
func historyEngines(t *testing.T, dir string) (roots []string, without, with *Engine) {
	t.Helper()
	roots, err := workspace.CleanRoots([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	without = New(workspace.Build(roots, workspace.Options{}))
	rec, err := vcs.Build(context.Background(), roots[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	return roots, without, without.WithRepoHistory(NewRepoHistory(roots, []*vcs.Record{rec}))
}

// TestStalePaths: every documented reading of an old path, with the
// history and without it.
func TestStalePaths(t *testing.T) {
	with, without, commits := staleRepo(t)
	cases := []struct {
		name, query string
		want        string // resolved path; "" for nothing
		why         string // a reason the answer carries
		gone        string // the commit a Gone names
		withoutWant string // the answer with names alone
		class       Class  // the answer's class with the history, when pinned
	}{
		{name: "an old path, exactly", query: "builtin-rm.c", want: "builtin/rm.c",
			why: "history:renamed " + commits["move"][:7]},
		{name: "from another machine, with a line", query: `C:\work\proj\builtin-rm.c:12`, want: "builtin/rm.c",
			why: "history:renamed " + commits["move"][:7]},
		{name: "a chain of moves, from its first name", query: "py/plugin/pytest_doctest.py", want: "src/_pytest/doctest.py",
			why: "history:renamed " + commits["move"][:7]},
		{name: "a chain of moves, from its second name", query: "py/test/plugin/pytest_doctest.py", want: "src/_pytest/doctest.py",
			why: "history:renamed " + commits["doctest"][:7]},
		{name: "an old path with a typo: a near name, its own class", query: "py/test/plugin/pytest_doctset.py", want: "src/_pytest/doctest.py",
			why: "typo:filename", class: ClassHistoryNear},
		{name: "an old path, exactly: history/moved", query: "py/plugin/pytest_doctest.py", want: "src/_pytest/doctest.py",
			why: "history:renamed", class: ClassHistoryMoved},
		{name: "a near name of a deleted path is not gone", query: "loadr.c"},
		{name: "another path ending in a deleted one is not gone", query: "src/loader.c"},
		{name: "several old names of one file, tied, are one answer", query: "plugin/pytest_doctest.py", want: "src/_pytest/doctest.py",
			why: "history:renamed"},
		{name: "same name moved: history and names agree", query: "docs/configuration_reference.md", want: "docs/reference/configuration.md",
			why: "history:renamed " + commits["doctest"][:7], withoutWant: "src/other/configuration_reference.md"},
		{name: "deleted: gone, nothing resolved", query: "loader.c", gone: commits["delete"]},
		{name: "deleted from another machine", query: "/home/u/proj/loader.c:3", gone: commits["delete"]},
		{name: "rewritten in place: today's file stands", query: "packages/jest-runner/src/runTest.js",
			want: "packages/jest-runner/src/runTest.ts", why: "ext:family", withoutWant: "packages/jest-runner/src/runTest.ts"},
		{name: "a file of today is never an old path", query: "builtin.h", want: "builtin.h", why: "exact", withoutWant: "builtin.h"},
	}
	ctx := context.Background()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := with.Resolve(ctx, ResolveRequest{Path: c.query})
			if err != nil {
				t.Fatal(err)
			}
			if got := resolvedPath(res); strings.HasPrefix(c.why, "history:") && got != c.want {
				t.Fatalf("with history: %q resolved to %q (candidates %+v), want %q", c.query, got, res.Candidates, c.want)
			}
			if got := firstPath(res); c.gone == "" && got != c.want {
				t.Fatalf("with history: %q answered %q first (candidates %+v), want %q", c.query, got, res.Candidates, c.want)
			}
			if c.want != "" && !strings.Contains(strings.Join(res.Candidates[0].Reasons, " "), c.why) {
				t.Errorf("reasons %v, want %q among them", res.Candidates[0].Reasons, c.why)
			}
			if c.class != "" && res.Class() != c.class {
				t.Errorf("class %s, want %s", res.Class(), c.class)
			}
			if c.gone != "" {
				if res.Gone == nil || res.Gone.Fate.Commit.Hash != c.gone || !res.Gone.Fate.Deleted {
					t.Errorf("gone %+v, want the commit %s", res.Gone, c.gone)
				}
			} else if res.Gone != nil {
				t.Errorf("gone %+v for a file that lives on", res.Gone)
			}
			if strings.HasPrefix(c.why, "history:") && (res.Moved == nil || res.Moved.Fate.Path != c.want) {
				t.Errorf("moved %+v", res.Moved)
			}
			res, err = without.Resolve(ctx, ResolveRequest{Path: c.query})
			if err != nil {
				t.Fatal(err)
			}
			if got := firstPath(res); (c.withoutWant != "" || c.gone != "") && got != c.withoutWant {
				t.Errorf("without history: %q answered %q first, want %q", c.query, got, c.withoutWant)
			}
			if res.Moved != nil || res.Gone != nil {
				t.Errorf("without history the answer speaks of it: %+v %+v", res.Moved, res.Gone)
			}
		})
	}
	// find/files with an old path: today's file first.
	fr, err := with.Find(ctx, FindRequest{Query: "py/plugin/pytest_doctest.py"})
	if err != nil {
		t.Fatal(err)
	}
	if len(fr.Matches) == 0 || fr.Matches[0].Path != "src/_pytest/doctest.py" || !strings.HasPrefix(fr.Matches[0].Reason, "history:renamed") {
		t.Fatalf("find with an old path: %+v", fr.Matches)
	}
	for i, m := range fr.Matches[1:] {
		if m.Path == fr.Matches[0].Path {
			t.Errorf("today's file listed twice (at %d)", i+1)
		}
	}
}

// TestStaleVerdict pins judgeStale's order: an exact old path always
// decides; a reading of the old paths decides from staleLead above
// today's best, ties within it, and is ignored below.
func TestStaleVerdict(t *testing.T) {
	const today = 0.9
	for _, c := range []struct {
		name string
		st   *staleReading
		want staleVerdict
	}{
		{"none", nil, staleIgnored},
		{"exact, below today's", &staleReading{exact: true, lexical: 0.5}, staleDecides},
		{"a lead of staleLead", &staleReading{lexical: today + staleLead}, staleDecides},
		{"a lead short of staleLead", &staleReading{lexical: today + staleLead/2}, staleTie},
		{"level", &staleReading{lexical: today}, staleTie},
		{"just within behind", &staleReading{lexical: today - staleLead/2}, staleTie},
		{"staleLead behind", &staleReading{lexical: today - staleLead}, staleIgnored},
	} {
		if got := judgeStale(c.st, today, true); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
		// Today's readings deciding nothing among themselves, a reading
		// within the lead decides.
		want := c.want
		if want == staleTie {
			want = staleDecides
		}
		if got := judgeStale(c.st, today, false); got != want {
			t.Errorf("%s, today undecided: %v, want %v", c.name, got, want)
		}
	}
}

// TestStandsAlone: with names alone, a reading of a stale path resolves
// only when it rests on more than a shared name (standsAlone).
func TestStandsAlone(t *testing.T) {
	files := []string{
		"serde_core/src/macros.rs", "test_suite/tests/ser.rs",
		"module/web/server/servlet/StaticResourceJars.java", "META-INF/services/x.txt",
		"gitweb/static/gitweb.css", "gitweb/static/js/blame_incremental.js",
		"split-index.c",
		"lib/parser.go",
	}
	var ixFiles []workspace.File
	for _, f := range files {
		ixFiles = append(ixFiles, workspace.File{Path: f})
	}
	ix := workspace.NewIndex([]string{"/r"}, ixFiles)
	sort.Slice(ix.Files(), func(a, b int) bool { return ix.Files()[a].Path < ix.Files()[b].Path })
	e := New(ix)
	for _, c := range []struct{ query, want string }{
		{"test_suite/tests/macros.rs", ""}, // directories of this tree, none kept, a plain name
		{"services/StaticResourceJars.java", "module/web/server/servlet/StaticResourceJars.java"}, // a distinctive name
		{"gitweb/static/gitweb.js", ""},                   // (.js is a kind this tree has)                // another kind of file
		{"deprecated/split-index.c", "split-index.c"},     // directories the tree has nowhere
		{"src/parser.go", ""},                             // src is a place here (serde_core/src)
		{"/home/u/proj/lib/parser.go:3", "lib/parser.go"}, // another machine's prefix
	} {
		res, err := e.Resolve(context.Background(), ResolveRequest{Path: c.query})
		if err != nil {
			t.Fatal(err)
		}
		if c.want != "" && (firstPath(res) != c.want || res.Basis != BasisLexical) {
			t.Errorf("%s: first %q on %s, want %q standing alone (candidates %+v)", c.query, firstPath(res), res.Basis, c.want, res.Candidates)
		}
		if c.want == "" && (res.Basis != BasisUnsupported || len(res.Candidates) == 0) {
			t.Errorf("%s: %s, want its candidate listed, unsupported (candidates %+v)", c.query, res.Basis, res.Candidates)
		}
	}
}

// TestLocateMovedFile: locate names a file the history moved where it
// is now.
func TestLocateMovedFile(t *testing.T) {
	with, without, commits := staleRepo(t)
	res, err := with.Locate(context.Background(), LocateRequest{Query: "where is builtin-rm.c"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) == 0 || res.Results[0].Path != "builtin/rm.c" || !strings.Contains(res.Results[0].Reason, "history:renamed "+commits["move"][:7]) {
		t.Fatalf("locate builtin-rm.c: %+v", res.Results)
	}
	// An old path whose name files have today still leads to its file.
	res, err = with.Locate(context.Background(), LocateRequest{Query: "where is py/test/plugin/pytest_doctest.py"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) == 0 || res.Results[0].Path != "src/_pytest/doctest.py" {
		t.Fatalf("locate an old path: %+v", res.Results)
	}
	res, err = without.Locate(context.Background(), LocateRequest{Query: "where is builtin-rm.c"})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range res.Results {
		if strings.Contains(h.Reason, "history:") {
			t.Errorf("without history: %+v", h)
		}
	}
}

// resolvedPath is the resolved file's path, "" for none.
func resolvedPath(res *ResolveResult) string {
	if res.Resolved == nil {
		return ""
	}
	return res.Resolved.Path
}

// TestDocumentMoved: a document moved and the relative links written
// beside its old place broke; read from where it was, a link names the
// file it always named.
func TestDocumentMoved(t *testing.T) {
	r := vcstest.New(t)
	r.Write("book/src/publishing.md", vcstest.Text("publishing", 30))
	r.Write("book/src/images/acl.png", "png\n")
	r.Write("book/src/reference/other.md", vcstest.Text("other", 30))
	r.Commit("start")
	r.Mv("book/src/publishing.md", "book/src/reference/publishing.md")
	r.Commit("move the reference pages")
	roots, _, with := historyEngines(t, r.Dir)
	doc := filepath.Join(roots[0], "book/src/reference/publishing.md")
	res, err := with.Resolve(context.Background(), ResolveRequest{Path: "images/acl.png", From: doc})
	if err != nil {
		t.Fatal(err)
	}
	if resolvedPath(res) != "book/src/images/acl.png" || res.Class() != ClassHistoryDocument {
		t.Errorf("resolved %q as %s (%+v), want book/src/images/acl.png as history/document", resolvedPath(res), res.Class(), res.Candidates)
	}
	if res, _ := with.Resolve(context.Background(), ResolveRequest{Path: "images/acl.png", From: filepath.Join(roots[0], "book/src/reference/other.md")}); res.Class() == ClassHistoryDocument {
		t.Errorf("a document that never moved read from elsewhere: %+v", res.Candidates)
	}
}

// TestMovedDir: a directory no file of today is under leads where the
// history moved most of the files it followed out of it, each in the same
// directory below, renamed or not, a file deleted long before the move
// not counted; one whose files scattered, one whose files were mostly
// deleted as one moved, one that still holds files, and one the history
// never knew lead nowhere.
func TestMovedDir(t *testing.T) {
	r := vcstest.New(t)
	for _, p := range []string{"internal/lsp/cache/a.go", "internal/lsp/cache/b.go", "internal/lsp/cache/sub/c.go",
		"old/x.go", "old/y.go", "kept/z.go", "babylon/fixtures/338/actual.js", "babylon/fixtures/338/expected.json"} {
		r.Write(p, vcstest.Text(p, 30))
	}
	r.Commit("start")
	r.Mv("internal/lsp/cache", "gopls/internal/cache")
	mv := r.Commit("move the cache into gopls")
	r.Mv("old/x.go", "one/x.go")
	r.Mv("old/y.go", "two/y.go")
	r.Commit("scatter old")
	r.Mv("babylon/fixtures/338/actual.js", "parser/fixtures/338/input.js")
	r.Mv("babylon/fixtures/338/expected.json", "parser/fixtures/338/output.json")
	renamed := r.Commit("babylon becomes the parser, its fixtures' files renamed")
	// An API rewritten: one file of three moved, two deleted in the same
	// commit — no directory moved. A library with files deleted years
	// before it moved whole (two of its five, more than a third): moved.
	for _, p := range []string{"api/data/a.go", "api/data/b.go", "api/data/c.go", "lib/old.go", "lib/older.go", "lib/x.go", "lib/y.go"} {
		r.Write(p, vcstest.Text(p, 30))
	}
	r.Write("lib/pdb.go", vcstest.Text("lib/pdb.go", 30))
	r.Date = "2024-06-01T12:00:00Z"
	r.Commit("an api and a library")
	// A file renamed within it first: its fate names that commit, not
	// the directory's move.
	r.Mv("lib/pdb.go", "lib/debugging.go")
	r.Date = "2024-06-15T12:00:00Z"
	r.Commit("pdb is debugging")
	r.Git("rm", "-q", "lib/old.go", "lib/older.go")
	r.Date = "2024-07-01T12:00:00Z"
	r.Commit("the library's old files go")
	r.Mv("api/data/a.go", "api/errors/a.go")
	r.Git("rm", "-q", "api/data/b.go", "api/data/c.go")
	r.Mv("lib", "src/lib")
	r.Date = "2025-07-01T12:00:00Z"
	lib := r.Commit("the api rewritten, the library under src")
	_, _, e := historyEngines(t, r.Dir)
	for _, c := range []struct {
		dir, to string
		n       int
		commit  string
	}{
		{"internal/lsp/cache/", "gopls/internal/cache", 3, mv},
		{"internal/lsp", "gopls/internal", 3, mv},
		{"babylon/fixtures/338", "parser/fixtures/338", 2, renamed},
		{"babylon", "parser", 2, renamed},
		{"lib", "src/lib", 4, lib}, // x, y, and pdb.go and debugging.go: two old paths of one file
	} {
		m, ok := e.MovedDir(0, c.dir)
		if !ok || m.To != c.to || m.From != strings.Trim(c.dir, "/") || m.Moved != c.n || m.Followed != c.n || m.Commit.Hash != c.commit {
			t.Errorf("%s: %+v %v, want %s, %d of %d, in %s", c.dir, m, ok, c.to, c.n, c.n, c.commit)
		}
	}
	for _, dir := range []string{"old", "kept", "never/there", "", "api/data"} {
		if m, ok := e.MovedDir(0, dir); ok {
			t.Errorf("%q: moved to %+v, want nowhere", dir, m)
		}
	}
}

// TestDeletedBesideItsKin: a path deleted in a commit that added one file
// of the same name or stem has two possible lives: both are said — gone,
// and that file first among the candidates — and nothing resolved.
func TestDeletedBesideItsKin(t *testing.T) {
	r := vcstest.New(t)
	r.Write("sympy/differential_geometry/Rn.py", vcstest.Text("old module", 30))
	r.Write("sympy/core/basic.py", vcstest.Text("basic", 30))
	r.Commit("one")
	r.Git("rm", "-q", "sympy/differential_geometry/Rn.py")
	r.Write("sympy/diffgeom/rn.py", vcstest.Text("rewritten from scratch", 30))
	r.Commit("merge the two branches")
	_, _, with := historyEngines(t, r.Dir)
	res, err := with.Resolve(context.Background(), ResolveRequest{Path: "sympy/differential_geometry/Rn.py"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Gone == nil || res.Resolved != nil || len(res.Candidates) == 0 || res.Candidates[0].Path != "sympy/diffgeom/rn.py" ||
		!strings.HasPrefix(res.Candidates[0].Reasons[0], "history:deleted-beside ") {
		t.Errorf("gone %+v, resolved %+v, candidates %+v: want both lives said — gone, and sympy/diffgeom/rn.py the first candidate — nothing resolved", res.Gone, res.Resolved, res.Candidates)
	}
}

// TestTwoLivesOfAPath: a path whose file moved away and which a later
// file took, deleted since, had two lives: the moved file is first, in
// a class of its own, and nothing is resolved.
func TestTwoLivesOfAPath(t *testing.T) {
	r := vcstest.New(t)
	r.Write("config/kustomization.yaml", vcstest.Text("first life", 30))
	r.Commit("one")
	r.Mv("config/kustomization.yaml", "config/default/kustomization.yaml")
	r.Commit("move the config")
	r.Write("config/kustomization.yaml", vcstest.Text("second life, another text altogether", 30))
	r.Commit("a new kustomization")
	r.Git("rm", "-q", "config/kustomization.yaml")
	r.Commit("remove it again")
	_, _, with := historyEngines(t, r.Dir)
	res, err := with.Resolve(context.Background(), ResolveRequest{Path: "config/kustomization.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Resolved != nil || len(res.Candidates) == 0 || res.Candidates[0].Path != "config/default/kustomization.yaml" || res.Class() != ClassHistoryTwoLives {
		t.Errorf("resolved %+v, class %s, candidates %+v: want config/default/kustomization.yaml first, history/two-lives, nothing resolved", res.Resolved, res.Class(), res.Candidates)
	}
}

// TestReferenceReadInItsLife: a reference is read where its document was
// when it was written: a test that moved with the module it imported,
// deleted since, names that deletion ("./NoProvides" from the test's old
// place); an include read against a search path names the deleted file
// whose tail it is.
func TestReferenceReadInItsLife(t *testing.T) {
	r := vcstest.New(t)
	r.Write("tests/parse_error/Client.js", "import x from './NoProvides'\n"+vcstest.Text("client", 30))
	r.Write("tests/parse_error/NoProvides.js", vcstest.Text("no provides", 30))
	r.Write("third_party/mbedtls/include/mbedtls/cmac.h", vcstest.Text("cmac", 30))
	r.Write("src/crypto.c", "#include \"mbedtls/cmac.h\"\n"+vcstest.Text("crypto", 30))
	r.Commit("one")
	r.Git("rm", "-q", "tests/parse_error/NoProvides.js", "third_party/mbedtls/include/mbedtls/cmac.h")
	r.Commit("remove the module and the header")
	r.Mv("tests/parse_error/Client.js", "tests/format/flow/parse_error/Client.js")
	r.Commit("move the tests")
	_, _, with := historyEngines(t, r.Dir)
	for _, c := range []struct{ path, from, gone string }{
		{"./NoProvides", "tests/format/flow/parse_error/Client.js", "tests/parse_error/NoProvides.js"},
		{"mbedtls/cmac.h", "src/crypto.c", "third_party/mbedtls/include/mbedtls/cmac.h"},
	} {
		res, err := with.Resolve(context.Background(), ResolveRequest{Path: c.path, From: c.from})
		if err != nil {
			t.Fatal(err)
		}
		if res.Gone == nil || res.Gone.Path != c.gone || res.Resolved != nil {
			t.Errorf("%s from %s: gone %+v, resolved %+v; want %s gone", c.path, c.from, res.Gone, res.Resolved, c.gone)
		}
	}
}

// TestNearOld: a near name of an old path keeps the extension written
// (or one of its family) and the directories written; a guess at another
// layout that shares only a stem is not one.
func TestNearOld(t *testing.T) {
	for _, c := range []struct {
		written, old string
		dirs         dirReading
		dirsWritten  int
		want         bool
	}{
		{"sphinx/builders/htmll.py", "sphinx/builders/html.py", dirExact, 2, true},
		{"builders/htmll.py", "sphinx/builders/html.py", dirMissingPrefix, 1, true},
		{"sphinx/buidlers/html.py", "sphinx/builders/htm.py", dirClose, 2, true},
		{"src/Widget.tsx", "src/widget.ts", dirExact, 1, true},
		{"htmll.py", "sphinx/builders/html.py", dirNone, 0, true},
		{"sphinx/ext/napoleon.py", "doc/ext/napoleon.rst", dirPartial, 2, false},
		{"sphinx/ext/napoleon.py", "sphinx/ext/napoleon.rst", dirExact, 2, false},
		{"tests/roots/linkcheck", "sphinx/linkcheck.py", dirNone, 2, false},
		{"tests/roots/linkcheck", "tests/roots/linkchek", dirExact, 2, true},
		{"sphinx/directives/toctree.py", "sphinx/environment/managers/toctree.py", dirPartial, 2, false},
	} {
		q, err := ParsePath(c.written)
		if err != nil {
			t.Fatal(err)
		}
		cand := &Candidate{Path: c.old, ev: evidence{dirs: c.dirs, dirsWritten: c.dirsWritten}}
		if got := nearOld(q, cand); got != c.want {
			t.Errorf("nearOld(%q, %q, %v) = %v, want %v", c.written, c.old, c.dirs, got, c.want)
		}
	}
}
