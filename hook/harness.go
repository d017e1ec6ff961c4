package hook

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Harness is the agent CLI whose hook contract an answer is written in.
// Each sends its event on stdin and reads one answer on stdout; the
// events are read in Claude Code's names (fromGemini), answered, and the
// answer made what the sender takes (In) and written its way (Encode).
type Harness string

// The harnesses the hook answers.
const (
	// ClaudeCode applies an updatedInput with or without a decision, and
	// takes "ask" to put a change to the person.
	ClaudeCode Harness = "claude"
	// Codex (Codex CLI's hooks) applies an updatedInput only beside
	// "allow", refuses "ask", and a reason only beside a decision.
	Codex Harness = "codex"
	// Gemini (Gemini CLI's hooks) names its events and tools its own way
	// (BeforeTool, read_file; fromGemini), merges a hookSpecificOutput's
	// tool_input over the call, and denies with a top-level decision.
	Gemini Harness = "gemini"
)

// ParseHarness is the harness named name.
func ParseHarness(name string) (Harness, error) {
	switch h := Harness(name); h {
	case ClaudeCode, Codex, Gemini:
		return h, nil
	}
	return "", fmt.Errorf("unknown harness %q (claude, codex, gemini)", name)
}

// In is out as h can take it (nil: no answer). A rewrite Claude Code
// takes without a decision — the call going through its own permissions
// as written — is an "allow" in Codex, whose sandbox and approval policy
// still stand around the command; a change put to the person ("ask")
// has no form in Codex or Gemini and is not made.
func (h Harness) In(out *Output) *Output {
	if out == nil || out.Specific == nil || h == ClaudeCode {
		return out
	}
	s := *out.Specific
	switch {
	case s.Decision == "ask":
		return nil
	case s.UpdatedInput != nil && s.Decision == "":
		s.Decision = "allow"
	}
	return &Output{Specific: &s}
}

// geminiTools are Gemini CLI's tools the hook answers, each as the Claude
// Code tool it is read as, and its fields' names here by theirs there.
var geminiTools = map[string]struct {
	tool   string
	fields map[string]string
}{
	"read_file":         {"Read", map[string]string{"file_path": "file_path"}},
	"list_directory":    {"LS", map[string]string{"dir_path": "path"}},
	"glob":              {"Glob", map[string]string{"dir_path": "path"}},
	"grep_search":       {"Grep", map[string]string{"dir_path": "path"}},
	"run_shell_command": {shellTool, map[string]string{"command": shellField}},
}

// geminiEvents are Gemini CLI's events by the Claude Code event each is
// read as.
var geminiEvents = map[string]string{"BeforeTool": "PreToolUse", "AfterTool": "PostToolUse"}

// fromGemini is ev read in Claude Code's names when Gemini CLI sent it
// (its event and tool names, and the tool's fields, made Claude Code's;
// its tool's answer — llmContent, and an error's message — as the
// failure's text), else ev itself. A Gemini tool the hook does not know
// keeps its name, and is answered as any tool it does not know: not.
func fromGemini(ev Event) Event {
	name, ok := geminiEvents[ev.Name]
	if !ok {
		return ev
	}
	ev.Name, ev.geminiTool = name, ev.Tool
	t, known := geminiTools[ev.Tool]
	if !known {
		return ev
	}
	in := map[string]any{}
	for k, v := range ev.Input {
		if ours, ok := t.fields[k]; ok {
			k = ours
		}
		in[k] = v
	}
	ev.Tool, ev.Input = t.tool, in
	var resp struct {
		LLMContent any `json:"llmContent"`
		Error      any `json:"error"`
	}
	if json.Unmarshal(ev.Response, &resp) == nil && (resp.LLMContent != nil || resp.Error != nil) {
		// Its shell's answer begins "Output: " before the command's own
		// first line.
		ev.Error = strings.TrimPrefix(textOf(resp.LLMContent), "Output: ") + "\n" + textOf(resp.Error)
		ev.Response = nil
	}
	return ev
}

// textOf is a tool answer's part as text: a string, an error's message,
// else its JSON.
func textOf(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case map[string]any:
		if m, ok := v["message"].(string); ok {
			return m
		}
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// geminiOutput is an answer as Gemini CLI reads it.
type geminiOutput struct {
	Decision string          `json:"decision,omitempty"`
	Reason   string          `json:"reason,omitempty"`
	Specific *geminiSpecific `json:"hookSpecificOutput,omitempty"`
}

type geminiSpecific struct {
	// ToolInput is merged over the call's input: only what changed, in
	// the tool's own fields.
	ToolInput map[string]any `json:"tool_input,omitempty"`
	Context   string         `json:"additionalContext,omitempty"`
}

// Encode is out (In's) as h's harness reads it, for ev (the event as
// ReadEvent made it).
func (h Harness) Encode(ev Event, out *Output) ([]byte, error) {
	if h != Gemini || out == nil || out.Specific == nil {
		return json.Marshal(out)
	}
	s := out.Specific
	g := geminiOutput{}
	if s.Decision == "deny" {
		g.Decision, g.Reason = "deny", s.Reason
	}
	spec := &geminiSpecific{Context: s.Context}
	if s.UpdatedInput != nil {
		t := geminiTools[ev.geminiTool]
		spec.ToolInput = map[string]any{}
		for theirs, ours := range t.fields {
			if v, ok := s.UpdatedInput[ours]; ok && v != ev.Input[ours] {
				spec.ToolInput[theirs] = v
			}
		}
		if len(spec.ToolInput) == 0 {
			spec.ToolInput = nil
		}
	}
	if spec.ToolInput != nil || spec.Context != "" {
		g.Specific = spec
	}
	return json.Marshal(g)
}
