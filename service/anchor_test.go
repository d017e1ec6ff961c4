package service

import "testing"

func TestFindAnchor(t *testing.T) {
	md := "# Title\n\nintro\n\n## Getting started\ntext\n## Getting started\nagain\n\nSetext heading\n--------------\n<a name=\"legacy-anchor\"></a>\n### `API` *v2* {#custom}\n### [Linked](x.md) heading!\n"
	rst := "Title\n=====\n\n.. _my-label:\n\nSection Two: more\n-----------------\n"
	adoc := "= Doc\n\n[[explicit-id]]\n== First Section\n\n== Second one\n"
	html := "<html><h2 id=\"install\">Install</h2>\n<a name=\"old\">x</a>\n"
	cases := []struct {
		kind, text, fragment string
		line                 int
	}{
		{"md", md, "title", 1},
		{"md", md, "getting-started", 5},
		{"md", md, "getting-started-1", 7},
		{"md", md, "setext-heading", 10},
		{"md", md, "legacy-anchor", 12},
		{"md", md, "custom", 13},
		{"md", md, "linked-heading", 14},
		{"md", md, "Getting-Started", 5},
		{"md", md, "nowhere", 0},
		{"rst", rst, "title", 1},
		{"rst", rst, "my-label", 4},
		{"rst", rst, "section-two-more", 6},
		{"adoc", adoc, "explicit-id", 3},
		{"adoc", adoc, "_first_section", 4},
		{"adoc", adoc, "second-one", 6},
		{"html", html, "install", 1},
		{"html", html, "old", 2},
	}
	for _, c := range cases {
		if got := findAnchor(c.kind, c.text, c.fragment); got != c.line {
			t.Errorf("%s #%s: line %d, want %d", c.kind, c.fragment, got, c.line)
		}
	}
}
