package rank

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"wayfind/vcs/vcstest"
)

// TestActivityScale pins activity's exact values: none without a commit,
// half at activityHalf commits, saturating above.
func TestActivityScale(t *testing.T) {
	for _, c := range []struct {
		n    int
		want float64
	}{{0, 0}, {activityHalf, 0.5}, {3 * activityHalf, 0.75}, {99 * activityHalf, 0.99}} {
		if got := activityOf(c.n); got != c.want {
			t.Errorf("activity of %v commits: %v, want %v", c.n, got, c.want)
		}
	}
}

// TestActivityOrdersTies: among copies of a name nothing else separates,
// the one the history changes most comes first, without deciding; a copy
// clearly nearer where the user works stays ahead of a busier one; and a
// better reading of the name is never overturned by activity.
func TestActivityOrdersTies(t *testing.T) {
	r := vcstest.New(t)
	for _, p := range []string{"docs/de/guide.md", "docs/ja/guide.md", "docs/ru/guide.md",
		"docs/ja/intro.md", "app/Widget.go", "lib/widget.go"} {
		r.Write(p, vcstest.Text(p, 20))
	}
	r.Commit("start")
	for i := range 6 { // the Japanese guide and the lower-case widget are where the work is
		r.Write("docs/ja/guide.md", vcstest.Text(fmt.Sprint("ja", i), 20))
		r.Write("lib/widget.go", vcstest.Text(fmt.Sprint("widget", i), 20))
		r.Commit("work")
	}
	roots, without, with := historyEngines(t, r.Dir)
	if got, want := with.activity(with.mustID(t, "docs/ja/guide.md")), activityOf(7); got != want {
		t.Errorf("activity of a file 7 commits touched: %v, want %v", got, want)
	}
	ru := []Visit{{File: filepath.Join(roots[0], "docs/ru/guide.md"), Weight: 1}}
	cases := []struct {
		name, query string
		e           *Engine
		history     []Visit
		first       string
		class       Class
	}{
		{"no history: path order", "guide.md", without, []Visit{}, "docs/de/guide.md", ClassTie},
		{"the busiest copy first", "guide.md", with, []Visit{}, "docs/ja/guide.md", ClassTie},
		{"a copy clearly nearer stays first", "guide.md", with, ru, "docs/ru/guide.md", ClassNearerLead},
		{"exact case over a busier copy", "Widget.go", with, []Visit{}, "app/Widget.go", ClassLexical},
	}
	for _, c := range cases {
		res, err := c.e.Resolve(context.Background(), ResolveRequest{Path: c.query, History: c.history})
		if err != nil {
			t.Fatal(err)
		}
		if firstPath(res) != c.first || res.Class() != c.class || res.Resolved != nil {
			t.Errorf("%s: first %s (%s, resolved %v), want %s (%s, not resolved); candidates %+v",
				c.name, firstPath(res), res.Class(), res.Resolved != nil, c.first, c.class, res.Candidates)
		}
		fr, err := c.e.Find(context.Background(), FindRequest{Query: c.query, History: c.history})
		if err != nil {
			t.Fatal(err)
		}
		if len(fr.Matches) == 0 || fr.Matches[0].Path != c.first {
			t.Errorf("%s: find's first %+v, want %s", c.name, fr.Matches, c.first)
		}
	}
}

func (e *Engine) mustID(t *testing.T, rel string) int32 {
	t.Helper()
	id, ok := e.fileID(0, rel)
	if !ok {
		t.Fatalf("%s is not a file of the engine", rel)
	}
	return id
}
