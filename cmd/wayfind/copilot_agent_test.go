package main

// The hook in the real GitHub Copilot CLI: run headless (copilot -p)
// against a scripted OpenAI-compatible API on 127.0.0.1 (its BYOK
// provider, COPILOT_OFFLINE: no GitHub, no network, a dummy key, an
// isolated HOME), with `wayfind hook --harness copilot` as its
// PreToolUse and PostToolUse hooks in the user's settings, in the form
// Copilot CLI shares with VS Code. The script is the model (chattest:
// the same chat completions API); what the harness sends back as each
// tool message is what an agent would have read. make deps installs the
// harness (@github/copilot's Linux build, pinned in
// testdata/clients/copilot); CI requires it.

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"wayfind/hook/chattest"
	"wayfind/vcs/vcstest"
)

// copilotBinary is the harness to drive: $WAYFIND_COPILOT, else the one
// make deps installs.
func copilotBinary(t *testing.T) string {
	return harnessBinary(t, "WAYFIND_COPILOT", chattest.CopilotBinary("../.."), "@github/copilot-linux-x64 (testdata/clients/copilot)")
}

// runCopilot plays script in Copilot CLI, headless in dir, with hookCmd
// as its PreToolUse and PostToolUse hooks ("": none in the settings), the
// plugin directory plugin ("": none) and env added, and returns the tool
// messages it sent the model.
func runCopilot(t *testing.T, copilot, dir, hookCmd, plugin string, env []string, script []chattest.Call) []string {
	t.Helper()
	res, err := chattest.Copilot{Bin: copilot, Dir: dir, Home: t.TempDir(), HookCmd: hookCmd, PluginDir: plugin, Env: env}.Run(context.Background(), script)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestCopilotHook: an agent in Copilot CLI views and cat's paths its
// repository's history moved: each reads the file meant — one larger than
// its view shows whole, through the lines that fit; a name two files
// share is denied with the candidates; with wayfind gone from where the
// hook names it, the calls go ahead as written.
func TestCopilotHook(t *testing.T) {
	copilot := copilotBinary(t)
	for _, c := range []struct {
		name  string
		bin   string
		reads bool
	}{
		{"wayfind", binary, true},
		{"no wayfind", filepath.Join(t.TempDir(), "none"), false},
	} {
		repo := newAgentRepo(t)
		in := func(p string) string { return filepath.Join(repo.dir, filepath.FromSlash(p)) }
		// A guide of 85 KB, four times what Copilot's view shows whole, moved.
		r := vcstest.Repo{T: t, Dir: repo.dir, Date: "2024-06-01T12:00:00Z"}
		r.Write("docs/guide.md", vcstest.Text("guide", 400))
		r.Commit("a guide")
		r.Mv("docs/guide.md", "docs/user/guide.md")
		r.Commit("the guide for users")
		res := runCopilot(t, copilot, repo.dir, c.bin+" hook --harness copilot", "", nil, []chattest.Call{
			{Tool: "view", Args: map[string]any{"path": in("internal/lsp/cache/symbols.go")}},
			{Tool: "bash", Args: map[string]any{"command": "sed -n '1,4p' pkg/util/strutil.go", "description": "read"}},
			{Tool: "view", Args: map[string]any{"path": in("config.go")}},
			{Tool: "view", Args: map[string]any{"path": in("docs/guide.md")}},
		})
		got := strings.Contains(res[0], "symbols line =") && strings.Contains(res[1], "strutil line") && strings.Contains(res[3], "guide line =")
		named := strings.Contains(res[2], "services/cart/config.go") && strings.Contains(res[2], "services/ship/config.go")
		if got != c.reads || named != c.reads {
			t.Errorf("%s: the old paths read the files %v, the shared name's candidates named %v; want %v:\n%s", c.name, got, named, c.reads, strings.Join(numbered(res), "\n"))
		}
	}
}

// TestCopilotPlugin: the repository's plugin directory is a Copilot CLI
// plugin too (plugin.json, copilot-hooks.json, through the same launcher
// as Claude Code's): with --plugin-dir and no settings edit, a moved
// file's old path and a renamed one's in sed -n read the files meant —
// wayfind from PATH, else the plugin's bin/ — and with neither the calls
// go ahead as written.
func TestCopilotPlugin(t *testing.T) {
	copilot := copilotBinary(t)
	for _, c := range pluginCases {
		plugin := pluginCopy(t, c.besides)
		repo := newAgentRepo(t)
		in := func(p string) string { return filepath.Join(repo.dir, filepath.FromSlash(p)) }
		res := runCopilot(t, copilot, repo.dir, "", plugin, []string{"PATH=" + c.path()}, []chattest.Call{
			{Tool: "view", Args: map[string]any{"path": in("internal/lsp/cache/symbols.go")}},
			{Tool: "bash", Args: map[string]any{"command": "sed -n '1,4p' pkg/util/strutil.go", "description": "read"}},
		})
		if got := strings.Contains(res[0], "symbols line =") && strings.Contains(res[1], "strutil line"); got != c.reads {
			t.Errorf("%s: the old paths read the files: %v, want %v\n%s", c.name, got, c.reads, strings.Join(numbered(res), "\n"))
		}
	}
}

// TestCopilotPluginReadsOrderFind: the plugin's MCP server in the real
// Copilot CLI searches the directory the session works in (Copilot
// offers no roots and starts a plugin's server in the plugin's directory
// unless its config says otherwise: copilot-mcp.json's cwd), and the file
// the agent views through Copilot's own view orders its find_files: of a
// name two services share, the one beside the file just read comes
// first — also from a directory inside the repository, where Copilot
// names the repository to its hooks (their notes go to the project's one
// history, which the server on the directory reads).
func TestCopilotPluginReadsOrderFind(t *testing.T) {
	copilot := copilotBinary(t)
	for _, in := range []string{"", "services"} {
		repo := newAgentRepo(t)
		dir := filepath.Join(repo.dir, in)
		find := chattest.Call{Tool: "wayfind-find_files", Args: map[string]any{"query": "config.go"}}
		res := runCopilot(t, copilot, dir, "", pluginCopy(t, false), []string{"PATH=" + (pluginCase{onPath: true}).path()}, []chattest.Call{
			find,
			{Tool: "view", Args: map[string]any{"path": filepath.Join(repo.dir, "services/ship/handler.go")}},
			find,
		})
		checkReadsOrderFind(t, repo.dir, dir, res, 0, 2)
	}
}
