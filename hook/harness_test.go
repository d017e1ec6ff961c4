package hook

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"wayfind/wire"
)

// TestHarnessIn: each harness's answer to the same event.
func TestHarnessIn(t *testing.T) {
	rewrite := &Output{Specific: &Specific{Event: "PreToolUse", UpdatedInput: map[string]any{"command": "cat b"}, Context: "wayfind: a is b"}}
	ask := &Output{Specific: &Specific{Event: "PreToolUse", Decision: "ask", Reason: "r", UpdatedInput: map[string]any{"file_path": "b"}}}
	deny := &Output{Specific: &Specific{Event: "PreToolUse", Decision: "deny", Reason: "no file at a"}}
	for _, c := range []struct {
		name string
		h    Harness
		in   *Output
		want *Output
	}{
		{"Claude Code: a rewrite without a decision", ClaudeCode, rewrite, rewrite},
		{"Codex: the same rewrite allowed", Codex, rewrite, &Output{Specific: &Specific{Event: "PreToolUse", Decision: "allow", UpdatedInput: map[string]any{"command": "cat b"}, Context: "wayfind: a is b"}}},
		{"Claude Code: a change put to the person", ClaudeCode, ask, ask},
		{"Codex: no ask, no change", Codex, ask, nil},
		{"Codex: a denial as it is", Codex, deny, deny},
		{"nothing stays nothing", Codex, nil, nil},
	} {
		if got := c.h.In(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
	if rewrite.Specific.Decision != "" {
		t.Errorf("In changed its argument")
	}
}

// TestSender: Codex CLI's events name their turn; Claude Code's do not.
func TestSender(t *testing.T) {
	for _, c := range []struct {
		event string
		want  Harness
	}{
		{`{"session_id":"s","turn_id":"t1","transcript_path":null,"cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`, Codex},
		{`{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`, ClaudeCode},
	} {
		ev, err := ReadEvent(strings.NewReader(c.event))
		if err != nil || ev.Sender() != c.want {
			t.Errorf("%s: %v %v, want %v", c.event, ev.Sender(), err, c.want)
		}
	}
}

// TestGemini: Gemini CLI's events are read in Claude Code's names, and
// the answers written its way — only what changed, in its own fields.
func TestGemini(t *testing.T) {
	moved := wire.Resolve{Resolved: &wire.Candidate{URI: "file:///ws/new/a.go", Path: "new/a.go", Range: &wire.Range{}},
		Moved: &wire.HistoryNote{Path: "old/a.go", Commit: "3f2a1c9e", Date: "2024-05-01", Subject: "move a"}}
	req := &fakeRequests{
		resolve: map[string]wire.Resolve{"/ws/old/a.go": moved, "/ws/config.go": {Candidates: []wire.Candidate{
			{URI: "file:///ws/a/config.go", Path: "a/config.go"}, {URI: "file:///ws/b/config.go", Path: "b/config.go"}}}},
		dirs: map[string]*wire.DirMove{"/ws/old": {From: "old", To: "new", URI: "file:///ws/new", Moved: 3, Followed: 3, Commit: moved.Moved}},
	}
	disk := fakeDisk{"/ws/new/a.go": "file", "/ws/new": "dir", "/ws/README.md": "file"}
	for _, c := range []struct {
		name, event, want string
	}{
		{"read_file of a moved file: its file_path merged over the call",
			`{"hook_event_name":"BeforeTool","cwd":"/ws","tool_name":"read_file","tool_input":{"file_path":"/ws/old/a.go"}}`,
			`{"hookSpecificOutput":{"tool_input":{"file_path":"/ws/new/a.go"},"additionalContext":"wayfind: /ws/old/a.go moved to /ws/new/a.go in 3f2a1c9 (2024-05-01) \"move a\""}}`},
		{"a shell command: its command",
			`{"hook_event_name":"BeforeTool","cwd":"/ws","tool_name":"run_shell_command","tool_input":{"command":"cat old/a.go","description":"d"}}`,
			`{"hookSpecificOutput":{"tool_input":{"command":"cat new/a.go"},"additionalContext":"wayfind: old/a.go moved to /ws/new/a.go in 3f2a1c9 (2024-05-01) \"move a\""}}`},
		{"list_directory of a moved directory: its dir_path",
			`{"hook_event_name":"BeforeTool","cwd":"/ws","tool_name":"list_directory","tool_input":{"dir_path":"/ws/old"}}`,
			`{"hookSpecificOutput":{"tool_input":{"dir_path":"/ws/new"},"additionalContext":"wayfind: old moved to new in 3f2a1c9 (2024-05-01) \"move a\" (3 of the 3 files the history saw leave it)"}}`},
		{"a name two files share: denied, the candidates the reason",
			`{"hook_event_name":"BeforeTool","cwd":"/ws","tool_name":"read_file","tool_input":{"file_path":"config.go"}}`,
			`{"decision":"deny","reason":"wayfind: no file at config.go. Candidates, best first:\n1. /ws/a/config.go ()\n2. /ws/b/config.go ()"}`},
		{"after a shell command that failed: a line",
			`{"hook_event_name":"AfterTool","cwd":"/ws","tool_name":"run_shell_command","tool_input":{"command":"cat old/a.go"},"tool_response":{"llmContent":"Output: cat: old/a.go: No such file or directory\nExit Code: 1"}}`,
			`{"hookSpecificOutput":{"additionalContext":"wayfind: old/a.go moved to new/a.go in 3f2a1c9 (2024-05-01) \"move a\""}}`},
		{"an existing file: nothing",
			`{"hook_event_name":"BeforeTool","cwd":"/ws","tool_name":"read_file","tool_input":{"file_path":"/ws/README.md"}}`, `null`},
		{"a tool it does not know: nothing",
			`{"hook_event_name":"BeforeTool","cwd":"/ws","tool_name":"write_file","tool_input":{"file_path":"/ws/old/a.go"}}`, `null`},
	} {
		ev, err := ReadEvent(strings.NewReader(c.event))
		if err != nil {
			t.Fatal(err)
		}
		if ev.Sender() != Gemini {
			t.Errorf("%s: sender %v", c.name, ev.Sender())
		}
		out, err := Answer(context.Background(), ev, disk, nil, func() (Requests, error) { return req, nil })
		if err != nil {
			t.Fatal(err)
		}
		b, err := Gemini.Encode(ev, Gemini.In(out))
		if err != nil || string(b) != c.want {
			t.Errorf("%s:\n got %s (%v)\nwant %s", c.name, b, err, c.want)
		}
	}
}

// TestOpencode: the opencode plugin's events are read in Claude Code's
// names, and answered as the plugin applies them.
func TestOpencode(t *testing.T) {
	moved := wire.Resolve{Resolved: &wire.Candidate{URI: "file:///ws/new/a.go", Path: "new/a.go"},
		Moved: &wire.HistoryNote{Path: "old/a.go", Commit: "3f2a1c9e", Date: "2024-05-01", Subject: "move a"}}
	req := &fakeRequests{resolve: map[string]wire.Resolve{"/ws/old/a.go": moved, "/ws/config.go": {Candidates: []wire.Candidate{
		{URI: "file:///ws/a/config.go", Path: "a/config.go"}, {URI: "file:///ws/b/config.go", Path: "b/config.go"}}}}}
	disk := fakeDisk{"/ws/new/a.go": "file", "/ws/new": "dir"}
	for _, c := range []struct {
		name, event, want string
	}{
		{"read of a moved file: its filePath",
			`{"hook_event_name":"tool.execute.before","cwd":"/ws","tool_name":"read","tool_input":{"filePath":"/ws/old/a.go","offset":3}}`,
			`{"args":{"filePath":"/ws/new/a.go"},"context":"wayfind: /ws/old/a.go moved to /ws/new/a.go in 3f2a1c9 (2024-05-01) \"move a\""}`},
		{"bash: its command",
			`{"hook_event_name":"tool.execute.before","cwd":"/ws","tool_name":"bash","tool_input":{"command":"cat old/a.go","description":"d"}}`,
			`{"args":{"command":"cat new/a.go"},"context":"wayfind: old/a.go moved to /ws/new/a.go in 3f2a1c9 (2024-05-01) \"move a\""}`},
		{"a name two files share: denied",
			`{"hook_event_name":"tool.execute.before","cwd":"/ws","tool_name":"read","tool_input":{"filePath":"/ws/config.go"}}`,
			`{"deny":"wayfind: no file at /ws/config.go. Candidates, best first:\n1. /ws/a/config.go ()\n2. /ws/b/config.go ()"}`},
		{"after a bash that failed: a line",
			`{"hook_event_name":"tool.execute.after","cwd":"/ws","tool_name":"bash","tool_input":{},"tool_response":{"output":"cat: old/a.go: No such file or directory\n"}}`,
			`{"context":"wayfind: old/a.go moved to new/a.go in 3f2a1c9 (2024-05-01) \"move a\""}`},
		{"an edit's rewrite is not made (no ask there)",
			`{"hook_event_name":"tool.execute.before","cwd":"/ws","tool_name":"edit","tool_input":{"filePath":"/ws/old/a.go","oldString":"a","newString":"b"}}`, `null`},
	} {
		ev, err := ReadEvent(strings.NewReader(c.event))
		if err != nil {
			t.Fatal(err)
		}
		if ev.Sender() != Opencode {
			t.Errorf("%s: sender %v", c.name, ev.Sender())
		}
		out, err := Answer(context.Background(), ev, disk, nil, func() (Requests, error) { return req, nil })
		if err != nil {
			t.Fatal(err)
		}
		b, err := Opencode.Encode(ev, Opencode.In(out))
		if err != nil || string(b) != c.want {
			t.Errorf("%s:\n got %s (%v)\nwant %s", c.name, b, err, c.want)
		}
	}
}

// TestCopilot: Copilot CLI's events, in the form it shares with VS Code,
// are read as Copilot's only when the hook is told (they are named as
// Claude Code's), its Read's "path" as file_path, and answered in Claude
// Code's form with the input whole in Copilot's own names.
func TestCopilot(t *testing.T) {
	moved := wire.Resolve{Resolved: &wire.Candidate{URI: "file:///ws/new/a.go", Path: "new/a.go"},
		Moved: &wire.HistoryNote{Path: "old/a.go", Commit: "3f2a1c9e", Date: "2024-05-01", Subject: "move a"}}
	large := wire.Resolve{Resolved: &wire.Candidate{URI: "file:///ws/new/large.go", Path: "new/large.go"}}
	largeAt90 := wire.Resolve{Resolved: &wire.Candidate{URI: "file:///ws/new/large.go", Path: "new/large.go", Range: &wire.Range{Start: wire.Position{Line: 89}}}}
	req := &fakeRequests{resolve: map[string]wire.Resolve{"/ws/old/a.go": moved, "/ws/old/large.go": large, "/home/dev/ws/old/large.go:90": largeAt90,
		"/ws/config.go": {Candidates: []wire.Candidate{
			{URI: "file:///ws/a/config.go", Path: "a/config.go"}, {URI: "file:///ws/b/config.go", Path: "b/config.go"}}}}}
	disk := fakeDisk{"/ws/new/a.go": "file", "/ws/new": "dir"}
	for _, c := range []struct {
		name, event, want string
	}{
		{"Read (its view) of a moved file: the input whole, its path",
			`{"hook_event_name":"PreToolUse","session_id":"s","timestamp":"2026-11-28T00:10:31.741Z","cwd":"/ws","tool_name":"Read","tool_input":{"path":"/ws/old/a.go","view_range":[1,20]}}`,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"wayfind: /ws/old/a.go moved to /ws/new/a.go in 3f2a1c9 (2024-05-01) \"move a\"","updatedInput":{"path":"/ws/new/a.go","view_range":[1,20]},"additionalContext":"wayfind: /ws/old/a.go moved to /ws/new/a.go in 3f2a1c9 (2024-05-01) \"move a\""}}`},
		{"Read of a file over what its view shows whole (20 KiB; the fake's lines are 1 KiB): the lines that fit, as its view_range",
			`{"hook_event_name":"PreToolUse","cwd":"/ws","tool_name":"Read","tool_input":{"path":"/ws/old/large.go"}}`,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"wayfind: /ws/old/large.go is /ws/new/large.go","updatedInput":{"path":"/ws/new/large.go","view_range":[1,20]},"additionalContext":"wayfind: /ws/old/large.go is /ws/new/large.go"}}`},
		{"the same with its own view_range: kept",
			`{"hook_event_name":"PreToolUse","cwd":"/ws","tool_name":"Read","tool_input":{"path":"/ws/old/large.go","view_range":[50,60]}}`,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"wayfind: /ws/old/large.go is /ws/new/large.go","updatedInput":{"path":"/ws/new/large.go","view_range":[50,60]},"additionalContext":"wayfind: /ws/old/large.go is /ws/new/large.go"}}`},
		{"another machine's path with a line, in a large file: from that line to the end, which fits",
			`{"hook_event_name":"PreToolUse","cwd":"/ws","tool_name":"Read","tool_input":{"path":"/home/dev/ws/old/large.go:90"}}`,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"wayfind: /home/dev/ws/old/large.go:90 is /ws/new/large.go","updatedInput":{"path":"/ws/new/large.go","view_range":[90,-1]},"additionalContext":"wayfind: /home/dev/ws/old/large.go:90 is /ws/new/large.go"}}`},
		{"Bash: its command",
			`{"hook_event_name":"PreToolUse","cwd":"/ws","tool_name":"Bash","tool_input":{"command":"cat old/a.go","description":"d"}}`,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"cat new/a.go","description":"d"},"additionalContext":"wayfind: old/a.go moved to /ws/new/a.go in 3f2a1c9 (2024-05-01) \"move a\""}}`},
		{"a name two files share: denied",
			`{"hook_event_name":"PreToolUse","cwd":"/ws","tool_name":"Read","tool_input":{"path":"/ws/config.go"}}`,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"wayfind: no file at /ws/config.go. Candidates, best first:\n1. /ws/a/config.go ()\n2. /ws/b/config.go ()"}}`},
		{"after a Bash that failed: a line (its tool_result)",
			`{"hook_event_name":"PostToolUse","cwd":"/ws","tool_name":"Bash","tool_input":{"command":"cat old/a.go"},"tool_result":{"result_type":"success","text_result_for_llm":"cat: old/a.go: No such file or directory\n<shellId: 0 completed with exit code 1>"}}`,
			`{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"wayfind: old/a.go moved to new/a.go in 3f2a1c9 (2024-05-01) \"move a\""}}`},
		{"a tool of its own names: nothing",
			`{"hook_event_name":"PreToolUse","cwd":"/ws","tool_name":"edit","tool_input":{"path":"/ws/old/a.go"}}`, `null`},
	} {
		ev, err := ReadEventFrom(strings.NewReader(c.event), Copilot)
		if err != nil {
			t.Fatal(err)
		}
		if ev.Sender() != Copilot {
			t.Errorf("%s: sender %v", c.name, ev.Sender())
		}
		out, err := Answer(context.Background(), ev, disk, nil, func() (Requests, error) { return req, nil })
		if err != nil {
			t.Fatal(err)
		}
		b, err := Copilot.Encode(ev, Copilot.In(out))
		if err != nil || string(b) != c.want {
			t.Errorf("%s:\n got %s (%v)\nwant %s", c.name, b, err, c.want)
		}
	}
	// Not told: the same event is Claude Code's, its "path" no Read's.
	ev, _ := ReadEvent(strings.NewReader(`{"hook_event_name":"PreToolUse","cwd":"/ws","tool_name":"Read","tool_input":{"path":"/ws/old/a.go"}}`))
	if ev.Sender() != ClaudeCode || ev.Input["file_path"] != nil {
		t.Errorf("not told: sender %v, input %v", ev.Sender(), ev.Input)
	}
}

// TestGeminiBeforeModel: a call Gemini CLI refused as outside its
// workspace (before any BeforeTool) is read from the session's transcript
// at the next BeforeModel, answered as its BeforeTool would have been,
// and said in a message added after the request's own (echoed in order:
// Gemini CLI lays them over its contents one for one); nothing for a turn
// whose calls were not refused, for an earlier turn's refusal, without a
// transcript.
func TestGeminiBeforeModel(t *testing.T) {
	moved := wire.Resolve{Resolved: &wire.Candidate{URI: "file:///ws/new/a.go", Path: "new/a.go"},
		Moved: &wire.HistoryNote{Path: "old/a.go", Commit: "3f2a1c9e", Date: "2024-05-01", Subject: "move a"}}
	req := &fakeRequests{resolve: map[string]wire.Resolve{
		"/home/dev/proj/old/a.go":  moved,
		"/home/dev/proj/config.go": {Candidates: []wire.Candidate{{URI: "file:///ws/a/config.go", Path: "a/config.go"}, {URI: "file:///ws/b/config.go", Path: "b/config.go"}}},
	}, sought: map[string]*wire.DirMove{"/ws/src X.java": {From: "src", To: "core/src", URI: "file:///ws/core/src"}}}
	dir := t.TempDir()
	turn := func(status, path, errText string) string {
		return fmt.Sprintf(`{"id":"m1","type":"gemini","content":"","toolCalls":[{"id":"c1","name":"read_file","args":{"file_path":%q},"result":[{"functionResponse":{"id":"c1","name":"read_file","response":{"error":%q}}}],"status":%q}]}`, path, errText, status)
	}
	refused := func(p string) string {
		return turn("error", p, `Path not in workspace: Attempted path "`+p+`" resolves outside the allowed workspace directories: /ws`)
	}
	transcript := func(name string, lines ...string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	messages := `[{"role":"user","content":"context"},{"role":"user","content":"follow the script"}]`
	event := func(tp string) string {
		return fmt.Sprintf(`{"hook_event_name":"BeforeModel","cwd":"/ws","transcript_path":%q,"llm_request":{"model":"m","messages":%s,"config":{"temperature":1}}}`, tp, messages)
	}
	withNote := func(note string) string {
		b, _ := json.Marshal(note)
		return `{"hookSpecificOutput":{"llm_request":{"messages":[{"role":"user","content":"context"},{"role":"user","content":"follow the script"},{"content":` + string(b) + `,"role":"user"}]}}}`
	}
	for _, c := range []struct{ name, event, want string }{
		{"a refused read of a moved file: the file, said after the refusal",
			event(transcript("moved.jsonl", `{"sessionId":"s"}`, `{"id":"m1","type":"gemini","content":""}`, refused("/home/dev/proj/old/a.go"), `{"id":"u2","type":"user","content":[]}`)),
			withNote(`wayfind: /home/dev/proj/old/a.go moved to /ws/new/a.go in 3f2a1c9 (2024-05-01) "move a" (the path was refused as outside the workspace; read that file)`)},
		{"a refused read of a shared name: the candidates",
			event(transcript("shared.jsonl", refused("/home/dev/proj/config.go"))),
			withNote("wayfind: no file at /home/dev/proj/config.go. Candidates, best first:\n1. /ws/a/config.go ()\n2. /ws/b/config.go ()")},
		{"a refused glob of a directory that is not there: the one named so that holds the name, said after the refusal",
			event(transcript("glob.jsonl", `{"id":"m1","type":"gemini","content":"","toolCalls":[{"id":"c1","name":"glob","args":{"pattern":"**/X.java","dir_path":"/ws/src"},"result":[{"functionResponse":{"id":"c1","name":"glob","response":{"error":"Search path does not exist /ws/src"}}}],"status":"error"}]}`)),
			withNote(`wayfind: /ws/src is /ws/core/src, the one directory named so that holds X.java (the directory was refused as not there; search that one)`)},
		{"a read that failed otherwise: nothing",
			event(transcript("other.jsonl", turn("error", "/ws/old/a.go", "File not found"))), `null`},
		{"a refusal in an earlier turn: nothing",
			event(transcript("earlier.jsonl", refused("/home/dev/proj/old/a.go"), turn("success", "/ws/new/a.go", ""))), `null`},
		{"no transcript: nothing", event(""), `null`},
	} {
		ev, err := ReadEvent(strings.NewReader(c.event))
		if err != nil {
			t.Fatal(err)
		}
		out, err := Answer(context.Background(), ev, fakeDisk{"/ws/core/src": "dir"}, nil, func() (Requests, error) { return req, nil })
		if err != nil {
			t.Fatal(err)
		}
		b, err := Gemini.Encode(ev, Gemini.In(out))
		if err != nil || string(b) != c.want {
			t.Errorf("%s:\n got %s (%v)\nwant %s", c.name, b, err, c.want)
		}
	}
}
