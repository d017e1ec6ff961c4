package symbols

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"wayfind/workspace"
)

// TestLookup: the cache's name and member buckets answer where a name is
// defined without loading the table, and follow files added, changed and
// removed — whether the server's Sync or Lookup itself wrote the cache.
func TestLookup(t *testing.T) {
	dir := writeTree(t, cacheTree)
	cache := t.TempDir()
	roots, _ := workspace.CleanRoots([]string{dir})
	lookup := func() *Lookup {
		t.Helper()
		ix := workspace.Build(roots, workspace.Options{})
		l, _, err := NewIndexer(IndexerOptions{CacheDir: cache}).Lookup(context.Background(), ix, workspace.StatFiles(ix, nil))
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	where := func(refs []Ref) string {
		var out []string
		for _, r := range refs {
			rel, _ := filepath.Rel(dir, r.File)
			out = append(out, filepath.ToSlash(rel)+":"+r.Symbol.Name)
		}
		sort.Strings(out)
		return strings.Join(out, " ")
	}
	// Written by a server's pass first.
	ix := workspace.Build(roots, workspace.Options{})
	if _, _, err := NewIndexer(IndexerOptions{CacheDir: cache}).Sync(context.Background(), ix); err != nil {
		t.Fatal(err)
	}
	l := lookup()
	if got := where(l.Named("commandrouter")); got != "router.h:CommandRouter" {
		t.Errorf("Named(commandrouter) = %q", got)
	}
	if got := where(l.Members("commandrouter")); got != "router.cpp:route router.h:route" {
		t.Errorf("Members(commandrouter) = %q", got)
	}
	if got := where(l.Named("nosuchname")); got != "" {
		t.Errorf("Named(nosuchname) = %q", got)
	}
	l.Close()
	// A file changes (another name), one goes, one comes.
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {}\n\ntype Client struct{}\n"), 0o644)
	os.Remove(filepath.Join(dir, "lib/util.py"))
	os.WriteFile(filepath.Join(dir, "lib/more.py"), []byte("def helper():\n    pass\n\nclass Server:\n    pass\n"), 0o644)
	l = lookup()
	defer l.Close()
	for key, want := range map[string]string{"server": "lib/more.py:Server", "client": "main.go:Client", "helper": "lib/more.py:helper", "main": "main.go:main"} {
		if got := where(l.Named(key)); got != want {
			t.Errorf("after edits, Named(%s) = %q, want %q", key, got, want)
		}
	}
}
