package session

import (
	"path/filepath"
	"testing"
	"time"

	"wayfind/symbols"
	"wayfind/workspace"
)

// TestReleaseDue: the segments' pages are dropped once after requests,
// when none runs and the last ended mappedIdle ago.
func TestReleaseDue(t *testing.T) {
	now := time.Unix(1000, 0)
	ended := now.Add(-mappedIdle).UnixNano()
	for _, c := range []struct {
		name           string
		last, released int64
		active         int32
		want           bool
	}{
		{"idle long enough", ended, 0, 0, true},
		{"dropped since", ended, ended, 0, false},
		{"a request runs", ended, 0, 1, false},
		{"ended just under mappedIdle ago", ended + 1, 0, 0, false},
		{"no request yet", 0, 0, 0, false},
	} {
		if got := releaseDue(c.last, c.released, c.active, now); got != c.want {
			t.Errorf("%s: %v", c.name, got)
		}
	}
}

// TestSealApplied: a change applied leaves the index and engine on the
// heap; once it has stood mappedIdle with nothing asked or pending
// (sealDue) it is served from segments again, still answering for the
// file added, and the saved index holds that file for the next server.
func TestSealApplied(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"src/a.go", "src/server/http.go", "docs/readme.md"} {
		write(t, filepath.Join(dir, filepath.FromSlash(p)))
	}
	var logs logLines
	cache := t.TempDir()
	s := New(Options{Symbols: symbols.IndexerOptions{CacheDir: cache}, NoSymbols: true, NoContent: true, Logf: logs.add})
	defer s.Close()
	s.SetRoots([]string{dir})
	if !logs.wait("serving 3 files from their segments") {
		t.Fatalf("the first index was not sealed: %q", logs.all())
	}
	write(t, filepath.Join(dir, "src", "added.go"))
	s.Changed([]string{filepath.Join(dir, "src", "added.go")})
	if !has(t, s, "src/added.go") {
		t.Fatal("the file added is not found")
	}
	applied := s.snap.Load()
	if applied.sealed {
		t.Fatal("a change applied was served sealed at once")
	}
	if s.sealDue(applied, time.Now()) {
		t.Error("sealing was due right after the change")
	}
	later := time.Now().Add(mappedIdle)
	if !s.sealDue(applied, later) {
		t.Fatal("sealing was not due once the change had stood mappedIdle")
	}
	if !s.sealApplied(applied) {
		t.Fatal("sealApplied reports it did not seal")
	}
	if cur := s.snap.Load(); !cur.sealed || !has(t, s, "src/added.go") {
		t.Fatalf("not sealed, or the file added is lost: %+v", cur)
	}
	if s.sealDue(s.snap.Load(), later) {
		t.Error("sealing is due for a sealed snapshot")
	}
	ix, ok := workspace.LoadIndex(cache, []string{dir}, workspace.Options{})
	if !ok || ix.Lookup(0, "src/added.go") < 0 {
		t.Error("the saved index lacks the file added")
	}
}
