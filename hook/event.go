// Package hook is wayfind inside an agent's own tool calls: it reads one
// hook event an agent harness sends before or after a tool runs (Claude
// Code's PreToolUse, PostToolUse and PostToolUseFailure; harnesses that
// copy that contract), asks the request layer what a path that names no
// file meant, and answers in the harness's format: the call rewritten to
// the file meant when that is resolved (a basis right 99 times in 100 on
// repositories nobody tuned to), denied with the deleting commit or the
// candidates otherwise, context added after a shell command that named a
// path no longer there. It is a front end: it parses, calls, formats.
//
// A hook sits in someone else's loop. On anything it does not understand
// or cannot do — an event of another kind, a path outside the roots, an
// error of its own — it says nothing and the call goes ahead unchanged.
package hook

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Event is one hook event as the harness writes it on the hook's stdin.
type Event struct {
	SessionID string `json:"session_id"`
	Cwd       string `json:"cwd"`
	// Transcript is the session's transcript (JSON lines), where the files
	// the agent worked on are.
	Transcript string `json:"transcript_path"`
	Name       string `json:"hook_event_name"`
	Tool       string `json:"tool_name"`
	// Input is the tool's input, kept whole so that a rewrite changes only
	// the path.
	Input map[string]any `json:"tool_input"`
	// Response is the tool's answer (PostToolUse); Error its failure
	// (PostToolUseFailure).
	Response json.RawMessage `json:"tool_response"`
	Error    string          `json:"error"`
	// Result is Copilot CLI's name for the tool's answer (fromForeign
	// reads it as Response).
	Result json.RawMessage `json:"tool_result"`
	// LLMRequest is the request Gemini CLI's BeforeModel is about to send
	// (its text messages; beforeModel adds one).
	LLMRequest json.RawMessage `json:"llm_request"`
	// TurnID is Codex CLI's (its events carry the turn; Claude Code's do
	// not): whose contract the answer is in (Sender).
	TurnID string `json:"turn_id"`
	// from is the harness of its own names the event was read from, and
	// foreignTool its tool's name there (fromForeign); "" for others.
	from        Harness
	foreignTool string
}

// Sender is the harness that sent ev: the one of its own names it was
// read from (Gemini CLI, opencode, Copilot CLI when told), Codex CLI
// when the event names its turn, else Claude Code.
func (ev Event) Sender() Harness {
	switch {
	case ev.from != "":
		return ev.from
	case ev.TurnID != "":
		return Codex
	}
	return ClaudeCode
}

// maxEvent bounds what is read of an event: a tool's input or answer is
// at most some megabytes (a Write's content, a command's output).
const maxEvent = 64 << 20

// ReadEvent reads one event, its sender told by the event itself.
func ReadEvent(r io.Reader) (Event, error) { return ReadEventFrom(r, "") }

// ReadEventFrom reads one event that told sent ("": the event says which
// harness sent it; Sender).
func ReadEventFrom(r io.Reader, told Harness) (Event, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxEvent+1))
	if err != nil {
		return Event{}, err
	}
	if len(b) > maxEvent {
		return Event{}, fmt.Errorf("event longer than %d bytes", maxEvent)
	}
	var ev Event
	if err := json.Unmarshal(b, &ev); err != nil {
		return Event{}, fmt.Errorf("not a hook event: %w", err)
	}
	if ev.Name == "" {
		return Event{}, fmt.Errorf("not a hook event: no hook_event_name")
	}
	return fromForeign(ev, told), nil
}

// Output is the hook's answer on stdout (nil: none, the call goes ahead).
type Output struct {
	Specific *Specific `json:"hookSpecificOutput,omitempty"`
}

// Specific is an answer's event-specific part.
type Specific struct {
	Event string `json:"hookEventName"`
	// Decision: "allow" (the call goes ahead, with UpdatedInput), "ask"
	// (the person decides, shown UpdatedInput) or "deny" (Reason is what
	// the model reads).
	Decision     string         `json:"permissionDecision,omitempty"`
	Reason       string         `json:"permissionDecisionReason,omitempty"`
	UpdatedInput map[string]any `json:"updatedInput,omitempty"`
	// Context is a line the model reads beside the tool's answer.
	Context string `json:"additionalContext,omitempty"`
	// Message is said to the model as a message of its own, after the
	// last turn's tool answers (Gemini CLI's BeforeModel: beforeModel).
	Message string `json:"-"`
}

// pathTools are the tools that take an existing path, and the input
// field that holds it; dirTools take a directory.
var (
	fileTools = map[string]string{"Read": "file_path", "Edit": "file_path", "MultiEdit": "file_path", "NotebookEdit": "notebook_path"}
	dirTools  = map[string]string{"Glob": "path", "Grep": "path", "LS": "path"}
	// editTools change the file: a rewrite of their path is shown to the
	// person (ask), never approved for them.
	editTools = map[string]bool{"Edit": true, "MultiEdit": true, "NotebookEdit": true}
)

// pathOf is the path the event's tool takes, its field, and whether it
// is a directory. A value with a line break or a NUL in it is no path
// (a rewrite would name the file on its second line): none.
func pathOf(ev Event) (p, field string, dir bool) {
	if f, ok := fileTools[ev.Tool]; ok {
		p, field = pathField(ev, f), f
	} else if f, ok := dirTools[ev.Tool]; ok {
		p, field, dir = pathField(ev, f), f, true
	}
	if p == "" {
		return "", "", false
	}
	return p, field, dir
}

// pathField is the input's field f as a path ("" when it is none).
func pathField(ev Event, f string) string {
	p, _ := ev.Input[f].(string)
	p = strings.TrimSpace(p)
	if strings.ContainsAny(p, "\n\r\x00") {
		return ""
	}
	return p
}

// Subject is what the event's call names, for a log: its path, or its
// shell command.
func Subject(ev Event) string {
	if ev.Tool == shellTool {
		c, _ := ev.Input[shellField].(string)
		return c
	}
	if p, _, _ := pathOf(ev); p != "" {
		return p
	}
	p, _ := ev.Input["file_path"].(string)
	return p
}
