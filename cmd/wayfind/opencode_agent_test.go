package main

// The hook in the real opencode: run headless (opencode run) against a
// scripted OpenAI-compatible API on 127.0.0.1 (no network, a dummy key,
// an isolated HOME), with the repository's opencode plugin
// (plugin/opencode/wayfind.js) calling `wayfind hook --harness opencode`.
// The script is the model: one tool call a turn, then a text answer; what
// the harness sends back as each tool message is what an agent would
// have read. make deps installs the harness (opencode-ai, pinned in
// testdata/clients/opencode); CI requires it.

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wayfind/hook/chattest"
)

// opencodeBinary is the harness to drive: $WAYFIND_OPENCODE, else the
// one make deps installs (its platform package's binary).
func opencodeBinary(t *testing.T) string {
	return harnessBinary(t, "WAYFIND_OPENCODE", chattest.OpencodeBinary("../.."), "opencode-ai (testdata/clients/opencode)")
}

// runOpencode plays script in opencode, headless in dir, with the
// plugin file plugin, and returns the tool messages it sent the model.
func runOpencode(t *testing.T, opencode, dir, plugin string, script []chattest.Call, env []string) []string {
	t.Helper()
	res, err := chattest.Opencode{Bin: opencode, Dir: dir, Home: t.TempDir(), Plugin: plugin, Env: env}.Run(context.Background(), script)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestOpencodeHook: an agent in opencode reads and cat's paths its
// repository's history moved, with the repository's opencode plugin:
// each reads the file meant; a name two files share is denied with the
// candidates; without wayfind, the calls go ahead as written.
func TestOpencodeHook(t *testing.T) {
	opencode := opencodeBinary(t)
	plugin, err := filepath.Abs("../../plugin/opencode/wayfind.js")
	if err != nil {
		t.Fatal(err)
	}
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
		res := runOpencode(t, opencode, repo.dir, plugin, []chattest.Call{
			{Tool: "read", Args: map[string]any{"filePath": in("internal/lsp/cache/symbols.go")}},
			{Tool: "bash", Args: map[string]any{"command": "sed -n '1,4p' pkg/util/strutil.go", "description": "read"}},
			{Tool: "read", Args: map[string]any{"filePath": in("config.go")}},
			// A program the hook does not read: it runs as written, fails,
			// and the line after it says where the file went.
			{Tool: "bash", Args: map[string]any{"command": "base64 pkg/util/strutil.go", "description": "encode"}},
		}, []string{"WAYFIND_BIN=" + c.bin})
		got := strings.Contains(res[0], "symbols line =") && strings.Contains(res[1], "strutil line") &&
			strings.Contains(res[3], "No such file") && strings.Contains(res[3], "wayfind: pkg/util/strutil.go moved to pkg/util/strings.go")
		named := strings.Contains(res[2], "services/cart/config.go") && strings.Contains(res[2], "services/ship/config.go")
		// The event after a shell call carries no args: the plugin keeps
		// the command, and the hook's answer after it is of that command.
		if c.reads {
			if log := mustRead(t, filepath.Join(os.Getenv("WAYFIND_CACHE_DIR"), "hook.log")); !strings.Contains(log, `PostToolUse Bash "base64 pkg/util/strutil.go"`) {
				t.Errorf("the hook's answer after the command is not of the command:\n%s", log)
			}
		}
		if got != c.reads || named != c.reads {
			t.Errorf("%s: the old paths read the files %v, the shared name's candidates named %v; want %v:\n%s", c.name, got, named, c.reads, strings.Join(numbered(res), "\n"))
		}
	}
}

// TestOpencodeHookReadsOrderFind: in the real opencode with the plugin and
// wayfind's MCP server in its config (the README's line; opencode names
// its tools SERVER_TOOL), the file the agent reads through opencode's
// own read orders find_files: of a name two services share, the one
// beside the file just read comes first — also from a directory inside
// the repository, where the hook notes into the repository and the
// server searches the directory (the project's one history).
func TestOpencodeHookReadsOrderFind(t *testing.T) {
	opencode := opencodeBinary(t)
	plugin, err := filepath.Abs("../../plugin/opencode/wayfind.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{"", "services"} {
		repo := newAgentRepo(t)
		dir := filepath.Join(repo.dir, in)
		find := chattest.Call{Tool: "wayfind_find_files", Args: map[string]any{"query": "config.go"}}
		res, err := chattest.Opencode{Bin: opencode, Dir: dir, Home: t.TempDir(), Plugin: plugin, Env: []string{"WAYFIND_BIN=" + binary},
			MCP: map[string]any{"wayfind": map[string]any{"type": "local", "command": []string{binary, "mcp"}}}}.Run(context.Background(), []chattest.Call{
			find,
			{Tool: "read", Args: map[string]any{"filePath": filepath.Join(repo.dir, "services/ship/handler.go")}},
			find,
		})
		if err != nil {
			t.Fatal(err)
		}
		checkReadsOrderFind(t, repo.dir, dir, res, 0, 2)
	}
}
