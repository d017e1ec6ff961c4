package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLinesWithin: the whole lines of a file that fit a budget from a
// line on, and whether they reach its end — a line longer than the
// reader's buffer counted once.
func TestLinesWithin(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ten := write("ten", strings.Repeat("123456789\n", 10)) // 10 lines of 10 bytes
	long := write("long", strings.Repeat("x", 10000)+"\nend\n")
	unended := write("unended", "a\nb")
	for _, c := range []struct {
		name         string
		path         string
		from, budget int
		lines        int
		toEnd        bool
	}{
		{"all of it fits", ten, 1, 100, 10, true},
		{"a byte short: the last line left out", ten, 1, 99, 9, false},
		{"from the 4th line", ten, 4, 70, 7, true},
		{"from the 4th line, 30 bytes", ten, 4, 35, 3, false},
		{"past its end", ten, 20, 10, 0, true},
		{"a line longer than the buffer, skipped", long, 2, 4, 1, true},
		{"a line longer than the budget", long, 1, 100, 0, false},
		{"a last line with no newline", unended, 1, 10, 1, true},
		{"no file", filepath.Join(dir, "none"), 1, 10, 0, true},
	} {
		lines, toEnd := hookDisk{}.LinesWithin(c.path, c.from, c.budget)
		if lines != c.lines || toEnd != c.toEnd {
			t.Errorf("%s: %d lines, to the end %v; want %d, %v", c.name, lines, toEnd, c.lines, c.toEnd)
		}
	}
}
