package rank

import (
	"context"
	"strings"
)

// LocateRequest is find/locate's input: a question such as "where is
// CommandRouter implemented" or just a name.
type LocateRequest struct {
	Query string
	Limit int
}

// LocateHit is one answer and the strategy that found it.
type LocateHit struct {
	File   int32
	Root   int
	Path   string
	Score  float64
	Via    string // "file" (later: "symbol", "content")
	Reason string
}

// LocateResult is find/locate's output.
type LocateResult struct {
	Term       string
	Impl       bool
	Strategies []string // the strategies tried, in order
	Results    []LocateHit
	// Confidence is the top score, discounted when the runner-up is close:
	// a caller (an agent) should act on it only when it is high.
	Confidence float64
}

// locateFiller are the words of a question that do not name the thing
// looked for.
var locateFiller = map[string]bool{
	"where": true, "where's": true, "whats": true, "is": true, "are": true, "the": true, "a": true, "an": true, "what": true, "which": true,
	"file": true, "files": true, "find": true, "locate": true, "show": true, "me": true, "of": true, "for": true,
	"in": true, "does": true, "do": true, "live": true, "lives": true, "located": true, "implemented": true,
	"implementation": true, "defined": true, "definition": true, "declared": true, "code": true, "source": true,
	"class": true, "function": true, "struct": true, "method": true, "type": true, "module": true, "how": true,
	"i": true, "can": true, "get": true, "to": true, "that": true, "this": true, "it": true, "?": true,
}

// implWords say the question wants the implementation, not a header or a
// declaration.
var implWords = map[string]bool{"implemented": true, "implementation": true, "implements": true, "defined": true, "definition": true}

// LocateTerm extracts what a locate question is about and whether it asks
// for the implementation.
func LocateTerm(query string) (term string, impl bool) {
	var kept []string
	for _, w := range strings.Fields(query) {
		w = strings.Trim(w, "?!.,;:'\"`()")
		lw := strings.ToLower(w)
		if implWords[lw] {
			impl = true
		}
		if w == "" || locateFiller[lw] {
			continue
		}
		kept = append(kept, w)
	}
	return strings.Join(kept, " "), impl
}

// Locate answers "where is X": until symbols are indexed, from file names.
func (e *Engine) Locate(ctx context.Context, req LocateRequest) (*LocateResult, error) {
	if _, err := prepare(req.Query); err != nil {
		return nil, err
	}
	term, impl := LocateTerm(req.Query)
	if term == "" {
		return nil, inputError("the question names nothing to look for")
	}
	res := &LocateResult{Term: term, Impl: impl, Strategies: []string{"file"}, Results: []LocateHit{}}
	found, err := e.Find(ctx, FindRequest{Query: term, Limit: req.Limit, Impl: impl})
	if err != nil {
		return nil, err
	}
	for _, m := range found.Matches {
		res.Results = append(res.Results, LocateHit{File: m.File, Root: m.Root, Path: m.Path, Score: m.Score, Via: "file", Reason: m.Reason})
	}
	if len(res.Results) > 0 {
		top := res.Results[0].Score
		margin := 1.0
		if len(res.Results) > 1 {
			margin = min(1, (top-res.Results[1].Score)*10)
		}
		res.Confidence = round3(top * (0.6 + 0.4*margin))
	}
	return res, nil
}
