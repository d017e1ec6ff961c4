package hook

import (
	"reflect"
	"strings"
	"testing"
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
