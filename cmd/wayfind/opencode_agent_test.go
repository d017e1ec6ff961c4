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

// opencodeBinary is the harness to drive: $WAYFIND_OPENCODE, else the
// one make deps installs (its platform package's binary).
func opencodeBinary(t *testing.T) string {
	installed := claudetest.Installed("../..", "testdata/clients/opencode/node_modules/opencode-linux-x64/bin/opencode")
	return harnessBinary(t, "WAYFIND_OPENCODE", installed, "opencode-ai (testdata/clients/opencode)")
}

// opencodeVersion is the opencode make deps installs, and its plugin SDK.
const opencodeVersion = "1.18.33"

// chatCall is one turn of the scripted model: a tool and its args.
type chatCall struct {
	Tool string
	Args map[string]any
}

// chatModel is an OpenAI-compatible chat completions API (streamed, as
// opencode and Copilot CLI ask it)
// that answers turn k of a request offering tools with script[k] as a
// tool call, then with text; it keeps the tool messages of the latest
// request, in order. A request without tools (a title) gets text.
type chatModel struct {
	mu      sync.Mutex
	script  []chatCall
	results []string
}

func (m *chatModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
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

// runOpencode plays script in opencode, headless in dir, with the
// plugin file plugin, and returns the tool messages it sent the model.
func runOpencode(t *testing.T, opencode, dir, plugin string, script []chatCall, env []string) []string {
	t.Helper()
	model := &chatModel{script: script}
	srv := httptest.NewServer(model)
	defer srv.Close()
	home := t.TempDir()
	config := map[string]any{
		"$schema":    "https://opencode.ai/config.json",
		"model":      "scripted/m",
		"autoupdate": false,
		"share":      "disabled",
		"permission": map[string]any{"edit": "allow", "bash": "allow", "webfetch": "deny"},
		"provider": map[string]any{"scripted": map[string]any{
			"npm": "@ai-sdk/openai-compatible", "name": "scripted",
			"options": map[string]any{"baseURL": srv.URL + "/v1", "apiKey": "test-dummy"},
			"models":  map[string]any{"m": map[string]any{"name": "m", "tool_call": true}},
		}},
	}
	if plugin != "" {
		config["plugin"] = []string{"file://" + plugin}
	}
	// The plugin SDK opencode installs into its config directory at its
	// first start (npm install), laid there from make deps' install
	// instead, and npm kept offline: no registry is asked.
	confDir := filepath.Join(home, ".config", "opencode")
	if err := os.MkdirAll(confDir, 0o755); err != nil {
		t.Fatal(err)
	}
	deps, _ := json.Marshal(map[string]any{"dependencies": map[string]string{"@opencode-ai/plugin": opencodeVersion}})
	if err := os.WriteFile(filepath.Join(confDir, "package.json"), deps, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("cp", "-r", filepath.Join(filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(opencode)))), "node_modules"), confDir).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	b, _ := json.Marshal(config)
	cfg := filepath.Join(home, "opencode.json")
	if err := os.WriteFile(cfg, b, 0o644); err != nil {
		t.Fatal(err)
	}
	var base []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "OPENCODE_") || strings.HasPrefix(k, "OPENAI_") || strings.HasPrefix(k, "XDG_") {
			continue
		}
		base = append(base, kv)
	}
	base = append(base, "HOME="+home, "OPENCODE_CONFIG="+cfg, "OPENCODE_DISABLE_MODELS_FETCH=true", "OPENCODE_DISABLE_AUTOUPDATE=true",
		"OPENCODE_DISABLE_DEFAULT_PLUGINS=true", "OPENCODE_DISABLE_LSP_DOWNLOAD=true", "OPENCODE_DISABLE_SHARE=true", "OPENCODE_DISABLE_CLAUDE_CODE=true", "npm_config_offline=true")
	base = append(base, claudetest.NoNetwork...)
	return model.play(t, append(append(base, "PWD="+dir), env...), dir, opencode, "run", "--dir", dir, "--format", "json", "follow the script")
}

// play runs a harness (bin with args, its environment env, in dir) to
// its end, within two minutes, with m its model, and returns the tool
// messages m kept: one for each of its script's calls.
func (m *chatModel) play(t *testing.T, env []string, dir, bin string, args ...string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
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
		t.Fatalf("%s: %v; %d tool results for %d calls: %q\nstdout: %s\nstderr: %s", filepath.Base(bin), err, len(results), len(m.script), results, tailText(stdout.String()), tailText(stderr.String()))
	}
	return results
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
		res := runOpencode(t, opencode, repo.dir, plugin, []chatCall{
			{Tool: "read", Args: map[string]any{"filePath": in("internal/lsp/cache/symbols.go")}},
			{Tool: "bash", Args: map[string]any{"command": "sed -n '1,4p' pkg/util/strutil.go", "description": "read"}},
			{Tool: "read", Args: map[string]any{"filePath": in("config.go")}},
		}, []string{"WAYFIND_BIN=" + c.bin})
		got := strings.Contains(res[0], "symbols line =") && strings.Contains(res[1], "strutil line")
		named := strings.Contains(res[2], "services/cart/config.go") && strings.Contains(res[2], "services/ship/config.go")
		if got != c.reads || named != c.reads {
			t.Errorf("%s: the old paths read the files %v, the shared name's candidates named %v; want %v:\n%s", c.name, got, named, c.reads, strings.Join(numbered(res), "\n"))
		}
	}
}
