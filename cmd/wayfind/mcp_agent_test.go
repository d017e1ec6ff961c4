package main

// wayfind mcp in a real third-party agent harness: Codex CLI run headless
// (codex exec --json) against a scripted Responses API on 127.0.0.1 (no
// network, a dummy key, an isolated HOME and CODEX_HOME), with `wayfind
// mcp --root <repo>` as its MCP server. The script is the model: one MCP
// tool call a turn, then a text answer; what the harness sends back as
// each function_call_output (in the next request's input) is what an
// agent would have read. make deps installs the harness (@openai/codex,
// pinned in testdata/clients/codex; its platform binary comes as an
// optional dependency); CI requires it.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"wayfind/hook/claudetest"
)

// codexBinary is the harness to drive: $WAYFIND_CODEX, else the native
// binary of the platform package make deps installs (npm lays it out as
// node_modules/@openai/codex-<os>-<arch>/vendor/<target>/bin/codex; the
// package's bin/codex.js only finds and execs it).
func codexBinary(t *testing.T) string {
	installed := ""
	if found, _ := filepath.Glob("../../testdata/clients/codex/node_modules/@openai/codex-*/vendor/*/bin/codex"); len(found) > 0 {
		installed, _ = filepath.Abs(found[0])
	}
	return harnessBinary(t, "WAYFIND_CODEX", installed, "@openai/codex (testdata/clients/codex)")
}

// codexCall is one turn of the scripted model: an MCP tool of the
// server named wayfind, by its own name, and its arguments.
type codexCall struct {
	Tool string
	Args map[string]any
}

// codexModel is a Responses API (POST …/responses, streamed as SSE)
// that answers turn k with script[k] as a function_call of the tool the
// harness offered for it, then with a text answer. It keeps the
// function_call_outputs of the latest request, by call, and how the
// harness named each tool to the model.
type codexModel struct {
	mu      sync.Mutex
	script  []codexCall
	outputs [][]string        // each call's output, its text parts in order
	offered map[string]string // script tool → how the request's tools named it
	stray   []string          // requests that were not to the Responses API
}

func (m *codexModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/responses") {
		m.mu.Lock()
		m.stray = append(m.stray, r.Method+" "+r.URL.Path)
		m.mu.Unlock()
		http.Error(w, "not here", http.StatusNotFound)
		return
	}
	var body struct {
		Model string            `json:"model"`
		Tools []json.RawMessage `json:"tools"`
		Input []json.RawMessage `json:"input"`
	}
	raw, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(raw, &body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	// The outputs so far: {type: function_call_output, call_id, output},
	// output a string or a list of {type: input_text, text}.
	var outputs [][]string
	for _, in := range body.Input {
		var item struct {
			Type   string          `json:"type"`
			Output json.RawMessage `json:"output"`
		}
		if json.Unmarshal(in, &item) != nil || item.Type != "function_call_output" {
			continue
		}
		var text string
		var parts []struct {
			Text string `json:"text"`
		}
		switch {
		case json.Unmarshal(item.Output, &text) == nil:
			outputs = append(outputs, []string{text})
		case json.Unmarshal(item.Output, &parts) == nil:
			var texts []string
			for _, p := range parts {
				texts = append(texts, p.Text)
			}
			outputs = append(outputs, texts)
		default:
			outputs = append(outputs, []string{string(item.Output)})
		}
	}
	m.mu.Lock()
	step := len(outputs)
	if len(body.Tools) > 0 && step > len(m.outputs) {
		m.outputs = outputs
	}
	var item map[string]any
	if len(body.Tools) > 0 && step < len(m.script) {
		c := m.script[step]
		args, _ := json.Marshal(c.Args)
		id := fmt.Sprintf("call_%04d", step)
		item = map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_%04d", step), "call_id": id, "arguments": string(args), "status": "completed"}
		namespace, name := codexTool(body.Tools, c.Tool)
		switch {
		case name == "":
			m.offered[c.Tool] = ""
			item = nil // not offered: the model can only answer
		case namespace != "":
			item["namespace"], item["name"] = namespace, name
			m.offered[c.Tool] = namespace + " › " + name
		default:
			item["name"] = name
			m.offered[c.Tool] = name
		}
	}
	m.mu.Unlock()
	if item == nil {
		item = map[string]any{"type": "message", "id": fmt.Sprintf("msg_%04d", step), "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": "done", "annotations": []any{}}}}
	}
	resp := fmt.Sprintf("resp_%04d", step)
	w.Header().Set("content-type", "text/event-stream")
	send := func(data map[string]any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", data["type"], b)
	}
	send(map[string]any{"type": "response.created", "response": map[string]any{"id": resp, "model": body.Model, "status": "in_progress"}})
	send(map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
	send(map[string]any{"type": "response.completed", "response": map[string]any{"id": resp, "model": body.Model, "status": "completed",
		"usage": map[string]any{"input_tokens": 1, "output_tokens": 1, "total_tokens": 2}}})
}

// codexTool finds the tool the request offers for an MCP tool of the
// server named wayfind: a function in a namespace of that server (as
// Codex 0.169 groups them: namespace mcp__wayfind), or a function named
// with the server's prefix — or for one of Codex's own tools, by its
// name (exec_command, its shell).
func codexTool(tools []json.RawMessage, tool string) (namespace, name string) {
	type fn struct {
		Type  string `json:"type"`
		Name  string `json:"name"`
		Tools []fn   `json:"tools"`
	}
	for _, raw := range tools {
		var t fn
		if json.Unmarshal(raw, &t) != nil {
			continue
		}
		switch {
		case t.Type == "namespace" && strings.Contains(t.Name, "wayfind"):
			for _, sub := range t.Tools {
				if sub.Name == tool {
					return t.Name, sub.Name
				}
			}
		case t.Type == "function" && strings.Contains(t.Name, "wayfind") && strings.HasSuffix(t.Name, "_"+tool):
			return "", t.Name
		case t.Type == "function" && t.Name == tool:
			return "", t.Name
		}
	}
	return "", ""
}

// codexRun is what a headless run returned: the function_call_outputs
// in order (each as its text parts), how each tool was offered, and the
// harness's event stream (--json, JSON lines).
type codexRun struct {
	outputs [][]string
	offered map[string]string
	events  []map[string]any
	stray   []string
}

// tomlString is s as a TOML basic string (JSON's escapes are TOML's).
func tomlString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// runCodex plays script in Codex CLI, headless in dir, with wayfind mcp
// --root dir as its MCP server (and hooks, TOML appended to its config:
// trusted for the run, as a person trusts them once in the TUI), and
// returns what the harness returned.
func runCodex(t *testing.T, codex, dir string, script []codexCall, hooks string) *codexRun {
	t.Helper()
	model := &codexModel{script: script, offered: map[string]string{}}
	srv := httptest.NewServer(model)
	defer srv.Close()
	home := t.TempDir()
	codexHome := filepath.Join(home, ".codex")
	if err := os.MkdirAll(codexHome, 0o755); err != nil {
		t.Fatal(err)
	}
	// The provider is the scripted model, with a dummy key from env_key;
	// no approval prompts (exec has no one to ask); nothing that reaches
	// out: no analytics, no update check, no plugin or app sync; a failed
	// request to the model fails the run instead of being retried until
	// the network comes back.
	config := fmt.Sprintf(`model = "scripted"
model_provider = "scripted"
approval_policy = "never"
sandbox_mode = "read-only"
check_for_update_on_startup = false

[model_providers.scripted]
name = "scripted"
base_url = %s
env_key = "WAYFIND_SCRIPTED_KEY"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false

[features]
plugins = false
remote_plugin = false
apps = false
unbounded_connection_retries = false

[mcp_servers.wayfind]
command = %s
args = ["mcp", "--root", %s]
env = { WAYFIND_CACHE_DIR = %s }
startup_timeout_sec = 30
tool_timeout_sec = 60
`, tomlString(srv.URL+"/v1"), tomlString(binary), tomlString(dir), tomlString(os.Getenv("WAYFIND_CACHE_DIR"))) + hooks
	if err := os.WriteFile(filepath.Join(codexHome, "config.toml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "OPENAI_") || strings.HasPrefix(k, "CODEX_") || k == "RUST_LOG" {
			continue // no real key, no other Codex home
		}
		env = append(env, kv)
	}
	// Anything but the model on 127.0.0.1 goes to a proxy that is not
	// there.
	env = append(env, "HOME="+home, "CODEX_HOME="+codexHome, "WAYFIND_SCRIPTED_KEY=sk-test-dummy",
		"HTTPS_PROXY=http://127.0.0.1:9", "HTTP_PROXY=http://127.0.0.1:9", "ALL_PROXY=http://127.0.0.1:9", "NO_PROXY=127.0.0.1,localhost",
		"https_proxy=http://127.0.0.1:9", "http_proxy=http://127.0.0.1:9", "all_proxy=http://127.0.0.1:9", "no_proxy=127.0.0.1,localhost")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := []string{"exec", "--json", "--ephemeral", "follow the script"}
	if hooks != "" {
		args = append(args[:1], append([]string{"--dangerously-bypass-hook-trust"}, args[1:]...)...)
	}
	cmd := exec.CommandContext(ctx, codex, args...)
	cmd.Env, cmd.Dir = env, dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("codex: %v\nstderr: %s\nstdout: %s", err, stderr.String(), stdout.String())
	}
	model.mu.Lock()
	run := &codexRun{outputs: model.outputs, offered: model.offered, stray: model.stray}
	model.mu.Unlock()
	run.events = claudetest.JSONLines(stdout.Bytes())
	if len(run.outputs) != len(script) {
		t.Fatalf("%d tool outputs for %d calls: %q\ntools offered: %q\ncodex's events: %s\nstderr: %s", len(run.outputs), len(script), run.outputs, run.offered, stdout.String(), stderr.String())
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
	script := []codexCall{
		{Tool: "path_resolve", Args: map[string]any{"path": old}},
		{Tool: "read_resolved", Args: map[string]any{"path": old}},
	}
	run := runCodex(t, codex, repo.dir, script, "")
	t.Logf("tools as Codex offered them to the model: %q", run.offered)
	if len(run.stray) > 0 {
		t.Logf("other requests to the model server: %q", run.stray)
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
	codexAnswer(t, run.outputs[0], &resolved)
	t.Logf("path_resolve returned: %s", codexJoined(run.outputs[:1]))
	var read struct {
		Path string `json:"path"`
		Text string `json:"text"`
	}
	codexAnswer(t, run.outputs[1], &read)
	want := mustRead(t, filepath.Join(repo.dir, filepath.FromSlash(today)))

	// What the harness itself reports of the calls: each an MCP tool call
	// of the server wayfind, completed.
	var calls []string
	var said any
	for _, e := range run.events {
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
			t.Errorf("%s:\ntool outputs:\n%s\nCodex's calls: %q", c.what, strings.Join(numbered(codexJoined(run.outputs)), "\n"), calls)
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
	hooks := fmt.Sprintf(`
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
`, tomlString(binary+" hook"), tomlString(binary+" hook --harness codex"))
	script := []codexCall{
		{Tool: "exec_command", Args: map[string]any{"cmd": "cat internal/lsp/cache/symbols.go"}},
		{Tool: "exec_command", Args: map[string]any{"cmd": "sed -n '1,4p' pkg/util/strutil.go"}},
		{Tool: "exec_command", Args: map[string]any{"cmd": "head -n 2 README.md"}},
		{Tool: "exec_command", Args: map[string]any{"cmd": "wc -l config.go"}},
	}
	run := runCodex(t, codex, repo.dir, script, hooks)
	out := codexJoined(run.outputs)
	checks := []struct {
		what string
		ok   bool
	}{
		{"a moved file's old path in cat reads the file", strings.Contains(out[0], "symbols line =")},
		{"a renamed file's old path in sed -n reads it", strings.Contains(out[1], "strutil line")},
		{"an existing path is untouched", strings.Contains(out[2], "the readme")},
		{"a name two files share is left as written: the command fails", strings.Contains(out[3], "No such file")},
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
