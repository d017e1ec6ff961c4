package hook

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
)

// Calls a harness refused before any hook heard of them. Gemini CLI
// checks a path while it builds the call and refuses one outside its
// workspace (another machine's checkout, a container's prefix) there,
// before BeforeTool; no AfterTool follows. The next thing a hook hears is
// BeforeModel, the request that carries the refusal back to the model —
// whose function responses it is not shown, but whose session transcript
// it is: the last model turn's calls refused so are read from there, each
// asked as its BeforeTool would have been, and what that would have said
// goes to the model as a message after the refusal.

// refusedInWorkspace is how Gemini CLI's refusal of a path outside its
// workspace begins (0.61): only those calls never reached BeforeTool.
const refusedInWorkspace = "Path not in workspace"

// refusedCall is a tool call of the transcript's last model turn that
// was refused.
type refusedCall struct {
	tool string
	args map[string]any
}

// beforeModel answers Gemini CLI's BeforeModel: the refused calls of the
// last turn (refusedCalls), each answered as a PreToolUse, said in one
// message added to the request (Specific.Message); nil when none has an
// answer.
func beforeModel(ctx context.Context, ev Event, disk Disk, trail Trail, open func() (Requests, error)) (*Output, error) {
	var said []string
	for _, c := range refusedCalls(ev.Transcript) {
		call := fromForeign(Event{Name: "BeforeTool", Tool: c.tool, Input: c.args, Cwd: ev.Cwd, SessionID: ev.SessionID}, Gemini)
		if call.Tool == c.tool || call.Tool == shellTool {
			continue // a tool the hook does not answer
		}
		out, err := preToolUse(ctx, call, disk, trail, open)
		if err != nil {
			return nil, err
		}
		if line := saidOf(out); line != "" {
			said = append(said, line)
		}
	}
	if len(said) == 0 {
		return nil, nil
	}
	return &Output{Specific: &Specific{Event: ev.Name, Message: strings.Join(said, "\n")}}, nil
}

// saidOf is what an answer to a call tells the model: the line of a
// rewrite (the file the path meant), a denial's reason, a note.
func saidOf(out *Output) string {
	if out == nil || out.Specific == nil {
		return ""
	}
	s := out.Specific
	switch {
	case s.UpdatedInput != nil && s.Context != "":
		return s.Context + " (the path was refused as outside the workspace; read that file)"
	case s.Reason != "":
		return s.Reason
	}
	return s.Context
}

// refusedCalls are the calls of the transcript's last model turn that
// Gemini CLI refused as outside its workspace, read from the tail of its
// session transcript (JSON lines: a record a message; a model turn's
// calls under toolCalls, each with its status and function response).
func refusedCalls(transcript string) []refusedCall {
	if transcript == "" {
		return nil
	}
	var last []refusedCall
	for _, line := range bytes.Split(readTail(transcript, transcriptTail), []byte{'\n'}) {
		if !bytes.Contains(line, []byte(`"type":"gemini"`)) {
			continue
		}
		var rec struct {
			Type      string `json:"type"`
			ToolCalls []struct {
				Name   string         `json:"name"`
				Args   map[string]any `json:"args"`
				Status string         `json:"status"`
				Result []struct {
					FunctionResponse struct {
						Response struct {
							Error string `json:"error"`
						} `json:"response"`
					} `json:"functionResponse"`
				} `json:"result"`
			} `json:"toolCalls"`
		}
		if json.Unmarshal(line, &rec) != nil || rec.Type != "gemini" {
			continue
		}
		// A later model turn's record (the same turn written again with
		// its calls, or the next) replaces what an earlier one said.
		last = nil
		for _, c := range rec.ToolCalls {
			for _, r := range c.Result {
				if c.Status == "error" && strings.HasPrefix(r.FunctionResponse.Response.Error, refusedInWorkspace) {
					last = append(last, refusedCall{tool: c.Name, args: c.Args})
					break
				}
			}
		}
	}
	return last
}
