package main

// The hook in the real Gemini CLI: run headless (gemini -p … --yolo)
// against a scripted Gemini API on 127.0.0.1 (GOOGLE_GEMINI_BASE_URL; no
// network, a dummy key, an isolated HOME), with `wayfind hook` as its
// BeforeTool and AfterTool hook. The script is the model: one tool call a
// turn, then a text answer; what the harness sends back as each
// functionResponse is what an agent would have read. make deps installs
// the harness (@google/gemini-cli, pinned in testdata/clients/gemini);
// CI requires it.

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"wayfind/hook/geminitest"
)

// geminiBinary is the harness to drive: $WAYFIND_GEMINI, else the one
// make deps installs.
func geminiBinary(t *testing.T) string {
	installed := geminitest.Binary("../..")
	return harnessBinary(t, "WAYFIND_GEMINI", installed, "@google/gemini-cli (testdata/clients/gemini)")
}

func tailText(s string) string {
	if len(s) > 3000 {
		return "…" + s[len(s)-3000:]
	}
	return s
}

// TestGeminiHook: an agent in Gemini CLI reads, lists and cat's paths its
// repository's history moved, with `wayfind hook` (it knows Gemini's
// events) as its BeforeTool and AfterTool hook: each reads the file or
// directory meant; a name two files share is denied with the candidates.
func TestGeminiHook(t *testing.T) {
	gemini := geminiBinary(t)
	repo := newAgentRepo(t)
	in := func(p string) string { return filepath.Join(repo.dir, filepath.FromSlash(p)) }
	// The moved package's old directories, as a fresh clone has them:
	// not there (the fixture's move left them empty).
	if err := os.RemoveAll(in("internal")); err != nil {
		t.Fatal(err)
	}
	command := binary + " hook"
	hooks := fmt.Sprintf(`{
    "BeforeTool": [{"matcher": "read_file|list_directory|glob|grep_search|run_shell_command", "hooks": [{"type": "command", "command": %q, "timeout": 10000}]}],
    "AfterTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": %q, "timeout": 10000}]}],
    "BeforeModel": [{"hooks": [{"type": "command", "command": %q, "timeout": 10000}]}]
  }`, command, command, command)
	script := []geminitest.Call{
		{Tool: "read_file", Args: map[string]any{"file_path": in("internal/lsp/cache/symbols.go")}},
		{Tool: "run_shell_command", Args: map[string]any{"command": "sed -n '1,4p' pkg/util/strutil.go", "description": "read"}},
		{Tool: "read_file", Args: map[string]any{"file_path": in("config.go")}},
		{Tool: "read_file", Args: map[string]any{"file_path": in("README.md")}},
		// Another machine's checkout: Gemini CLI refuses it before
		// BeforeTool; BeforeModel tells the model where it is (not the
		// session's last call: the message is in the next request alone).
		{Tool: "read_file", Args: map[string]any{"file_path": "/home/dev/src/proj/internal/lsp/cache/symbols.go"}},
		{Tool: "read_file", Args: map[string]any{"file_path": in("README.md")}},
		// A module's directory searched for from the top of the tree.
		{Tool: "run_shell_command", Args: map[string]any{"command": "find src -name Cli.java", "description": "find"}},
		// Gemini CLI refuses a directory that is not there before
		// BeforeTool: the one meant is told at the next BeforeModel.
		{Tool: "glob", Args: map[string]any{"pattern": "**/Core.java", "dir_path": in("src")}},
		{Tool: "read_file", Args: map[string]any{"file_path": in("README.md")}},
		// A moved package's old directory listed.
		{Tool: "list_directory", Args: map[string]any{"dir_path": in("internal/lsp/cache")}},
		{Tool: "read_file", Args: map[string]any{"file_path": in("README.md")}},
	}
	played, err := geminitest.Session{Gemini: gemini, Dir: repo.dir, Home: t.TempDir(), Hooks: hooks}.Play(context.Background(), script)
	if err != nil {
		t.Fatal(err)
	}
	res, notes := played.Responses, played.Notes
	checks := []struct {
		what string
		ok   bool
	}{
		{"a moved file's old path reads the file", strings.Contains(res[0], "symbols line =")},
		{"a renamed file's old path in sed -n reads it", strings.Contains(res[1], "strutil line")},
		{"a name two files share is denied with the candidates", strings.Contains(res[2], "services/cart/config.go") && strings.Contains(res[2], "services/ship/config.go")},
		{"an existing path is untouched", strings.Contains(res[3], "the readme")},
		{"another checkout's path, refused by Gemini CLI, is named after the refusal", strings.Contains(res[4], "Path not in workspace") && strings.Contains(notes[4], in("gopls/internal/cache/symbols.go"))},
		{"nothing is said after the others", notes[0]+notes[1]+notes[2]+notes[3]+notes[5]+notes[6]+notes[8]+notes[9]+notes[10] == ""},
		{"a find of a directory that is not there, for a name one module's holds, finds it there", strings.Contains(res[6], "mods/cli/src/Cli.java")},
		{"a glob of a directory that is not there, refused by Gemini CLI, is told the one named so that holds the name",
			strings.Contains(res[7], "Search path does not exist") && strings.Contains(notes[7], in("mods/core/src")+", the one directory named so that holds Core.java")},
		// Not refused before BeforeTool (a list_directory of a directory
		// that is not there runs, and fails on ENOENT): rewritten there.
		{"a list_directory of a moved package's old directory lists where it went",
			strings.Contains(res[9], "Directory listing for "+in("gopls/internal/cache")) && strings.Contains(res[9], "symbols.go")},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s:\n%s\nnotes: %q", c.what, strings.Join(numbered(res), "\n"), notes)
		}
	}
	if t.Failed() {
		t.Logf("hook.log:\n%s", mustRead(t, filepath.Join(os.Getenv("WAYFIND_CACHE_DIR"), "hook.log")))
	}
}

// TestGeminiExtension: the repository's Gemini CLI extension
// (plugin/gemini, linked: gemini extensions link) runs the plugin's
// launcher as its BeforeTool, AfterTool and BeforeModel hook — wayfind
// from PATH, else the plugin's bin/, else the hook steps aside: a moved
// file's old path and a renamed one's in sed -n read the files meant,
// and another checkout's path, which Gemini CLI refuses itself, is named
// after the refusal; with no wayfind the calls go ahead as written.
func TestGeminiExtension(t *testing.T) {
	gemini := geminiBinary(t)
	for _, c := range pluginCases {
		plugin := pluginCopy(t, c.besides)
		repo := newAgentRepo(t)
		in := func(p string) string { return filepath.Join(repo.dir, filepath.FromSlash(p)) }
		// node stays on PATH: the harness runs on it.
		played, err := geminitest.Session{Gemini: gemini, Dir: repo.dir, Home: t.TempDir(), Extensions: []string{filepath.Join(plugin, "gemini")},
			Env: []string{"PATH=" + c.path(filepath.Dir(geminiNode(t)))}}.Play(context.Background(), []geminitest.Call{
			{Tool: "read_file", Args: map[string]any{"file_path": in("internal/lsp/cache/symbols.go")}},
			{Tool: "run_shell_command", Args: map[string]any{"command": "sed -n '1,4p' pkg/util/strutil.go", "description": "read"}},
			{Tool: "read_file", Args: map[string]any{"file_path": "/home/dev/src/proj/internal/lsp/cache/symbols.go"}},
		})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		res := played.Responses
		if got := strings.Contains(res[0], "symbols line =") && strings.Contains(res[1], "strutil line"); got != c.reads {
			t.Errorf("%s: the old paths read the files: %v, want %v\n%s", c.name, got, c.reads, strings.Join(numbered(res), "\n"))
		}
		if got := strings.Contains(played.Notes[2], in("gopls/internal/cache/symbols.go")); got != c.reads {
			t.Errorf("%s: another checkout's path named after Gemini CLI refused it: %v, want %v (notes %q)", c.name, got, c.reads, played.Notes)
		}
	}
}

// geminiNode is the node the Gemini CLI runs on.
func geminiNode(t *testing.T) string {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node:", err)
	}
	return node
}

// TestGeminiExtensionReadsOrderFind: in the real Gemini CLI with the extension
// (its hooks and its MCP server, whose tools Gemini names
// mcp_SERVER_TOOL), the file the agent reads through Gemini's own
// read_file orders find_files: of a name two services share, the one
// beside the file just read comes first.
func TestGeminiExtensionReadsOrderFind(t *testing.T) {
	gemini := geminiBinary(t)
	repo := newAgentRepo(t)
	find := geminitest.Call{Tool: "mcp_wayfind_find_files", Args: map[string]any{"query": "config.go"}}
	played, err := geminitest.Session{Gemini: gemini, Dir: repo.dir, Home: t.TempDir(), Extensions: []string{filepath.Join(pluginCopy(t, false), "gemini")},
		Env: []string{"PATH=" + (pluginCase{onPath: true}).path(filepath.Dir(geminiNode(t)))}}.Play(context.Background(), []geminitest.Call{
		find,
		{Tool: "read_file", Args: map[string]any{"file_path": filepath.Join(repo.dir, "services/ship/handler.go")}},
		find,
	})
	if err != nil {
		t.Fatal(err)
	}
	checkReadsOrderFind(t, repo.dir, repo.dir, played.Responses, 0, 2)
}
