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

// refusals are how Gemini CLI's refusals of a call before BeforeTool
// begin (0.61) — a path outside its workspace; a directory to search that
// is not there (its glob, grep_search) — and what the model is told after
// the line of a rewrite, which it must make itself.
var refusals = []struct{ prefix, then string }{
	{"Path not in workspace", "the path was refused as outside the workspace; read that file"},
	{"Search path does not exist", "the directory was refused as not there; search that one"},
}

// refusedCall is a tool call of the transcript's last model turn that
// was refused, and what the model is to do with a rewrite's line.
type refusedCall struct {
	tool string
	args map[string]any
	then string
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
		if line := saidOf(out, c.then); line != "" {
			said = append(said, line)
		}
	}
	if len(said) == 0 {
		return nil, nil
	}
	return &Output{Specific: &Specific{Event: ev.Name, Message: strings.Join(said, "\n")}}, nil
}

// saidOf is what an answer to a call tells the model: the line of a
// rewrite (the file or directory the path meant) with what to do (then),
// a denial's reason, a note.
func saidOf(out *Output, then string) string {
	if out == nil || out.Specific == nil {
		return ""
	}
	s := out.Specific
	switch {
	case s.UpdatedInput != nil && s.Context != "":
		return s.Context + " (" + then + ")"
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
				Result []callResponse `json:"result"`
			} `json:"toolCalls"`
		}
		if json.Unmarshal(line, &rec) != nil || rec.Type != "gemini" {
			continue
		}
		// A later model turn's record (the same turn written again with
		// its calls, or the next) replaces what an earlier one said.
		last = nil
		for _, c := range rec.ToolCalls {
			if then := refusedThen(c.Status, c.Result); then != "" {
				last = append(last, refusedCall{tool: c.Name, args: c.Args, then: then})
			}
		}
	}
	return last
}

// callResponse is one function response of a call in Gemini CLI's
// transcript.
type callResponse struct {
	FunctionResponse struct {
		Response struct {
			Error string `json:"error"`
		} `json:"response"`
	} `json:"functionResponse"`
}

// refusedThen is what the model is to do with a rewrite of a call that
// ended with status and result, when it is one Gemini CLI refused before
// BeforeTool (refusals); "" when it is not.
func refusedThen(status string, result []callResponse) string {
	if status != "error" {
		return ""
	}
	for _, r := range result {
		for _, ref := range refusals {
			if strings.HasPrefix(r.FunctionResponse.Response.Error, ref.prefix) {
				return ref.then
			}
		}
	}
	return ""
}
