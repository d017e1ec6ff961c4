package hook

import "fmt"

// Harness is the agent CLI whose hook contract an answer is written in.
// Its events are Claude Code's shape (the event on stdin, the answer's
// hookSpecificOutput on stdout); what differs is what an answer may say.
type Harness string

// The harnesses the hook answers.
const (
	// ClaudeCode applies an updatedInput with or without a decision, and
	// takes "ask" to put a change to the person.
	ClaudeCode Harness = "claude"
	// Codex (Codex CLI's hooks) applies an updatedInput only beside
	// "allow", refuses "ask", and a reason only beside a decision.
	Codex Harness = "codex"
)

// ParseHarness is the harness named name.
func ParseHarness(name string) (Harness, error) {
	switch h := Harness(name); h {
	case ClaudeCode, Codex:
		return h, nil
	}
	return "", fmt.Errorf("unknown harness %q (claude, codex)", name)
}

// In writes out in h's contract (nil: no answer). A rewrite Claude Code
// takes without a decision — the call going through its own permissions
// as written — is an "allow" in Codex, whose sandbox and approval policy
// still stand around the command; a change put to the person ("ask")
// has no form there and is not made.
func (h Harness) In(out *Output) *Output {
	if out == nil || out.Specific == nil || h != Codex {
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
