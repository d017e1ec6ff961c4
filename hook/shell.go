package hook

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"strings"

	"wayfind/service"
)

// A shell command's output names a path that is not there in the words
// of whatever failed: the C library's ("cat: x: No such file or
// directory", "ls: cannot access 'x': …"), Python's ("[Errno 2] No such
// file or directory: 'x'", "can't open file 'x'"), Node's ("ENOENT: no
// such file or directory, open 'x'"), Go's ("open x: no such file or
// directory"), Rust's and Java's ("x (No such file or directory)").
var missingRE = []*regexp.Regexp{
	regexp.MustCompile(`(?m)^[\w.+-]+: (?:cannot access |cannot open |can't open |cannot stat )?'?([^':\n]+?)'?: No such file or directory`),
	regexp.MustCompile(`No such file or directory: '([^'\n]+)'`),
	regexp.MustCompile(`can't open file '([^'\n]+)'`),
	regexp.MustCompile(`ENOENT: no such file or directory, \w+ '([^'\n]+)'`),
	regexp.MustCompile(`(?:open|stat|lstat|read) ([^\s:]+): no such file or directory`),
	regexp.MustCompile(`(\S+) \(No such file or directory\)`),
	regexp.MustCompile(`No such file or directory \(os error 2\)[^\n]*?['"]([^'"\n]+)['"]`),
}

// maxShellPaths: the missing paths of one command's output that are
// looked up (a build's output can name many).
const maxShellPaths = 3

// afterShell adds, after a shell command whose output says a path is not
// there, a line per such path under the roots: where it went (the history
// moved or deleted it, or one file is clearly meant), else nothing.
func afterShell(ctx context.Context, ev Event, disk Disk, trail Trail, open func() (Requests, error)) (*Output, error) {
	paths := missingPaths(ev.Error + "\n" + answerText(ev.Response))
	if len(paths) == 0 {
		return nil, nil
	}
	var lines []string
	var req Requests
	for _, p := range paths {
		full := abs(p, ev.Cwd)
		if disk.IsFile(full) || disk.IsDir(full) {
			continue // there now (the command made it, or read it elsewhere)
		}
		if req == nil {
			r, err := open()
			if err != nil || r == nil {
				return nil, err
			}
			req = r
		}
		res, _, err := req.Resolve(ctx, resolveParams(ev, full, disk, trail))
		if err != nil {
			continue
		}
		before := len(lines)
		switch {
		case res.Moved != nil && res.Resolved != nil:
			lines = append(lines, fmt.Sprintf("wayfind: %s %s", p, service.HistoryLine("moved to "+res.Resolved.Path, res.Moved)))
		case res.Resolved != nil:
			lines = append(lines, fmt.Sprintf("wayfind: %s is %s", p, res.Resolved.Path))
		case res.Gone != nil:
			lines = append(lines, fmt.Sprintf("wayfind: %s was %s", p, service.HistoryLine("deleted", res.Gone)))
		case len(res.Candidates) > 0 && res.Basis != "tie":
			lines = append(lines, fmt.Sprintf("wayfind: no file at %s; the likeliest is %s", p, res.Candidates[0].Path))
		}
		if len(lines) == before && path.Ext(strings.TrimRight(p, "/")) == "" {
			// Nothing said of a word written as a directory's may be: the
			// directories named so.
			if line := namedLine(ctx, req, p, full, trail); line != "" {
				lines = append(lines, line)
			}
		}
	}
	if len(lines) == 0 {
		return nil, nil
	}
	return &Output{Specific: &Specific{Event: ev.Name, Context: strings.Join(lines, "\n")}}, nil
}

// answerText is a shell command's answer as text, in each harness's
// shape: Claude Code's {stdout, stderr}, Codex CLI's output as one
// string, Gemini CLI's {llmContent, error} (its shell's llmContent begins
// "Output: " before the command's own first line), opencode's {output},
// Copilot CLI's {text_result_for_llm}.
func answerText(response json.RawMessage) string {
	var output string
	if json.Unmarshal(response, &output) == nil {
		return output
	}
	var resp struct {
		Stdout, Stderr string
		LLMContent     any `json:"llmContent"`
		Error          any `json:"error"`
		Output         any `json:"output"`
		ForLLM         any `json:"text_result_for_llm"`
	}
	if json.Unmarshal(response, &resp) != nil {
		return ""
	}
	return strings.Join([]string{resp.Stderr, resp.Stdout, strings.TrimPrefix(textOf(resp.LLMContent), "Output: "), textOf(resp.Error), textOf(resp.Output), textOf(resp.ForLLM)}, "\n")
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

// missingPaths are the paths text says are not there, in order, each
// once, at most maxShellPaths.
func missingPaths(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, re := range missingRE {
		for _, m := range re.FindAllStringSubmatch(text, -1) {
			p := strings.TrimSpace(m[1])
			if p == "" || seen[p] || strings.ContainsAny(p, "*?$`") {
				continue
			}
			seen[p] = true
			out = append(out, p)
			if len(out) == maxShellPaths {
				return out
			}
		}
	}
	return out
}
