package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A newcomer's first hour, through the real binary.
func TestHelp(t *testing.T) {
	for _, args := range [][]string{
		{"find", "--help"}, {"find", "-h"}, {"resolve", "--help"}, {"locate", "-h"}, {"symbols", "--help"},
		{"index", "--help"}, {"lsp", "--help"}, {"mcp", "--help"}, {"completion", "--help"}, {"help", "find"},
	} {
		r := wayfind(t, args...)
		cmd := args[0]
		if cmd == "help" {
			cmd = args[1]
		}
		if r.code != 0 || !strings.HasPrefix(r.stdout, "usage: wayfind "+cmd) || strings.HasPrefix(r.stdout, "{") {
			t.Errorf("%v: exit %d, stdout %.60q, stderr %q", args, r.code, r.stdout, r.stderr)
		}
	}
	if r := wayfind(t, "help"); r.code != 0 || !strings.Contains(r.stdout, "commands (wayfind help COMMAND") {
		t.Errorf("help: %d %q", r.code, r.stdout)
	}
	if r := wayfind(t, "lsp", "--help"); !strings.Contains(r.stdout, "lspconfig") || !strings.Contains(r.stdout, "VS Code") {
		t.Errorf("lsp --help says nothing of the editors: %q", r.stdout)
	}
	if r := wayfind(t, "mcp", "--help"); !strings.Contains(r.stdout, `"mcpServers"`) || !strings.Contains(r.stdout, "read_resolved") {
		t.Errorf("mcp --help says nothing of the configuration: %q", r.stdout)
	}
}

func TestCompletion(t *testing.T) {
	r := wayfind(t, "completion", "bash")
	if r.code != 0 {
		t.Fatalf("completion bash: %d %s", r.code, r.stderr)
	}
	check := exec.Command("bash", "-n")
	check.Stdin = strings.NewReader(r.stdout)
	if out, err := check.CombinedOutput(); err != nil {
		t.Errorf("bash -n: %v %s", err, out)
	}
	for _, sh := range []string{"zsh", "fish"} {
		if r := wayfind(t, "completion", sh); r.code != 0 || !strings.Contains(r.stdout, "wayfind") {
			t.Errorf("completion %s: %d", sh, r.code)
		}
	}
	if r := wayfind(t, "completion", "tcsh"); r.code != 2 {
		t.Errorf("completion tcsh: exit %d", r.code)
	}
}

// Without --root, the project the current directory is in; text output
// names files relative to the current directory, as git grep does.
func TestProjectRootAndQuiet(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{".git/HEAD", "cmd/tool/main.go", "pkg/server/handler.go", "README.md"} {
		full := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte("x\n"), 0o644)
	}
	sub := filepath.Join(dir, "cmd", "tool")
	run := func(args ...string) result {
		cmd := exec.Command(binary, args...)
		cmd.Dir = sub
		out, err := cmd.Output()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		return result{code: code, stdout: string(out)}
	}
	// piped and --quiet: bare paths, relative to where we stand
	if r := run("find", "--quiet", "serverhandler"); r.code != 0 || r.stdout != "../../pkg/server/handler.go\n" {
		t.Errorf("find --quiet from a subdirectory: %d %q", r.code, r.stdout)
	}
	// piped without --quiet: JSON, paths root-relative as the contract says
	r := run("find", "serverhandler")
	var env struct {
		Meta    struct{ ElapsedMs float64 } `json:"_meta"`
		Matches []struct{ Path string }     `json:"matches"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &env); err != nil || len(env.Matches) == 0 || env.Matches[0].Path != "pkg/server/handler.go" {
		t.Errorf("find piped: %v %q", err, r.stdout)
	}
	// elapsedMs is sane on every path, argument errors included
	r = run("find", "--limit", "x", "q")
	if err := json.Unmarshal([]byte(r.stdout), &env); err != nil || r.code != 2 || env.Meta.ElapsedMs < 0 || env.Meta.ElapsedMs > 60000 {
		t.Errorf("argument error envelope: %d %q", r.code, r.stdout)
	}
	// a :line past the end is clamped, and said so
	if r := run("resolve", "--format", "text", "README.md:500"); r.code != 0 || !strings.Contains(r.stdout, "README.md:1") || !strings.Contains(r.stdout, "line:clamped:1") {
		t.Errorf("resolve README.md:500: %d %q", r.code, r.stdout)
	}
}

// A server started by hand at a terminal says what it is, then serves.
func TestServerHintAtATerminal(t *testing.T) {
	for _, c := range []struct{ cmd, want string }{{"lsp", "an LSP server"}, {"mcp --root " + t.TempDir(), "an MCP server"}} {
		sh := exec.Command("script", "-qec", binary+" "+c.cmd, "/dev/null")
		sh.Stdin = strings.NewReader("")
		// (the LSP exits 1 when its input ends without shutdown, as the
		// protocol says; the hint is what is checked)
		out, _ := runWithin(sh, 20*time.Second)
		if !strings.Contains(string(out), c.want) {
			t.Errorf("%s under a terminal: %q", c.cmd, out)
		}
	}
	// and says nothing on a pipe
	if r := wayfind(t, "lsp", "--stdio"); strings.Contains(r.stderr, "this is an") {
		t.Errorf("lsp on a pipe printed the hint: %q", r.stderr)
	}
}

func runWithin(cmd *exec.Cmd, d time.Duration) ([]byte, error) {
	done := make(chan struct{})
	var out []byte
	var err error
	go func() { out, err = cmd.CombinedOutput(); close(done) }()
	select {
	case <-done:
		return out, err
	case <-time.After(d):
		cmd.Process.Kill()
		<-done
		return out, err
	}
}

// make install PREFIX=… puts a working binary and its completions there.
func TestMakeInstall(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	prefix := t.TempDir()
	cmd := exec.Command("make", "-s", "install", "PREFIX="+prefix, "BIN="+binary)
	cmd.Dir = filepath.Join("..", "..")
	// BIN is prebuilt by TestMain; the build target still runs go build
	// (cached), so give it the module's directory.
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make install: %v\n%s", err, out)
	}
	installed := filepath.Join(prefix, "bin", "wayfind")
	if out, err := exec.Command(installed, "version").Output(); err != nil || !strings.HasPrefix(string(out), "wayfind ") {
		t.Errorf("installed binary: %v %q", err, out)
	}
	for _, f := range []string{"share/bash-completion/completions/wayfind", "share/zsh/site-functions/_wayfind", "share/fish/vendor_completions.d/wayfind.fish"} {
		if st, err := os.Stat(filepath.Join(prefix, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}
