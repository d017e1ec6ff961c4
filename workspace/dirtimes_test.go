package workspace

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestDirTimes: a poll reports the roots and directories whose time moved
// since the last, among those both saw, and at the first poll those whose
// time is not before the walk's start (less mtimeSlack).
func TestDirTimes(t *testing.T) {
	dir, stamp := stampedTree(t, "a/x.go", "a/b/y.go", "c/z.go")
	then := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	stamp(then, "", "a", "a/b", "c")
	ix := Build([]string{dir}, Options{})
	walked := then.Add(time.Hour)
	stamp(walked.Add(-mtimeSlack/2), "a/b") // changed while the walk ran
	var d DirTimes
	if got := d.Changed(ix, walked, nil); !slices.Equal(got, []string{filepath.Join(dir, "a/b")}) {
		t.Fatalf("first poll: %v, want a/b", got)
	}
	if got := d.Changed(ix, walked, nil); len(got) != 0 {
		t.Fatalf("second poll, nothing changed: %v", got)
	}
	write(t, filepath.Join(dir, "a/new.go"), "")
	os.Remove(filepath.Join(dir, "c/z.go"))
	stamp(then.Add(time.Minute), "a", "c") // distinct times, whatever the clock's grain
	next, _ := Update(ix, Options{}, []string{filepath.Join(dir, "a/new.go"), filepath.Join(dir, "c/z.go")})
	if got := d.Changed(next, walked, nil); !slices.Equal(got, []string{filepath.Join(dir, "a"), filepath.Join(dir, "c")}) {
		t.Fatalf("after a file made and one deleted: %v, want a and c", got)
	}
	os.Mkdir(filepath.Join(dir, "d"), 0o755)
	stamp(then.Add(2*time.Minute), "")
	if got := d.Changed(next, walked, nil); !slices.Equal(got, []string{dir}) {
		t.Fatalf("after a directory made at the top: %v, want the root", got)
	}
}

// stampedTree is a tree of empty files, and how to set the times of its
// directories (relative; "" the root).
func stampedTree(t *testing.T, files ...string) (dir string, stamp func(at time.Time, rels ...string)) {
	dir = t.TempDir()
	for _, p := range files {
		write(t, filepath.Join(dir, p), "")
	}
	return dir, func(at time.Time, rels ...string) {
		for _, rel := range rels {
			os.Chtimes(filepath.Join(dir, rel), at, at)
		}
	}
}

// TestDirTimesRebase: the last poll's stats, rebased onto an index that
// replaces the one they were taken of (a directory gone, one made), are
// held in the new index's strings and compared at the next poll — a
// directory changed since is reported, the new one is not (the change
// that brought it read it) — and the replaced index's base is let go.
func TestDirTimesRebase(t *testing.T) {
	dir, stamp := stampedTree(t, "a/x.go", "b/y.go", "gone/z.go")
	cache := t.TempDir()
	then := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	stamp(then, "", "a", "b", "gone")
	first := Build([]string{dir}, Options{})
	var d DirTimes
	d.Changed(first, then.Add(time.Hour), nil)
	os.RemoveAll(filepath.Join(dir, "gone"))
	write(t, filepath.Join(dir, "made/w.go"), "")
	stamp(then, "", "made")
	if err := SaveIndex(cache, Build([]string{dir}, Options{}), Options{}); err != nil {
		t.Fatal(err)
	}
	base, ok := LoadIndex(cache, []string{dir}, Options{})
	if !ok {
		t.Fatal("not loaded")
	}
	d.Rebase(base)
	if len(d.mapped) == 0 || !slices.Equal(d.mapped, base.Mapped()) {
		t.Fatalf("the stats hold %v, want the base's files %v", d.mapped, base.Mapped())
	}
	var held []string
	for _, f := range d.dirs {
		held = append(held, f.Path)
	}
	if !slices.Equal(held, []string{"a", "b"}) {
		t.Fatalf("rebased onto %v, want the directories both hold (a, b)", held)
	}
	stamp(then.Add(time.Minute), "b", "made")
	if got := d.Changed(base, then.Add(time.Hour), nil); !slices.Equal(got, []string{filepath.Join(dir, "b")}) {
		t.Errorf("the poll after the rebase: %v, want b", got)
	}
}

// TestEntryChanges: a directory whose time moved is narrowed to the
// entries that came, went or changed kind; skipped directories and
// unchanged entries are not reported, and a directory that cannot be
// read is reported itself.
func TestEntryChanges(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"r.go", "k", "a/x.go", "a/y.go", "a/deep/er/z.go", "node_modules/p/i.js"} {
		write(t, filepath.Join(dir, p), "")
	}
	os.Mkdir(filepath.Join(dir, "empty"), 0o755)
	ix := Build([]string{dir}, Options{})
	if len(ix.Skipped) == 0 {
		t.Fatal("node_modules was not skipped")
	}
	write(t, filepath.Join(dir, "new.go"), "")
	os.Remove(filepath.Join(dir, "k"))
	write(t, filepath.Join(dir, "k", "now-a-dir.go"), "")
	os.Remove(filepath.Join(dir, "a/x.go"))
	gone := filepath.Join(dir, "vanished")
	got := EntryChanges(ix, []string{dir, filepath.Join(dir, "a"), gone})
	slices.Sort(got)
	want := []string{filepath.Join(dir, "a/x.go"), filepath.Join(dir, "k"), filepath.Join(dir, "new.go"), gone}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("entry changes %v, want %v", got, want)
	}
	// Update applies them as it would the directories' walks.
	next, _ := Update(ix, Options{}, got)
	walked := Build([]string{dir}, Options{})
	if !SameFiles(next, walked) {
		t.Errorf("updated by entries %s, walked %s", paths(next), paths(walked))
	}
}
