package symbols

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzCacheEntry decodes any bytes as a cached entry: no panic, and what
// decodes encodes back to the same entry.
func FuzzCacheEntry(f *testing.F) {
	f.Add(encodeEntry(nil, Entry{Size: 10, ModTime: 5, Symbols: []Symbol{{Name: "F", Kind: Function, Container: "p",
		Range: Range{End: Position{Line: 3, Col: 1}}, Select: Range{Start: Position{Col: 5}, End: Position{Col: 6}}}}}))
	f.Add([]byte{})
	f.Add([]byte{0x05, 0xff})
	f.Add([]byte{0x01, 0x02, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, b []byte) {
		e, err := decodeEntry(b)
		if err != nil {
			return
		}
		again, err := decodeEntry(encodeEntry(nil, e))
		if err != nil || !reflect.DeepEqual(again, e) {
			t.Fatalf("round trip: %+v → %+v (%v)", e, again, err)
		}
	})
}

// FuzzCacheFile loads any bytes as a cache file: never a crash (a
// corrupt or truncated file is discarded), and a cache that loads gives
// entries only for the files asked, none for the others.
func FuzzCacheFile(f *testing.F) {
	dir := f.TempDir()
	good := OpenCache(dir, "/root/a", nil)
	if err := good.Save(map[string]Entry{"a.go": {Size: 1, Symbols: []Symbol{{Name: "A", Kind: Class}}}}, nil); err != nil {
		f.Fatal(err)
	}
	valid, err := os.ReadFile(good.File())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(valid)
	f.Add(valid[:len(valid)/2])
	f.Add(valid[:4096])
	f.Add([]byte("not a database"))
	f.Fuzz(func(t *testing.T, b []byte) {
		c := &Cache{file: filepath.Join(t.TempDir(), "symbols.db"), logf: func(string, ...any) {}}
		if err := os.WriteFile(c.file, b, 0o600); err != nil {
			t.Fatal(err)
		}
		rels := []string{"a.go", "b.go"}
		entries, ok := make([]Entry, len(rels)), make([]bool, len(rels))
		c.Load(rels, entries, ok)
		for i, e := range entries {
			if !ok[i] && (e.Size != 0 || e.Symbols != nil) || len(e.Symbols) > 1<<20 {
				t.Fatalf("absurd entry for %s: %+v (ok %v)", rels[i], e, ok[i])
			}
		}
	})
}
