// Package claudetest drives the real Claude Code headless against a
// scripted Messages API on 127.0.0.1: the script is the model, one tool
// call a turn, and what the harness sends back as each tool_result is
// what an agent would have read. No network, a dummy key, an isolated
// HOME. The hook's tests and its benchmark both run it.
package claudetest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// Binary is the Claude Code binary make deps installs under top (the
// repository's top directory): its platform package's, as npm lays it
// out with install scripts off. "" when there is none.
func Binary(top string) string {
	return Installed(top, "testdata/clients/claude-code/node_modules/@anthropic-ai/claude-code-*/claude")
}

// NoNetwork is the environment that sends anything but a model on
// 127.0.0.1 to a proxy that is not there: a harness run against a
// scripted model reaches nothing else.
var NoNetwork = []string{
	"HTTPS_PROXY=http://127.0.0.1:9", "HTTP_PROXY=http://127.0.0.1:9", "ALL_PROXY=http://127.0.0.1:9", "NO_PROXY=127.0.0.1,localhost",
	"https_proxy=http://127.0.0.1:9", "http_proxy=http://127.0.0.1:9", "all_proxy=http://127.0.0.1:9", "no_proxy=127.0.0.1,localhost",
}

// EnvWithout is this process's environment less the variables named
// with one of prefixes: what would point a harness elsewhere (its own
// settings, a real key, another endpoint or home).
func EnvWithout(prefixes ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if !slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(k, p) }) {
			env = append(env, kv)
		}
	}
	return env
}

// Installed is the first file under top that matches pattern (an agent
// harness's binary where make deps lays it out), as an absolute path; ""
// when there is none.
func Installed(top, pattern string) string {
	found, _ := filepath.Glob(filepath.Join(top, pattern))
	if len(found) == 0 {
		return ""
	}
	bin, err := filepath.Abs(found[0])
	if err != nil {
		return ""
	}
	return bin
}

// Call is one turn of the scripted model. A call with PathFrom set takes
// its file_path from what the harness told the model so far (the first
// match of PathFrom's group in the request): as a model acts on a line
// it read.
type Call struct {
	Name     string
	Input    map[string]any
	PathFrom *regexp.Regexp
}

// Model is a Messages API that answers turn k with script[k] as a
// tool_use, then ends the turn; it keeps the tool_results of the latest
// request.
type Model struct {
	mu      sync.Mutex
	script  []Call
	results []map[string]any
	// heard: the longest request body the model was sent (each carries
	// the conversation so far), its JSON escapes of quotes undone: what
	// the harness told the model beside the tool results (a hook's
	// additional context among it).
	heard []byte
}

// NewModel is a model that plays script.
func NewModel(script []Call) *Model { return &Model{script: script} }

func (m *Model) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasPrefix(r.URL.Path, "/v1/messages") {
		http.Error(w, "not here", http.StatusNotFound)
		return
	}
	var body struct {
		Model    string            `json:"model"`
		Stream   bool              `json:"stream"`
		Tools    []json.RawMessage `json:"tools"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	raw, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(raw, &body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var results []map[string]any
	for _, msg := range body.Messages {
		var blocks []map[string]any
		if msg.Role != "user" || json.Unmarshal(msg.Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			if b["type"] == "tool_result" {
				results = append(results, b)
			}
		}
	}
	m.mu.Lock()
	if len(raw) > len(m.heard) {
		m.heard = bytes.ReplaceAll(raw, []byte(`\"`), []byte(`"`))
	}
	step := len(results)
	if len(body.Tools) > 0 && step > len(m.results) {
		m.results = results
	}
	var block map[string]any
	stop := "end_turn"
	if len(body.Tools) > 0 && step < len(m.script) {
		c := m.script[step]
		if c.PathFrom != nil {
			c.Input = maps.Clone(c.Input)
			var said string
			if found := c.PathFrom.FindSubmatch(bytes.ReplaceAll(raw, []byte(`\"`), []byte(`"`))); found != nil {
				said = string(found[1])
			}
			c.Input["file_path"] = said
		}
		block = map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%04d", step), "name": c.Name, "input": c.Input}
		stop = "tool_use"
	} else {
		block = map[string]any{"type": "text", "text": "done"}
	}
	m.mu.Unlock()
	msg := map[string]any{"id": fmt.Sprintf("msg_%04d", step), "type": "message", "role": "assistant", "model": body.Model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": map[string]int{"input_tokens": 1, "output_tokens": 1}}
	if !body.Stream {
		msg["content"], msg["stop_reason"] = []any{block}, stop
		w.Header().Set("content-type", "application/json")
		json.NewEncoder(w).Encode(msg)
		return
	}
	w.Header().Set("content-type", "text/event-stream")
	send := func(event string, data any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
	}
	send("message_start", map[string]any{"type": "message_start", "message": msg})
	if block["type"] == "text" {
		send("content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
		send("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": block["text"]}})
	} else {
		in, _ := json.Marshal(block["input"])
		send("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "tool_use", "id": block["id"], "name": block["name"], "input": map[string]any{}}})
		send("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(in)}})
	}
	send("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	send("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]int{"output_tokens": 1}})
	send("message_stop", map[string]any{"type": "message_stop"})
}

// ToolResults are the tool_results the harness sent back, in order, as
// text.
func (m *Model) ToolResults() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for _, r := range m.results {
		switch c := r["content"].(type) {
		case string:
			out = append(out, c)
		case []any:
			var b strings.Builder
			for _, part := range c {
				if p, ok := part.(map[string]any); ok {
					fmt.Fprint(&b, p["text"])
				}
			}
			out = append(out, b.String())
		default:
			out = append(out, fmt.Sprint(c))
		}
	}
	return out
}

// Session is one headless run's setting.
type Session struct {
	Claude string // the harness's binary
	Dir    string // where it runs (the project)
	Home   string // its isolated HOME
	// Env is added to the harness's environment (and the hook's, which
	// inherits it).
	Env []string
	// Args are added to the harness's command line (--plugin-dir DIR).
	Args    []string
	Timeout time.Duration
}

// Environ is the environment of the session's processes, for a model
// at url.
func (s Session) Environ(url string) []string {
	return append(append(os.Environ(), "HOME="+s.Home, "ANTHROPIC_BASE_URL="+url, "ANTHROPIC_API_KEY=sk-ant-test-dummy",
		"DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1", "DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1"), s.Env...)
}

// Result is what a run returned: the tool_results, in order, and the
// harness's stream (JSON lines).
type Result struct {
	ToolResults []string
	Stream      []map[string]any
	// Heard is everything the harness sent the model, as Model.heard.
	Heard string
}

// Run plays script in the harness, headless, and returns what each call
// returned. before, when set, runs first with the session's environment
// (a hook's install).
func (s Session) Run(ctx context.Context, script []Call, before func(env []string) error) (*Result, error) {
	model := NewModel(script)
	srv := httptest.NewServer(model)
	defer srv.Close()
	env := s.Environ(srv.URL)
	if before != nil {
		if err := before(env); err != nil {
			return nil, err
		}
	}
	timeout := s.Timeout
	if timeout == 0 {
		timeout = 3 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	args := append([]string{"-p", "follow the script", "--output-format", "stream-json", "--verbose",
		"--permission-mode", "acceptEdits"}, s.Args...)
	cmd := exec.CommandContext(ctx, s.Claude, args...)
	cmd.Env, cmd.Dir = env, s.Dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("claude: %v\nstderr: %s\nstdout: %s", err, stderr.String(), tail(stdout.String(), 2000))
	}
	model.mu.Lock()
	heard := string(model.heard)
	model.mu.Unlock()
	res := &Result{ToolResults: model.ToolResults(), Stream: JSONLines(stdout.Bytes()), Heard: heard}
	if len(res.ToolResults) != len(script) {
		return res, fmt.Errorf("%d tool results for %d calls: %q\nclaude's stream: %s", len(res.ToolResults), len(script), res.ToolResults, tail(stdout.String(), 4000))
	}
	return res, nil
}

// ReadFiles are, in the order of the calls, the file each Read returned
// as the harness reports it (its tool_use_result's file path; "" for a
// call that read nothing; ImageRead for an image, which the harness
// reports without its path).
func (r *Result) ReadFiles() []string {
	var out []string
	for _, line := range r.Stream {
		if line["type"] != "user" {
			continue
		}
		tr, _ := line["tool_use_result"].(map[string]any)
		file, _ := tr["file"].(map[string]any)
		p, _ := file["filePath"].(string)
		if tr["type"] == "image" && p == "" {
			p = ImageRead
		}
		out = append(out, p)
	}
	return out
}

// ImageRead stands in ReadFiles for a Read that returned an image.
const ImageRead = "(an image)"

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// JSONLines is every line of out that is a JSON object, in order: a
// harness's stream (--output-format stream-json, --json), lines that are
// not JSON left out.
func JSONLines(out []byte) []map[string]any {
	var lines []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var line map[string]any
		if json.Unmarshal(sc.Bytes(), &line) == nil {
			lines = append(lines, line)
		}
	}
	return lines
}
