package workspace

import (
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

// TestRestat: a poll reports the files whose size or time changed since
// the last, among those both saw — a size change at the same time too —
// and the first poll, with nothing to compare, reports none.
func TestRestat(t *testing.T) {
	dir := t.TempDir()
	then := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, name := range []string{"same.go", "grown.go", "touched.go", "gone.go", "sized.go"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("0123456789"), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, then, then)
	}
	index := func() *Index { return Build([]string{dir}, Options{}) }
	var r Restat
	if changed, ok := r.Changed(index(), nil); ok || len(changed) != 0 {
		t.Fatalf("first poll: %v %v, want nothing and not ok", changed, ok)
	}
	// Seeded with a full pass's stats, the first poll compares with them.
	var seeded Restat
	ix := index()
	seeded.Seed(ix, StatFiles(ix, nil))
	os.Chtimes(filepath.Join(dir, "same.go"), then, then.Add(time.Second))
	if changed, ok := seeded.Changed(index(), nil); !ok || !slices.Equal(changed, []string{filepath.Join(dir, "same.go")}) {
		t.Fatalf("first poll after a seed: %v %v, want same.go", changed, ok)
	}
	os.Chtimes(filepath.Join(dir, "same.go"), then, then)
	r.Changed(index(), nil)
	os.WriteFile(filepath.Join(dir, "grown.go"), []byte("0123456789 and more"), 0o644)
	os.Chtimes(filepath.Join(dir, "touched.go"), then, then.Add(time.Second))
	os.WriteFile(filepath.Join(dir, "sized.go"), []byte("01234567890"), 0o644) // one byte more, its time put back
	os.Chtimes(filepath.Join(dir, "sized.go"), then, then)
	os.Remove(filepath.Join(dir, "gone.go"))
	os.WriteFile(filepath.Join(dir, "new.go"), nil, 0o644)
	changed, ok := r.Changed(index(), nil)
	slices.Sort(changed)
	want := []string{filepath.Join(dir, "grown.go"), filepath.Join(dir, "sized.go"), filepath.Join(dir, "touched.go")}
	if !ok || !slices.Equal(changed, want) {
		t.Errorf("second poll: %v %v, want %v", changed, ok, want)
	}
	var paced atomic.Int32 // pace is called from each stat goroutine
	if changed, ok := r.Changed(index(), func() { paced.Add(1) }); !ok || len(changed) != 0 || paced.Load() == 0 {
		t.Errorf("third poll, nothing changed: %v %v, paced %d times", changed, ok, paced.Load())
	}
}

// TestRestatRebase: stats taken of one index align with another in its
// place — a base of the same files (a compaction's), or an index of other
// files (a change applied) — and the index they were taken of is let go:
// the next poll still reports a file changed since, and not a file new
// to the index rebased onto, nor one the first index did not hold.
func TestRestatRebase(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	for _, name := range []string{"a.go", "b.go", "gone.go"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	walked := Build([]string{dir}, Options{})
	var r Restat
	r.Seed(walked, StatFiles(walked, nil))
	os.Remove(filepath.Join(dir, "gone.go"))
	os.WriteFile(filepath.Join(dir, "c.go"), nil, 0o644)
	changed := Build([]string{dir}, Options{})
	r.Rebase(changed) // other files
	if r.ix != changed {
		t.Fatal("not rebased onto an index of other files")
	}
	if err := SaveIndex(cache, changed, Options{}); err != nil {
		t.Fatal(err)
	}
	loaded, ok := LoadIndex(cache, []string{dir}, Options{})
	if !ok {
		t.Fatal("not loaded")
	}
	r.Rebase(loaded)
	if r.ix != loaded {
		t.Fatal("not rebased onto a base of the same files")
	}
	later := time.Now().Add(time.Hour)
	os.Chtimes(filepath.Join(dir, "b.go"), later, later)
	os.WriteFile(filepath.Join(dir, "c.go"), []byte("written since"), 0o644)
	if changed, ok := r.Changed(loaded, nil); !ok || !slices.Equal(changed, []string{filepath.Join(dir, "b.go")}) {
		t.Errorf("the poll after the rebases: %v %v; want b.go (c.go was not stat'ed before)", changed, ok)
	}
	os.WriteFile(filepath.Join(dir, "c.go"), []byte("written again, longer"), 0o644)
	if changed, ok := r.Changed(loaded, nil); !ok || !slices.Equal(changed, []string{filepath.Join(dir, "c.go")}) {
		t.Errorf("the next poll: %v %v; want c.go", changed, ok)
	}
}

// TestStatBytes: a path stat'ed where it lies in a buffer reads as
// statPath reads it — a file, a directory, a link followed, a missing
// path — and the paths a poll writes (appendRootPrefix, appendFromSlash)
// are the ones it would have made.
func TestStatBytes(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.go")
	if err := os.WriteFile(file, []byte("package a"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.go")
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{file, dir, link, filepath.Join(dir, "missing.go")} {
		got, want := statBytes(append([]byte(p), 0)), statPath(p)
		if got != want {
			t.Errorf("%s: statBytes %+v, statPath %+v", p, got, want)
		}
	}
	if st := statBytes(append([]byte(link), 0)); st.Size != int64(len("package a")) {
		t.Errorf("a link not followed: %+v", st)
	}
	for _, root := range []string{dir, string(filepath.Separator)} {
		if got, want := string(appendFromSlash(appendRootPrefix(nil, root), "x/y.go")), RootPrefix(root)+filepath.FromSlash("x/y.go"); got != want {
			t.Errorf("root %s: %q, want %q", root, got, want)
		}
	}
}
