package content

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"unsafe"

	"wayfind/workspace"
)

func TestWords(t *testing.T) {
	cases := map[string]string{
		"cursor_binary":         "cursor binary cursorbinary",
		"CommandRouter":         "command commandrouter router",
		"parseHTTPRequest":      "parse parsehttp http httprequest request parsehttprequest",
		"cursor-binary x":       "cursor binary cursorbinary x binaryx",
		"i18n":                  "i18n",
		"  _private  ":          "private",
		"ÜberCase café":         "übercase übercasecafé café",
		"see cursor binary now": "see cursor seecursor binary cursorbinary now binarynow",
		"a  b, c":               "a b c",
	}
	for in, want := range cases {
		var got []string
		Words([]byte(in), func(w []byte) { got = append(got, string(w)) })
		sort.Strings(got)
		w := strings.Fields(want)
		sort.Strings(w)
		if strings.Join(got, " ") != strings.Join(w, " ") {
			t.Errorf("Words(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSearch(t *testing.T) {
	ix := writeTree(t, map[string]string{
		"docs/notes.md":     "# Notes\n\nThe `cursor_binary` tool ships separately.\n",
		"docs/other.md":     "A cursor and a binary, far apart: cursor ... binary.\n",
		"src/a.go":          "package a\n\n// uses CursorBinary\nvar x = 1\n",
		"src/b.txt":         "cursor-binary and Cursor Binary and cursorbinary\n",
		"src/unrelated.txt": strings.Repeat("nothing to see here\n", 100),
		"bin/blob.bin":      "cursor_binary\x00\x01",
	})
	dir, roots := ix.Roots[0], ix.Roots
	var x Indexer
	idx, err := x.Sync(context.Background(), ix)
	if err != nil {
		t.Fatal(err)
	}
	if idx.Len() != 5 { // the binary file is left out
		t.Fatalf("indexed %d files", idx.Len())
	}
	hits, st, err := idx.Search(context.Background(), Query{Words: []string{"cursor", "binary"}}, SearchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := relPaths(ix, hits)
	if strings.Join(got, " ") != "docs/notes.md src/a.go src/b.txt" {
		t.Errorf("hits %v (stats %+v)", got, st)
	}
	for _, h := range hits {
		if strings.HasSuffix(h.File, "notes.md") && (h.Line != 2 || h.Col != 5 || h.Count != 1 || !strings.Contains(h.Text, "cursor_binary")) {
			t.Errorf("notes.md hit: %+v", h)
		}
		if strings.HasSuffix(h.File, "b.txt") && h.Count != 3 {
			t.Errorf("b.txt count: %+v", h)
		}
	}
	// Keep confines the search; a changed file is re-read on refresh.
	keepNone := func(string) bool { return false }
	if hits, _, _ := idx.Search(context.Background(), Query{Words: []string{"cursor", "binary"}}, SearchOptions{Keep: keepNone}); len(hits) != 0 {
		t.Errorf("Keep ignored: %v", hits)
	}
	os.WriteFile(filepath.Join(dir, "src/unrelated.txt"), []byte("now about cursorBinary\n"), 0o644)
	idx, _ = x.Refresh(context.Background(), ix, []string{filepath.Join(roots[0], "src/unrelated.txt")})
	hits, _, _ = idx.Search(context.Background(), Query{Words: []string{"cursor", "binary"}}, SearchOptions{})
	if len(hits) != 4 {
		t.Errorf("after refresh: %d hits", len(hits))
	}
	// Re-checking every file when none changed (a poll) keeps the index.
	if again, err := x.Refresh(context.Background(), ix, roots); err != nil || again != idx {
		t.Errorf("a refresh of unchanged files made a new index (%v)", err)
	}
	// Bounds: one hit at most.
	hits, st, _ = idx.Search(context.Background(), Query{Words: []string{"cursor", "binary"}}, SearchOptions{MaxHits: 1})
	if len(hits) != 1 || !st.Truncated {
		t.Errorf("MaxHits: %d hits, %+v", len(hits), st)
	}
}

// TestRepoint: the index's paths pointed at another index's strings of
// the same files, its filters shared, its answers the same.
func TestRepoint(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.go", "b/c.go", "b/d.txt"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("package cursor_binary\n"), 0o644)
	}
	roots, _ := workspace.CleanRoots([]string{dir})
	first, second := workspace.Build(roots, workspace.Options{}), workspace.Build(roots, workspace.Options{})
	x := &Indexer{CacheDir: "-"}
	before, err := x.Sync(context.Background(), first)
	if err != nil {
		t.Fatal(err)
	}
	after := x.Repoint(second)
	afterPaths, _ := contents(after)
	beforePaths, _ := contents(before)
	shared := after.lookup(afterPaths[0]) == before.lookup(beforePaths[0])
	if !slices.Equal(afterPaths, beforePaths) || !shared || x.Index() != after {
		t.Fatalf("repointed %q, was %q (filters shared: %v)", afterPaths, beforePaths, shared)
	}
	for i, p := range afterPaths {
		root, rel, _ := second.RootOf(p)
		if unsafe.StringData(p) != unsafe.StringData(second.AbsAt(second.Lookup(root, rel))) {
			t.Errorf("%s: not the second index's string", p)
		}
		if unsafe.StringData(p) == unsafe.StringData(beforePaths[i]) {
			t.Errorf("%s: still the first index's string", p)
		}
	}
}
