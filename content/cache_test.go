package content

import (
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"unsafe"

	"wayfind/workspace"
)

// TestCacheRoundTrip: filters saved by one indexer are what the next one
// loads, bit for bit — text files' words and binary files' marks — and a
// file changed in between is read again.
func TestCacheRoundTrip(t *testing.T) {
	ix := writeTree(t, map[string]string{
		"docs/tools.md": "The `cursor_binary` helper is built separately.\n",
		"a/b/c.go":      "package c\n\nfunc FullRune() {}\n",
		"blob.bin":      "x\x00y",
		"odd.txt":       "abc", // sizes that leave the next filter unaligned
	})
	dir := ix.Roots[0]
	cache := t.TempDir()
	first := Indexer{CacheDir: cache}
	a, err := first.Sync(context.Background(), ix)
	if err != nil {
		t.Fatal(err)
	}
	paths, filters, err := loadCache(cache, ix, 0, nil)
	aPaths, aFilters := contents(a)
	if err != nil || len(paths) != len(aPaths) {
		t.Fatalf("loaded %d of %d (%v)", len(paths), len(aPaths), err)
	}
	for i := range paths {
		if paths[i] != aPaths[i] || len(filters[i].bits) != len(aFilters[i].bits) || filters[i].size != aFilters[i].size {
			t.Fatalf("%s: loaded %+v, saved %+v", paths[i], filters[i], aFilters[i])
		}
		for k := range filters[i].bits {
			if filters[i].bits[k] != aFilters[i].bits[k] {
				t.Fatalf("%s: word %d differs", paths[i], k)
			}
		}
	}
	// A file gone since the save is not loaded, and what is loaded holds
	// the index's own path strings, not copies.
	os.Remove(filepath.Join(dir, "odd.txt"))
	fewer := workspace.Build(ix.Roots, workspace.Options{})
	paths, _, err = loadCache(cache, fewer, 0, nil)
	if err != nil || len(paths) != len(aPaths)-1 || slices.Contains(paths, filepath.Join(dir, "odd.txt")) {
		t.Fatalf("after a removal loaded %q (%v)", paths, err)
	}
	for i, p := range paths {
		if unsafe.StringData(p) != unsafe.StringData(fewer.AbsAt(i)) {
			t.Errorf("%s: loaded a copy of the index's path", p)
		}
	}
	// The load gives way as it goes: its pace is called before the first
	// file and every cachePace files after.
	paced := 0
	if _, _, err := loadCache(cache, fewer, 0, func() { paced++ }); err != nil || paced != 1+(len(aPaths)-1)/cachePace {
		t.Errorf("paced %d times over %d files (%v)", paced, len(aPaths), err)
	}
	os.WriteFile(filepath.Join(dir, "odd.txt"), []byte("abc"), 0o644)
	second := Indexer{CacheDir: cache}
	b, _ := second.Sync(context.Background(), ix)
	for _, q := range []Query{{Words: []string{"cursor", "binary"}}, {Phrase: "func FullRune"}} {
		if hits, _, _ := b.Search(context.Background(), q, SearchOptions{}); len(hits) != 1 {
			t.Errorf("%+v after a reload: %d hits", q, len(hits))
		}
	}
	if b.Len() != 3 {
		t.Errorf("text files after a reload: %d", b.Len())
	}
	os.WriteFile(filepath.Join(dir, "docs/tools.md"), []byte("now about something else entirely\n"), 0o644)
	third := Indexer{CacheDir: cache}
	c, _ := third.Sync(context.Background(), ix)
	if hits, _, _ := c.Search(context.Background(), Query{Words: []string{"cursor", "binary"}}, SearchOptions{}); len(hits) != 0 {
		t.Errorf("a changed file kept its old words: %v", hits)
	}
}

// TestHashesFixed: a filter saved by one process is probed by another,
// so a word's hashes may not depend on the process (a random seed made
// every cached filter miss in the next process).
func TestHashesFixed(t *testing.T) {
	a, b := hashes([]byte("cursorbinary"))
	if a != 0xace2be34 || b != 0x88c49033 {
		t.Errorf("hashes changed: %#x %#x (a new hash needs a new cacheMagic)", a, b)
	}
}

// TestNoWordsShared: text files without a word (empty, or punctuation
// only) share one filter's bits, read or loaded from the cache, and
// match no query; a file with words has its own.
func TestNoWordsShared(t *testing.T) {
	ix := writeTree(t, map[string]string{
		"pkg/__init__.py": "",
		"rule.txt":        "---\n",
		"words.txt":       "cursor binary\n",
	})
	cache := t.TempDir()
	read, err := (&Indexer{CacheDir: cache}).Sync(context.Background(), ix)
	if err != nil {
		t.Fatal(err)
	}
	_, loaded, err := loadCache(cache, ix, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	readPaths, readFilters := contents(read)
	for name, filters := range map[string][]filter{"read": readFilters, "loaded": loaded} {
		if len(filters) != 3 {
			t.Fatalf("%s: %d filters", name, len(filters))
		}
		for i, f := range filters {
			shared := len(f.bits) > 0 && &f.bits[0] == &noWords[0]
			if wordless := i < 2; shared != wordless || !f.text() {
				t.Errorf("%s: %s shares the wordless bits: %v (text %v)", name, readPaths[i], shared, f.text())
			}
		}
	}
	if hits, _, _ := read.Search(context.Background(), Query{Words: []string{"init"}}, SearchOptions{}); len(hits) != 0 {
		t.Errorf("a wordless file matched: %+v", hits)
	}
}

// TestCacheDamaged: a cache cut short anywhere, or claiming more words
// than it holds, reads as errCacheFormat (or, cut between entries, as the
// entries before the cut), never a panic or an allocation it cannot back.
func TestCacheDamaged(t *testing.T) {
	ix := writeTree(t, map[string]string{
		"a.txt":    "cursor binary\n",
		"b/c.go":   "package c\n\nfunc FullRune() {}\n",
		"blob.bin": "x\x00y",
	})
	cache, file, whole := savedCache(t, ix)
	_, all, err := loadCache(cache, ix, 0, nil)
	if err != nil || len(all) != 3 {
		t.Fatalf("whole cache: %d filters (%v)", len(all), err)
	}
	for cut := 0; cut < len(whole); cut++ {
		os.WriteFile(file, whole[:cut], 0o600)
		paths, filters, err := loadCache(cache, ix, 0, nil)
		if err == nil && (len(paths) >= 3 || len(filters) != len(paths)) {
			t.Errorf("cut at %d of %d: %d filters and no error", cut, len(whole), len(filters))
		}
	}
	// The first entry's word count made huge: more than the file holds.
	at := len(cacheMagic) + 1 + len("a.txt")
	damaged := slices.Clone(whole)
	for range 2 { // past size and modification time
		for damaged[at]&0x80 != 0 {
			at++
		}
		at++
	}
	damaged = slices.Concat(damaged[:at], []byte{0xff, 0xff, 0xff, 0xff, 0x0f}, damaged[at+1:])
	os.WriteFile(file, damaged, 0o600)
	if _, _, err := loadCache(cache, ix, 0, nil); err != errCacheFormat {
		t.Errorf("a huge word count: %v", err)
	}
	// One whose eight bytes a word wrap around to a few: 2^61+1 words.
	wraps := binary.AppendUvarint(nil, 1<<61+1)
	damaged = slices.Concat(whole[:at], wraps, whole[at+1:])
	os.WriteFile(file, damaged, 0o600)
	if _, _, err := loadCache(cache, ix, 0, nil); err != errCacheFormat {
		t.Errorf("a word count that wraps: %v", err)
	}
}

// savedCache indexes ix's text into a fresh cache directory and returns
// it, its first root's cache file and what that file holds.
func savedCache(t testing.TB, ix *workspace.Index) (cache, file string, saved []byte) {
	t.Helper()
	cache = t.TempDir()
	if _, err := (&Indexer{CacheDir: cache}).Sync(context.Background(), ix); err != nil {
		t.Fatal(err)
	}
	file = filepath.Join(workspace.RootCacheDir(cache, ix.Roots[0]), cacheName)
	saved, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return cache, file, saved
}
