package base

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"wayfind/rank"
	"wayfind/workspace"
)

// treeOf is a new directory holding the files named (empty), by their
// slash-separated paths in it.
func treeOf(t *testing.T, files ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := errors.Join(os.MkdirAll(filepath.Dir(p), 0o755), os.WriteFile(p, nil, 0o644)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestOpenPastAnUnreadableEngine: a saved engine that cannot be read (of
// another version, or damaged) is built again, by a front end that gave
// no log as by one that did.
func TestOpenPastAnUnreadableEngine(t *testing.T) {
	for _, c := range []struct {
		name string
		logf func(string, ...any)
	}{{"no log", nil}, {"a log", t.Logf}} {
		dir, cache := treeOf(t, "src/a.go"), t.TempDir()
		opt := workspace.Options{Logf: c.logf}
		if o := Open(cache, []string{dir}, opt, OpenOptions{WriteBase: true, Wait: time.Second}); !o.Mapped {
			t.Fatalf("%s: the first open wrote no base: %+v", c.name, o)
		}
		seg := filepath.Join(workspace.RootCacheDir(cache, dir), engineName)
		if err := os.WriteFile(seg, []byte("not an engine"), 0o600); err != nil {
			t.Fatal(err)
		}
		o := Open(cache, []string{dir}, opt, OpenOptions{Wait: time.Second})
		if o.Engine == nil || o.Engine.Len() != 1 {
			t.Errorf("%s: opened %+v", c.name, o)
		}
	}
}

// TestWriteKeepsTheIndexOpenSaved: a compaction writes the engine
// beside the index Open saved for the same snapshot instead of writing
// that index again — and writes it when it was saved at another time or
// holds other files (another process saved the tree since).
func TestWriteKeepsTheIndexOpenSaved(t *testing.T) {
	for _, c := range []struct {
		name      string
		known     bool // the snapshot knows when its index was saved
		otherSave bool // another index of the roots was saved since, at that time
		rewritten bool
	}{
		{"saved by Open", true, false, false},
		{"not known to be saved", false, false, true},
		{"saved over since", true, true, true},
	} {
		dir, cache := treeOf(t, "src/a.go", "src/b.go"), t.TempDir()
		roots := []string{dir}
		ix := workspace.Build(roots, workspace.Options{})
		if err := workspace.SaveIndex(cache, ix, workspace.Options{}); err != nil {
			t.Fatal(err)
		}
		at, _ := workspace.SavedAt(cache, roots)
		var known time.Time
		if c.known {
			known = at
		}
		if c.otherSave {
			// Fewer files, saved with the very same time.
			fewer := workspace.NewIndex(roots, ix.Files()[:1])
			fewer.Dirs = ix.Dirs
			if err := workspace.SaveIndex(cache, fewer, workspace.Options{}); err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(workspace.RootCacheDir(cache, dir), "files.idx")
			if err := os.Chtimes(p, at, at); err != nil {
				t.Fatal(err)
			}
		}
		time.Sleep(10 * time.Millisecond) // a save now has another time
		got, eng, err := Write(cache, ix, rank.New(ix), workspace.Options{}, known)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		after, _ := workspace.SavedAt(cache, roots)
		if rewritten := !after.Equal(at); rewritten != c.rewritten {
			t.Errorf("%s: index written again %v, want %v", c.name, rewritten, c.rewritten)
		}
		if len(got.SavedIDs()) == 0 || !slices.Equal(got.Files(), ix.Files()) || eng.Len() != ix.Len() {
			t.Errorf("%s: the base serves %v (engine of %d), want %v", c.name, got.Files(), eng.Len(), ix.Files())
		}
	}
}

// TestOpenServesTheWalkMapped: a server's Open of roots with no base
// walks them and serves the index from where it saved it, mapped (not
// the walk's own strings of every path), answering as the walk does; a
// one-shot process's Open writes the whole base.
func TestOpenServesTheWalkMapped(t *testing.T) {
	for _, c := range []struct {
		name      string
		writeBase bool
	}{{"server", false}, {"one-shot", true}} {
		dir, cache := treeOf(t, "src/a.go", "src/b.go"), t.TempDir()
		roots, _ := workspace.CleanRoots([]string{dir})
		o := Open(cache, roots, workspace.Options{}, OpenOptions{Wait: time.Second, WriteBase: c.writeBase})
		if o.Saved || o.SaveErr != nil {
			t.Fatalf("%s: opened %+v", c.name, o)
		}
		if len(o.Index.SavedIDs()) == 0 {
			t.Errorf("%s: the walk's index is served from the heap, not from where it was saved", c.name)
		}
		walked := workspace.Build(roots, workspace.Options{})
		if !workspace.SameFiles(o.Index, walked) {
			t.Errorf("%s: the index served holds other files than the walk's", c.name)
		}
		if !o.Engine.Index().Contains(0, "src/b.go") {
			t.Errorf("%s: the engine does not answer for src/b.go", c.name)
		}
	}
}
