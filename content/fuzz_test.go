package content

import (
	"os"
	"testing"
)

// FuzzCacheFile: whatever a content cache file holds, loading it returns
// filters or an error, never panics, and every filter it returns is one
// of the index's files.
func FuzzCacheFile(f *testing.F) {
	ix := writeTree(f, map[string]string{"a.txt": "cursor binary\n", "b/c.go": "package c\n", "blob.bin": "x\x00y", "empty.txt": ""})
	cache, file, seed := savedCache(f, ix)
	f.Add(seed)
	f.Add([]byte(cacheMagic))
	f.Add(append([]byte(cacheMagic), 5, 'a', '.', 't', 'x', 't', 1, 2, 0xff, 0xff, 0xff, 0xff, 0x0f))
	f.Add(append([]byte(cacheMagic), 5, 'a', '.', 't', 'x', 't', 1, 2, 0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20)) // 2^61+1 words
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(file, data, 0o600); err != nil {
			t.Fatal(err)
		}
		paths, filters, err := loadCache(cache, ix, 0, nil)
		if err != nil {
			return
		}
		if len(paths) != len(filters) {
			t.Fatalf("%d paths, %d filters", len(paths), len(filters))
		}
		for _, p := range paths {
			if r, rel, ok := ix.RootOf(p); !ok || ix.Lookup(r, rel) < 0 {
				t.Fatalf("loaded %q, not a file of the index", p)
			}
		}
	})
}
