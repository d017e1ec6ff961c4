package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"wayfind/rank"
	"wayfind/service"
	"wayfind/symbols"
	"wayfind/wire"
	"wayfind/workspace"
)

// output formats results as docs/API.md's envelope, JSON lines or text.
// pending says on stderr, in one line, that the answer was made before
// the repository's history was read whole ("" says nothing).
func (o *output) pending(note string) {
	if note != "" {
		fmt.Fprintln(o.stderr, note)
	}
}

type output struct {
	cmd    string
	format string
	quiet  bool
	stdout io.Writer
	stderr io.Writer
	roots  []string
	start  time.Time
	cwd    string // paths in text output are relative to it when it is inside a root
}

// shown is how text output names a file (uri is its file:// URI, path
// root-relative): relative to the current directory when that lies inside
// the file's root, as git grep does; root-relative otherwise.
func (o *output) shown(uri, path string) string {
	abs, ok := wire.FilePath(uri)
	if !ok || o.cwd == "" {
		return path
	}
	for _, r := range o.roots {
		if o.cwd == r || !strings.HasPrefix(o.cwd, r+string(filepath.Separator)) || !strings.HasPrefix(abs, r+string(filepath.Separator)) {
			continue
		}
		if rel, err := filepath.Rel(o.cwd, abs); err == nil {
			return filepath.ToSlash(rel)
		}
	}
	return path
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

type envelope struct {
	Meta    meta         `json:"_meta"`
	Success bool         `json:"success"`
	Query   *queryInfo   `json:"query,omitempty"`
	Summary *summary     `json:"summary,omitempty"`
	Matches []wire.Match `json:"matches,omitempty"`
	Result  any          `json:"result,omitempty"`
	Error   *jsonError   `json:"error,omitempty"`
}

type jsonError struct {
	Code     string `json:"code"`
	Message  string `json:"message"`
	ExitCode int    `json:"exitCode"`
}

func (o *output) meta() meta {
	return meta{Command: o.cmd, Version: Version, ElapsedMs: ms(time.Since(o.start))}
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

func (o *output) find(opts options, res wire.Files) int {
	ms := res.Matches
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
			Matches: ms,
		})
	case "jsonl":
		for _, m := range ms {
			o.writeJSON(m)
		}
	default:
		for i, m := range ms {
			if o.quiet {
				fmt.Fprintln(o.stdout, o.shown(m.URI, m.Path))
				continue
			}
			fmt.Fprintf(o.stdout, "%2d  %.2f  %s  (%s)\n", i+1, m.Score, o.shown(m.URI, m.Path), m.Reason)
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

func (o *output) resolve(opts options, out wire.Resolve, total int) int {
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
				wire.Candidate
				Resolved bool `json:"resolved"`
			}{c, out.Resolved != nil && c.Path == out.Resolved.Path})
		}
	default:
		if out.Resolved != nil {
			loc := o.shown(out.Resolved.URI, out.Resolved.Path)
			if r := out.Resolved.Range; r != nil { // the query's :line[:col], 0-based on the wire
				loc += fmt.Sprintf(":%d", r.Start.Line+1)
				if r.Start.Character > 0 {
					loc += fmt.Sprintf(":%d", r.Start.Character+1)
				}
			}
			if o.quiet {
				fmt.Fprintln(o.stdout, loc)
				break
			}
			fmt.Fprintf(o.stdout, "%s  (%.2f, %s)\n", loc, out.Resolved.Score, strings.Join(out.Resolved.Reasons, ", "))
			if m := out.Moved; m != nil {
				fmt.Fprintf(o.stdout, "    was %s: %s\n", m.Path, service.HistoryLine("moved", m))
			}
			if len(out.Candidates) > 1 {
				fmt.Fprintln(o.stdout, "other candidates:")
				for _, c := range out.Candidates[1:] {
					fmt.Fprintf(o.stdout, "    %.2f  %s  (%s)\n", c.Score, o.shown(c.URI, c.Path), strings.Join(c.Reasons, ", "))
				}
			}
			break
		}
		if g := out.Gone; g != nil {
			// The answer: the file is gone, and when.
			if o.quiet {
				fmt.Fprintln(o.stdout, service.HistoryLine("deleted", g))
				break
			}
			fmt.Fprintf(o.stdout, "%s: %s\n", g.Path, service.HistoryLine("deleted", g))
			if g.LastPath != "" {
				fmt.Fprintf(o.stdout, "    (as %s)\n", g.LastPath)
			}
			if len(out.Candidates) > 0 {
				fmt.Fprintln(o.stdout, "other candidates:")
				for _, c := range out.Candidates {
					fmt.Fprintf(o.stdout, "    %.2f  %s  (%s)\n", c.Score, o.shown(c.URI, c.Path), strings.Join(c.Reasons, ", "))
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
			fmt.Fprintf(o.stdout, "%2d  %.2f  %s  (%s)\n", i+1, c.Score, o.shown(c.URI, c.Path), strings.Join(c.Reasons, ", "))
		}
	}
	if out.Resolved == nil {
		return exitNothing
	}
	return exitFound
}

// symbolMatch is one symbols result: LSP's SymbolInformation with the
// envelope's path, uri and matchedIn beside it.
type symbolMatch struct {
	wire.SymbolInformation
	URI       string   `json:"uri"`
	KindName  string   `json:"kindName"`
	MatchedIn []string `json:"matchedIn"`
}

func (o *output) symbols(opts options, infos []wire.SymbolInformation, total int) int {
	ms := make([]symbolMatch, len(infos))
	for i, s := range infos {
		ms[i] = symbolMatch{SymbolInformation: s, URI: s.Location.URI, KindName: symbols.Kind(s.Kind).String(), MatchedIn: []string{"symbol"}}
	}
	mode := "fuzzy"
	if opts.exact {
		mode = "exact"
	}
	switch o.format {
	case "json":
		o.writeJSON(struct {
			envelope
			Matches []symbolMatch `json:"matches"`
		}{envelope{
			Meta: o.meta(), Success: true,
			Query:   &queryInfo{Text: opts.query, Mode: mode},
			Summary: &summary{TotalSearched: total, Matches: len(ms), Truncated: len(ms) == opts.limit},
		}, ms})
	case "jsonl":
		for _, m := range ms {
			o.writeJSON(m)
		}
	default:
		for _, m := range ms {
			at := m.Location.Range.Start
			if m.SelectionRange != nil {
				at = m.SelectionRange.Start // the name, where an editor puts the cursor
			}
			loc := fmt.Sprintf("%s:%d:%d", o.shown(m.Location.URI, m.Path), at.Line+1, at.Character+1)
			if o.quiet {
				fmt.Fprintln(o.stdout, loc)
				continue
			}
			qualified := m.Name
			if m.ContainerName != "" {
				qualified = m.ContainerName + "." + m.Name
			}
			fmt.Fprintf(o.stdout, "%-11s %s  %s\n", m.KindName, qualified, loc)
		}
		if len(ms) == 0 && !o.quiet {
			fmt.Fprintf(o.stderr, "wayfind %s: no symbol matches %q among %d\n", o.cmd, opts.query, total)
		}
	}
	if len(ms) == 0 {
		return exitNothing
	}
	return exitFound
}

// indexStats is what wayfind index reports.
type indexStats struct {
	Roots      []string `json:"roots"`
	Files      int      `json:"files"`
	Parseable  int      `json:"parseable"`
	Parsed     int      `json:"parsed"`
	FromCache  int      `json:"fromCache"`
	Symbols    int      `json:"symbols"`
	IndexMs    float64  `json:"indexMs"`
	CacheFiles []string `json:"cacheFiles"`
	// TextFiles counts the files whose text locate searches (their
	// filters cached beside the symbols).
	TextFiles int `json:"textFiles"`
}

func (o *output) index(ix *workspace.Index, st symbols.SyncStats, textFiles int, took time.Duration) int {
	stats := indexStats{Roots: ix.Roots, Files: ix.Len(), Parseable: st.Files, Parsed: st.Parsed,
		FromCache: st.FromCache, Symbols: st.Symbols, IndexMs: ms(took), CacheFiles: []string{}, TextFiles: textFiles}
	if dir, err := workspace.DefaultCacheDir(); err == nil {
		for _, r := range ix.Roots {
			stats.CacheFiles = append(stats.CacheFiles, symbols.OpenCache(dir, r, nil).File())
		}
	}
	switch o.format {
	case "json", "jsonl":
		o.writeJSON(envelope{Meta: o.meta(), Success: true, Result: stats})
	default:
		fmt.Fprintf(o.stdout, "%d files, %d in supported languages: %d parsed, %d from the cache; %d symbols, %d text files in %.0f ms\n",
			stats.Files, stats.Parseable, stats.Parsed, stats.FromCache, stats.Symbols, stats.TextFiles, stats.IndexMs)
		for _, c := range stats.CacheFiles {
			fmt.Fprintf(o.stdout, "cache: %s\n", c)
		}
	}
	return exitFound
}

func (o *output) locate(opts options, out wire.Locate, total int) int {
	switch o.format {
	case "json":
		o.writeJSON(envelope{
			Meta: o.meta(), Success: true,
			Query:   &queryInfo{Text: opts.query, Mode: "locate"},
			Summary: &summary{TotalSearched: total, Matches: len(out.Results)},
			Result:  out,
		})
	case "jsonl":
		for _, h := range out.Results {
			o.writeJSON(h)
		}
	default:
		for _, h := range out.Results {
			loc := o.shown(h.URI, h.Path)
			if h.Range != nil {
				loc += fmt.Sprintf(":%d", h.Range.Start.Line+1)
			}
			if o.quiet {
				fmt.Fprintln(o.stdout, loc)
				continue
			}
			fmt.Fprintf(o.stdout, "%.2f  %-7s  %s  (%s)\n", h.Score, h.Via, loc, h.Reason)
		}
		if !o.quiet {
			fmt.Fprintf(o.stderr, "wayfind locate: %q, confidence %.2f, tried %s\n", out.Term, out.Confidence, strings.Join(out.Strategies, ", "))
		}
	}
	if len(out.Results) == 0 {
		return exitNothing
	}
	return exitFound
}
