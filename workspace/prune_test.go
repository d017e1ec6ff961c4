package workspace

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestPruneCaches: a root's caches go when their root is gone, when
// nobody wrote them for cacheAge, and (oldest first) past cacheBudget;
// the root being made, and live recent ones, stay.
func TestPruneCaches(t *testing.T) {
	base, roots := t.TempDir(), t.TempDir()
	now := time.Now()
	mk := func(name string, age time.Duration, size int) string {
		root := filepath.Join(roots, name)
		os.MkdirAll(root, 0o755)
		d := RootCacheDir(base, root)
		os.MkdirAll(d, 0o700)
		os.WriteFile(filepath.Join(d, rootMarker), []byte(root+"\n"), 0o600)
		f := filepath.Join(d, "files.idx")
		os.WriteFile(f, make([]byte, size), 0o600)
		for _, p := range []string{f, filepath.Join(d, rootMarker)} {
			os.Chtimes(p, now.Add(-age), now.Add(-age))
		}
		return d
	}
	fresh := mk("fresh", time.Hour, 10)
	old := mk("old", cacheAge+time.Hour, 10)
	gone := mk("gone", time.Hour, 10)
	os.RemoveAll(filepath.Join(roots, "gone"))
	keep := mk("keep", cacheAge*2, 10) // the one being made: never pruned
	other := filepath.Join(base, "hook")
	os.MkdirAll(other, 0o700)
	PruneCaches(base, keep, now)
	for d, want := range map[string]bool{fresh: true, old: false, gone: false, keep: true, other: true} {
		if _, err := os.Stat(d); (err == nil) != want {
			t.Errorf("%s: there %v, want %v", d, err == nil, want)
		}
	}
}

// Past the budget the least recently written go first.
func TestPruneCachesBudget(t *testing.T) {
	base, roots := t.TempDir(), t.TempDir()
	now := time.Now()
	var dirs []string
	for i, age := range []time.Duration{3 * time.Hour, time.Hour, 2 * time.Hour} {
		root := filepath.Join(roots, string(rune('a'+i)))
		os.MkdirAll(root, 0o755)
		d := RootCacheDir(base, root)
		os.MkdirAll(d, 0o700)
		os.WriteFile(filepath.Join(d, rootMarker), []byte(root+"\n"), 0o600)
		os.WriteFile(filepath.Join(d, "files.idx"), make([]byte, 100), 0o600)
		for _, p := range []string{filepath.Join(d, rootMarker), filepath.Join(d, "files.idx")} {
			os.Chtimes(p, now.Add(-age), now.Add(-age))
		}
		dirs = append(dirs, d)
	}
	pruneCaches(base, "", now, 350) // three of about 150 bytes: one must go
	for i, want := range []bool{false, true, true} {
		if _, err := os.Stat(dirs[i]); (err == nil) != want {
			t.Errorf("cache %d: there %v, want %v", i, err == nil, want)
		}
	}
}

// TestLockIndex: one process at a time holds a root's index lock; a
// second waits as long as its context allows, and gets it once the
// first lets go.
func TestLockIndex(t *testing.T) {
	cache, root := t.TempDir(), t.TempDir()
	unlock, ok := LockIndex(context.Background(), cache, []string{root})
	if !ok {
		t.Fatal("a fresh lock not taken")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, again := LockIndex(ctx, cache, []string{root}); again {
		t.Fatal("the lock was taken twice")
	}
	unlock()
	unlock2, ok := LockIndex(context.Background(), cache, []string{root})
	if !ok {
		t.Fatal("the lock not taken after it was let go")
	}
	unlock2()
	if u, ok := LockIndex(context.Background(), "-", []string{root}); !ok || u == nil {
		t.Fatal("with caches off there is nothing to wait for")
	}
}
