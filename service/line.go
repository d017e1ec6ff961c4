package service

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"

	"wayfind/rank"
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
	abs := filepath.Join(eng.Index().Roots[c.Root], filepath.FromSlash(c.Path))
	st, err := os.Stat(abs)
	if err != nil || st.Size() == 0 || st.Size() > maxLineCount {
		return
	}
	text, err := os.ReadFile(abs)
	if err != nil {
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
	reason := "line:clamped:" + strconv.Itoa(res.Line)
	c.Reasons = append(c.Reasons, reason)
	for i := range res.Candidates {
		if res.Candidates[i].File == c.File && res.Candidates[i].Root == c.Root {
			res.Candidates[i].Reasons = append(res.Candidates[i].Reasons, reason)
		}
	}
}
