package service

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"wayfind/history"
	"wayfind/passes"
	"wayfind/pathlit"
	"wayfind/rank"
	"wayfind/session"
	"wayfind/wire"
	"wayfind/workspace"
)

// fakeWorkspace hands out one engine and records which index was asked for.
type fakeWorkspace struct {
	eng     *rank.Engine
	asked   []string
	history []string // most recent last
	visited []string
	reasons []history.Reason
	vcs     *passes.VCSStatus
	focus   string // the last file focused ("" none), as Current reports it
}

func (w *fakeWorkspace) Engine(context.Context) (*rank.Engine, error) {
	w.asked = append(w.asked, "files")
	return w.eng, nil
}
func (w *fakeWorkspace) SymbolEngine(context.Context) (*rank.Engine, error) {
	w.asked = append(w.asked, "symbols")
	return w.eng, nil
}
func (w *fakeWorkspace) LocateEngine(context.Context) (*rank.Engine, error) {
	w.asked = append(w.asked, "locate")
	return w.eng, nil
}

// Frecent and Recent are the history, most recent first (a file given as
// a path stands for itself: Root "" and Rel the path).
func (w *fakeWorkspace) Frecent(n int) []history.Visit {
	var out []history.Visit
	for _, v := range rank.Recency(w.history) {
		out = append(out, history.Visit{Rel: v.File, Weight: v.Weight})
	}
	return out[:min(n, len(out))]
}
func (w *fakeWorkspace) Recent(n int, _ bool) []history.Visit { return w.Frecent(n) }
func (w *fakeWorkspace) Current() (history.Visit, bool) {
	return history.Visit{Rel: w.focus}, w.focus != ""
}
func (w *fakeWorkspace) Visit(f string, why history.Reason) {
	w.visited = append(w.visited, f)
	w.reasons = append(w.reasons, why)
}
func (w *fakeWorkspace) Status() session.Status {
	return session.Status{Ready: true, Files: w.eng.Len(), VCS: w.vcs}
}
func (w *fakeWorkspace) Reindex(context.Context) (session.Status, error) { return w.Status(), nil }
func (w *fakeWorkspace) WaitHistory(context.Context, time.Duration) bool {
	return w.vcs == nil || w.vcs.Ready
}

func workspaceOf(t *testing.T) (*fakeWorkspace, string) {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{"a/client.go": "package a\n", "b/client.go": "package b\n", "b/server.go": "package b\n", "bin/blob.dat": "x\x00y"}
	for p, text := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte(text), 0o644)
	}
	roots, err := workspace.CleanRoots([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	return &fakeWorkspace{eng: rank.New(workspace.Build(roots, workspace.Options{}))}, roots[0]
}

// The shared rules: each question waits for the index it reads, and no other.
func TestWhichIndexEachQuestionWaitsFor(t *testing.T) {
	ws, _ := workspaceOf(t)
	svc, ctx := New(ws), context.Background()
	svc.Find(ctx, FindParams{Query: "client"})
	svc.Resolve(ctx, ResolveParams{Path: "client.go"})
	svc.Locate(ctx, LocateParams{Query: "client"})
	svc.Symbols(ctx, SymbolParams{Query: "Client"})
	svc.Symbols(ctx, SymbolParams{Query: ""}) // nothing typed: no wait at all
	if got := strings.Join(ws.asked, ","); got != "files,files,locate,symbols" {
		t.Errorf("indexes asked for: %s", got)
	}
}

// TestTheFileTheUserIsIn: a current file the request names is where the
// user is, and not what they look for — the other copy first; the last
// focus, standing in when the request names none, keeps its nearness
// (rank.FindRequest.InCurrent).
func TestTheFileTheUserIsIn(t *testing.T) {
	ws, root := workspaceOf(t)
	ws.history = []string{"b/server.go"}
	svc, ctx := New(ws), context.Background()
	in := "file://" + filepath.ToSlash(root) + "/b/client.go"
	for _, c := range []struct {
		name, current, focus, want string
	}{
		{"named by the request", in, "", "a/client.go"},
		{"the last focus", "", filepath.Join(root, "b", "client.go"), "b/client.go"},
	} {
		ws.focus = c.focus
		files, _, err := svc.Find(ctx, FindParams{Query: "client.go", Current: c.current})
		if err != nil || len(files.Matches) != 2 || files.Matches[0].Path != c.want {
			t.Errorf("%s: %+v %v, want %s first", c.name, files.Matches, err, c.want)
		}
	}
}

func TestHistoryRule(t *testing.T) {
	ws, _ := workspaceOf(t)
	ws.history = []string{"b/server.go"}
	svc, ctx := New(ws), context.Background()
	// nil: the workspace's history orders the ambiguous name's copies
	if res, _, err := svc.Resolve(ctx, ResolveParams{Path: "client.go"}); err != nil || res.Resolved != nil || res.Candidates[0].Path != "b/client.go" {
		t.Errorf("with the workspace's history: %+v %+v %v", res.Resolved, res.Candidates, err)
	}
	// []: no history, so nothing decides it
	if res, _, err := svc.Resolve(ctx, ResolveParams{Path: "client.go", History: []string{}}); err != nil || res.Resolved != nil {
		t.Errorf("with no history: %+v %v", res.Resolved, err)
	}
}

// TestHistoryEverywhere: nothing typed lists the recent files (the
// current one left out), find and locate break ties by it, a visit's
// reason and file are checked, and path_resolve's Record makes the
// resolved file a visit.
func TestHistoryEverywhere(t *testing.T) {
	ws, root := workspaceOf(t)
	ws.history = []string{"a/client.go", filepath.Join(root, "b/server.go"), filepath.Join(root, "bin/blob.dat")}
	svc, ctx := New(ws), context.Background()
	files, _, err := svc.Find(ctx, FindParams{Query: "", Current: "file://" + filepath.ToSlash(root) + "/bin/blob.dat"})
	if err != nil || len(files.Matches) != 2 || files.Matches[0].Path != "b/server.go" || files.Matches[1].Path != "a/client.go" {
		t.Fatalf("recent files: %+v %v", files, err)
	}
	files, _, err = svc.Find(ctx, FindParams{Query: "client.go"})
	if err != nil || len(files.Matches) != 2 || files.Matches[0].Path != "b/client.go" {
		t.Fatalf("find near the history: %+v %v", files.Matches, err)
	}
	files, _, _ = svc.Find(ctx, FindParams{Query: "client.go", Current: filepath.Join(root, "a", "x.go")})
	if files.Matches[0].Path != "a/client.go" {
		t.Fatalf("find near the current file: %+v", files.Matches)
	}
	loc, _, err := svc.Locate(ctx, LocateParams{Query: "where is client.go"})
	if err != nil || len(loc.Results) == 0 || loc.Results[0].Path != "b/client.go" {
		t.Fatalf("locate near the history: %+v %v", loc, err)
	}
	if err := svc.Visit("file://"+filepath.ToSlash(root)+"/a/client.go", "hover"); !errors.Is(err, rank.ErrInput) {
		t.Errorf("unknown reason: %v", err)
	}
	if err := svc.Visit("a/client.go", "focus"); !errors.Is(err, rank.ErrInput) {
		t.Errorf("relative path: %v", err)
	}
	if err := svc.Visit("file://"+filepath.ToSlash(root)+"/a/client.go", "focus"); err != nil || ws.reasons[0] != history.Focus {
		t.Errorf("focus: %v %v", err, ws.reasons)
	}
	if _, _, err := svc.Resolve(ctx, ResolveParams{Path: "b/server.go", Record: history.Agent}); err != nil ||
		len(ws.visited) != 2 || ws.visited[1] != filepath.Join(root, "b", "server.go") || ws.reasons[1] != history.Agent {
		t.Errorf("recorded: %v %v %v", ws.visited, ws.reasons, err)
	}
}

func TestBadInputIsTheCallers(t *testing.T) {
	ws, _ := workspaceOf(t)
	svc, ctx := New(ws), context.Background()
	for name, err := range map[string]error{
		"negative limit":     second(svc.Find(ctx, FindParams{Query: "x", Limit: -1})),
		"threshold over 1":   second(svc.Find(ctx, FindParams{Query: "x", Threshold: 2})),
		"confidence under 0": second(svc.Locate(ctx, LocateParams{Query: "x", MinConfidence: -0.5})),
		"empty path":         second(svc.Resolve(ctx, ResolveParams{Path: ""})),
		"negative maxBytes":  errOf(svc.Read(ctx, ReadParams{Path: "b/server.go", MaxBytes: -1})),
	} {
		if !errors.Is(err, rank.ErrInput) {
			t.Errorf("%s: %v, want an input error", name, err)
		}
	}
}

func TestRead(t *testing.T) {
	ws, root := workspaceOf(t)
	svc, ctx := New(ws), context.Background()
	// A typo names no file clearly enough to read: the candidates say
	// which to read.
	if _, err := svc.Read(ctx, ReadParams{Path: "b/sever.go"}); !errors.Is(err, ErrUnreadable) || !strings.Contains(err.Error(), "b/server.go") {
		t.Fatalf("read b/sever.go: %v, want unreadable, naming b/server.go", err)
	}
	r, err := svc.Read(ctx, ReadParams{Path: "b/server.go"})
	if err != nil || r.Path != "b/server.go" || r.Text != "package b\n" || !r.Exact {
		t.Fatalf("read b/server.go: %+v %v", r, err)
	}
	if len(ws.visited) != 1 || ws.visited[0] != filepath.Join(root, "b", "server.go") {
		t.Errorf("visited %v", ws.visited)
	}
	for _, p := range []string{"bin/blob.dat", "/etc/passwd", "client.go"} {
		if _, err := svc.Read(ctx, ReadParams{Path: p}); !errors.Is(err, ErrUnreadable) {
			t.Errorf("read %s: %v, want ErrUnreadable", p, err)
		}
	}
}

func second[T any](_ T, _ int, err error) error { return err }
func errOf[T any](_ T, err error) error         { return err }

// The disk is the truth for existence: a path naming a file the index
// leaves out resolves to it exactly, marked ignored — but never through a
// link out of the root, never outside the roots.
func TestResolveOnDisk(t *testing.T) {
	svc, root, outside := diskTree(t, "build/\n", map[string]string{
		"src/app.js": "x\n", "build/out.js": "b\n", "node_modules/semver/functions/satisfies.js": "m\n", "package.json": "{}\n",
	})
	ctx := context.Background()
	cases := []struct{ path, from, want string }{
		{"node_modules/semver/functions/satisfies.js", "", "node_modules/semver/functions/satisfies.js"},
		{"./node_modules/semver/functions/satisfies.js:14", "", "node_modules/semver/functions/satisfies.js"},
		{filepath.Join(root, "build", "out.js"), "", "build/out.js"},
		{"file://" + filepath.ToSlash(filepath.Join(root, "build", "out.js")), "", "build/out.js"},
		{"../build/out.js", filepath.Join(root, "src", "app.js"), "build/out.js"},
		{"node_modules/linked/secret.txt", "", ""},                                                    // a link out of the root
		{filepath.Join(outside, "secret.txt"), "", ""},                                                // outside the roots
		{"../../" + filepath.Base(outside) + "/secret.txt", filepath.Join(root, "src", "app.js"), ""}, // climbing out
	}
	for _, c := range cases {
		res, _, err := svc.Resolve(ctx, ResolveParams{Path: c.path, From: c.from})
		if err != nil {
			t.Errorf("%s: %v", c.path, err)
			continue
		}
		if c.want == "" {
			if res.Resolved != nil && (res.Resolved.Ignored || strings.Contains(res.Resolved.Path, "secret")) {
				t.Errorf("%s resolved to %+v: outside the root", c.path, res.Resolved)
			}
			continue
		}
		if res.Resolved == nil || res.Resolved.Path != c.want || !res.Exact || !res.Resolved.Ignored {
			t.Errorf("%s: %+v, want %s exactly, ignored", c.path, res.Resolved, c.want)
		}
	}
	// the line suffix is kept
	res, _, _ := svc.Resolve(ctx, ResolveParams{Path: "node_modules/semver/functions/satisfies.js:14:2"})
	if res.Resolved == nil || res.Resolved.Range == nil || res.Resolved.Range.Start.Line != 13 || res.Resolved.Range.Start.Character != 1 {
		t.Errorf("line suffix: %+v", res.Resolved)
	}
}

func TestResolveInSkipped(t *testing.T) {
	svc, _, _ := diskTree(t, "__pycache__/\n", map[string]string{
		"src/app.js": "x\n", "src/package.json": "{}\n", "package.json": "{}\n",
		"node_modules/semver/package.json": "{}\n", "node_modules/semver/functions/satisfies.js": "m\n",
		"old/__pycache__/mod.cpython-312.pyc": "c\n", "lib/mod.py": "p\n",
	})
	ctx := context.Background()
	cases := []struct {
		path, want  string
		wantIgnored bool
	}{
		{"node_modules/semver/packge.json", "node_modules/semver/package.json", true},
		{"node_modules/semver/functions/satisfes.js", "node_modules/semver/functions/satisfies.js", true},
		{"node_modules/semvr/package.json", "node_modules/semver/package.json", true},
		{"semver/functions/satisfies.js", "node_modules/semver/functions/satisfies.js", true}, // nothing in the index: the skipped directories
		{"satisfies.js:3", "node_modules/semver/functions/satisfies.js", true},
		{"lib/satisfies.js", "node_modules/semver/functions/satisfies.js", true},
		{"frobnicator.js", "", false},
		{"src/packge.json", "src/package.json", false}, // a directory the index holds: the index answers
		{"old/mod.py", "lib/mod.py", false},            // a stale directory of caches: the index answers
		{"node_modules/linked/packge.json", "", false}, // a link out of the root is not followed
	}
	for _, c := range cases {
		res, _, err := svc.Resolve(ctx, ResolveParams{Path: c.path})
		if err != nil {
			t.Errorf("%s: %v", c.path, err)
			continue
		}
		if c.want == "" {
			if res.Resolved != nil && (strings.HasPrefix(res.Resolved.Path, "node_modules/linked/") || strings.HasPrefix(c.path, "frob")) {
				t.Errorf("%s resolved to %+v, want nothing (no such file; nothing through a link out of the root)", c.path, res.Resolved)
			}
			continue
		}
		if first := firstOf(res); first == nil || first.Path != c.want || first.Ignored != c.wantIgnored {
			t.Errorf("%s: first %+v, want %s (ignored %v)", c.path, first, c.want, c.wantIgnored)
		}
	}
	// Outside the roots, behind a prefix that is not a checkout of the
	// root, a typo is nobody's: no candidate, from the index or the disk.
	for _, p := range []string{"/home/dev/proj/node_modules/semver/packge.json", `C:\src\node_modules\semver\packge.json`} {
		if res, _, err := svc.Resolve(ctx, ResolveParams{Path: p}); err != nil || res.Resolved != nil || len(res.Candidates) > 0 {
			t.Errorf("%s: %+v, %v; want no answer", p, res, err)
		}
	}
	// the line suffix is kept (clamped to the file once resolved)
	res, _, _ := svc.Resolve(ctx, ResolveParams{Path: "node_modules/semver/packge.json:9"})
	if first := firstOf(res); first == nil || first.Range == nil || first.Range.Start.Line != 8 {
		t.Errorf("line suffix: %+v", first)
	}
}

// firstOf is the first answer: the resolved file, else the first
// candidate.
func firstOf(res wire.Resolve) *wire.Candidate {
	switch {
	case res.Resolved != nil:
		return res.Resolved
	case len(res.Candidates) > 0:
		return &res.Candidates[0]
	}
	return nil
}

// diskTree writes files and a .gitignore into a fresh root, links
// node_modules/linked to a directory outside it (holding secret.txt and
// package.json), and serves the indexed root.
func diskTree(t *testing.T, gitignore string, files map[string]string) (svc *Service, root, outside string) {
	t.Helper()
	dir, outside := t.TempDir(), t.TempDir()
	files[".gitignore"] = gitignore
	for p, text := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte(text), 0o644)
	}
	for _, name := range []string{"secret.txt", "package.json"} {
		os.WriteFile(filepath.Join(outside, name), []byte("s\n"), 0o644)
	}
	os.MkdirAll(filepath.Join(dir, "node_modules"), 0o755)
	os.Symlink(outside, filepath.Join(dir, "node_modules", "linked"))
	roots, err := workspace.CleanRoots([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	return New(&fakeWorkspace{eng: rank.New(workspace.Build(roots, workspace.Options{}))}), roots[0], outside
}

func TestFindNamingASkippedDirectory(t *testing.T) {
	svc, _, _ := diskTree(t, "dist/\n", map[string]string{
		"src/satisfy.js": "x\n", "node_modules/semver/functions/satisfies.js": "m\n", "dist/bundle.js": "b\n",
	})
	ctx := context.Background()
	cases := []struct{ query, want string }{
		{"node_modules/semver satisfies", "node_modules/semver/functions/satisfies.js"},
		{"node_modules satisfies", "node_modules/semver/functions/satisfies.js"},
		{"dist bundle", "dist/bundle.js"},
		{"satisfy", "src/satisfy.js"}, // not named: the skipped directory stays out
		{"bundle", ""},
	}
	for _, c := range cases {
		res, _, err := svc.Find(ctx, FindParams{Query: c.query, Limit: 5})
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if len(res.Matches) > 0 {
			got = res.Matches[0].Path
		}
		if got != c.want {
			t.Errorf("%q: first %q, want %q (%+v)", c.query, got, c.want, res.Matches)
		}
		for i, m := range res.Matches {
			if m.Ignored != (strings.HasPrefix(m.Path, "node_modules/") || strings.HasPrefix(m.Path, "dist/")) {
				t.Errorf("%q: %s marked ignored=%v", c.query, m.Path, m.Ignored)
			}
			if i > 0 && rank.RanksBefore(m.Score, res.Matches[i-1].Score, m.Path, res.Matches[i-1].Path, 0, 0) {
				t.Errorf("%q: %s listed after %s: not the one result order", c.query, m.Path, res.Matches[i-1].Path)
			}
		}
	}
	// Equal scores from the index and from a skipped directory: the
	// shorter path first, as everywhere.
	svc, _, _ = diskTree(t, "dist/\n", map[string]string{"src/lib/x/util.js": "x\n", "dist/util.js": "b\n"})
	res, _, err := svc.Find(ctx, FindParams{Query: "dist util", Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(res.Matches); i++ {
		if rank.RanksBefore(res.Matches[i].Score, res.Matches[i-1].Score, res.Matches[i].Path, res.Matches[i-1].Path, 0, 0) {
			t.Errorf("%v: not the one result order", res.Matches)
		}
	}
}

// TestCutListingIsNoLicence: when the listing of the skipped directory a
// path leads into is cut short before anything there resolves it (a cold
// disk under load did this to node_modules/semvr/package.json), nothing
// is resolved, there or elsewhere; a whole listing puts the file there
// first.
func TestCutListingIsNoLicence(t *testing.T) {
	svc, _, _ := diskTree(t, "", map[string]string{
		"package.json": "{}\n", "node_modules/ajv/package.json": "{}\n", "node_modules/semver/package.json": "{}\n",
	})
	defer func(n int) { maxSkippedFiles = n }(maxSkippedFiles)
	for _, c := range []struct {
		bound int
		want  string
	}{{1, ""}, {100, "node_modules/semver/package.json"}} {
		maxSkippedFiles = c.bound
		res, _, err := svc.Resolve(context.Background(), ResolveParams{Path: "node_modules/semvr/package.json"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Resolved != nil || len(res.Candidates) == 0 {
			t.Errorf("bound %d: resolved %+v, want nothing resolved and candidates listed", c.bound, res.Resolved)
		}
		if c.want != "" && firstOf(res).Path != c.want {
			t.Errorf("bound %d: first %q, want %q (candidates %+v)", c.bound, firstOf(res).Path, c.want, res.Candidates)
		}
	}
}

// TestHistoryPending: while a repository's history is still being read, a
// path that names no file says so (it may be an old path the history
// would follow elsewhere) — its candidates, and the answer itself
// (historyPending), also when no name matches; an exact one is resolved
// all the same.
func TestHistoryPending(t *testing.T) {
	w, _ := workspaceOf(t)
	svc := New(w)
	ctx := context.Background()
	for _, pending := range []bool{false, true} {
		w.vcs = nil
		if pending {
			w.vcs = &passes.VCSStatus{Kind: "git"}
		}
		out, _, err := svc.Resolve(ctx, ResolveParams{Path: "b/servr.go"})
		if err != nil {
			t.Fatal(err)
		}
		if out.Resolved != nil || len(out.Candidates) == 0 || out.Candidates[0].Path != "b/server.go" {
			t.Errorf("pending %v: resolved %+v, candidates %+v", pending, out.Resolved, out.Candidates)
		}
		if waited := strings.Contains(strings.Join(out.Candidates[0].Reasons, " "), "history:pending"); waited != pending || out.HistoryPending != pending {
			t.Errorf("pending %v: historyPending %v, candidates %+v", pending, out.HistoryPending, out.Candidates)
		}
		if out, _, err = svc.Resolve(ctx, ResolveParams{Path: "q/zzzz.rs"}); err != nil || out.HistoryPending != pending {
			t.Errorf("pending %v: a path no name matches: %v historyPending %v", pending, err, out.HistoryPending)
		}
		if out, _, err = svc.Resolve(ctx, ResolveParams{Path: "b/server.go"}); err != nil || out.Resolved == nil || out.HistoryPending {
			t.Errorf("pending %v: an exact path not resolved: %v %+v", pending, err, out)
		}
	}
}

// A document's path literal is read as find/resolvePath reads the same
// string from the same document: the same file, with the same history.
func TestLiteralAsResolve(t *testing.T) {
	w, root := workspaceOf(t)
	w.history = []string{"b/server.go"}
	svc := New(w)
	ctx := context.Background()
	doc := filepath.Join(root, "a", "notes.md")
	for _, lit := range []string{"b/clinet.go", "clinet.go", "a/client.go", "../b/server.go", "c/nothing.go"} {
		res, _, err := svc.Resolve(ctx, ResolveParams{Path: lit, From: doc, Link: true, Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		ref, roots, ok, err := svc.Literal(ctx, doc, pathlit.Literal{Text: lit, End: len(lit), Link: true})
		if err != nil {
			t.Fatal(err)
		}
		want := ""
		if first := firstOf(res); first != nil && (res.Resolved != nil || res.Basis == "lexical" || res.Basis == "history") {
			want = first.Path
		}
		got := ""
		if ok {
			got = ref.Target.Path
			if len(roots) != 1 || roots[0] != root {
				t.Errorf("%s: roots %v", lit, roots)
			}
		}
		if got != want {
			t.Errorf("%s: the literal leads to %q, find/resolvePath's clear first answer is %q", lit, got, want)
		}
	}
}

// TestSkippedListingRemembered: a resolve with no candidate in the index
// lists every skipped directory once for skippedFresh — the next such
// resolve reads the same listing, a new index lists again, and a listing
// a cancelled request cut short is not kept.
func TestSkippedListingRemembered(t *testing.T) {
	svc, _, _ := diskTree(t, "build/\n", map[string]string{
		"src/app.js": "x\n", "build/zebra-stripes.js": "b\n",
	})
	ctx := context.Background()
	eng, _ := svc.ws.Engine(ctx)
	if _, ok := inSkippedDirs(ctx, eng, mustPath(t, "lib/zebra-stripes.js"), ResolveParams{Limit: 5}, &svc.skipped); !ok {
		t.Fatal("zebra-stripes.js not found among the skipped directories")
	}
	first := svc.skipped.sub
	if sub, _ := svc.skipped.engine(ctx, eng.Index()); sub != first || first == nil {
		t.Error("the second resolve listed the skipped directories again")
	}
	other := workspace.Build(eng.Index().Roots, workspace.Options{})
	if sub, _ := svc.skipped.engine(ctx, other); sub == first {
		t.Error("a new index kept the old listing")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	var fresh skippedListing
	fresh.engine(cancelled, other)
	if fresh.sub != nil {
		t.Error("a listing cut short by a cancelled request was kept")
	}
}

func mustPath(t *testing.T, p string) rank.PathQuery {
	q, err := rank.ParsePath(p)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// A path written as a directory's asks for a directory: never a file of
// a similar name, nor the file it would name without the slash.
func TestDirectoryQuestion(t *testing.T) {
	w, _ := workspaceOf(t)
	svc := New(w)
	for _, p := range []string{"b/", "b/client.go/", `a\client.go\`, "clients/"} {
		res, _, err := svc.Resolve(context.Background(), ResolveParams{Path: p})
		if err != nil || res.Resolved != nil || len(res.Candidates) > 0 {
			t.Errorf("%q: %+v, %v; want no file", p, res, err)
		}
	}
	if res, _, _ := svc.Resolve(context.Background(), ResolveParams{Path: "b/client.go"}); res.Resolved == nil {
		t.Errorf("b/client.go without the slash: %+v", res)
	}
}

// Absolute paths outside the roots: another checkout of the root is read
// as the project's; a foreign prefix before an exact tail of two or more
// components is that tail (foreign/tail); a one-component tail, or a path
// with nothing of the project's, gets no answer; a path through a link
// to the root is inside it.
func TestOutsideTheRoots(t *testing.T) {
	w, root := workspaceOf(t)
	svc := New(w)
	alias := filepath.Join(t.TempDir(), "alias")
	if err := os.Symlink(root, alias); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		path, resolved, class string
	}{
		{"/app/b/server.go:3", "b/server.go", "foreign/tail"},
		{"/usr/src/app/b/server.go", "b/server.go", "foreign/tail"},
		{"/home/dev/src/" + filepath.Base(root) + "/b/server.go", "b/server.go", "lexical/tail"},
		{alias + "/b/server.go", "b/server.go", "exact"},
		{"/tmp/server.go", "", ""},
		{"/var/tmp/b/sever.go", "", ""},
		{"/workspace/b/clinet.go", "", ""},
	}
	for _, c := range cases {
		res, _, err := svc.Resolve(context.Background(), ResolveParams{Path: c.path})
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if res.Resolved != nil {
			got = res.Resolved.Path
		}
		if got != c.resolved || (c.resolved == "" && len(res.Candidates) > 0) || (c.class != "" && res.Class != c.class) {
			t.Errorf("%s: resolved %q, class %s, candidates %+v; want %q, %s", c.path, got, res.Class, res.Candidates, c.resolved, c.class)
		}
	}
}

// A path that names its root from inside it (testbed/b/server.go in a
// root named testbed, written as if from its parent) is the path after
// the root's name, of class foreign/tail, relative or absolute, and so is
// a directory (MovedDir, no history followed); a root that holds a
// directory of its own name reads such a path as written, and a path
// after the name that is nothing of the tree's is not read so.
func TestRootNamedFromInside(t *testing.T) {
	treeOf := func(name string, files ...string) (*Service, string) {
		roots := writeTree(t, filepath.Join(t.TempDir(), name), files...)
		return New(&fakeWorkspace{eng: rank.New(workspace.Build(roots, workspace.Options{}))}), roots[0]
	}
	testbed, tbRoot := treeOf("testbed", "b/server.go", "b/client.go", "setup.py")
	pkg, pkgRoot := treeOf("pkg", "pkg/core.py", "core.py", "docs/index.rst")
	cases := []struct {
		svc               *Service
		path, want, class string
	}{
		{testbed, "testbed/b/server.go", "b/server.go", "foreign/tail"},
		{testbed, tbRoot + "/testbed/b/server.go:3", "b/server.go", "foreign/tail"},
		{testbed, tbRoot + "/b/testbed/b/server.go", "b/server.go", "foreign/tail"}, // written from b/
		{testbed, "b/testbed/setup.py", "setup.py", "foreign/tail"},
		{testbed, "testbed/setup.py", "setup.py", "foreign/tail"},
		{testbed, "testbed/b/nothing.go", "", ""},
	}
	for _, c := range cases {
		res, _, err := c.svc.Resolve(context.Background(), ResolveParams{Path: c.path})
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if res.Resolved != nil {
			got = res.Resolved.Path
		}
		if got != c.want || (c.class != "" && res.Class != c.class) {
			t.Errorf("%s: resolved %q (%s); want %q (%s)", c.path, got, res.Class, c.want, c.class)
		}
	}
	ix := workspace.Build([]string{pkgRoot}, workspace.Options{})
	if rest, ok := rootNamedAgain(ix, 0, "pkg/docs/index.rst"); ok {
		t.Errorf("pkg/docs/index.rst in a root pkg with a pkg/ of its own: read as %q; want as written", rest)
	}
	ix = workspace.Build([]string{tbRoot}, workspace.Options{})
	for _, rel := range []string{"zz/testbed/setup.py", "b/server.go/testbed/setup.py", "testbed", "b/testbed"} {
		if rest, ok := rootNamedAgain(ix, 0, rel); ok {
			t.Errorf("%s in a root testbed: read as %q; want as written (no directory zz/, a file before the name, nothing after it)", rel, rest)
		}
	}
	dirs := []struct {
		svc       *Service
		dir, want string
	}{
		{testbed, tbRoot + "/testbed/b", "b"},
		{testbed, "testbed/b", "b"},
		{testbed, tbRoot + "/b/testbed/b", "b"},
		{testbed, tbRoot + "/testbed/c", ""},
		{pkg, pkgRoot + "/pkg/docs", ""},
	}
	for _, c := range dirs {
		m, err := c.svc.MovedDir(context.Background(), c.dir)
		if got := readingTo(t, c.dir, m, err); got != c.want {
			t.Errorf("MovedDir(%s) = %q; want %q", c.dir, got, c.want)
		}
	}
}

// writeTree writes each file under dir (a line of text each) and returns
// dir as the one root.
func writeTree(t *testing.T, dir string, files ...string) []string {
	t.Helper()
	for _, p := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte("x\n"), 0o644)
	}
	roots, err := workspace.CleanRoots([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	return roots
}

// TestHistoryPendingSkippedDirectory: while the history is pending, a
// guess in a directory the index skips is withheld as the index's own
// are (listed, historyPending, confidence at most a tie's), and a file
// that is there there is answered.
func TestHistoryPendingSkippedDirectory(t *testing.T) {
	svc, _, _ := diskTree(t, "", map[string]string{
		"src/app.js": "x\n", "node_modules/semver/functions/satisfies.js": "m\n", "node_modules/semver/package.json": "{}\n",
	})
	ws := svc.ws.(*fakeWorkspace)
	ctx := context.Background()
	for _, pending := range []bool{false, true} {
		ws.vcs = nil
		if pending {
			ws.vcs = &passes.VCSStatus{Kind: "git"}
		}
		exact, _, err := svc.Resolve(ctx, ResolveParams{Path: "node_modules/semver/package.json"})
		if err != nil || exact.Resolved == nil || exact.Resolved.Path != "node_modules/semver/package.json" || exact.HistoryPending {
			t.Errorf("pending %v: a file that is there: %+v %v", pending, exact, err)
		}
		guess, _, err := svc.Resolve(ctx, ResolveParams{Path: "node_modules/semver/packge.json"})
		if err != nil || guess.Resolved != nil || len(guess.Candidates) != 1 || guess.Candidates[0].Path != "node_modules/semver/package.json" {
			t.Fatalf("pending %v: a guess: %+v %v", pending, guess, err)
		}
		why := strings.Join(guess.Candidates[0].Reasons, " ")
		if guess.HistoryPending != pending || strings.Contains(why, "history:pending") != pending || pending && guess.Confidence > 0.34 || !pending && guess.Confidence < 0.8 {
			t.Errorf("pending %v: a guess: historyPending %v, reasons %q, confidence %.2f", pending, guess.HistoryPending, why, guess.Confidence)
		}
	}
}
