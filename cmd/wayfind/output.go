package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"wayfind/rank"
)

// output formats results as ../shared/API.md's envelope, JSON lines or text.
type output struct {
	cmd    string
	format string
	quiet  bool
	stdout io.Writer
	stderr io.Writer
	roots  []string
	start  time.Time
}

type meta struct {
	Command   string  `json:"command"`
	Version   string  `json:"version"`
	ElapsedMs float64 `json:"elapsedMs"`
}

type queryInfo struct {
	Text      string  `json:"text"`
	Mode      string  `json:"mode"`
	Threshold float64 `json:"threshold,omitempty"`
}

type summary struct {
	TotalSearched int  `json:"totalSearched"`
	Matches       int  `json:"matches"`
	Truncated     bool `json:"truncated"`
}

type jsonMatch struct {
	Path      string   `json:"path"`
	URI       string   `json:"uri"`
	Score     float64  `json:"score"`
	MatchedIn []string `json:"matchedIn"`
	Reason    string   `json:"reason,omitempty"`
}

type jsonCandidate struct {
	URI     string     `json:"uri"`
	Path    string     `json:"path"`
	Score   float64    `json:"score"`
	Reasons []string   `json:"reasons"`
	Range   *jsonRange `json:"range,omitempty"`
}

type jsonPos struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

type jsonRange struct {
	Start jsonPos `json:"start"`
	End   jsonPos `json:"end"`
}

type jsonResolve struct {
	Resolved   *jsonCandidate  `json:"resolved"`
	Candidates []jsonCandidate `json:"candidates"`
	Exact      bool            `json:"exact"`
}

type envelope struct {
	Meta    meta        `json:"_meta"`
	Success bool        `json:"success"`
	Query   *queryInfo  `json:"query,omitempty"`
	Summary *summary    `json:"summary,omitempty"`
	Matches []jsonMatch `json:"matches,omitempty"`
	Result  any         `json:"result,omitempty"`
	Error   *jsonError  `json:"error,omitempty"`
}

type jsonError struct {
	Code     string `json:"code"`
	Message  string `json:"message"`
	ExitCode int    `json:"exitCode"`
}

func (o *output) meta() meta {
	return meta{Command: o.cmd, Version: Version, ElapsedMs: ms(time.Since(o.start))}
}

func (o *output) uri(root int, rel string) string {
	abs := filepath.Join(o.roots[root], filepath.FromSlash(rel))
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// fail reports an error: one line on stderr, or the error envelope for JSON.
func (o *output) fail(err error) int {
	code := exitCodeFor(err)
	msg := strings.TrimPrefix(err.Error(), rank.ErrInput.Error()+": ")
	if o.format == "json" || o.format == "jsonl" {
		kind := "E_INPUT"
		if code != exitInput {
			kind = "E_INTERNAL"
		}
		o.writeJSON(envelope{Meta: o.meta(), Error: &jsonError{Code: kind, Message: msg, ExitCode: code}})
		return code
	}
	fmt.Fprintf(o.stderr, "wayfind %s: %s\n", o.cmd, msg)
	return code
}

func (o *output) writeJSON(v any) {
	enc := json.NewEncoder(o.stdout)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

func (o *output) find(opts options, res *rank.FindResult) int {
	ms := make([]jsonMatch, len(res.Matches))
	for i, m := range res.Matches {
		ms[i] = jsonMatch{Path: m.Path, URI: o.uri(m.Root, m.Path), Score: m.Score, MatchedIn: m.MatchedIn, Reason: m.Reason}
	}
	mode := "fuzzy"
	if opts.exact {
		mode = "exact"
	}
	threshold := opts.threshold
	if threshold == 0 {
		threshold = rank.DefaultThreshold
	}
	switch o.format {
	case "json":
		o.writeJSON(envelope{
			Meta: o.meta(), Success: true,
			Query:   &queryInfo{Text: opts.query, Mode: mode, Threshold: threshold},
			Summary: &summary{TotalSearched: res.TotalSearched, Matches: len(ms), Truncated: res.Truncated},
			Matches: orEmpty(ms),
		})
	case "jsonl":
		for _, m := range ms {
			o.writeJSON(m)
		}
	default:
		for i, m := range ms {
			if o.quiet {
				fmt.Fprintln(o.stdout, m.Path)
				continue
			}
			fmt.Fprintf(o.stdout, "%2d  %.2f  %s  (%s)\n", i+1, m.Score, m.Path, m.Reason)
		}
		if len(ms) == 0 && !o.quiet {
			fmt.Fprintf(o.stderr, "wayfind find: nothing matches %q among %d files\n", opts.query, res.TotalSearched)
		}
	}
	if len(ms) == 0 {
		return exitNothing
	}
	return exitFound
}

func orEmpty(ms []jsonMatch) []jsonMatch {
	if ms == nil {
		return []jsonMatch{}
	}
	return ms
}

func (o *output) candidate(c rank.Candidate, res *rank.ResolveResult) jsonCandidate {
	jc := jsonCandidate{URI: o.uri(c.Root, c.Path), Path: c.Path, Score: c.Score, Reasons: c.Reasons}
	if res.Line > 0 {
		col := max(res.Col-1, 0)
		p := jsonPos{Line: res.Line - 1, Character: col}
		jc.Range = &jsonRange{Start: p, End: p}
	}
	return jc
}

func (o *output) resolve(opts options, res *rank.ResolveResult, total int) int {
	out := jsonResolve{Exact: res.Exact, Candidates: []jsonCandidate{}}
	for _, c := range res.Candidates {
		out.Candidates = append(out.Candidates, o.candidate(c, res))
	}
	if res.Resolved != nil {
		r := o.candidate(*res.Resolved, res)
		out.Resolved = &r
	}
	switch o.format {
	case "json":
		o.writeJSON(envelope{
			Meta: o.meta(), Success: true,
			Query:   &queryInfo{Text: opts.query, Mode: "resolve"},
			Summary: &summary{TotalSearched: total, Matches: len(out.Candidates)},
			Result:  out,
		})
	case "jsonl":
		for _, c := range out.Candidates {
			o.writeJSON(struct {
				jsonCandidate
				Resolved bool `json:"resolved"`
			}{c, out.Resolved != nil && c.Path == out.Resolved.Path})
		}
	default:
		if out.Resolved != nil {
			loc := out.Resolved.Path
			if res.Line > 0 {
				loc += fmt.Sprintf(":%d", res.Line)
				if res.Col > 0 {
					loc += fmt.Sprintf(":%d", res.Col)
				}
			}
			if o.quiet {
				fmt.Fprintln(o.stdout, loc)
				break
			}
			fmt.Fprintf(o.stdout, "%s  (%.2f, %s)\n", loc, out.Resolved.Score, strings.Join(out.Resolved.Reasons, ", "))
			if len(out.Candidates) > 1 {
				fmt.Fprintln(o.stdout, "other candidates:")
				for _, c := range out.Candidates[1:] {
					fmt.Fprintf(o.stdout, "    %.2f  %s  (%s)\n", c.Score, c.Path, strings.Join(c.Reasons, ", "))
				}
			}
			break
		}
		if o.quiet {
			break
		}
		if len(out.Candidates) == 0 {
			fmt.Fprintf(o.stderr, "wayfind resolve: nothing plausible for %q among %d files\n", opts.query, total)
			break
		}
		fmt.Fprintf(o.stderr, "wayfind resolve: no confident match for %q; candidates:\n", opts.query)
		for i, c := range out.Candidates {
			fmt.Fprintf(o.stdout, "%2d  %.2f  %s  (%s)\n", i+1, c.Score, c.Path, strings.Join(c.Reasons, ", "))
		}
	}
	if out.Resolved == nil {
		return exitNothing
	}
	return exitFound
}
