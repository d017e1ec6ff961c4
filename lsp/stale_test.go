package lsp

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"wayfind/vcs/vcstest"
	"wayfind/wire"
)

func lines(ls []string) string { return strings.Join(ls, "\n") + "\n" }

func numbered(name string, n int) []string {
	var out []string
	for i := 1; i <= n; i++ {
		out = append(out, name+" line "+strings.Repeat("=", i))
	}
	return out
}

// TestStalePathsThroughTheBinary: the repository's own history, read by
// `wayfind lsp` in the background, answers old paths — renamed (with the
// line carried forward), deleted (gone, with the commit), in find/files
// and in a document's path literal — and follows a commit made while it
// runs; find/status reports it.
func TestStalePathsThroughTheBinary(t *testing.T) {
	bin := buildBinary(t)
	g := vcstest.New(t)
	g.Write("builtin-rm.c", lines(numbered("rm", 30)))
	g.Write("builtin.h", "int cmd_rm(void);"+"\n")
	g.Write("loader.c", lines(numbered("loader", 30)))
	g.Write("README.md", "See builtin-rm.c for the rm command."+"\n")
	g.Commit("start")
	// Moved into builtin/ with two lines added at the top.
	g.Mv("builtin-rm.c", "builtin/rm.c")
	g.Write("builtin/rm.c", lines(append([]string{"/* rm */", "#include \"builtin.h\""}, numbered("rm", 30)...)))
	moved := g.Commit("Move 'builtin-*' into a 'builtin/' subdirectory")
	g.Git("rm", "-q", "loader.c")
	deleted := g.Commit("remove legacy loader")

	srv := startBinary(t, bin, t.TempDir())
	srv.initialize(g.Dir)
	var st wire.Status
	deadline := time.Now().Add(20 * time.Second)
	for srv.call("find/status", map[string]any{}, &st); st.VCS == nil || !st.VCS.Ready; srv.call("find/status", map[string]any{}, &st) {
		if st.VCS == nil {
			t.Fatalf("find/status in a repository has no vcs: %+v", st)
		}
		if time.Now().After(deadline) {
			t.Fatalf("the history was not read: %+v", st.VCS)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if v := st.VCS; v.Kind != "git" || v.Commits != 3 || v.Renames != 1 || v.Head != deleted {
		t.Fatalf("vcs %+v, want git, 3 commits, 1 rename, head %s", v, deleted)
	}

	var res wire.Resolve
	// Another machine's checkout of this repository (a directory named as
	// the root is): read as the project's.
	srv.call("find/resolvePath", map[string]any{"path": "/home/someone/src/" + filepath.Base(g.Dir) + "/builtin-rm.c:10"}, &res)
	if res.Resolved == nil || res.Resolved.Path != "builtin/rm.c" {
		t.Fatalf("builtin-rm.c:10 resolved to %+v (candidates %+v)", res.Resolved, res.Candidates)
	}
	if got := strings.Join(res.Resolved.Reasons, " "); !strings.Contains(got, "history:renamed "+moved[:7]) || !strings.Contains(got, "line:mapped:12") {
		t.Errorf("reasons %q: want the rename's commit and the line carried forward", got)
	}
	if r := res.Resolved.Range; r == nil || r.Start.Line != 11 {
		t.Errorf("range %+v, want line 12 (0-based 11): two lines were added above", r)
	}
	if m := res.Moved; m == nil || m.Path != "builtin-rm.c" || m.Commit != moved || m.Date != "2024-05-01" || !strings.HasPrefix(m.Subject, "Move 'builtin-*'") {
		t.Errorf("moved %+v", res.Moved)
	}

	srv.call("find/resolvePath", map[string]any{"path": "loader.c"}, &res)
	if res.Resolved != nil {
		t.Fatalf("a deleted file resolved to %+v", res.Resolved)
	}
	if gone := res.Gone; gone == nil || gone.Path != "loader.c" || gone.Commit != deleted || gone.Subject != "remove legacy loader" {
		t.Fatalf("gone %+v", res.Gone)
	}

	var files wire.Files
	srv.call("find/files", map[string]any{"query": "./builtin-rm.c"}, &files)
	if len(files.Matches) == 0 || files.Matches[0].Path != "builtin/rm.c" || !strings.HasPrefix(files.Matches[0].Reason, "history:") {
		t.Fatalf("find with the old path: %+v", files.Matches)
	}

	// A literal in a document that names the old path leads to the new one.
	readme := wire.FileURI(filepath.Join(g.Dir, "README.md"))
	srv.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": readme, "languageId": "markdown", "version": 1, "text": "See `builtin-rm.c` for the rm command.\n"}})
	var loc wire.Location
	srv.call("textDocument/definition", map[string]any{"textDocument": map[string]any{"uri": readme},
		"position": map[string]any{"line": 0, "character": 7}}, &loc)
	if !strings.HasSuffix(loc.URI, "/builtin/rm.c") {
		t.Fatalf("definition of the old path %+v", loc)
	}

	// A commit made while the server runs is followed.
	g.Mv("builtin.h", "include/builtin.h")
	next := g.Commit("headers into include/")
	deadline = time.Now().Add(40 * time.Second)
	for {
		srv.call("find/resolvePath", map[string]any{"path": "builtin.h"}, &res)
		if res.Resolved != nil && res.Resolved.Path == "include/builtin.h" && res.Moved != nil && res.Moved.Commit == next {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the new commit was not followed: %+v moved %+v", res.Resolved, res.Moved)
		}
		time.Sleep(50 * time.Millisecond)
	}
	srv.stop()

	// No repository: vcs is null, answers as before.
	plain := t.TempDir()
	write(t, filepath.Join(plain, "a.go"))
	other := startBinary(t, bin, t.TempDir())
	other.initialize(plain)
	var raw map[string]any
	other.call("find/status", map[string]any{}, &raw)
	if v, ok := raw["vcs"]; !ok || v != nil {
		t.Fatalf("vcs without a repository: %v (present %v), want null", v, ok)
	}
	other.stop()
}
