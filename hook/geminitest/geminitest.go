// Package geminitest drives the real Gemini CLI headless (gemini -p …
// --yolo) against a scripted Gemini API on 127.0.0.1
// (GOOGLE_GEMINI_BASE_URL; no network, a dummy key, an isolated HOME):
// the script is the model, one tool call a turn, then a text answer;
// what the harness sends back as each functionResponse is what an agent
// would have read. The hook's test and its benchmark run it.
package geminitest

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

// Binary is the Gemini CLI make deps installs under top (the
// repository's top directory); "" when there is none.
func Binary(top string) string {
	return claudetest.Installed(top, "testdata/clients/gemini/node_modules/.bin/gemini")
}

// Call is one turn of the scripted model: a tool and its args.
type Call struct {
	Tool string
	Args map[string]any
}

// model is a Gemini API (…:streamGenerateContent, as SSE, and
// …:generateContent) that answers turn k of a request offering tools
// with script[k] as a functionCall, then with text; it keeps the
// functionResponses of the latest request, in order. A request that
// offers no tools (the harness's own checks: which model, who speaks
// next) is answered as they ask.
type model struct {
	mu        sync.Mutex
	script    []Call
	responses []string
	// notes are, by response, the text of the user's messages after it
	// in any request (a hook's, added to one request: BeforeModel).
	notes []string
	asked []string
}

func (m *model) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	m.mu.Lock()
	m.asked = append(m.asked, time.Now().Format("15:04:05.000")+" "+r.Method+" "+r.URL.Path)
	m.mu.Unlock()
	var body struct {
		Contents []struct {
			Role  string `json:"role"`
			Parts []struct {
				Text             string `json:"text"`
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
	var responses, notes []string
	afterResponse := false // a user's text here follows a response, before the model speaks again
	for _, c := range body.Contents {
		if c.Role == "model" {
			afterResponse = false
		}
		for _, p := range c.Parts {
			switch {
			case p.FunctionResponse != nil:
				b, _ := json.Marshal(p.FunctionResponse.Response)
				responses = append(responses, string(b))
				notes = append(notes, "")
				afterResponse = true
			case c.Role == "user" && p.Text != "" && afterResponse:
				notes[len(notes)-1] += p.Text
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
		// A hook's message is in the one request it was added to, not in
		// the history after it: each is kept from the request it came in.
		for i, n := range notes {
			if i >= len(m.notes) {
				m.notes = append(m.notes, "")
			}
			if n != "" {
				m.notes[i] = n
			}
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

// Session is one headless run's setting.
type Session struct {
	Gemini string // the harness's binary
	Dir    string // where it runs (the project)
	Home   string // its isolated HOME
	// Hooks is the user settings' "hooks" object (JSON; "" none).
	Hooks string
	// Extensions are directories linked as the user's extensions before
	// the run (gemini extensions link DIR --consent).
	Extensions []string
	Env        []string // added to the harness's environment (and its hooks')
	Timeout    time.Duration
}

// Run plays script and returns the functionResponses the harness sent
// the model, in order; an error when the run failed or sent back fewer
// than the script's calls.
func (s Session) Run(ctx context.Context, script []Call) ([]string, error) {
	res, err := s.Play(ctx, script)
	return res.Responses, err
}

// Result is what the model was sent: each call's functionResponse and,
// beside it, the text of any message after it (Notes: a BeforeModel
// hook's, added to the request).
type Result struct {
	Responses, Notes []string
}

// Play is Run, with the notes.
func (s Session) Play(ctx context.Context, script []Call) (Result, error) {
	m := &model{script: script}
	srv := httptest.NewServer(m)
	defer srv.Close()
	hooks := s.Hooks
	if hooks == "" {
		hooks = "{}"
	}
	settings := fmt.Sprintf(`{
  "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": false}},
  "general": {"disableAutoUpdate": true, "disableUpdateNag": true},
  "privacy": {"usageStatisticsEnabled": false},
  "telemetry": {"enabled": false},
  "hooks": %s
}`, hooks)
	if err := os.MkdirAll(filepath.Join(s.Home, ".gemini"), 0o755); err != nil {
		return Result{}, err
	}
	if err := os.WriteFile(filepath.Join(s.Home, ".gemini", "settings.json"), []byte(settings), 0o644); err != nil {
		return Result{}, err
	}
	env := claudetest.EnvWithout("GEMINI_", "GOOGLE_") // no real key, no other endpoint
	env = append(append(env, "HOME="+s.Home, "GEMINI_API_KEY=test-dummy", "GOOGLE_GEMINI_BASE_URL="+srv.URL, "NO_BROWSER=true"), claudetest.NoNetwork...)
	env = append(env, s.Env...)
	timeout := s.Timeout
	if timeout == 0 {
		timeout = 2 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	for _, ext := range s.Extensions {
		link := exec.CommandContext(ctx, s.Gemini, "extensions", "link", ext, "--consent")
		link.Env, link.Dir = env, s.Dir
		if out, err := link.CombinedOutput(); err != nil {
			return Result{}, fmt.Errorf("gemini extensions link %s: %v: %s", ext, err, out)
		}
	}
	cmd := exec.CommandContext(ctx, s.Gemini, "-p", "follow the script", "--yolo", "--output-format", "json")
	cmd.Env, cmd.Dir = env, s.Dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	m.mu.Lock()
	res := Result{Responses: m.responses, Notes: m.notes}
	asked := m.asked
	m.mu.Unlock()
	res.Notes = append(res.Notes, make([]string, max(0, len(res.Responses)-len(res.Notes)))...)[:len(res.Responses)]
	if err != nil || len(res.Responses) != len(script) {
		return res, fmt.Errorf("gemini: %v; %d responses for %d calls: %q\nasked: %q\nstdout: %s\nstderr: %s", err, len(res.Responses), len(script), res.Responses, asked, tail(stdout.String()), tail(stderr.String()))
	}
	return res, nil
}

func tail(s string) string {
	if len(s) > 3000 {
		return "…" + s[len(s)-3000:]
	}
	return s
}
