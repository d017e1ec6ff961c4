package hook

import (
	"reflect"
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
