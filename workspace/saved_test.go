package workspace

import (
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"wayfind/segment"
)

// savedTree is two roots with shared prefixes, nesting, a skipped
// directory and names that front-code badly (a longer path after a
// shorter, a path that shares nothing with the one before).
func savedTree(t *testing.T) []string {
	a, b := t.TempDir(), t.TempDir()
	for _, p := range []string{
		"src/auth/middleware.py", "src/auth/mid.py", "src/authz/x.py", "src/a.py",
		"README.md", "node_modules/pkg/index.js", "zz/deep/er/still/f.go", "é/ünï.txt",
	} {
		write(t, filepath.Join(a, p), "")
	}
	write(t, filepath.Join(b, "only.go"), "")
	roots, err := CleanRoots([]string{a, b})
	if err != nil {
		t.Fatal(err)
	}
	return roots
}

// TestSavedIndexRoundTrip: what SaveIndex writes, LoadIndex reads back as
// the walk had it — files, directories, skipped directories — with the
// files' absolute paths made once, each Path their tail (AbsAt).
func TestSavedIndexRoundTrip(t *testing.T) {
	roots := savedTree(t)
	ix := Build(roots, Options{})
	cache := t.TempDir()
	if err := SaveIndex(cache, ix, Options{}); err != nil {
		t.Fatal(err)
	}
	got, ok := LoadIndex(cache, roots, Options{Workers: 3}) // workers do not decide membership
	if !ok {
		t.Fatal("a saved index was not loaded")
	}
	if !SameFiles(ix, got) {
		t.Fatalf("loaded %s / %v / %v, walked %s / %v / %v", paths(got), got.Dirs, got.Skipped, paths(ix), ix.Dirs, ix.Skipped)
	}
	for i, f := range got.Files() {
		abs := got.AbsAt(i)
		if abs != ix.AbsAt(i) || !strings.HasSuffix(abs, f.Path) {
			t.Fatalf("file %d: abs %q, path %q; walked %q", i, abs, f.Path, ix.AbsAt(i))
		}
		if unsafe.StringData(f.Path) != unsafe.StringData(abs[len(abs)-len(f.Path):]) {
			t.Fatalf("%s: its Path is a copy, not its absolute path's tail", f.Path)
		}
	}
	checkAbs(t, got)
	if got.Lookup(0, "src/auth/mid.py") < 0 || got.Lookup(1, "only.go") < 0 {
		t.Fatal("a loaded index does not find its files")
	}
	// It knows the saves it was read from; a walked index knows none,
	// and another save is another id.
	ids := got.SavedIDs()
	if len(ids) != 2 || ids[0] == ids[1] || ix.SavedIDs() != nil {
		t.Fatalf("saved ids %x, walked %x", ids, ix.SavedIDs())
	}
	// Changed, it is no save's any more, but the paths it kept still lie
	// in the saves: Release must reach them, twice changed too.
	write(t, filepath.Join(roots[0], "added.go"), "")
	changed, _ := Update(got, Options{}, []string{filepath.Join(roots[0], "added.go")})
	twice, _ := Update(changed, Options{}, []string{filepath.Join(roots[0], "added.go")})
	if changed.SavedIDs() != nil || len(changed.backing) != 2 || len(twice.backing) != 2 || changed.Lookup(0, "added.go") < 0 {
		t.Fatalf("changed: saved ids %x, backing %d (twice %d)", changed.SavedIDs(), len(changed.backing), len(twice.backing))
	}
	twice.Release()
	if err := SaveIndex(cache, ix, Options{}); err != nil {
		t.Fatal(err)
	}
	again, _ := LoadIndex(cache, roots, Options{})
	if again.SavedIDs()[0] == ids[0] {
		t.Error("a new save kept the old id")
	}
}

// TestSavedIndexRefused: a saved index stands for a walk only with the
// same membership options, for every root asked, whole and of this
// version; otherwise it is not used (and nothing panics on a corrupt one).
func TestSavedIndexRefused(t *testing.T) {
	roots := savedTree(t)
	ix := Build(roots, Options{})
	cache := t.TempDir()
	if err := SaveIndex(cache, ix, Options{}); err != nil {
		t.Fatal(err)
	}
	for name, opt := range map[string]Options{
		"include":  {IncludeDirs: []string{"node_modules"}},
		"exclude":  {ExcludeGlobs: []string{"*.md"}},
		"noignore": {NoIgnoreFiles: true},
	} {
		if _, ok := LoadIndex(cache, roots, opt); ok {
			t.Errorf("%s: loaded an index walked with other options", name)
		}
	}
	other := t.TempDir()
	if _, ok := LoadIndex(cache, []string{roots[0], other}, Options{}); ok {
		t.Error("loaded an index for a root never saved")
	}
	if _, ok := LoadIndex("-", roots, Options{}); ok {
		t.Error("loaded with caching off")
	}
	file := filepath.Join(RootCacheDir(cache, roots[0]), savedName)
	whole, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < len(whole); n++ { // every truncation
		os.WriteFile(file, whole[:n], 0o600)
		if _, ok := LoadIndex(cache, roots, Options{}); ok {
			t.Fatalf("loaded an index cut at %d of %d bytes", n, len(whole))
		}
	}
	bad := append([]byte{}, whole...)
	bad[len(bad)/2] ^= 0x7f // any byte changed
	os.WriteFile(file, bad, 0o600)
	if _, ok := LoadIndex(cache, roots, Options{}); ok {
		t.Error("loaded an index with a byte changed")
	}
	// Whole, but out of order, repeated or leaving the root: refused.
	for _, rels := range [][]string{{"b.go", "a.go"}, {"a.go", "a.go"}, {"../secret"}, {"a//b"}, {"/etc/passwd"}, {"a/./b"}, {"a/.."}, {"a/"}, {"a\x00b"}} {
		fake := &Index{Roots: roots[:1]}
		for _, r := range rels {
			fake.files = append(fake.files, File{Path: r})
		}
		if err := SaveIndex(cache, fake, Options{}); err != nil {
			t.Fatal(err)
		}
		if _, ok := LoadIndex(cache, roots[:1], Options{}); ok {
			t.Errorf("loaded an index of %q", rels)
		}
	}
}

// FuzzLoadRoot: no bytes make loading panic, and what loads is inside
// the root and in order. The fuzzer's bytes are sealed with their
// checksum first (as a file written by something else would be), so
// that it reaches the checks behind it.
func FuzzLoadRoot(f *testing.F) {
	dir := f.TempDir()
	os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755)
	os.WriteFile(filepath.Join(dir, "a", "b", "c.go"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, "a", "d.go"), nil, 0o644)
	roots, _ := CleanRoots([]string{dir})
	cache := f.TempDir()
	SaveIndex(cache, Build(roots, Options{}), Options{})
	whole, _ := os.ReadFile(filepath.Join(RootCacheDir(cache, roots[0]), savedName))
	f.Add(whole)
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) >= 4 {
			b = binary.NativeEndian.AppendUint32(b[:len(b)-4:len(b)-4], crc32.Checksum(b[:len(b)-4], crc32.MakeTable(crc32.Castagnoli)))
		}
		seg, err := segment.Parse(b, savedKind)
		if err != nil {
			return
		}
		ix := &Index{Roots: roots}
		if loadRoot(ix, 0, seg, optionsPrint(Options{}), nil) != nil {
			return
		}
		ix.tails = ix.Files()
		for i, f := range ix.Files() {
			if abs := ix.AbsAt(i); !localPath(f.Path) || abs != ix.Abs(f) || !strings.HasPrefix(abs, RootPrefix(dir)) || i > 0 && !less(ix.Files()[i-1], f) {
				t.Fatalf("loaded %q (%q): outside the root or out of order", f.Path, abs)
			}
		}
	})
}

// TestLocalPath: a path stays in its root, component by component.
func TestLocalPath(t *testing.T) {
	for rel, want := range map[string]bool{
		"a": true, "a/b.go": true, ".a/..b/...": true, "a/.b": true, "é/ü": true,
		"": false, "/a": false, "a/": false, "a//b": false, ".": false, "..": false,
		"a/./b": false, "a/../b": false, "../a": false, "a/.": false, "a\x00": false,
	} {
		if got := localPath(rel); got != want {
			t.Errorf("localPath(%q) = %v, want %v", rel, got, want)
		}
	}
}

// TestRepoint: paths read from one index, pointed at a loaded index's
// own strings — every path that names one of its files (two roots, in
// the ascending order the content and symbol indexes keep), and the
// others copied; an index that makes each absolute path anew
// has none to point at.
func TestRepoint(t *testing.T) {
	roots := savedTree(t)
	walked := Build(roots, Options{})
	cache := t.TempDir()
	if err := SaveIndex(cache, walked, Options{}); err != nil {
		t.Fatal(err)
	}
	loaded, ok := LoadIndex(cache, roots, Options{})
	if !ok {
		t.Fatal("not loaded")
	}
	var paths []string
	for i := range walked.Files() {
		paths = append(paths, strings.Clone(walked.AbsAt(i)))
	}
	paths = append(paths, filepath.Join(roots[0], "src", "gone.py"), filepath.Join(t.TempDir(), "outside.go"))
	slices.Sort(paths)
	got, ok := loaded.Repoint(paths)
	if !ok || !slices.Equal(got, paths) {
		t.Fatalf("Repoint = %q, %v; want the same paths", got, ok)
	}
	own := map[*byte]bool{}
	for i := range loaded.Files() {
		own[unsafe.StringData(loaded.AbsAt(i))] = true
	}
	pointed := 0
	for i, p := range got {
		switch {
		case own[unsafe.StringData(p)]:
			pointed++
		case unsafe.StringData(p) == unsafe.StringData(paths[i]):
			t.Errorf("%s: the string given, not a copy (it may lie in a file let go)", p)
		}
	}
	if pointed != loaded.Len() {
		t.Errorf("%d of %d files pointed at the loaded index's strings", pointed, loaded.Len())
	}
	made := &Index{Roots: walked.Roots, files: walked.Files()}
	if _, ok := made.Repoint(paths); ok {
		t.Error("an index that makes its absolute paths anew each time was pointed at")
	}
}
