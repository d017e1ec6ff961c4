package hook

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"wayfind/wire"
)

// FuzzEvent reads any bytes as a hook event and answers it over a fake
// request layer: never a panic, and a rewrite only ever to the file the
// request layer resolved, with no line break in any path it writes. The
// corpus is testdata/fuzz/FuzzEvent.
func FuzzEvent(f *testing.F) {
	for _, s := range []string{
		`{"session_id":"s","cwd":"/ws","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/ws/old/a.go:12"}}`,
		`{"session_id":"s","cwd":"/ws","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/ws/old/a.go\n/etc/passwd"}}`,
		`{"session_id":"s","cwd":"/ws","hook_event_name":"PreToolUse","tool_name":"Glob","tool_input":{"path":"/ws/old","pattern":"*"}}`,
		`{"session_id":"s","cwd":"/ws","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":7}}`,
		`{"session_id":"s","cwd":"/ws","hook_event_name":"PostToolUse","tool_name":"Bash","tool_response":{"stderr":"cat: /ws/old/a.go: No such file or directory"}}`,
		`{"session_id":"s","cwd":"/ws","hook_event_name":"PreToolUse","tool_name":"Read","transcript_path":"/dev/zero","tool_input":{"file_path":"x"}}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/ws/old/b.go","content":"x"}}`,
		`{"hook_event_name":""}`, `[]`, `null`, "\x00",
	} {
		f.Add([]byte(s))
	}
	moved := wire.Resolve{Resolved: &wire.Candidate{URI: "file:///ws/new/a.go", Path: "new/a.go"}, Confidence: 0.99,
		Moved: &wire.HistoryNote{Path: "old/a.go", Commit: "3f2a1c9e", Date: "2024-05-01", Subject: "move a"}}
	f.Fuzz(func(t *testing.T, data []byte) {
		ev, err := ReadEvent(bytes.NewReader(data))
		if err != nil {
			return
		}
		req := &fakeRequests{resolve: map[string]wire.Resolve{}, dirs: map[string]*wire.DirMove{
			"/ws/old": {From: "old", To: "new", URI: "file:///ws/new", Moved: 1, Followed: 1, Commit: moved.Moved}}}
		if p, _, _ := pathOf(ev); p != "" {
			req.resolve[abs(p, ev.Cwd)] = moved
		}
		out, err := Answer(context.Background(), ev, fakeDisk{}, nil, func() (Requests, error) { return req, nil })
		if err != nil || out == nil || out.Specific == nil {
			return
		}
		for k, v := range out.Specific.UpdatedInput {
			s, ok := v.(string)
			if !ok || k == "content" || k == "pattern" || k == "old_string" || k == "new_string" {
				continue
			}
			if orig, _ := ev.Input[k].(string); s != orig && s != "/ws/new/a.go" && s != "/ws/new" {
				t.Fatalf("%s rewritten to %q: not what the request layer answered", k, s)
			}
			if strings.ContainsAny(s, "\n\r\x00") && s != ev.Input[k] {
				t.Fatalf("%s rewritten to a path with a line break: %q", k, s)
			}
		}
	})
}
