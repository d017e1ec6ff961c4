// Package chattest drives the real opencode and GitHub Copilot CLI
// headless against a scripted OpenAI-compatible chat completions API on
// 127.0.0.1 (no network, a dummy key, an isolated HOME): the script is
// the model, one tool call a turn, then a text answer; what the harness
// sends back as each tool message is what an agent would have read. The
// hook's tests and its benchmark run it.
package chattest

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

// OpencodeBinary is the opencode make deps installs under top (the
// repository's top directory: its platform package's binary); "" when
// there is none.
func OpencodeBinary(top string) string {
	return claudetest.Installed(top, "testdata/clients/opencode/node_modules/opencode-linux-x64/bin/opencode")
}

// CopilotBinary is the Copilot CLI make deps installs under top; "" when
// there is none.
func CopilotBinary(top string) string {
	return claudetest.Installed(top, "testdata/clients/copilot/node_modules/@github/copilot-linux-x64/copilot")
}

// OpencodeVersion is the opencode make deps installs, and its plugin SDK.
const OpencodeVersion = "1.18.33"

// Call is one turn of the scripted model: a tool and its args.
type Call struct {
	Tool string
	Args map[string]any
}

// Model is an OpenAI-compatible chat completions API (streamed, as
// opencode and Copilot CLI ask it) that answers turn k of a request
// offering tools with script[k] as a tool call, then with text; it keeps
// the tool messages of the latest request, in order. A request without
// tools (a title) gets text.
type Model struct {
	mu      sync.Mutex
	script  []Call
	results []string
}

// NewModel is a model that plays script.
func NewModel(script []Call) *Model { return &Model{script: script} }

func (m *Model) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	var body struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Tools []json.RawMessage `json:"tools"`
	}
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") || json.Unmarshal(raw, &body) != nil {
		http.Error(w, "not here", http.StatusNotFound)
		return
	}
	var results []string
	for _, msg := range body.Messages {
		if msg.Role != "tool" {
			continue
		}
		var text string
		if json.Unmarshal(msg.Content, &text) != nil {
			text = string(msg.Content)
		}
		results = append(results, text)
	}
	delta := map[string]any{"role": "assistant", "content": "done"}
	finish := "stop"
	m.mu.Lock()
	step := len(results)
	if len(body.Tools) > 0 {
		if step > len(m.results) {
			m.results = results
		}
		if step < len(m.script) {
			args, _ := json.Marshal(m.script[step].Args)
			delta = map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{"index": 0, "id": fmt.Sprintf("call_%04d", step), "type": "function",
				"function": map[string]any{"name": m.script[step].Tool, "arguments": string(args)}}}}
			finish = "tool_calls"
		}
	}
	m.mu.Unlock()
	w.Header().Set("content-type", "text/event-stream")
	chunk := func(delta map[string]any, finish any) {
		b, _ := json.Marshal(map[string]any{"id": "chatcmpl-scripted", "object": "chat.completion.chunk", "created": 0, "model": "scripted",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}})
		fmt.Fprintf(w, "data: %s\n\n", b)
	}
	chunk(delta, nil)
	chunk(map[string]any{}, finish)
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// play runs a harness (bin with args, its environment env, in dir) to
// its end, within timeout, with m its model, and returns the tool
// messages m kept: one for each of its script's calls.
func (m *Model) play(ctx context.Context, timeout time.Duration, env []string, dir, bin string, args ...string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env, cmd.Dir = env, dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	m.mu.Lock()
	results := m.results
	m.mu.Unlock()
	if err != nil || len(results) != len(m.script) {
		return results, fmt.Errorf("%s: %v; %d tool results for %d calls: %q\nstdout: %s\nstderr: %s", filepath.Base(bin), err, len(results), len(m.script), results, tail(stdout.String()), tail(stderr.String()))
	}
	return results, nil
}

func tail(s string) string {
	if len(s) > 3000 {
		return "…" + s[len(s)-3000:]
	}
	return s
}

// Opencode is one headless opencode run's setting.
type Opencode struct {
	Bin  string // the harness's binary (OpencodeBinary)
	Dir  string // where it runs (the project)
	Home string // its isolated HOME, made if missing
	// Plugin is a plugin file the run loads ("": none).
	Plugin string
	// MCP is the config's "mcp": the MCP servers the run starts, by name
	// (nil: none).
	MCP map[string]any
	// Env is added to the harness's environment (and its plugins').
	Env     []string
	Timeout time.Duration // 2 minutes unless set
}

// Run plays script in opencode and returns the tool messages it sent the
// model.
func (o Opencode) Run(ctx context.Context, script []Call) ([]string, error) {
	model := NewModel(script)
	srv := httptest.NewServer(model)
	defer srv.Close()
	config := map[string]any{
		"$schema":    "https://opencode.ai/config.json",
		"model":      "scripted/m",
		"autoupdate": false,
		"share":      "disabled",
		// No snapshot of the project a session: opencode's own git
		// snapshot of a large tree is a copy of its every file.
		"snapshot":   false,
		"permission": map[string]any{"edit": "allow", "bash": "allow", "webfetch": "deny", "external_directory": "deny"},
		"provider": map[string]any{"scripted": map[string]any{
			"npm": "@ai-sdk/openai-compatible", "name": "scripted",
			"options": map[string]any{"baseURL": srv.URL + "/v1", "apiKey": "test-dummy"},
			"models":  map[string]any{"m": map[string]any{"name": "m", "tool_call": true}},
		}},
	}
	if o.Plugin != "" {
		config["plugin"] = []string{"file://" + o.Plugin}
	}
	if o.MCP != nil {
		config["mcp"] = o.MCP
	}
	// The plugin SDK opencode installs into its config directory at its
	// first start (npm install), laid there from make deps' install
	// instead, and npm kept offline: no registry is asked.
	confDir := filepath.Join(o.Home, ".config", "opencode")
	if err := os.MkdirAll(confDir, 0o755); err != nil {
		return nil, err
	}
	deps, _ := json.Marshal(map[string]any{"dependencies": map[string]string{"@opencode-ai/plugin": OpencodeVersion}})
	if err := os.WriteFile(filepath.Join(confDir, "package.json"), deps, 0o644); err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(confDir, "node_modules")); err != nil {
		modules := filepath.Join(filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(o.Bin)))), "node_modules")
		if out, err := exec.Command("cp", "-r", modules, confDir).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("%v: %s", err, out)
		}
	}
	b, _ := json.Marshal(config)
	cfg := filepath.Join(o.Home, "opencode.json")
	if err := os.WriteFile(cfg, b, 0o644); err != nil {
		return nil, err
	}
	env := append(claudetest.EnvWithout("OPENCODE_", "OPENAI_", "XDG_"), "HOME="+o.Home, "OPENCODE_CONFIG="+cfg, "OPENCODE_DISABLE_MODELS_FETCH=true", "OPENCODE_DISABLE_AUTOUPDATE=true",
		"OPENCODE_DISABLE_DEFAULT_PLUGINS=true", "OPENCODE_DISABLE_LSP_DOWNLOAD=true", "OPENCODE_DISABLE_SHARE=true", "OPENCODE_DISABLE_CLAUDE_CODE=true", "npm_config_offline=true")
	env = append(append(append(env, claudetest.NoNetwork...), "PWD="+o.Dir), o.Env...)
	return model.play(ctx, timeoutOr(o.Timeout), env, o.Dir, o.Bin, "run", "--dir", o.Dir, "--format", "json", "follow the script")
}

// Copilot is one headless Copilot CLI run's setting (copilot -p, its
// BYOK provider pointed at the script, COPILOT_OFFLINE: no GitHub).
type Copilot struct {
	Bin  string // the harness's binary (CopilotBinary)
	Dir  string // where it runs (the project)
	Home string // its isolated HOME, made if missing
	// HookCmd is a command the user's settings run as the PreToolUse and
	// PostToolUse hooks ("": none).
	HookCmd string
	// PluginDir is a plugin directory the run loads ("": none).
	PluginDir string
	// Env is added to the harness's environment (and its hooks').
	Env []string
	// CacheHome is where it unpacks itself at its first start (its
	// XDG_CACHE_HOME; "": HOME's .cache): a bench's many sessions share
	// one, instead of each HOME holding a copy of it.
	CacheHome string
	Timeout   time.Duration // 2 minutes unless set
}

// Run plays script in Copilot CLI and returns the tool messages it sent
// the model.
func (c Copilot) Run(ctx context.Context, script []Call) ([]string, error) {
	model := NewModel(script)
	srv := httptest.NewServer(model)
	defer srv.Close()
	settings := []byte("{}")
	if c.HookCmd != "" {
		hooks := []map[string]any{{"type": "command", "bash": c.HookCmd, "timeoutSec": 10}}
		settings, _ = json.Marshal(map[string]any{"hooks": map[string]any{"PreToolUse": hooks, "PostToolUse": hooks}})
	}
	if err := os.MkdirAll(filepath.Join(c.Home, ".copilot"), 0o700); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(c.Home, ".copilot", "settings.json"), settings, 0o600); err != nil {
		return nil, err
	}
	env := append(claudetest.EnvWithout("COPILOT_", "GH_", "GITHUB_", "XDG_"), "HOME="+c.Home, "COPILOT_OFFLINE=true", "COPILOT_AUTO_UPDATE=false", "COPILOT_PROVIDER_BASE_URL="+srv.URL+"/v1",
		"COPILOT_PROVIDER_API_KEY=test-dummy", "COPILOT_MODEL=gpt-4.1", "PWD="+c.Dir)
	if c.CacheHome != "" {
		env = append(env, "XDG_CACHE_HOME="+c.CacheHome)
	}
	env = append(append(env, claudetest.NoNetwork...), c.Env...)
	args := []string{"-p", "follow the script", "--allow-all-tools", "--no-auto-update"}
	if c.PluginDir != "" {
		args = append(args, "--plugin-dir", c.PluginDir)
	}
	return model.play(ctx, timeoutOr(c.Timeout), env, c.Dir, c.Bin, args...)
}

func timeoutOr(d time.Duration) time.Duration {
	if d == 0 {
		return 2 * time.Minute
	}
	return d
}
