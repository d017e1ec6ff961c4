package content

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"wayfind/workspace"
)

// writeTree writes files (relative path → text) under a new directory
// and returns its workspace index.
func writeTree(t testing.TB, files map[string]string) *workspace.Index {
	t.Helper()
	dir := t.TempDir()
	for p, text := range files {
		full := filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	roots, _ := workspace.CleanRoots([]string{dir})
	return workspace.Build(roots, workspace.Options{})
}

// relPaths are the hits' files relative to ix's root, sorted.
func relPaths(ix *workspace.Index, hits []Hit) []string {
	var got []string
	for _, h := range hits {
		rel, _ := filepath.Rel(ix.Roots[0], h.File)
		got = append(got, filepath.ToSlash(rel))
	}
	sort.Strings(got)
	return got
}

// searchTree indexes files and answers q with the relative paths that
// hold it, in order.
func searchTree(t *testing.T, files map[string]string, q Query) ([]Hit, []string) {
	t.Helper()
	ix := writeTree(t, files)
	var x Indexer
	idx, err := x.Sync(context.Background(), ix)
	if err != nil {
		t.Fatal(err)
	}
	hits, _, err := idx.Search(context.Background(), q, SearchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return hits, relPaths(ix, hits)
}

func TestSearchPhrase(t *testing.T) {
	files := map[string]string{
		"a.go":   "package a\n\n// reports whether the byte could be the first\n",
		"b.go":   "package b\n\n// Reports whether the byte could be anything\n",
		"c.md":   "reports whether the\nbyte could be — split across lines\n",
		"d.txt":  "REPORTS WHETHER THE BYTE COULD BE\n",
		"e.go":   "x := wildcard\n",
		"f.go":   "wild bool\n",
		"g.py":   "my_wild = 1\n",
		"h.json": "{\"wild\": true}\n",
	}
	cases := []struct {
		q    Query
		want string
	}{
		// As written first: the other cases' files are left out.
		{Query{Phrase: "reports whether the byte could be"}, "a.go"},
		{Query{Phrase: "Reports whether the byte could be"}, "b.go"},
		// In another case only when no file holds it as written.
		{Query{Phrase: "reports Whether The byte could be"}, "a.go b.go d.txt"},
		{Query{Phrase: "whether the byte could"}, "a.go b.go"},
		// Whole words: not inside another identifier.
		{Query{Phrase: "wild", Whole: true}, "f.go h.json"},
		// Not whole, a part of an identifier counts ("my_wild"); inside a
		// word the index does not know ("wildcard") it is not found: the
		// filters hold words and their parts, not every substring.
		{Query{Phrase: "wild"}, "f.go g.py h.json"},
		{Query{Words: []string{"my", "wild"}, Whole: true}, "g.py"},
		{Query{Phrase: "no such text anywhere"}, ""},
	}
	for _, c := range cases {
		hits, got := searchTree(t, files, c.q)
		if strings.Join(got, " ") != c.want {
			t.Errorf("%+v: %v, want %q", c.q, got, c.want)
		}
		for _, h := range hits {
			if c.q.Phrase != "" && len(h.Matches) == 0 {
				t.Errorf("%+v: a hit without its matches: %+v", c.q, h)
			}
		}
	}
}

// TestSearchLargeFile: a file far over the symbol pass's 1 MiB limit is
// indexed and searched a chunk at a time, its lines counted across chunks.
func TestSearchLargeFile(t *testing.T) {
	var b strings.Builder
	for b.Len() < 3*chunkSize {
		b.WriteString("func filler(x int) int { return x * 2 } // nothing to see\n")
	}
	lines := strings.Count(b.String(), "\n")
	b.WriteString("func rewriteValueAMD64_OpAMD64SETG(v *Value) bool { // the needle\n")
	hits, got := searchTree(t, map[string]string{"big.go": b.String(), "small.go": "package small\n"},
		Query{Phrase: "rewriteValueAMD64_OpAMD64SETG", Whole: true})
	if strings.Join(got, " ") != "big.go" || hits[0].Line != lines || hits[0].Col != 5 || !strings.Contains(hits[0].Text, "the needle") {
		t.Fatalf("large file: %v %+v", got, hits)
	}
}

func TestPattern(t *testing.T) {
	cases := []struct {
		parts []string
		seps  bool
		text  string
		want  int
	}{
		{[]string{"cursor", "binary"}, true, "cursor_binary CursorBinary cursor-binary cursor binary cursor  binary", 4},
		{[]string{"cursor", "binary"}, false, "cursor_binary cursorbinary", 1},
		{[]string{"aa"}, false, "aaaa", 2},
		{[]string{"a", "a"}, true, "a_a_a_a", 2},
	}
	for _, c := range cases {
		p := pattern{seps: c.seps}
		for _, w := range c.parts {
			p.parts = append(p.parts, []byte(w))
		}
		if got := len(p.findAll(lowerASCII(nil, []byte(c.text)), 100)); got != c.want {
			t.Errorf("%v in %q: %d matches, want %d", c.parts, c.text, got, c.want)
		}
	}
}
