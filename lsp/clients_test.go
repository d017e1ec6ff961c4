package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"wayfind/wire"
)

// These tests run real editors' clients against the real binary: headless
// Neovim's built-in LSP client, and Node with vscode-jsonrpc and
// vscode-languageserver-protocol (what VS Code's client is built on).
// `make deps` (part of `make test`) installs both; a missing one fails the
// test rather than skipping it.

func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "wayfind")
	cmd := exec.Command("go", "build", "-o", bin, "../cmd/wayfind")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

// need finds a client the test drives; like the ONNX Runtime tests
// (rerank/reranktest), a missing one fails under CI=true (make test
// installs it first) and is skipped, saying why, elsewhere.
func need(t *testing.T, tool, hint string) {
	t.Helper()
	if _, err := exec.LookPath(tool); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not installed; run `make deps` (%s)", tool, hint)
		}
		t.Skipf("%s is not installed; run `make deps` (%s) to run this test", tool, hint)
	}
}

type clientResults struct {
	Errors       []string        `json:"errors"`
	Status       statusReply     `json:"status"`
	Resolve      wire.Resolve    `json:"resolve"`
	Files        wire.Files      `json:"files"`
	PathFiles    wire.Files      `json:"pathFiles"`
	Created      json.RawMessage `json:"created"`
	SecondFolder json.RawMessage `json:"secondFolder"`
	Links        []struct {
		Target string `json:"target"`
	} `json:"links"`
	Diagnostics      json.RawMessage          `json:"diagnostics"`
	Progress         []string                 `json:"progress"`
	ServerRequests   []string                 `json:"serverRequests"`
	Cancel           json.RawMessage          `json:"cancel"`
	CancelServerExit *int                     `json:"cancelServerExit"`
	ExitCode         *int                     `json:"exitCode"`
	Stopped          bool                     `json:"stopped"`
	WorkspaceSymbol  []wire.SymbolInformation `json:"workspaceSymbol"`
	DocumentSymbol   json.RawMessage          `json:"documentSymbol"`
}

func readResults(t *testing.T, path string) clientResults {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the client wrote no results: %v", err)
	}
	var r clientResults
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("results: %v\n%s", err, data)
	}
	if len(r.Errors) > 0 {
		t.Fatalf("client errors: %v", r.Errors)
	}
	return r
}

func checkCommon(t *testing.T, r clientResults) {
	t.Helper()
	if !r.Status.Ready || r.Status.Files != 10 {
		t.Errorf("status %+v", r.Status)
	}
	// A typo is read by name alone: the file meant comes first, at its
	// line, and is not resolved (lexical is below ResolvedConfidence).
	if len(r.Resolve.Candidates) == 0 || r.Resolve.Resolved != nil || r.Resolve.Class != "lexical" {
		t.Errorf("resolvePath: %+v", r.Resolve)
	} else if c := r.Resolve.Candidates[0]; c.Path != "src/auth/middleware.py" || !strings.HasPrefix(c.URI, "file:///") ||
		c.Range == nil || c.Range.Start.Line != 1 {
		t.Errorf("resolvePath's first candidate: %+v", c)
	}
	if len(r.Files.Matches) == 0 || r.Files.Matches[0].Path != "src/auth/middleware.py" {
		t.Errorf("files: %+v", r.Files)
	}
	if len(r.PathFiles.Matches) == 0 || r.PathFiles.Matches[0].Path != "src/auth/middleware.py" {
		t.Errorf("files across the path (authmid): %+v", r.PathFiles)
	}
	if !strings.Contains(string(r.Diagnostics), "did you mean `src/auth/login.py`") ||
		!strings.Contains(string(r.Diagnostics), "did you mean `src/auth/middleware.py`") {
		t.Errorf("diagnostics: %s", r.Diagnostics)
	}
	if len(r.Links) != 3 {
		t.Errorf("links: %+v", r.Links)
	}
	if len(r.WorkspaceSymbol) == 0 || r.WorkspaceSymbol[0].Name != "Socket" || r.WorkspaceSymbol[0].Path != "include/net/socket.h" ||
		r.WorkspaceSymbol[0].Location.Range.Start.Line != 3 {
		t.Errorf("workspace/symbol: %+v", r.WorkspaceSymbol)
	}
	outline := strings.ReplaceAll(string(r.DocumentSymbol), " ", "") // Neovim's encoder spaces its JSON
	if !strings.Contains(outline, `"name":"connect"`) || !strings.Contains(outline, `"name":"Socket"`) {
		t.Errorf("documentSymbol: %s", r.DocumentSymbol)
	}
}

func TestNeovimClient(t *testing.T) {
	need(t, "nvim", "Debian package neovim")
	bin := buildBinary(t)
	dir := project(t)
	out := filepath.Join(t.TempDir(), "nvim.json")
	cmd := exec.Command("nvim", "--headless", "-u", "NONE", "-c", "luafile "+filepath.Join("..", "testdata", "clients", "nvim", "check.lua"))
	cmd.Env = append(os.Environ(), "WAYFIND_BIN="+bin, "WAYFIND_PROJECT="+dir, "WAYFIND_OUT="+out)
	if output, err := runWithin(cmd, 60*time.Second); err != nil {
		t.Fatalf("nvim: %v\n%s", err, output)
	}
	r := readResults(t, out)
	checkCommon(t, r)
	if !r.Stopped {
		t.Error("the server did not stop when Neovim asked")
	}
}

func TestNodeClient(t *testing.T) {
	need(t, "node", "Debian package nodejs")
	client := filepath.Join("..", "testdata", "clients", "node")
	if _, err := os.Stat(filepath.Join(client, "node_modules", "vscode-jsonrpc")); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("node packages missing; run `make deps`: %v", err)
		}
		t.Skipf("node packages missing; run `make deps` to run this test: %v", err)
	}
	bin := buildBinary(t)
	dir := project(t)
	out := filepath.Join(t.TempDir(), "node.json")
	cmd := exec.Command("node", "check.mjs", bin, dir, t.TempDir(), out)
	cmd.Dir = client
	if output, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("node: %v\n%s", err, output)
	}
	r := readResults(t, out)
	checkCommon(t, r)
	// Two sequences (files, then symbols) share the list; both begin and end.
	if strings.Join(r.Progress, ",") == "" || r.Progress[0] != "begin" || !strings.Contains(strings.Join(r.Progress, ","), "end") {
		t.Errorf("progress: %v", r.Progress)
	}
	asked := strings.Join(r.ServerRequests, ",")
	if !strings.Contains(asked, "window/workDoneProgress/create") || !strings.Contains(asked, "client/registerCapability") {
		t.Errorf("server requests: %s", asked)
	}
	if !strings.Contains(string(r.Created), `"exact":true`) {
		t.Errorf("created file: %s", r.Created)
	}
	if !strings.Contains(string(r.SecondFolder), `"path":"lib/second_root.rs"`) {
		t.Errorf("second folder: %s", r.SecondFolder)
	}
	if !strings.Contains(string(r.Cancel), `"code":-32800`) {
		t.Errorf("cancel: %s", r.Cancel)
	}
	if r.ExitCode == nil || *r.ExitCode != 0 || r.CancelServerExit == nil || *r.CancelServerExit != 0 {
		t.Errorf("exit codes: %v %v", r.ExitCode, r.CancelServerExit)
	}
}

// TestNeovimPlugin runs the nvim/ plugin headless over a copy of the
// locate fixture (with a .git, so the root is found from a subdirectory):
// each command, and the buffer and quickfix list it leaves.
func TestNeovimPlugin(t *testing.T) {
	need(t, "nvim", "Debian package neovim")
	bin := buildBinary(t)
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "testdata", "locate"))); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, ".git"), 0o755)
	os.MkdirAll(filepath.Join(dir, "a"), 0o755)
	os.MkdirAll(filepath.Join(dir, "b"), 0o755)
	os.WriteFile(filepath.Join(dir, "a", "util.cpp"), []byte("int a() { return 1; }\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b", "util.cpp"), []byte("int b() { return 2; }\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "docs", "notes.md"), []byte("# Notes\n\nThe router: src/comand_router.cpp:3 handles it.\n\nSee `include/sesion.h`.\n"), 0o644)
	plugin, _ := filepath.Abs(filepath.Join("..", "nvim"))
	script, _ := filepath.Abs(filepath.Join("..", "testdata", "clients", "nvim", "plugin.lua"))
	out := filepath.Join(t.TempDir(), "plugin.json")
	cmd := exec.Command("nvim", "--headless", "-u", "NONE", "-c", "luafile "+script)
	cmd.Dir = filepath.Join(dir, "src") // the root must come from .git, not the cwd
	cmd.Env = append(os.Environ(), "WAYFIND_BIN="+bin, "WAYFIND_PROJECT="+dir, "WAYFIND_OUT="+out, "WAYFIND_PLUGIN="+plugin)
	if output, err := runWithin(cmd, 60*time.Second); err != nil {
		t.Fatalf("nvim: %v\n%s", err, output)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("the plugin test wrote no results: %v", err)
	}
	type place struct {
		File string `json:"file"`
		Line int    `json:"line"`
	}
	type entry struct {
		File string `json:"file"`
		Lnum int    `json:"lnum"`
		Text string `json:"text"`
	}
	var r struct {
		Errors   []string `json:"errors"`
		Root     string   `json:"root"`
		Attached bool     `json:"attached"`
		Find     struct {
			At place   `json:"at"`
			QF []entry `json:"qf"`
		} `json:"find"`
		FindPath struct {
			At place   `json:"at"`
			QF []entry `json:"qf"`
		} `json:"find_path"`
		ResolveArg    place  `json:"resolve_arg"`
		UnderCursor   string `json:"under_cursor"`
		ResolveCursor place  `json:"resolve_cursor"`
		Ambiguous     struct {
			QF []entry `json:"qf"`
		} `json:"ambiguous"`
		HistoryMessage string `json:"history_message"`
		Unresolved     struct {
			Nothing string `json:"nothing"`
			Pending string `json:"pending"`
		} `json:"unresolved"`
		Locate struct {
			At place   `json:"at"`
			QF []entry `json:"qf"`
		} `json:"locate"`
		GF     place `json:"gf"`
		Select struct {
			At      place `json:"at"`
			Offered struct {
				Prompt string `json:"prompt"`
				First  string `json:"first"`
				N      int    `json:"n"`
			} `json:"offered"`
		} `json:"select"`
		Recent struct {
			At place   `json:"at"`
			QF []entry `json:"qf"`
		} `json:"recent"`
		Clients int `json:"clients"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("results: %v\n%s", err, data)
	}
	if len(r.Errors) > 0 {
		t.Fatalf("plugin errors: %v", r.Errors)
	}
	real, _ := filepath.EvalSymlinks(dir)
	rel := func(p string) string {
		if rp, err := filepath.EvalSymlinks(p); err == nil {
			p = rp
		}
		out, _ := filepath.Rel(real, p)
		return filepath.ToSlash(out)
	}
	if rel(r.Root) != "." || !r.Attached || r.Clients != 1 {
		t.Errorf("root %s (want %s), attached %v, clients %d", r.Root, dir, r.Attached, r.Clients)
	}
	if len(r.Find.QF) == 0 || rel(r.Find.QF[0].File) != "src/replay_service.cpp" || rel(r.Find.At.File) != "src/replay_service.cpp" {
		t.Errorf(":WayfindFind: %+v", r.Find)
	}
	if len(r.FindPath.QF) == 0 || rel(r.FindPath.QF[0].File) != "src/net/socket_posix.cc" || rel(r.FindPath.At.File) != "src/net/socket_posix.cc" {
		t.Errorf(":WayfindFind srcnetsock: %+v", r.FindPath)
	}
	if rel(r.ResolveArg.File) != "include/session.h" {
		t.Errorf(":WayfindResolve include/sesion.h: %+v", r.ResolveArg)
	}
	if r.UnderCursor != "src/comand_router.cpp:3" || rel(r.ResolveCursor.File) != "src/command_router.cpp" || r.ResolveCursor.Line != 3 {
		t.Errorf(":WayfindResolve under the cursor (%q): %+v", r.UnderCursor, r.ResolveCursor)
	}
	if want := `loader.c was deleted in 3f2a1c9 (2024-05-01) "remove legacy loader"`; r.HistoryMessage != want {
		t.Errorf("history_message %q, want %q", r.HistoryMessage, want)
	}
	if r.Unresolved.Nothing != "nothing in the workspace matches x.c" ||
		r.Unresolved.Pending != "no file is clearly util.cpp; candidates (the repository's history is still being read: ask again in a moment)" {
		t.Errorf("unresolved_message: %+v", r.Unresolved)
	}
	if len(r.Ambiguous.QF) != 2 || !strings.HasSuffix(r.Ambiguous.QF[0].File, "util.cpp") {
		t.Errorf(":WayfindResolve util.cpp: %+v", r.Ambiguous)
	}
	if len(r.Locate.QF) == 0 || rel(r.Locate.QF[0].File) != "src/net/socket_posix.cc" || r.Locate.QF[0].Lnum != 4 ||
		!strings.Contains(r.Locate.QF[0].Text, "symbol: implements Socket") || rel(r.Locate.At.File) != "src/net/socket_posix.cc" {
		t.Errorf(":WayfindLocate: %+v", r.Locate)
	}
	if rel(r.GF.File) != "include/session.h" {
		t.Errorf("gf: %+v", r.GF)
	}
	// Visited last (session.cpp, current, left out), then main.cpp (opened:
	// didOpen counts), replay_service.h (entered and kept).
	if len(r.Recent.QF) < 3 || rel(r.Recent.QF[0].File) != "src/main.cpp" || rel(r.Recent.QF[1].File) != "include/replay_service.h" ||
		r.Recent.QF[0].Text != "1.00 history:recent" {
		t.Errorf(":WayfindFind with no words (recent files): %+v", r.Recent)
	}
	// Two names equally good; the current buffer (include/session.h, where
	// gf left it) puts the header beside it first.
	if rel(r.Select.At.File) != "include/command_router.h" || r.Select.Offered.N < 2 || !strings.Contains(r.Select.Offered.First, "command_router.h:1") {
		t.Errorf("select = true: %+v", r.Select)
	}
}

// runWithin runs cmd, killing it after d.
func runWithin(cmd *exec.Cmd, d time.Duration) ([]byte, error) {
	done := make(chan error, 1)
	var output []byte
	go func() {
		var err error
		output, err = cmd.CombinedOutput()
		done <- err
	}()
	select {
	case err := <-done:
		return output, err
	case <-time.After(d):
		cmd.Process.Kill()
		<-done
		return output, fmt.Errorf("did not finish in %s", d)
	}
}
