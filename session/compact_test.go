package session

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
	"unsafe"

	"wayfind/base"
	"wayfind/rank"
	"wayfind/symbols"
	"wayfind/workspace"
)

// waitState waits, at most ten seconds, until ok holds of the snapshot
// served.
func waitState(t *testing.T, s *Session, ok func(*snapshot) bool) *snapshot {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if cur := s.snap.Load(); cur != nil && ok(cur) {
			return cur
		}
	}
	t.Fatalf("the snapshot served never reached the state: %+v", s.snap.Load())
	return nil
}

// TestCompactApplied: a walk's index is compacted at once; a change
// applied leaves copies on the heap, compacted once it has stood
// compactIdle with nothing asked or pending, still answering for the file
// added, and the saved index holds that file for the next process.
func TestCompactApplied(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"src/a.go", "src/server/http.go", "docs/readme.md"} {
		write(t, filepath.Join(dir, filepath.FromSlash(p)))
	}
	cache := t.TempDir()
	s := New(Options{Symbols: symbols.IndexerOptions{CacheDir: cache}, NoSymbols: true, NoContent: true})
	defer s.Close()
	s.SetRoots([]string{dir})
	waitState(t, s, func(cur *snapshot) bool { return cur.sealed })
	write(t, filepath.Join(dir, "src", "added.go"))
	s.Changed([]string{filepath.Join(dir, "src", "added.go")})
	if !has(t, s, "src/added.go") {
		t.Fatal("the file added is not found")
	}
	applied := s.snap.Load()
	if applied.sealed {
		t.Fatal("a change applied was served compacted at once")
	}
	if s.compactDue(applied, time.Now()) {
		t.Error("compaction was due right after the change")
	}
	later := time.Now().Add(compactIdle)
	if !s.compactDue(applied, later) {
		t.Fatal("compaction was not due once the change had stood compactIdle")
	}
	if !s.compactor.Compact(applied.view(), s.opts.WaitReady) {
		t.Fatal("compact reports it did not swap")
	}
	if cur := s.snap.Load(); !cur.sealed || !has(t, s, "src/added.go") {
		t.Fatalf("not compacted, or the file added is lost: %+v", cur)
	}
	if s.compactDue(s.snap.Load(), later) {
		t.Error("compaction is due for a compacted snapshot")
	}
	if s.compactDue(applied, later) {
		t.Error("compaction is due again for a snapshot already tried")
	}
	ix, ok := workspace.LoadIndex(cache, []string{dir}, workspace.Options{})
	if !ok || ix.Lookup(0, "src/added.go") < 0 {
		t.Error("the saved index lacks the file added")
	}
}

// TestOverlayIsNotCompacted: a change to a tree large enough for the
// engine to take it as an overlay over the mapped base (rank's
// patchShare) leaves the base as it is — no whole tree written for one
// file, no base replaced while it stays mapped — however long it stands,
// and answers for the file.
func TestOverlayIsNotCompacted(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	for i := range 64 {
		write(t, filepath.Join(dir, "src", fmt.Sprintf("f%02d.go", i)))
	}
	s := New(Options{Symbols: symbols.IndexerOptions{CacheDir: cache}, NoSymbols: true, NoContent: true})
	defer s.Close()
	s.SetRoots([]string{dir})
	sealed := waitState(t, s, func(cur *snapshot) bool { return cur.sealed })
	write(t, filepath.Join(dir, "src", "added.go"))
	s.Changed([]string{filepath.Join(dir, "src", "added.go")})
	if !has(t, s, "src/added.go") {
		t.Fatal("the file added is not found")
	}
	applied := s.snap.Load()
	if applied.sealed || !applied.eng.Mapped() || applied.eng == sealed.eng {
		t.Fatalf("the change is not served as an overlay over the mapped base: sealed %v, mapped %v", applied.sealed, applied.eng.Mapped())
	}
	if s.compactDue(applied, time.Now().Add(10*compactIdle)) {
		t.Error("an overlay is compacted once it has stood")
	}
}

// TestCloseWritesTheOwedBase: a session closed while it owes a base (a
// walk's, not compacted yet) writes it before Close returns, so that the
// next start maps it — unless another process holds the index's lock,
// which Close waits for only closeLockWait.
func TestCloseWritesTheOwedBase(t *testing.T) {
	for _, held := range []bool{false, true} {
		closeOwingABase(t, held)
	}
}

func closeOwingABase(t *testing.T, lockHeld bool) {
	dir, cache := t.TempDir(), t.TempDir()
	write(t, filepath.Join(dir, "src", "a.go"))
	s := New(Options{Symbols: symbols.IndexerOptions{CacheDir: cache}, NoSymbols: true, NoContent: true})
	s.SetRoots([]string{dir})
	waitState(t, s, func(cur *snapshot) bool { return cur.sealed })
	// A snapshot on the heap, owed a base as after a walk, served without
	// waking the upkeep loop (it looks again at its next tick, seconds
	// away), and the session closed at once.
	write(t, filepath.Join(dir, "src", "added.go"))
	cur := s.snap.Load()
	next, _ := workspace.Update(cur.ix, workspace.Options{}, []string{filepath.Join(dir, "src", "added.go")})
	s.store(&snapshot{gen: cur.gen, ix: next, eng: rank.New(next), walked: cur.walked})
	s.compactor.Owe()
	if lockHeld {
		unlock, ok := workspace.LockIndex(context.Background(), cache, []string{dir})
		if !ok {
			t.Fatal("lock not taken")
		}
		defer unlock()
		start := time.Now()
		s.Close()
		if took := time.Since(start); took > closeLockWait+2*time.Second {
			t.Errorf("Close waited %v for another process's lock", took)
		}
		return
	}
	s.Close()
	ix, ok := workspace.LoadIndex(cache, []string{dir}, workspace.Options{})
	if !ok || ix.Lookup(0, "src/added.go") < 0 {
		t.Fatal("the base owed was not written before Close returned")
	}
	if base.SavedEngine(cache, ix, t.Logf) == nil {
		t.Error("no engine beside the base written")
	}
}

// TestCompactionRepointsThePasses: once a base is swapped in, the symbol
// index's paths — its table's and its definitions' — are the base's own
// strings: the indexes no longer hold, nor read, the paths of the index
// they were read from (a base replaced, a walk's on the heap).
func TestCompactionRepointsThePasses(t *testing.T) {
	s, dir, _ := sealedWithSymbols(t)
	added := filepath.Join(dir, "src", "gamma.go")
	writeText(t, added, "package src\n\nfunc gamma() {}\n")
	s.Changed([]string{added})
	waitFor(t, func() bool {
		si := s.idx.Symbols()
		return si != nil && len(si.Named("gamma")) == 1 && s.Status().SymbolsReady
	})
	applied := s.snap.Load()
	if applied.sealed {
		t.Fatal("the change was served compacted at once")
	}
	if !s.compactor.Compact(applied.view(), s.opts.WaitReady) {
		t.Fatal("not compacted")
	}
	// A path is the base's own when it is the string its AbsAt gives.
	own := func(p string) bool {
		cur := s.snap.Load()
		root, rel, ok := cur.ix.RootOf(p)
		i := cur.ix.Lookup(root, rel)
		return ok && i >= 0 && unsafe.StringData(cur.ix.AbsAt(i)) == unsafe.StringData(p)
	}
	waitFor(t, func() bool {
		si := s.idx.Symbols()
		all := true
		si.Table().Each(func(file string, _ []symbols.Symbol) { all = all && own(file) })
		for _, name := range []string{"alpha", "beta", "gamma"} {
			for _, r := range si.Named(name) {
				all = all && own(r.File)
			}
		}
		return all
	})
}

// sealedWithSymbols is a session with symbols over a tree of two Go
// files (src/alpha.go, src/beta.go: func alpha, func beta) in dir, its
// caches in cache, served from its base.
func sealedWithSymbols(t *testing.T) (s *Session, dir, cache string) {
	t.Helper()
	dir, cache = t.TempDir(), t.TempDir()
	for _, name := range []string{"alpha", "beta"} {
		writeText(t, filepath.Join(dir, "src", name+".go"), "package src\n\nfunc "+name+"() {}\n")
	}
	s = New(Options{Symbols: symbols.IndexerOptions{CacheDir: cache}})
	t.Cleanup(s.Close)
	s.SetRoots([]string{dir})
	waitState(t, s, func(cur *snapshot) bool { return cur.sealed })
	return s, dir, cache
}

// waitFor waits, at most ten seconds, until ok holds.
func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if ok() {
			return
		}
	}
	t.Fatal("the state waited for never came")
}

func writeText(t *testing.T, p, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReplacedBasesAreLetGo: a base a compaction replaced is let go —
// unmapped, its deleted file's space freed — once nothing holds it, and
// the session, its passes and questions read on without it (the
// package's TestMain makes a read of a file let go fault).
func TestReplacedBasesAreLetGo(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads the process's mappings from /proc/self/maps")
	}
	s, dir, cache := sealedWithSymbols(t)
	names := []string{"gamma", "delta", "epsilon"}
	for _, name := range names {
		added := filepath.Join(dir, "src", name+".go")
		writeText(t, added, "package src\n\nfunc "+name+"() {}\n")
		s.Changed([]string{added})
		waitFor(t, func() bool {
			si := s.idx.Symbols()
			return si != nil && len(si.Named(name)) == 1 && s.Status().SymbolsReady
		})
		if !s.compactor.Compact(s.snap.Load().view(), s.opts.WaitReady) {
			t.Fatal("not compacted")
		}
	}
	if len(deletedMapped(t, cache)) == 0 {
		t.Fatal("no replaced file mapped right after three compactions: the test proves nothing")
	}
	waitFor(t, func() bool {
		runtime.GC()
		return len(deletedMapped(t, cache)) == 0
	})
	for _, name := range append([]string{"alpha", "beta"}, names...) {
		if !has(t, s, "src/"+name+".go") || len(s.idx.Symbols().Named(name)) != 1 {
			t.Errorf("%s: not found after the bases were let go", name)
		}
	}
}

// deletedMapped are the files under dir the process maps that have been
// deleted (/proc/self/maps).
func deletedMapped(t *testing.T, dir string) []string {
	t.Helper()
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(string(maps), "\n") {
		if strings.Contains(line, dir) && strings.HasSuffix(line, "(deleted)") {
			out = append(out, line)
		}
	}
	return out
}
