package main

// wayfind mcp and wayfind hook in a real third-party agent harness: Codex
// CLI run headless against a scripted Responses API on 127.0.0.1
// (package codextest), with `wayfind mcp --root <repo>` as its MCP server
// and, for the hook, `wayfind hook` as its hooks. make deps installs the
// harness (@openai/codex, pinned in testdata/clients/codex; its platform
// binary comes as an optional dependency); CI requires it.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"wayfind/hook/codextest"
)

// codexBinary is the harness to drive: $WAYFIND_CODEX, else the one make
// deps installs (codextest.Binary).
func codexBinary(t *testing.T) string {
	return harnessBinary(t, "WAYFIND_CODEX", codextest.Binary("../.."), "@openai/codex (testdata/clients/codex)")
}

// runCodex plays script in Codex CLI, headless in dir, with wayfind mcp
// --root dir as its MCP server (and hooks, TOML appended to its config:
// trusted for the run, as a person trusts them once in the TUI), and
// returns what the harness returned.
func runCodex(t *testing.T, codex, dir string, script []codextest.Call, hooks string) *codextest.Result {
	t.Helper()
	config := fmt.Sprintf(`
[mcp_servers.wayfind]
command = %s
args = ["mcp", "--root", %s]
env = { WAYFIND_CACHE_DIR = %s }
startup_timeout_sec = 30
tool_timeout_sec = 60
`, codextest.TOMLString(binary), codextest.TOMLString(dir), codextest.TOMLString(os.Getenv("WAYFIND_CACHE_DIR"))) + hooks
	s := codextest.Session{Codex: codex, Dir: dir, Home: t.TempDir(), Config: config, TrustHooks: hooks != ""}
	run, err := s.Run(context.Background(), script)
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// codexAnswer is the JSON answer among a tool output's text parts (Codex
// puts a "Wall time: …" part before the server's text).
func codexAnswer(t *testing.T, parts []string, v any) {
	t.Helper()
	for _, p := range parts {
		if json.Unmarshal([]byte(p), v) == nil {
			return
		}
	}
	t.Errorf("no JSON answer in the tool output %q", parts)
}

// TestCodexMCP: an agent in Codex CLI, handed a path its repository's
// history moved, asks wayfind's MCP server where the file is now and
// reads it through the server.
func TestCodexMCP(t *testing.T) {
	codex := codexBinary(t)
	repo := newAgentRepo(t)
	const old, today = "internal/lsp/cache/symbols.go", "gopls/internal/cache/symbols.go"
	script := []codextest.Call{
		{Tool: "path_resolve", Args: map[string]any{"path": old}},
		{Tool: "read_resolved", Args: map[string]any{"path": old}},
	}
	run := runCodex(t, codex, repo.dir, script, "")
	t.Logf("tools as Codex offered them to the model: %q", run.Offered)
	if len(run.Stray) > 0 {
		t.Logf("other requests to the model server: %q", run.Stray)
	}

	var resolved struct {
		Resolved *struct {
			Path string `json:"path"`
			Why  string `json:"why"`
		} `json:"resolved"`
		Moved *struct {
			Path   string `json:"path"`
			Commit string `json:"commit"`
		} `json:"moved"`
	}
	codexAnswer(t, run.Outputs[0], &resolved)
	t.Logf("path_resolve returned: %s", codexJoined(run.Outputs[:1]))
	var read struct {
		Path string `json:"path"`
		Text string `json:"text"`
	}
	codexAnswer(t, run.Outputs[1], &read)
	want := mustRead(t, filepath.Join(repo.dir, filepath.FromSlash(today)))

	// What the harness itself reports of the calls: each an MCP tool call
	// of the server wayfind, completed.
	var calls []string
	var said any
	for _, e := range run.Events {
		item, _ := e["item"].(map[string]any)
		if e["type"] == "item.completed" && item["type"] == "mcp_tool_call" {
			calls = append(calls, fmt.Sprintf("%v/%v:%v", item["server"], item["tool"], item["status"]))
		}
		if e["type"] == "item.completed" && item["type"] == "agent_message" {
			said = item["text"]
		}
	}

	checks := []struct {
		what string
		ok   bool
	}{
		{"path_resolve's answer names the file the history moved the path to",
			resolved.Resolved != nil && resolved.Resolved.Path == today && strings.Contains(resolved.Resolved.Why, "history:") &&
				strings.Contains(resolved.Resolved.Why, repo.moved[:7]) && resolved.Moved != nil && resolved.Moved.Path == old && resolved.Moved.Commit == repo.moved},
		{"read_resolved reads that file", read.Path == today && want != "" && read.Text == want},
		{"Codex reports both calls as wayfind's, completed",
			strings.Join(calls, " ") == "wayfind/path_resolve:completed wayfind/read_resolved:completed"},
		{"the run ends with the model's answer", said == "done"},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s:\ntool outputs:\n%s\nCodex's calls: %q", c.what, strings.Join(numbered(codexJoined(run.Outputs)), "\n"), calls)
		}
	}
}

func codexJoined(outputs [][]string) []string {
	out := make([]string, len(outputs))
	for i, parts := range outputs {
		out[i] = strings.Join(parts, "\n")
	}
	return out
}

// TestCodexHook: an agent in Codex CLI runs shell commands over paths
// its repository's history moved, with `wayfind hook --harness codex` as
// its PreToolUse and PostToolUse hook — the first with no flag at all:
// the hook knows Codex's events — each reads the file meant.
func TestCodexHook(t *testing.T) {
	codex := codexBinary(t)
	repo := newAgentRepo(t)
	script := []codextest.Call{
		{Tool: "exec_command", Args: map[string]any{"cmd": "cat internal/lsp/cache/symbols.go"}},
		{Tool: "exec_command", Args: map[string]any{"cmd": "sed -n '1,4p' pkg/util/strutil.go"}},
		{Tool: "exec_command", Args: map[string]any{"cmd": "head -n 2 README.md"}},
		{Tool: "exec_command", Args: map[string]any{"cmd": "wc -l config.go"}},
		// A module's directory searched for from the top of the tree.
		{Tool: "exec_command", Args: map[string]any{"cmd": "find src -name Cli.java"}},
		{Tool: "exec_command", Args: map[string]any{"cmd": "grep -rn class --include=Core.java src"}},
		// A file the agent reads through the shell is where it works for
		// the MCP server beside the hook: of the name two services share,
		// the shipping one first.
		{Tool: "exec_command", Args: map[string]any{"cmd": "cat services/ship/handler.go"}},
		{Tool: "find_files", Args: map[string]any{"query": "config.go"}},
	}
	run := runCodex(t, codex, repo.dir, script, codexHooks())
	out := codexJoined(run.Outputs)
	var found struct{ Matches []struct{ Path string } }
	codexAnswer(t, run.Outputs[7], &found)
	checks := []struct {
		what string
		ok   bool
	}{
		{"a moved file's old path in cat reads the file", strings.Contains(out[0], "symbols line =")},
		{"a renamed file's old path in sed -n reads it", strings.Contains(out[1], "strutil line")},
		{"an existing path is untouched", strings.Contains(out[2], "the readme")},
		{"a name two files share is left as written: the command fails", strings.Contains(out[3], "No such file")},
		{"a find of a directory that is not there, for a name one module's holds, finds it there", strings.Contains(out[4], "mods/cli/src/Cli.java")},
		{"a recursive grep's --include the same", strings.Contains(out[5], "the core module")},
		{"after a cat of the shipping handler, find_files config.go lists the shipping config first",
			strings.Contains(out[6], "the shipping handler") && len(found.Matches) == 2 && found.Matches[0].Path == "services/ship/config.go"},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s:\ntool outputs:\n%s", c.what, strings.Join(numbered(out), "\n"))
		}
	}
	if t.Failed() {
		t.Logf("hook.log:\n%s", mustRead(t, filepath.Join(os.Getenv("WAYFIND_CACHE_DIR"), "hook.log")))
	}
}

// codexHooks is config.toml's wayfind hook, PreToolUse and PostToolUse
// on Bash — the first with no flag at all: the hook knows Codex's events.
func codexHooks() string {
	return fmt.Sprintf(`
[[hooks.PreToolUse]]
matcher = "Bash"
[[hooks.PreToolUse.hooks]]
type = "command"
command = %s
timeout = 10

[[hooks.PostToolUse]]
matcher = "Bash"
[[hooks.PostToolUse.hooks]]
type = "command"
command = %s
timeout = 10
`, codextest.TOMLString(binary+" hook"), codextest.TOMLString(binary+" hook --harness codex"))
}

// TestCodexHookFromADirectory: Codex CLI started in a directory inside
// the repository — its hook notes into the repository, its MCP server
// searches the directory — and a file the agent cat's still orders
// find_files (the project's one history): of the name two services
// share, the shipping one first.
func TestCodexHookFromADirectory(t *testing.T) {
	codex := codexBinary(t)
	repo := newAgentRepo(t)
	dir := filepath.Join(repo.dir, "services")
	run := runCodex(t, codex, dir, []codextest.Call{
		{Tool: "exec_command", Args: map[string]any{"cmd": "cat ship/handler.go"}},
		{Tool: "find_files", Args: map[string]any{"query": "config.go"}},
	}, codexHooks())
	var found struct {
		Root    string
		Matches []struct{ Path string }
	}
	codexAnswer(t, run.Outputs[1], &found)
	if found.Root != dir || len(found.Matches) != 2 || found.Matches[0].Path != "ship/config.go" {
		t.Errorf("after a cat of the shipping handler from services/, find_files config.go answered %+v (want ship/config.go first, in %s):\n%s", found, dir, strings.Join(numbered(codexJoined(run.Outputs)), "\n"))
	}
}

// TestCodexPlugin: this repository is a Codex CLI marketplace and its
// plugin a Codex plugin — added and installed as a person does (`codex
// plugin marketplace add`, `codex plugin add wayfind@wayfind`), no hook
// or server written in config.toml — and a stale path in a shell command
// reads the file meant, and the plugin's MCP server answers for the
// project; with wayfind on PATH, in the plugin's bin/, and nowhere (the
// command runs as written).
func TestCodexPlugin(t *testing.T) {
	codex := codexBinary(t)
	for _, c := range pluginCases {
		plugin := pluginCopy(t, c.besides)
		market := filepath.Dir(plugin)
		if err := os.MkdirAll(filepath.Join(market, ".claude-plugin"), 0o755); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command("cp", "../../.claude-plugin/marketplace.json", filepath.Join(market, ".claude-plugin")).CombinedOutput(); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		repo := newAgentRepo(t)
		// Its hooks trusted for the run, as a person trusts them once in
		// the TUI: Codex runs no plugin hook before that (tried: the
		// commands ran as written).
		s := codextest.Session{Codex: codex, Dir: repo.dir, Home: t.TempDir(), Plugins: true, TrustHooks: true, Env: []string{"PATH=" + c.path()}}
		config, err := s.Plugin(context.Background(), market, "wayfind", "wayfind")
		if err != nil {
			t.Fatal(err)
		}
		s.Config = config
		script := []codextest.Call{
			{Tool: "exec_command", Args: map[string]any{"cmd": "cat internal/lsp/cache/symbols.go"}},
			{Tool: "exec_command", Args: map[string]any{"cmd": "sed -n '1,4p' pkg/util/strutil.go"}},
		}
		if c.reads {
			script = append(script, codextest.Call{Tool: "path_resolve", Args: map[string]any{"path": "internal/lsp/cache/symbols.go"}})
		}
		run, err := s.Run(context.Background(), script)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		out := codexJoined(run.Outputs)
		if c.reads {
			// The plugin's MCP server, started in the plugin's directory,
			// searches the project Codex works in.
			var res struct{ Resolved *struct{ Path string } }
			codexAnswer(t, run.Outputs[2], &res)
			if res.Resolved == nil || res.Resolved.Path != "gopls/internal/cache/symbols.go" {
				t.Errorf("%s: the plugin's path_resolve: %s", c.name, out[2])
			}
		}
		if got := strings.Contains(out[0], "symbols line =") && strings.Contains(out[1], "strutil line"); got != c.reads {
			t.Errorf("%s: the old paths read the files: %v, want %v\n%s", c.name, got, c.reads, strings.Join(numbered(out), "\n"))
		}
	}
}
