package main

// The hook in the real Claude Code: the harness run headless (claude -p
// … --output-format stream-json) against a scripted Messages API on
// 127.0.0.1 (no network, a dummy key, an isolated HOME), with `wayfind
// hook install --user` done first. The script is the model: one tool call
// a turn; what the harness sends back as each tool_result is what an
// agent would have read. make deps installs the harness
// (@anthropic-ai/claude-code, pinned in testdata/clients/claude-code);
// CI requires it.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"wayfind/hook/claudetest"
	"wayfind/vcs/vcstest"
)

// claudeBinary is the harness to drive: $WAYFIND_CLAUDE, else the one
// make deps installs (testdata/clients/claude-code).
func claudeBinary(t *testing.T) string {
	return harnessBinary(t, "WAYFIND_CLAUDE", claudetest.Binary("../.."), "@anthropic-ai/claude-code (testdata/clients/claude-code)")
}

// harnessBinary is an agent CLI a test drives: $env, else installed (the
// binary make deps put in testdata/clients, "" when it did not). Without
// either the test fails under CI and skips elsewhere, saying what make
// deps installs.
func harnessBinary(t *testing.T, env, installed, pkg string) string {
	if bin := os.Getenv(env); bin != "" {
		return bin
	}
	if installed != "" {
		return installed
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("no agent harness: make deps installs %s, or set %s", pkg, env)
	}
	t.Skipf("no agent harness: make deps installs %s, or set %s", pkg, env)
	return ""
}

// agentRepo is the fixture: a repository whose history moves a file,
// renames one with edits, deletes one, and whose tree has two files of
// one name.
type agentRepo struct {
	dir                         string
	moved, renamed, deleted, hd string // commits
}

func newAgentRepo(t *testing.T) agentRepo {
	r := vcstest.New(t)
	r.Write("internal/lsp/cache/symbols.go", "package cache\n\n"+vcstest.Text("symbols", 30))
	r.Write("pkg/util/strutil.go", "package util\n\n"+vcstest.Text("strutil", 30))
	r.Write("legacy/loader.go", "package legacy\n\n"+vcstest.Text("loader", 30))
	r.Write("services/cart/config.go", "package cart // the cart's config\n")
	r.Write("services/cart/handler.go", "package cart // the cart's handler\n")
	r.Write("services/ship/config.go", "package ship // the shipping config\n")
	r.Write("services/ship/handler.go", "package ship // the shipping handler\n")
	r.Write("README.md", "# fixture\nthe readme\n")
	r.Write("mods/core/src/Core.java", "class Core {} // the core module\n")
	r.Write("mods/cli/src/Cli.java", "class Cli {} // the cli module\n")
	r.Commit("start")
	var a agentRepo
	r.Mv("internal/lsp/cache/symbols.go", "gopls/internal/cache/symbols.go")
	a.moved = r.Commit("move the cache into gopls")
	r.Mv("pkg/util/strutil.go", "pkg/util/strings.go")
	r.Write("pkg/util/strings.go", "package util\n\n"+vcstest.Text("strutil", 30)+"func Edited() {}\n")
	a.renamed = r.Commit("strutil becomes strings")
	r.Git("rm", "-q", "legacy/loader.go")
	a.deleted = r.Commit("remove legacy loader")
	a.dir = r.Dir
	return a
}

// runClaude runs the harness headless on the fixture with the script,
// the hook of hookBin installed in an isolated HOME (the binary removed
// after the install when gone is set), and returns what it returned.
func runClaude(t *testing.T, claude, dir string, script []claudetest.Call, hookBin string, gone bool) *claudetest.Result {
	t.Helper()
	// The hook's binary first on PATH: the install writes it by name, and
	// the harness finds it there — until it is gone.
	s := claudetest.Session{Claude: claude, Dir: dir, Home: t.TempDir()}
	if hookBin != "" {
		s.Env = []string{"PATH=" + filepath.Dir(hookBin) + string(os.PathListSeparator) + os.Getenv("PATH")}
	}
	res, err := s.Run(context.Background(), script, func(env []string) error {
		if hookBin == "" {
			return nil
		}
		install := exec.Command(hookBin, "hook", "install", "--user")
		install.Env, install.Dir = env, dir
		if out, err := install.CombinedOutput(); err != nil {
			return fmt.Errorf("hook install: %v: %s", err, out)
		}
		if gone {
			return os.Remove(hookBin)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestClaudeCode: what each tool call of an agent returns with the hook.
func TestClaudeCode(t *testing.T) {
	claude := claudeBinary(t)
	repo := newAgentRepo(t)
	in := func(p string) string { return filepath.Join(repo.dir, filepath.FromSlash(p)) }
	script := []claudetest.Call{
		{Name: "Read", Input: map[string]any{"file_path": in("internal/lsp/cache/symbols.go")}},                                                    // moved
		{Name: "Read", Input: map[string]any{"file_path": "/home/someone/src/" + filepath.Base(repo.dir) + "/gopls/internal/cache/symbols.go:12"}}, // another machine's, with a line
		// An Edit must follow a Read of its file, and Claude Code checks that
		// the file exists before any hook runs: the Read of the old path is
		// rewritten, and the model edits the file the line it read names.
		{Name: "Read", Input: map[string]any{"file_path": in("pkg/util/strutil.go")}},
		{Name: "Edit", Input: map[string]any{"old_string": "func Edited() {}", "new_string": "func Edited() { /* by the agent */ }"}, PathFrom: regexp.MustCompile(`strutil.go moved to (\S+) in`)},
		{Name: "Read", Input: map[string]any{"file_path": in("legacy/loader.go")}},         // deleted
		{Name: "Read", Input: map[string]any{"file_path": in("services/ship/handler.go")}}, // where the agent works
		{Name: "Read", Input: map[string]any{"file_path": in("config.go")}},                // a name two files share
		{Name: "Write", Input: map[string]any{"file_path": in("newdir/new.go"), "content": "package newdir\n"}},
		{Name: "Read", Input: map[string]any{"file_path": in("README.md")}},
		// The same paths read through the shell.
		{Name: "Bash", Input: map[string]any{"command": "cat internal/lsp/cache/symbols.go", "description": "read"}},
		{Name: "Bash", Input: map[string]any{"command": "sed -n '1,5p' pkg/util/strutil.go", "description": "read"}},
		{Name: "Bash", Input: map[string]any{"command": "cd internal/lsp/cache && head -n 4 symbols.go", "description": "read"}},
		{Name: "Bash", Input: map[string]any{"command": "wc -l config.go", "description": "count"}},
		// A module's directory searched for from the top of the tree (this
		// harness's Glob is find: it has no Glob tool of its own; its shell
		// is where the cd above left it).
		{Name: "Bash", Input: map[string]any{"command": "cd " + repo.dir + " && find src -name Cli.java", "description": "find"}},
		{Name: "Bash", Input: map[string]any{"command": "ls src", "description": "list"}},
	}
	run := runClaude(t, claude, repo.dir, script, binary, false)
	res := run.ToolResults
	t.Logf("read files: %q", run.ReadFiles())
	checks := []struct {
		what string
		ok   bool
	}{
		{"a moved file's old path reads the file", strings.Contains(res[0], "symbols line =")},
		{"another machine's path with a line reads the file at that line", strings.Contains(res[1], "symbols line") && strings.Contains(res[1], "12")},
		{"a renamed file's old path reads it, and the Edit after it edits it", strings.Contains(res[2], "strutil line") && strings.Contains(mustRead(t, in("pkg/util/strings.go")), "by the agent")},
		{"a deleted file (gone, said not acted on): the Read goes ahead and fails, the model told the commit",
			strings.Contains(res[4], "does not exist") && strings.Contains(run.Heard, "likely deleted in "+repo.deleted[:7]) && strings.Contains(run.Heard, "remove legacy loader")},
		{"an ambiguous name is denied with the candidates, the one near where the agent works first",
			strings.Contains(res[6], "services/cart/config.go") && strings.Index(res[6], "services/ship/config.go") < strings.Index(res[6], "services/cart/config.go")},
		{"a Write creates the new file where asked", fileExists(in("newdir/new.go"))},
		{"an existing path is untouched", strings.Contains(res[8], "the readme")},
		{"a moved file's old path in a shell command reads the file", strings.Contains(res[9], "symbols line =")},
		{"a renamed file's old path in sed -n reads it", strings.Contains(res[10], "strutil line")},
		{"a cd into a moved directory goes where it went, and reads there", strings.Contains(res[11], "symbols line")},
		{"a name two files share is left as written: the command fails", strings.Contains(res[12], "No such file")},
		{"a find of a directory that is not there, for a name one module's holds, finds it there", strings.Contains(res[13], "mods/cli/src/Cli.java")},
		{"a listing of a directory that is not there fails, and the model is told the directories named so",
			strings.Contains(res[14], "No such file") && strings.Contains(run.Heard, "no directory src; those named so:") && strings.Contains(run.Heard, "mods/cli/src")},
	}
	failed := false
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s: tool results:\n%s", c.what, strings.Join(numbered(res), "\n"))
			failed = true
		}
	}
	if failed {
		t.Logf("hook.log:\n%s", mustRead(t, filepath.Join(os.Getenv("WAYFIND_CACHE_DIR"), "hook.log")))
	}
}

// TestClaudeCodeWithoutTheBinary: a hook installed whose binary is gone
// stands aside: the agent's calls go ahead as without it.
func TestClaudeCodeWithoutTheBinary(t *testing.T) {
	claude := claudeBinary(t)
	repo := newAgentRepo(t)
	gone := filepath.Join(t.TempDir(), "wayfind")
	if out, err := exec.Command("cp", binary, gone).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	script := []claudetest.Call{
		{Name: "Read", Input: map[string]any{"file_path": filepath.Join(repo.dir, "README.md")}},
		{Name: "Read", Input: map[string]any{"file_path": filepath.Join(repo.dir, "internal/lsp/cache/symbols.go")}},
	}
	res := runClaude(t, claude, repo.dir, script, gone, true).ToolResults
	if !strings.Contains(res[0], "the readme") || !strings.Contains(strings.ToLower(res[1]), "does not exist") {
		t.Errorf("without the hook's binary: %q", res)
	}
}

func numbered(rs []string) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		if len(r) > 600 {
			r = "…" + r[len(r)-600:]
		}
		out[i] = fmt.Sprintf("%d: %s", i, r)
	}
	return out
}

func mustRead(t *testing.T, p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		t.Log(err)
	}
	return string(b)
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// TestClaudeCodePlugin: the repository's plugin (plugin/, as `claude
// --plugin-dir` loads it, the way /plugin install lays it out) runs the
// wayfind PATH finds, else its own bin/'s: a moved file's old path, read
// and cat'ed, reads the file; with no wayfind anywhere, the calls go
// ahead as without it.
func TestClaudeCodePlugin(t *testing.T) {
	claude := claudeBinary(t)
	for _, c := range pluginCases {
		plugin := pluginCopy(t, c.besides)
		repo := newAgentRepo(t)
		in := func(p string) string { return filepath.Join(repo.dir, filepath.FromSlash(p)) }
		path := c.path()
		s := claudetest.Session{Claude: claude, Dir: repo.dir, Home: t.TempDir(), Env: []string{"PATH=" + path}, Args: []string{"--plugin-dir", plugin}}
		run, err := s.Run(context.Background(), []claudetest.Call{
			{Name: "Read", Input: map[string]any{"file_path": in("internal/lsp/cache/symbols.go")}},
			{Name: "Bash", Input: map[string]any{"command": "cat pkg/util/strutil.go", "description": "read"}},
		}, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		res := run.ToolResults
		if got := strings.Contains(res[0], "symbols line =") && strings.Contains(res[1], "strutil line"); got != c.reads {
			t.Errorf("%s: the old paths read the files: %v, want %v\n%s", c.name, got, c.reads, strings.Join(numbered(res), "\n"))
		}
		if !c.reads && !strings.Contains(res[1], "No such file") {
			t.Errorf("%s: the command did not run as written:\n%s", c.name, strings.Join(numbered(res), "\n"))
		}
	}
}

// TestClaudeCodePluginInstalled: the plugin installed as a person does —
// this repository's marketplace added (`claude plugin marketplace add`),
// the plugin installed, no settings edited by hand — reads a moved file's
// old path through Read and cat; uninstalled and its marketplace removed,
// it leaves nothing behind: the user's settings say what they said
// before (their own hook and keys kept, no wayfind named), and the same
// calls go ahead as written.
func TestClaudeCodePluginInstalled(t *testing.T) {
	claude := claudeBinary(t)
	market := t.TempDir()
	if out, err := exec.Command("cp", "-r", "../../.claude-plugin", market).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if err := os.Rename(pluginCopy(t, false), filepath.Join(market, "plugin")); err != nil {
		t.Fatal(err)
	}
	repo := newAgentRepo(t)
	in := func(p string) string { return filepath.Join(repo.dir, filepath.FromSlash(p)) }
	home := t.TempDir()
	settings := filepath.Join(home, ".claude", "settings.json")
	// The user's own settings, which the plugin's coming and going must
	// leave meaning what they meant.
	mine := map[string]any{
		"model": "sonnet",
		"hooks": map[string]any{"PreToolUse": []any{map[string]any{"matcher": "Write",
			"hooks": []any{map[string]any{"type": "command", "command": "true"}}}}},
	}
	b, _ := json.Marshal(mine)
	if err := os.MkdirAll(filepath.Dir(settings), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, b, 0o600); err != nil {
		t.Fatal(err)
	}
	s := claudetest.Session{Claude: claude, Dir: repo.dir, Home: home, Env: []string{"PATH=" + (pluginCase{onPath: true}).path()}}
	plugin := func(args ...string) {
		t.Helper()
		cmd := exec.Command(claude, append([]string{"plugin"}, args...)...)
		cmd.Env, cmd.Dir = s.Environ("http://127.0.0.1:9"), repo.dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("claude plugin %s: %v: %s", strings.Join(args, " "), err, out)
		}
	}
	script := []claudetest.Call{
		{Name: "Read", Input: map[string]any{"file_path": in("internal/lsp/cache/symbols.go")}},
		{Name: "Bash", Input: map[string]any{"command": "cat pkg/util/strutil.go", "description": "read"}},
	}
	session := func() []string {
		t.Helper()
		run, err := s.Run(context.Background(), script, nil)
		if err != nil {
			t.Fatal(err)
		}
		return run.ToolResults
	}

	plugin("marketplace", "add", market)
	plugin("install", "wayfind@wayfind")
	if res := session(); !strings.Contains(res[0], "symbols line =") || !strings.Contains(res[1], "strutil line") {
		t.Errorf("installed: the old paths did not read the files:\n%s", strings.Join(numbered(res), "\n"))
	}

	plugin("uninstall", "wayfind@wayfind")
	plugin("marketplace", "remove", "wayfind")
	after := mustRead(t, settings)
	var got map[string]any
	if err := json.Unmarshal([]byte(after), &got); err != nil {
		t.Fatalf("settings after removal: %v\n%s", err, after)
	}
	// Claude Code leaves its own two keys behind, empty: they name nothing.
	for _, k := range []string{"enabledPlugins", "extraKnownMarketplaces"} {
		if v, ok := got[k].(map[string]any); ok && len(v) == 0 {
			delete(got, k)
		}
	}
	if !reflect.DeepEqual(got, mine) || strings.Contains(after, "wayfind") {
		t.Errorf("settings after removal:\n%s\nwant what the user had: %v", after, mine)
	}
	for _, f := range []string{"installed_plugins.json", "known_marketplaces.json"} {
		if b, err := os.ReadFile(filepath.Join(home, ".claude", "plugins", f)); err == nil && strings.Contains(string(b), "wayfind") {
			t.Errorf("%s still names wayfind:\n%s", f, b)
		}
	}
	if res := session(); !strings.Contains(res[0], "does not exist") || !strings.Contains(res[1], "No such file") {
		t.Errorf("removed: the calls did not go ahead as written:\n%s", strings.Join(numbered(res), "\n"))
	}
}

// TestClaudeCodeReadsOrderFind: in the real Claude Code with the plugin
// (its hook and its MCP server), the files the agent reads through the
// harness's own Read are where it works for wayfind's find_files: of a
// name two services share, the one beside the file the agent just read
// comes first, though the agent passes nothing but the name.
func TestClaudeCodeReadsOrderFind(t *testing.T) {
	claude := claudeBinary(t)
	repo := newAgentRepo(t)
	find := claudetest.Call{Name: "mcp__plugin_wayfind_wayfind__find_files", Input: map[string]any{"query": "config.go"}}
	s := claudetest.Session{Claude: claude, Dir: repo.dir, Home: t.TempDir(), Env: []string{"PATH=" + (pluginCase{onPath: true}).path()},
		Args: []string{"--plugin-dir", pluginCopy(t, false), "--allowedTools", find.Name}}
	run, err := s.Run(context.Background(), []claudetest.Call{
		// The harness defers an MCP server's tools until the model asks
		// for them by name.
		{Name: "ToolSearch", Input: map[string]any{"query": "select:" + find.Name}},
		find,
		{Name: "Read", Input: map[string]any{"file_path": filepath.Join(repo.dir, "services/ship/handler.go")}},
		find,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkReadsOrderFind(t, repo.dir, repo.dir, run.ToolResults, 1, 3)
}

// checkReadsOrderFind checks a harness's answers to find_files
// config.go before (res[before]) and after (res[after]) the agent read
// the shipping handler of the fixture at repo through the harness's own
// tool: root searched (where the session started), the cart's copy first
// (by name), then the shipping one.
func checkReadsOrderFind(t *testing.T, repo, root string, res []string, before, after int) {
	t.Helper()
	for _, c := range []struct {
		at   int
		want string
		when string
	}{
		{before, "services/cart/config.go", "before any read (the first by name)"},
		{after, "services/ship/config.go", "after the agent read the shipping handler"},
	} {
		want, _ := filepath.Rel(root, filepath.Join(repo, c.want))
		searched, first := firstFound(res[c.at])
		if searched != root || first != filepath.ToSlash(want) {
			t.Errorf("%s, find_files config.go searched %q and listed %q first; want %q in %q:\n%s", c.when, searched, first, want, root, strings.Join(numbered(res), "\n"))
		}
	}
}

// firstFound is the root and first match of a find_files answer as a
// harness hands it to the model: the tool's JSON, bare (Claude Code,
// Copilot CLI) or as the text of a function response's output, between
// the harness's own tags (Gemini CLI).
func firstFound(answer string) (root, first string) {
	var wrapped struct{ Output string }
	if json.Unmarshal([]byte(answer), &wrapped) == nil && wrapped.Output != "" {
		answer = wrapped.Output
	}
	i, j := strings.Index(answer, "{"), strings.LastIndex(answer, "}")
	var files struct {
		Root    string
		Matches []struct{ Path string }
	}
	if i < 0 || j < i || json.Unmarshal([]byte(answer[i:j+1]), &files) != nil || len(files.Matches) == 0 {
		return files.Root, ""
	}
	return files.Root, files.Matches[0].Path
}

// pluginCases are where a plugin's test finds wayfind: on PATH, in the
// plugin's bin/ (make plugin), nowhere — then the calls go ahead as
// written (reads: whether the old paths read the files).
type pluginCase struct {
	name            string
	onPath, besides bool
	reads           bool
}

var pluginCases = []pluginCase{
	{"wayfind on PATH", true, false, true},
	{"wayfind in the plugin's bin/", false, true, true},
	{"no wayfind", false, false, false},
}

// path is the case's PATH: sh and git, dirs (a harness's own runtime),
// and the wayfind under test when it is on PATH.
func (c pluginCase) path(dirs ...string) string {
	path := strings.Join(append(dirs, "/usr/bin", "/bin"), string(os.PathListSeparator))
	if c.onPath {
		path = filepath.Dir(binary) + string(os.PathListSeparator) + path
	}
	return path
}

// pluginCopy is the plugin as the repository has it, copied, its bin/
// without the binary make plugin leaves there unless besides puts the
// one under test there.
func pluginCopy(t *testing.T, besides bool) string {
	t.Helper()
	plugin := filepath.Join(t.TempDir(), "plugin")
	if out, err := exec.Command("cp", "-r", "../../plugin", plugin).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	os.Remove(filepath.Join(plugin, "bin", "wayfind"))
	if besides {
		if out, err := exec.Command("cp", binary, filepath.Join(plugin, "bin", "wayfind")).CombinedOutput(); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
	}
	return plugin
}

// TestPluginVersion: the plugin (Claude Code's, Codex CLI's and Copilot CLI's manifests) and the Gemini CLI extension say the
// version of the binary they are built with (a marketplace updates a
// plugin only when it changes).
func TestPluginVersion(t *testing.T) {
	for _, manifest := range []string{"../../plugin/.claude-plugin/plugin.json", "../../plugin/.codex-plugin/plugin.json", "../../plugin/plugin.json", "../../plugin/gemini/gemini-extension.json"} {
		b, err := os.ReadFile(manifest)
		if err != nil {
			t.Fatal(err)
		}
		var p struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		}
		if err := json.Unmarshal(b, &p); err != nil || p.Name != "wayfind" || p.Version != Version {
			t.Errorf("%s: %+v (%v), want wayfind %s", manifest, p, err, Version)
		}
	}
}
