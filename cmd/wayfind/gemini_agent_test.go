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

// geminiBinary is the harness to drive: $WAYFIND_GEMINI, else the one
// make deps installs.
func geminiBinary(t *testing.T) string {
	installed := claudetest.Installed("../..", "testdata/clients/gemini/node_modules/.bin/gemini")
	return harnessBinary(t, "WAYFIND_GEMINI", installed, "@google/gemini-cli (testdata/clients/gemini)")
}

// geminiCall is one turn of the scripted model: a tool and its args.
type geminiCall struct {
	Tool string
	Args map[string]any
}

// geminiModel is a Gemini API (…:streamGenerateContent, as SSE, and
// …:generateContent) that answers turn k of a request offering tools
// with script[k] as a functionCall, then with text; it keeps the
// functionResponses of the latest request, in order. A request that
// offers no tools (the harness's own checks: which model, who speaks
// next) is answered as they ask.
type geminiModel struct {
	mu        sync.Mutex
	script    []geminiCall
	responses []string
	asked     []string
}

func (m *geminiModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	m.mu.Lock()
	m.asked = append(m.asked, time.Now().Format("15:04:05.000")+" "+r.Method+" "+r.URL.Path)
	m.mu.Unlock()
	var body struct {
		Contents []struct {
			Parts []struct {
				FunctionResponse *struct {
					Name     string         `json:"name"`
					Response map[string]any `json:"response"`
				} `json:"functionResponse"`
			} `json:"parts"`
		} `json:"contents"`
		Tools []json.RawMessage `json:"tools"`
	}
	if r.Method != http.MethodPost || json.Unmarshal(raw, &body) != nil {
		http.Error(w, "not here", http.StatusNotFound)
		return
	}
	var responses []string
	for _, c := range body.Contents {
		for _, p := range c.Parts {
			if p.FunctionResponse != nil {
				b, _ := json.Marshal(p.FunctionResponse.Response)
				responses = append(responses, string(b))
			}
		}
	}
	part := map[string]any{"text": "done"}
	m.mu.Lock()
	step := len(responses)
	if len(body.Tools) > 0 {
		if step > len(m.responses) {
			m.responses = responses
		}
		if step < len(m.script) {
			part = map[string]any{"functionCall": map[string]any{"name": m.script[step].Tool, "args": m.script[step].Args}}
		}
	} else if strings.Contains(string(raw), "complexity_score") {
		// The harness's router asks how hard the turn is, to pick a model.
		part = map[string]any{"text": `{"complexity_reasoning": "scripted", "complexity_score": 10}`}
	} else if strings.Contains(string(raw), "model_choice") {
		part = map[string]any{"text": `{"reasoning": "scripted", "model_choice": "flash"}`}
	} else if strings.Contains(string(raw), "next_speaker") {
		part = map[string]any{"text": `{"reasoning": "the model answered", "next_speaker": "user"}`}
	}
	m.mu.Unlock()
	resp := map[string]any{
		"candidates":    []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}}, "finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2},
		"modelVersion":  "scripted",
	}
	b, _ := json.Marshal(resp)
	if strings.Contains(r.URL.Path, "streamGenerateContent") {
		w.Header().Set("content-type", "text/event-stream")
		fmt.Fprintf(w, "data: %s\r\n\r\n", b)
		return
	}
	w.Header().Set("content-type", "application/json")
	w.Write(b)
}

// runGemini plays script in Gemini CLI, headless in dir, with hooks (the
// settings' "hooks" object, JSON) in its user settings, and returns the
// functionResponses it sent the model, in order.
func runGemini(t *testing.T, gemini, dir string, script []geminiCall, hooks string) []string {
	t.Helper()
	model := &geminiModel{script: script}
	srv := httptest.NewServer(model)
	defer srv.Close()
	home := t.TempDir()
	settings := fmt.Sprintf(`{
  "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": false}},
  "general": {"disableAutoUpdate": true, "disableUpdateNag": true},
  "privacy": {"usageStatisticsEnabled": false},
  "telemetry": {"enabled": false},
  "hooks": %s
}`, hooks)
	if err := os.MkdirAll(filepath.Join(home, ".gemini"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".gemini", "settings.json"), []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "GEMINI_") || strings.HasPrefix(k, "GOOGLE_") {
			continue // no real key, no other endpoint
		}
		env = append(env, kv)
	}
	env = append(append(env, "HOME="+home, "GEMINI_API_KEY=test-dummy", "GOOGLE_GEMINI_BASE_URL="+srv.URL, "NO_BROWSER=true"), claudetest.NoNetwork...)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, gemini, "-p", "follow the script", "--yolo", "--output-format", "json")
	cmd.Env, cmd.Dir = env, dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	model.mu.Lock()
	responses, asked := model.responses, model.asked
	model.mu.Unlock()
	if err != nil || len(responses) != len(script) {
		t.Fatalf("gemini: %v; %d responses for %d calls: %q\nasked: %q\nstdout: %s\nstderr: %s", err, len(responses), len(script), responses, asked, tailText(stdout.String()), tailText(stderr.String()))
	}
	t.Logf("requests to the model: %q", asked)
	return responses
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
	command := binary + " hook"
	hooks := fmt.Sprintf(`{
    "BeforeTool": [{"matcher": "read_file|list_directory|glob|grep_search|run_shell_command", "hooks": [{"type": "command", "command": %q, "timeout": 10000}]}],
    "AfterTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": %q, "timeout": 10000}]}]
  }`, command, command)
	script := []geminiCall{
		{Tool: "read_file", Args: map[string]any{"file_path": in("internal/lsp/cache/symbols.go")}},
		{Tool: "run_shell_command", Args: map[string]any{"command": "sed -n '1,4p' pkg/util/strutil.go", "description": "read"}},
		{Tool: "read_file", Args: map[string]any{"file_path": in("config.go")}},
		{Tool: "read_file", Args: map[string]any{"file_path": in("README.md")}},
	}
	res := runGemini(t, gemini, repo.dir, script, hooks)
	checks := []struct {
		what string
		ok   bool
	}{
		{"a moved file's old path reads the file", strings.Contains(res[0], "symbols line =")},
		{"a renamed file's old path in sed -n reads it", strings.Contains(res[1], "strutil line")},
		{"a name two files share is denied with the candidates", strings.Contains(res[2], "services/cart/config.go") && strings.Contains(res[2], "services/ship/config.go")},
		{"an existing path is untouched", strings.Contains(res[3], "the readme")},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s:\n%s", c.what, strings.Join(numbered(res), "\n"))
		}
	}
	if t.Failed() {
		t.Logf("hook.log:\n%s", mustRead(t, filepath.Join(os.Getenv("WAYFIND_CACHE_DIR"), "hook.log")))
	}
}
