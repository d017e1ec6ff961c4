package service

import (
	"bytes"
	"context"
	"fmt"
	"strconv"

	"wayfind/rank"
	"wayfind/vcs"
	"wayfind/wire"
)

// maxLineCount bounds the file clampLine reads to count its lines.
const maxLineCount = 64 << 20

// clampLine keeps a :line suffix inside the resolved file: a line past its
// end (a stale trace, a file that shrank) becomes its last line, and the
// reasons say so ("line:clamped:N"). An empty file (a placeholder) keeps
// the line asked for: there is no last line to go to.
func clampLine(eng *rank.Engine, res *rank.ResolveResult) {
	if res.Line <= 0 || res.Resolved == nil {
		return
	}
	c := res.Resolved
	text, ok := readInside(eng.Index().Roots, c.Root, c.Path, maxLineCount)
	if !ok || len(text) == 0 {
		return
	}
	lines := bytes.Count(text, []byte{'\n'})
	if len(text) > 0 && text[len(text)-1] != '\n' {
		lines++
	}
	if res.Line <= max(lines, 1) {
		return
	}
	res.Line, res.Col = max(lines, 1), 0
	addReason(res, "line:clamped:"+strconv.Itoa(res.Line))
}

// followLine carries a query's line through the history when the path was
// an old path of the resolved file: the line as it was before the file
// left that path, mapped through git's diff to the file at HEAD. Reasons
// say which: line:mapped:N (the line unchanged since), line:near:N (it
// was edited; N is where its hunk is now), line:kept (git could not
// say: the line as written).
func followLine(ctx context.Context, eng *rank.Engine, res *rank.ResolveResult) {
	m := res.Moved
	if m == nil || res.Line <= 0 || res.Resolved == nil {
		return
	}
	h := eng.RepoHistory()
	reason := "line:kept"
	if lm, ok := vcs.MapLine(ctx, eng.Index().Roots[m.Root], h.Record(m.Root), m.From, m.Fate, res.Line); ok {
		if lm.Exact {
			reason = "line:mapped:" + strconv.Itoa(lm.Line)
		} else {
			reason = "line:near:" + strconv.Itoa(lm.Line)
		}
		if lm.Line != res.Line {
			res.Col = 0
		}
		res.Line = lm.Line
	}
	addReason(res, reason)
}

// addReason adds a reason to the resolved file, in the answer and among
// the candidates.
func addReason(res *rank.ResolveResult, reason string) {
	c := res.Resolved
	c.Reasons = append(c.Reasons, reason)
	for i := range res.Candidates {
		if res.Candidates[i].File == c.File && res.Candidates[i].Root == c.Root {
			res.Candidates[i].Reasons = append(res.Candidates[i].Reasons, reason)
		}
	}
}

// HistoryLine is what the repository's history did to an old path, in
// one line: `deleted in 3f2a1c9 (2024-05-01) "remove legacy loader"`.
func HistoryLine(what string, n *wire.HistoryNote) string {
	short := n.Commit
	if len(short) > 7 {
		short = short[:7]
	}
	return fmt.Sprintf("%s in %s (%s) %q", what, short, n.Date, n.Subject)
}
