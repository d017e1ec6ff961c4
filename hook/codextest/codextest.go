// Package codextest drives the real Codex CLI headless (codex exec
// --json) against a scripted Responses API on 127.0.0.1: the script is
// the model, one tool call a turn, then a text answer; what the harness
// sends back as each function_call_output (in the next request's input)
// is what an agent would have read. No network, a dummy key, an isolated
// HOME and CODEX_HOME. The MCP server's and the hook's tests, and the
// hook's benchmark, run it.
package codextest

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
	"time"

	"wayfind/hook/claudetest"
)

// Binary is the native Codex binary make deps installs under top (the
// repository's top directory: npm lays it out as
// node_modules/@openai/codex-<os>-<arch>/vendor/<target>/bin/codex; the
// package's bin/codex.js only finds and execs it). "" when there is none.
func Binary(top string) string {
	return claudetest.Installed(top, "testdata/clients/codex/node_modules/@openai/codex-*/vendor/*/bin/codex")
}

// Call is one turn of the scripted model: an MCP tool of the server
// named wayfind, by its own name, or one of Codex's own tools
// (exec_command), and its arguments.
type Call struct {
	Tool string
	Args map[string]any
}

// model is a Responses API (POST …/responses, streamed as SSE)
// that answers turn k with script[k] as a function_call of the tool the
// harness offered for it, then with a text answer. It keeps the
// function_call_outputs of the latest request, by call, and how the
// harness named each tool to the model.
type model struct {
	mu      sync.Mutex
	script  []Call
	outputs [][]string        // each call's output, its text parts in order
	offered map[string]string // script tool → how the request's tools named it
	stray   []string          // requests that were not to the Responses API
}

func (m *model) ServeHTTP(w http.ResponseWriter, r *http.Request) {
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
		namespace, name := toolOf(body.Tools, c.Tool)
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

// toolOf finds the tool the request offers for an MCP tool of the
// server named wayfind: a function in a namespace of that server (as
// Codex 0.169 groups them: namespace mcp__wayfind), or a function named
// with the server's prefix — or for one of Codex's own tools, by its
// name (exec_command, its shell).
func toolOf(tools []json.RawMessage, tool string) (namespace, name string) {
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

// Result is what a headless run returned: the function_call_outputs in
// order (each as its text parts), how each tool was offered, the
// harness's event stream (--json, JSON lines), and any request that was
// not the model's.
type Result struct {
	Outputs [][]string
	Offered map[string]string
	Events  []map[string]any
	Stray   []string
}

// TOMLString is s as a TOML basic string (JSON's escapes are TOML's).
func TOMLString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Session is one headless run's setting.
type Session struct {
	Codex string // the harness's binary
	Dir   string // where it runs (the project)
	Home  string // its isolated HOME (CODEX_HOME below it)
	// Config is TOML added to the run's config.toml (an MCP server, hooks).
	Config string
	// TrustHooks runs the hooks Config names without the trust a person
	// gives each once in the TUI (--dangerously-bypass-hook-trust).
	TrustHooks bool
	// Plugins turns Codex's plugins on (Config names the marketplace and
	// the plugin, installed beforehand by Plugin).
	Plugins bool
	// Env is added to the harness's environment (and its hooks').
	Env     []string
	Timeout time.Duration
}

// Run plays script and returns what the harness returned; an error when
// the run failed or sent back fewer outputs than the script's calls.
func (s Session) Run(ctx context.Context, script []Call) (*Result, error) {
	m := &model{script: script, offered: map[string]string{}}
	srv := httptest.NewServer(m)
	defer srv.Close()
	codexHome := filepath.Join(s.Home, ".codex")
	if err := os.MkdirAll(codexHome, 0o755); err != nil {
		return nil, err
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
plugins = %t
remote_plugin = false
apps = false
unbounded_connection_retries = false
`, TOMLString(srv.URL+"/v1"), s.Plugins) + s.Config
	if err := os.WriteFile(filepath.Join(codexHome, "config.toml"), []byte(config), 0o644); err != nil {
		return nil, err
	}
	env := s.env(codexHome)
	timeout := s.Timeout
	if timeout == 0 {
		timeout = 2 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	args := []string{"exec", "--json", "--ephemeral"}
	if s.TrustHooks {
		args = append(args, "--dangerously-bypass-hook-trust")
	}
	cmd := exec.CommandContext(ctx, s.Codex, append(args, "follow the script")...)
	cmd.Env, cmd.Dir = env, s.Dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("codex: %v\nstderr: %s\nstdout: %s", err, stderr.String(), stdout.String())
	}
	m.mu.Lock()
	res := &Result{Outputs: m.outputs, Offered: m.offered, Stray: m.stray}
	m.mu.Unlock()
	res.Events = claudetest.JSONLines(stdout.Bytes())
	if len(res.Outputs) != len(script) {
		return res, fmt.Errorf("%d tool outputs for %d calls: %q\ntools offered: %q\ncodex's events: %s\nstderr: %s", len(res.Outputs), len(script), res.Outputs, res.Offered, stdout.String(), stderr.String())
	}
	return res, nil
}

// env is the harness's environment: no real key, no other Codex home,
// no network, and the session's own.
func (s Session) env(codexHome string) []string {
	env := claudetest.EnvWithout("OPENAI_", "CODEX_", "RUST_LOG")
	env = append(append(env, "HOME="+s.Home, "CODEX_HOME="+codexHome, "WAYFIND_SCRIPTED_KEY=sk-test-dummy"), claudetest.NoNetwork...)
	return append(env, s.Env...)
}

// Plugin installs a plugin as a person does, into the session's home:
// the local marketplace at dir added (`codex plugin marketplace add`),
// then its plugin (`codex plugin add PLUGIN@MARKETPLACE`). It returns
// the TOML that keeps both in the run's config.toml (Run writes it
// afresh), for Config.
func (s Session) Plugin(ctx context.Context, dir, plugin, marketplace string) (string, error) {
	codexHome := filepath.Join(s.Home, ".codex")
	if err := os.MkdirAll(codexHome, 0o755); err != nil {
		return "", err
	}
	for _, args := range [][]string{{"plugin", "marketplace", "add", dir}, {"plugin", "add", plugin + "@" + marketplace}} {
		cmd := exec.CommandContext(ctx, s.Codex, args...)
		cmd.Env, cmd.Dir = s.env(codexHome), s.Dir
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("codex %s: %v: %s", strings.Join(args, " "), err, out)
		}
	}
	return fmt.Sprintf("\n[marketplaces.%s]\nsource_type = \"local\"\nsource = %s\n\n[plugins.%s]\nenabled = true\n",
		marketplace, TOMLString(dir), TOMLString(plugin+"@"+marketplace)), nil
}

// Output is a shell command's output as Codex sends it back: what
// follows its "Output:" line (Codex puts the chunk, the wall time, the
// exit code and a token count before it); the whole text when there is
// none.
func Output(parts []string) string {
	text := strings.Join(parts, "\n")
	if _, out, ok := strings.Cut(text, "\nOutput:\n"); ok {
		return out
	}
	return text
}
