package vcs

import (
	"bufio"
	"bytes"
	"context"
	"strconv"
	"strings"
)

// LineMap is a line of an old path carried to today's file.
type LineMap struct {
	Line int // 1-based, in today's file
	// Exact: the line itself is unchanged since; otherwise it was edited
	// or removed and Line is where its hunk is now.
	Exact bool
}

// MapLine carries line (1-based) of old, as it was just before commit
// left it behind, to today's path at HEAD, through git's diff of the two
// blobs — what `git blame --reverse` follows, one step. ok is false when
// git cannot say (a shallow history without that commit's parent, a file
// edited beyond recognition has still a mapping: its hunk).
func MapLine(ctx context.Context, root string, rec *Record, old string, f Fate, line int) (LineMap, bool) {
	if rec == nil || f.Deleted || line <= 0 {
		return LineMap{}, false
	}
	before := f.Commit.Hash + "^:" + rec.Prefix + old
	after := "HEAD:" + rec.Prefix + f.Path
	out, err := git(ctx, root, "diff", "-U0", "--no-color", "--no-ext-diff", before, after).Output()
	if err != nil {
		return LineMap{}, false
	}
	return mapThroughHunks(out, line), true
}

// mapThroughHunks follows line through a unified diff with no context.
func mapThroughHunks(diff []byte, line int) LineMap {
	shift := 0
	sc := bufio.NewScanner(bytes.NewReader(diff))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		h := sc.Text()
		if !strings.HasPrefix(h, "@@ ") {
			continue
		}
		oldStart, oldLen, newStart, newLen, ok := parseHunk(h)
		if !ok {
			continue
		}
		// A hunk removing nothing inserts after oldStart.
		if oldLen == 0 {
			if line > oldStart {
				shift += newLen
				continue
			}
			break
		}
		if line < oldStart {
			break
		}
		if line < oldStart+oldLen {
			// The line itself changed: its hunk's start today (after
			// the place where lines were only removed).
			if newLen == 0 {
				newStart++
			}
			return LineMap{Line: max(newStart, 1), Exact: false}
		}
		shift += newLen - oldLen
	}
	return LineMap{Line: max(line+shift, 1), Exact: true}
}

// parseHunk reads "@@ -a[,b] +c[,d] @@".
func parseHunk(h string) (a, b, c, d int, ok bool) {
	f := strings.Fields(h)
	if len(f) < 3 || !strings.HasPrefix(f[1], "-") || !strings.HasPrefix(f[2], "+") {
		return 0, 0, 0, 0, false
	}
	a, b, ok1 := rangeOf(f[1][1:])
	c, d, ok2 := rangeOf(f[2][1:])
	return a, b, c, d, ok1 && ok2
}

func rangeOf(s string) (start, n int, ok bool) {
	st, ln, has := strings.Cut(s, ",")
	start, err := strconv.Atoi(st)
	if err != nil {
		return 0, 0, false
	}
	n = 1
	if has {
		if n, err = strconv.Atoi(ln); err != nil {
			return 0, 0, false
		}
	}
	return start, n, true
}
