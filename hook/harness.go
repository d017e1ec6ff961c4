package hook

import (
	"encoding/json"
	"fmt"
)

// Harness is the agent CLI whose hook contract an answer is written in.
// Each sends its event on stdin and reads one answer on stdout; the
// events are read in Claude Code's names (fromForeign), answered, and the
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
	// (BeforeTool, read_file; fromForeign), merges a hookSpecificOutput's
	// tool_input over the call, and denies with a top-level decision.
	Gemini Harness = "gemini"
	// Opencode is opencode through the plugin this repository ships
	// (plugin/opencode): its plugin events and tools (tool.execute.before,
	// read), args merged over the call, a denial thrown.
	Opencode Harness = "opencode"
	// Copilot is GitHub Copilot CLI's hooks in the form it shares with VS
	// Code (events named as Claude Code's, PreToolUse; tools too, Read and
	// Bash, but its Read's path is "path"); it replaces the call's input
	// with an updatedInput beside "allow". Its events cannot be told from
	// Claude Code's: the hook is told (--harness copilot).
	Copilot Harness = "copilot"
)

// ParseHarness is the harness named name.
func ParseHarness(name string) (Harness, error) {
	switch h := Harness(name); h {
	case ClaudeCode, Codex, Gemini, Opencode, Copilot:
		return h, nil
	}
	return "", fmt.Errorf("unknown harness %q (claude, codex, gemini, opencode, copilot)", name)
}

// In is out as h can take it (nil: no answer). A rewrite Claude Code
// takes without a decision — the call going through its own permissions
// as written — is an "allow" in Codex, whose sandbox and approval policy
// still stand around the command; a change put to the person ("ask")
// has no form in Codex, Gemini, opencode or Copilot CLI's prompt mode
// and is not made.
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

// foreignTool is a harness's tool the hook answers: the Claude Code tool
// it is read as, and its fields' names here by theirs there.
type foreignTool struct {
	tool   string
	fields map[string]string
	// lineRange is the field a read takes its lines in, [first, last]
	// (last -1: to the end), where it has no offset and limit ("": the
	// lines are not given); whole, the most of a file it shows without
	// them, in bytes (0: readWindow).
	lineRange string
	whole     int
}

// copilotViewWhole is the most of a file Copilot CLI's view shows without
// a view_range: a larger file it refuses whole ("File too large to read
// at once"), and the model, not told where the path led, reads the old
// path again.
const copilotViewWhole = 20 << 10

// readWindowOf is the most a rewritten read of ev's harness reads at
// once, in bytes.
func readWindowOf(ev Event) int {
	if w := foreign[ev.from].tools[ev.foreignTool].whole; w > 0 {
		return w
	}
	return readWindow
}

// foreign are the harnesses that name their events and tools their own
// way: each one's events by the Claude Code event each is read as, and
// its tools.
var foreign = map[Harness]struct {
	events map[string]string
	tools  map[string]foreignTool
	// told: the events are named as Claude Code's, so read as this
	// harness's only when the hook is told so.
	told bool
}{
	Gemini: {
		events: map[string]string{"BeforeTool": "PreToolUse", "AfterTool": "PostToolUse", "BeforeModel": "BeforeModel"},
		tools: map[string]foreignTool{
			"read_file":         {tool: "Read", fields: map[string]string{"file_path": "file_path"}},
			"list_directory":    {tool: "LS", fields: map[string]string{"dir_path": "path"}},
			"glob":              {tool: "Glob", fields: map[string]string{"dir_path": "path"}},
			"grep_search":       {tool: "Grep", fields: map[string]string{"dir_path": "path"}},
			"run_shell_command": {tool: shellTool, fields: map[string]string{"command": shellField}},
		},
	},
	// opencode's events are its plugins' (plugin/opencode/wayfind.js sends
	// them as they come: the tool's id and its args).
	Opencode: {
		events: map[string]string{"tool.execute.before": "PreToolUse", "tool.execute.after": "PostToolUse"},
		tools: map[string]foreignTool{
			"read":  {tool: "Read", fields: map[string]string{"filePath": "file_path"}},
			"list":  {tool: "LS", fields: map[string]string{"path": "path"}},
			"glob":  {tool: "Glob", fields: map[string]string{"path": "path"}},
			"grep":  {tool: "Grep", fields: map[string]string{"path": "path"}},
			"bash":  {tool: shellTool, fields: map[string]string{"command": shellField}},
			"edit":  {tool: "Edit", fields: map[string]string{"filePath": "file_path"}},
			"write": {tool: "Write", fields: map[string]string{"filePath": "file_path"}},
		},
	},
	// Copilot CLI's events in its VS Code form: its view tool is "Read"
	// with a "path", its bash "Bash" (its other tools keep names of their
	// own, and are not answered).
	Copilot: {
		events: map[string]string{"PreToolUse": "PreToolUse", "PostToolUse": "PostToolUse"},
		tools: map[string]foreignTool{
			"Read": {tool: "Read", fields: map[string]string{"path": "file_path"}, lineRange: "view_range", whole: copilotViewWhole},
			"Bash": {tool: shellTool, fields: map[string]string{"command": shellField}},
		},
		told: true,
	},
}

// fromForeign is ev read in Claude Code's names when a harness of its own
// names sent it (its event and tool names, and the tool's fields, made
// Claude Code's; its tool's answer is read in its own shape:
// answerText), else ev itself; told is the harness the hook was told
// sent it ("": the event says). A tool the hook does not know keeps its
// name, and is answered as any tool it does not know: not.
func fromForeign(ev Event, told Harness) Event {
	for h, f := range foreign {
		name, ok := f.events[ev.Name]
		if !ok || f.told && h != told {
			continue
		}
		if len(ev.Response) == 0 {
			ev.Response = ev.Result
		}
		ev.Name, ev.from, ev.foreignTool = name, h, ev.Tool
		t, known := f.tools[ev.Tool]
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
		return ev
	}
	return ev
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
	// LLMRequest is BeforeModel's request as it goes: its messages, those
	// it came with in order (Gemini CLI lays them over its contents one
	// for one) and then those added. Nothing else of it: a config given
	// replaces the request's whole.
	LLMRequest *geminiRequest `json:"llm_request,omitempty"`
}

type geminiRequest struct {
	Messages []json.RawMessage `json:"messages"`
}

// withMessage is BeforeModel's request (raw, as the event carried it)
// with a user message of text after its own.
func withMessage(raw json.RawMessage, text string) (*geminiRequest, error) {
	var req geminiRequest
	if err := json.Unmarshal(raw, &req); err != nil {
		return nil, fmt.Errorf("BeforeModel's llm_request: %w", err)
	}
	m, err := json.Marshal(map[string]string{"role": "user", "content": text})
	if err != nil {
		return nil, err
	}
	req.Messages = append(req.Messages, m)
	return &req, nil
}

// opencodeOutput is an answer as the opencode plugin reads it: args to
// merge over the call's (only what changed, in the tool's own fields), a
// denial's reason (the plugin throws it: the model reads it as the tool's
// error), a line for the model (added to the tool's output after it).
type opencodeOutput struct {
	Args    map[string]any `json:"args,omitempty"`
	Deny    string         `json:"deny,omitempty"`
	Context string         `json:"context,omitempty"`
}

// Encode is out (In's) as h's harness reads it, for ev (the event as
// ReadEvent made it).
func (h Harness) Encode(ev Event, out *Output) ([]byte, error) {
	if _, own := foreign[h]; !own || out == nil || out.Specific == nil {
		return json.Marshal(out)
	}
	s := out.Specific
	if h == Copilot {
		// Claude Code's answer, the input whole in the tool's own names:
		// Copilot CLI replaces the call's input with it.
		c := *s
		c.UpdatedInput = theirFields(ev, s.UpdatedInput)
		return json.Marshal(Output{Specific: &c})
	}
	changed := changedFields(ev, s.UpdatedInput)
	deny := ""
	if s.Decision == "deny" {
		deny = s.Reason
	}
	if h == Opencode {
		return json.Marshal(opencodeOutput{Args: changed, Deny: deny, Context: s.Context})
	}
	g := geminiOutput{}
	if s.Message != "" {
		req, err := withMessage(ev.LLMRequest, s.Message)
		if err != nil {
			return nil, err
		}
		return json.Marshal(geminiOutput{Specific: &geminiSpecific{LLMRequest: req}})
	}
	if deny != "" {
		g.Decision, g.Reason = "deny", deny
	}
	if changed != nil || s.Context != "" {
		g.Specific = &geminiSpecific{ToolInput: changed, Context: s.Context}
	}
	return json.Marshal(g)
}

// changedFields are the fields of updated (in Claude Code's names) that
// differ from ev's input, in the names of the tool ev was read from; nil
// when none.
func changedFields(ev Event, updated map[string]any) map[string]any {
	if updated == nil {
		return nil
	}
	t := foreign[ev.from].tools[ev.foreignTool]
	out := map[string]any{}
	for theirs, ours := range t.fields {
		if v, ok := updated[ours]; ok && v != ev.Input[ours] {
			out[theirs] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// theirFields is updated (an input whole, in Claude Code's names) in the
// names of the tool ev was read from, less what Claude Code's tool takes
// and that one does not (a Read's offset and limit: Copilot CLI's view
// has a view_range); nil stays nil.
func theirFields(ev Event, updated map[string]any) map[string]any {
	if updated == nil {
		return nil
	}
	ours := map[string]string{}
	for theirs, our := range foreign[ev.from].tools[ev.foreignTool].fields {
		ours[our] = theirs
	}
	out := map[string]any{}
	for k, v := range updated {
		if theirs, ok := ours[k]; ok {
			out[theirs] = v
		} else if _, theirsToo := ev.Input[k]; theirsToo {
			out[k] = v
		}
	}
	// The lines a rewrite gave (offset, limit) in the harness's range,
	// unless the call gave its own.
	if r := foreign[ev.from].tools[ev.foreignTool].lineRange; r != "" && ev.Input[r] == nil {
		from, hasFrom := lineNumber(updated["offset"])
		n, hasLimit := lineNumber(updated["limit"])
		switch {
		case hasLimit:
			out[r] = []int{max(from, 1), max(from, 1) + n - 1}
		case hasFrom:
			out[r] = []int{from, -1}
		}
	}
	return out
}

// lineNumber is a line number or count as an input holds it (an int the
// hook set, a float64 JSON gave).
func lineNumber(v any) (int, bool) {
	switch n := v.(type) {
	case int:
		return n, true
	case float64:
		return int(n), true
	}
	return 0, false
}
