package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"wayfind/vcs"
	"wayfind/vcs/vcstest"
	"wayfind/workspace"
)

// longRepo is a repository whose log is longer than a one-shot process
// reads itself (historyInProcess): a.c renamed to b.c early, its real
// path.
func longRepo(t *testing.T) string {
	t.Helper()
	real, err := filepath.EvalSymlinks(vcstest.LongLog(t, historyInProcess+100).Dir)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

// readerCache is a cache directory for a test whose hooks start
// background readers: they may still be writing their one line to
// history.log when the test ends, so the directory is removed once no
// process holds its lock, not by t.TempDir's strict cleanup.
func readerCache(t *testing.T, root string) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "wayfind-history-test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if unlock, ok := vcs.TryLock(dir, root); ok {
				unlock()
				break
			}
		}
		time.Sleep(100 * time.Millisecond) // a reader's last line, after its lock
		os.RemoveAll(dir)
	})
	return dir
}

// historyReads waits until history.log in cache says the log was read,
// and returns how many times it says so.
func historyReads(t *testing.T, cache string) (int, string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		log, _ := os.ReadFile(filepath.Join(cache, "history.log"))
		if n := strings.Count(string(log), "history read:"); n > 0 || time.Now().After(deadline) {
			return n, string(log)
		}
	}
}

// waitForCache waits until the background reader has brought root's
// cache to HEAD.
func waitForCache(t *testing.T, cache, root string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		if rec, behind, _, err := vcs.Cached(context.Background(), cache, root, 0, t.Logf); err == nil && behind == 0 && rec != nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the cache was not brought to HEAD")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestHistoryReadOnceForManyHooks: twenty hooks started at once on a
// repository whose long history no process has read: each answers
// within the harness's timeout (with the history, or from the names and
// saying so), the log is read once — by the background reader, not
// beside it — and the shared cache is whole afterwards.
func TestHistoryReadOnceForManyHooks(t *testing.T) {
	root := longRepo(t)
	cache := readerCache(t, root)
	ev, _ := json.Marshal(hookEvent(root, "Read", map[string]any{"file_path": filepath.Join(root, "a.c")}))
	var wg sync.WaitGroup
	outs := make([]string, 20)
	for i := range outs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			c := exec.CommandContext(ctx, binary, "hook")
			c.Env = append(os.Environ(), "WAYFIND_CACHE_DIR="+cache, "CLAUDE_PROJECT_DIR="+root)
			c.Stdin = bytes.NewReader(ev)
			var out, errb bytes.Buffer
			c.Stdout, c.Stderr = &out, &errb
			if err := c.Run(); err != nil || ctx.Err() != nil {
				t.Errorf("hook %d: %v (killed: %v) %s", i, err, ctx.Err() != nil, errb.String())
			}
			outs[i] = out.String()
		}()
	}
	wg.Wait()
	silent := false
	for i, o := range outs {
		if !strings.Contains(o, "b.c") && !strings.Contains(o, "in the background") {
			t.Errorf("hook %d answered %q: want the moved file, or the line that the history is being read", i, o)
			silent = true
		}
	}
	if silent {
		log, _ := os.ReadFile(filepath.Join(cache, "hook.log"))
		t.Logf("hook.log:\n%s", log)
	}
	waitForCache(t, cache, root) // the background reader saves the whole history
	if n, log := historyReads(t, cache); n != 1 {
		t.Errorf("the log was read %d times, want once:\n%s", n, log)
	}
	// And the next hook answers from it.
	c := exec.Command(binary, "hook")
	c.Env = append(os.Environ(), "WAYFIND_CACHE_DIR="+cache, "CLAUDE_PROJECT_DIR="+root)
	c.Stdin = bytes.NewReader(ev)
	out, err := c.Output()
	if err != nil || !strings.Contains(string(out), filepath.Join(root, "b.c")) || !strings.Contains(string(out), "moved") {
		t.Errorf("the hook after the read: %v %s", err, out)
	}
	if _, err := vcs.Load(workspace.RootCacheDir(cache, root)); err != nil {
		t.Errorf("the cache is not whole: %v", err)
	}
}

// TestHistoryAfterAmend: after an amend, the history saved before it
// answers the next hook at once (saying the history is being brought
// up to date), and the background reader brings the cache to the new
// HEAD.
func TestHistoryAfterAmend(t *testing.T) {
	root := longRepo(t)
	cache := readerCache(t, root)
	read := exec.Command(binary, "history", "--root", root)
	read.Env = append(os.Environ(), "WAYFIND_CACHE_DIR="+cache)
	if out, err := read.CombinedOutput(); err != nil || !strings.Contains(string(out), "history read:") {
		t.Fatalf("wayfind history: %v %s", err, out)
	}
	if out, err := exec.Command("git", "-C", root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--amend", "-m", "amended").CombinedOutput(); err != nil {
		t.Fatalf("amend: %v %s", err, out)
	}
	ev, _ := json.Marshal(hookEvent(root, "Read", map[string]any{"file_path": filepath.Join(root, "a.c")}))
	c := exec.Command(binary, "hook")
	c.Env = append(os.Environ(), "WAYFIND_CACHE_DIR="+cache, "CLAUDE_PROJECT_DIR="+root)
	c.Stdin = bytes.NewReader(ev)
	out, err := c.Output()
	if err != nil || !strings.Contains(string(out), filepath.Join(root, "b.c")) || !strings.Contains(string(out), "in the background") {
		t.Errorf("the hook after an amend: %v %s; want the moved file from the history saved before, and the line saying it is being read", err, out)
	}
	waitForCache(t, cache, root)
}

// TestAnswersBeforeTheHistory: a path that names no file, asked while
// another process is reading the repository's history for the first
// time and past the wait for it, is answered from the names alone and
// says so: the CLI resolves nothing (historyPending, as a server still
// reading answers: the MCP server's path_resolve says the same), and the
// hook lets the call go ahead with the line that the history may yet
// find it — whether or not a name matches. With caches off — or a cache
// directory that cannot be made or written in — no history is coming:
// the names answer by their own rules, as outside a repository, at once,
// saying why, and `wayfind history` refuses.
func TestAnswersBeforeTheHistory(t *testing.T) {
	root := longRepo(t)
	cache := readerCache(t, root)
	unlock, ok := vcs.TryLock(cache, root) // the reader at work: this test
	if !ok {
		t.Fatal("the history's lock was not taken")
	}
	defer unlock()
	readOf := func(p string) map[string]any {
		return hookEvent(root, "Read", map[string]any{"file_path": filepath.Join(root, p)})
	}
	aFile := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(aFile, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	const uncached = "caches are off, and this repository's history is too long to read for one call"
	for _, c := range []struct {
		name      string
		cache     string
		args      []string
		ev        map[string]any // the hook's event; nil: no stdin
		code      int
		want, not []string // in its output (stdout and stderr), and not
	}{
		{"the CLI: nothing resolved, and why", cache, []string{"resolve", "--root", root, "--format", "json", "a.c"}, nil, exitNothing,
			[]string{`"resolved":null`, `"historyPending":true`}, nil},
		{"the CLI: a guess from the names listed, not resolved", cache, []string{"resolve", "--root", root, "--format", "json", "lib/b.c"}, nil, exitNothing,
			[]string{`"resolved":null`, `"path":"b.c"`, `history:pending`}, nil},
		{"the hook: the call goes ahead, and why", cache, []string{"hook"}, readOf("a.c"), exitFound,
			[]string{"no file at " + filepath.Join(root, "a.c") + ", and none by its name", "in the background"}, nil},
		{"caches off, the CLI: the names' answer, and why", "-", []string{"resolve", "--root", root, "--format", "json", "lib/b.c"}, nil, exitNothing,
			[]string{`"path":"b.c"`, uncached}, []string{"historyPending", "history:pending"}},
		{"caches off, the hook: the names' candidates, and why", "-", []string{"hook"}, readOf("lib/b.c"), exitFound,
			[]string{"Candidates, best first:\\n1. " + filepath.Join(root, "b.c"), uncached}, []string{"history:pending"}},
		{"caches off, the hook: nothing to say of a path no name matches", "-", []string{"hook"}, readOf("a.c"), exitFound,
			nil, []string{"a.c"}},
		{"caches off, wayfind history: nowhere to keep it", "-", []string{"history", "--root", root}, nil, exitInput,
			[]string{"nowhere to keep the history"}, nil},
		{"a cache directory that cannot be made: as caches off", filepath.Join(aFile, "cache"), []string{"hook"}, readOf("lib/b.c"), exitFound,
			[]string{uncached}, nil},
		{"a cache directory not written in (/proc, root included): as caches off", "/proc", []string{"hook"}, readOf("lib/b.c"), exitFound,
			[]string{uncached}, nil},
	} {
		cmd := exec.Command(binary, c.args...)
		cmd.Env = append(os.Environ(), "WAYFIND_CACHE_DIR="+c.cache, "CLAUDE_PROJECT_DIR="+root)
		if c.ev != nil {
			in, _ := json.Marshal(c.ev)
			cmd.Stdin = bytes.NewReader(in)
		}
		out, _ := cmd.CombinedOutput()
		if code := cmd.ProcessState.ExitCode(); code != c.code {
			t.Errorf("%s: exit %d, want %d", c.name, code, c.code)
		}
		for _, w := range c.want {
			if !strings.Contains(string(out), w) {
				t.Errorf("%s: answered %s, want %q in it", c.name, out, w)
			}
		}
		for _, w := range c.not {
			if strings.Contains(string(out), w) {
				t.Errorf("%s: answered %s, want no %q in it", c.name, out, w)
			}
		}
	}
	t.Setenv("WAYFIND_CACHE_DIR", cache)
	mcp := startMCP(t, []string{"--root", root}, nil)
	var res struct {
		Resolved       any
		HistoryPending bool
	}
	mcp.tool("path_resolve", map[string]any{"path": "a.c"}, &res)
	if res.Resolved != nil || !res.HistoryPending {
		t.Errorf("the MCP server's path_resolve: %+v, want nothing resolved and historyPending", res)
	}
}

// TestNotOwnedRepository: where git refuses the repository as another
// user's (a container's user on a mounted checkout: here a git on PATH
// that says so to every command, as git does), the names answer as
// outside a repository and the answer says why, with git's own way to
// lift it — never read by lifting it ourselves; asked from a directory
// inside the repository, the repository's directory is not named (it is
// outside the root).
func TestNotOwnedRepository(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{".git", "src"} {
		os.Mkdir(filepath.Join(root, d), 0o755)
	}
	os.WriteFile(filepath.Join(root, "src", "app.py"), []byte("x = 1\n"), 0o644)
	env := append(os.Environ(), "PATH="+vcstest.RefusingGit(t, root)+string(os.PathListSeparator)+os.Getenv("PATH"), "WAYFIND_CACHE_DIR="+t.TempDir(), "CLAUDE_PROJECT_DIR="+root)
	said := "git refuses to read this repository's history, owned by another user (git config --global --add safe.directory " + root + " allows it)"
	src := filepath.Join(root, "src")
	for _, c := range []struct {
		name string
		args []string
		ev   map[string]any
		want []string
		not  string
	}{
		{"the CLI", []string{"resolve", "--root", root, "--format", "json", "lib/app.py"}, nil, []string{`"path":"src/app.py"`, said}, ""},
		{"the hook", []string{"hook"}, hookEvent(root, "Read", map[string]any{"file_path": filepath.Join(root, "lib", "app.py")}), []string{filepath.Join(root, "src", "app.py"), said}, ""},
		{"the CLI on a directory inside it", []string{"resolve", "--root", src, "--format", "json", "lib/app.py"}, nil,
			[]string{`"path":"app.py"`, "git config --global --add safe.directory with the repository's top directory allows it"}, "safe.directory " + root},
	} {
		cmd := exec.Command(binary, c.args...)
		cmd.Env = env
		if c.ev != nil {
			in, _ := json.Marshal(c.ev)
			cmd.Stdin = bytes.NewReader(in)
		}
		out, _ := cmd.CombinedOutput()
		for _, w := range c.want {
			if !strings.Contains(string(out), w) {
				t.Errorf("%s: answered %s, want %q in it", c.name, out, w)
			}
		}
		if c.not != "" && strings.Contains(string(out), c.not) {
			t.Errorf("%s: answered %s, naming %q", c.name, out, c.not)
		}
	}
}
