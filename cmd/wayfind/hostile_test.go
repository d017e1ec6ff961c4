package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"wayfind/history"
	"wayfind/service/hostiletest"
)

// TestHostileTreeFrontEnds: in a tree with links to / and to .., a link
// out to a directory of secrets, a FIFO and names with line breaks, no
// path asked of the CLI, the MCP server or the hook names or returns
// anything outside the root by its real path, nor any byte of a file
// outside it; the hook always exits 0 with nothing on stderr the harness
// would read as a block. (The LSP server: lsp's TestHostileTreeLSP.)
func TestHostileTreeFrontEnds(t *testing.T) {
	tr := hostiletest.Build(t)
	cache := t.TempDir()
	t.Run("cli", func(t *testing.T) {
		for _, p := range tr.Paths() {
			for _, cmd := range [][]string{{"resolve", "--root", tr.Root, p}, {"find", "--root", tr.Root, p}} {
				c := exec.Command(binary, cmd...)
				c.Env = append(os.Environ(), "WAYFIND_CACHE_DIR="+cache)
				var out, errb bytes.Buffer
				c.Stdout, c.Stderr = &out, &errb
				_ = c.Run()
				if code := c.ProcessState.ExitCode(); code != 0 && code != exitNothing && code != exitInput {
					t.Errorf("wayfind %s %q: exit %d: %s", cmd[0], p, code, errb.String())
				}
				tr.Check(t, "cli "+cmd[0], p, out.Bytes())
			}
		}
	})
	t.Run("mcp", func(t *testing.T) {
		c := startMCP(t, []string{"--root", tr.Root}, nil)
		for _, p := range tr.Paths() {
			for _, tool := range []struct {
				name string
				args map[string]any
			}{{"path_resolve", map[string]any{"path": p}}, {"read_resolved", map[string]any{"path": p}}, {"find_files", map[string]any{"query": p}}} {
				var r toolResult
				if e := c.call("tools/call", map[string]any{"name": tool.name, "arguments": tool.args}, &r); e != nil {
					t.Errorf("%s %q: protocol error %+v", tool.name, p, e)
					continue
				}
				for _, part := range r.Content {
					tr.Check(t, "mcp "+tool.name, p, []byte(part.Text))
				}
			}
		}
	})
	hookEvents := func() []map[string]any {
		events := []map[string]any{}
		for _, p := range tr.Paths() {
			full := p
			if !filepath.IsAbs(p) && !strings.HasPrefix(p, "file://") {
				full = filepath.Join(tr.Root, p)
			}
			for _, tool := range []string{"Read", "Edit", "Glob"} {
				field := "file_path"
				if tool == "Glob" {
					field = "path"
				}
				events = append(events, hookEvent(tr.Root, tool, map[string]any{field: full}))
			}
			// The same path in shell commands that read it, as written and
			// from its directory.
			quote := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
			for _, command := range []string{"cat " + quote(p), "ls -la " + quote(p), "cd " + quote(filepath.Dir(full)) + " && head -n 5 " + quote(filepath.Base(full))} {
				events = append(events, hookEvent(tr.Root, "Bash", map[string]any{"command": command}))
			}
		}
		// What a harness names beside the call: a transcript that never
		// ends, one that blocks, one that is not there.
		for _, transcript := range []string{"/dev/zero", filepath.Join(tr.Root, "pipe.txt"), "/nonexistent/t.jsonl", tr.Root} {
			ev := hookEvent(tr.Root, "Read", map[string]any{"file_path": filepath.Join(tr.Root, "mian.go")})
			ev["transcript_path"] = transcript
			events = append(events, ev)
		}
		return events
	}
	t.Run("hook", func(t *testing.T) {
		for _, ev := range hookEvents() {
			in, _ := json.Marshal(ev)
			runHookBinary(t, tr, cache, in, ev)
		}
		// Not an event at all: an input past the event bound, and no input.
		runHookBinary(t, tr, cache, bytes.Repeat([]byte("x"), 100<<20), nil)
		runHookBinary(t, tr, cache, nil, nil)
		// The agent's reads the hook noted as visits (history.Note): the
		// files inside by their real paths, a link in to one as its
		// target, nothing a link leads out to.
		for _, p := range []string{"main.go", "alias.go", "secret.go", "up/outside/main.go", "rootfs/etc/passwd"} {
			ev := hookEvent(tr.Root, "Read", map[string]any{"file_path": filepath.Join(tr.Root, p)})
			in, _ := json.Marshal(ev)
			runHookBinary(t, tr, cache, in, ev)
		}
		st := history.New(history.Options{CacheDir: cache})
		st.SetRoots([]string{tr.Root})
		var noted []string
		for _, v := range st.Recent(history.DefaultLimit, true) {
			noted = append(noted, v.Rel)
		}
		if !slices.Contains(noted, "main.go") || slices.Contains(noted, "alias.go") {
			t.Errorf("the agent's reads noted: %q, want main.go (alias.go as main.go)", noted)
		}
		b, _ := json.Marshal(map[string]any{"path": noted})
		tr.Check(t, "hook's notes", "", b)
	})
	t.Run("hook through the daemon", func(t *testing.T) {
		cache := t.TempDir()
		startDaemonBinary(t, tr.Root, cache)
		for _, ev := range hookEvents() {
			in, _ := json.Marshal(ev)
			runHookBinary(t, tr, cache, in, ev)
		}
		if log, _ := os.ReadFile(filepath.Join(cache, "hook.log")); !bytes.Contains(log, []byte("the daemon's")) {
			t.Fatalf("the daemon answered no call:\n%s", log)
		}
	})
}

func hookEvent(cwd, tool string, input map[string]any) map[string]any {
	return map[string]any{"session_id": "hostile", "cwd": cwd, "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": input}
}

// runHookBinary runs `wayfind hook` on one input as a harness does, with
// the harness's timeout: it must exit 0 within it, and its answer pass
// the tree's check.
func runHookBinary(t *testing.T, tr hostiletest.Tree, cache string, in []byte, ev map[string]any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c := exec.CommandContext(ctx, binary, "hook")
	c.Env = append(os.Environ(), "WAYFIND_CACHE_DIR="+cache, "CLAUDE_PROJECT_DIR="+tr.Root)
	c.Stdin = bytes.NewReader(in)
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	err := c.Run()
	what := string(in)
	if len(what) > 200 {
		what = what[:200] + "…"
	}
	if ctx.Err() != nil {
		t.Errorf("hook %s: killed at the harness's timeout", what)
		return
	}
	if err != nil || errb.Len() > 0 {
		t.Errorf("hook %s: %v, stderr %q (want exit 0, nothing said)", what, err, errb.String())
	}
	query := ""
	if ev != nil {
		b, _ := json.Marshal(ev["tool_input"])
		query = string(b)
	}
	tr.Check(t, "hook", query, out.Bytes())
}

// The hook's log is the person's alone.
func TestHookLogPrivate(t *testing.T) {
	tr := hostiletest.Build(t)
	cache := filepath.Join(t.TempDir(), "cache")
	ev := hookEvent(tr.Root, "Read", map[string]any{"file_path": filepath.Join(tr.Root, "mian.go")})
	ev["transcript_path"] = "/dev/zero"
	in, _ := json.Marshal(ev)
	runHookBinary(t, tr, cache, []byte("not an event"), nil)
	runHookBinary(t, tr, cache, in, ev)
	st, err := os.Stat(filepath.Join(cache, "hook.log"))
	if err != nil {
		t.Fatalf("no hook.log: %v", err)
	}
	if perm := st.Mode().Perm(); perm != 0o600 {
		t.Errorf("hook.log is %o, want 600", perm)
	}
	if dst, err := os.Stat(cache); err != nil || dst.Mode().Perm() != 0o700 {
		t.Errorf("the cache directory: %v %v, want 700", dst.Mode().Perm(), err)
	}
}

// TestHookUnknownArguments: a hook command this binary does not
// understand (a newer plugin's, run by an older wayfind) lets the call go
// ahead — exit 0, no answer — where exit 2 would have the harness block
// every call; why is said on stderr and in hook.log.
func TestHookUnknownArguments(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "cache")
	ev, _ := json.Marshal(map[string]any{"session_id": "s", "cwd": t.TempDir(), "hook_event_name": "PreToolUse",
		"tool_name": "Read", "tool_input": map[string]any{"file_path": "/nowhere/a.go"}})
	for _, args := range [][]string{{"--harness", "nosuch"}, {"--later-flag"}, {"--harness", "copilot", "extra"}} {
		c := exec.Command(binary, append([]string{"hook"}, args...)...)
		c.Env = append(os.Environ(), "WAYFIND_CACHE_DIR="+cache)
		c.Stdin = bytes.NewReader(ev)
		var out, errb bytes.Buffer
		c.Stdout, c.Stderr = &out, &errb
		if err := c.Run(); err != nil || out.Len() > 0 || errb.Len() == 0 {
			t.Errorf("hook %q: %v, stdout %q, stderr %q; want exit 0, no answer, why on stderr", args, err, out.String(), errb.String())
		}
	}
	if log, err := os.ReadFile(filepath.Join(cache, "hook.log")); err != nil || !strings.Contains(string(log), "stepped aside") {
		t.Errorf("hook.log: %q %v", log, err)
	}
}
