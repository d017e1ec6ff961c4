package symbols

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"wayfind/workspace"

	bolt "go.etcd.io/bbolt"
)

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, text := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

var cacheTree = map[string]string{
	"router.h":    "class CommandRouter {\n  void route();\n};\n",
	"router.cpp":  "void CommandRouter::route() {}\n",
	"main.go":     "package main\n\nfunc main() {}\n\ntype Server struct{}\n",
	"README.md":   "# not parsed\n",
	"lib/util.py": "def helper():\n    pass\n",
}

func index(t *testing.T, root, cacheDir string, logs *[]string) (*Indexer, *Table, SyncStats) {
	t.Helper()
	var mu sync.Mutex
	x := NewIndexer(IndexerOptions{CacheDir: cacheDir, Logf: func(f string, a ...any) {
		mu.Lock()
		defer mu.Unlock()
		if logs != nil {
			*logs = append(*logs, f)
		}
	}})
	roots, err := workspace.CleanRoots([]string{root})
	if err != nil {
		t.Fatal(err)
	}
	tab, st, err := x.Sync(context.Background(), workspace.Build(roots, workspace.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	return x, tab, st
}

func TestCacheWarmStartParsesOnlyChanges(t *testing.T) {
	root, cacheDir := writeTree(t, cacheTree), t.TempDir()
	_, tab, st := index(t, root, cacheDir, nil)
	if st.Parsed != 4 || st.FromCache != 0 || tab.Len() != 6 {
		t.Fatalf("cold: %+v, %d symbols", st, tab.Len())
	}
	_, tab2, st2 := index(t, root, cacheDir, nil)
	if st2.Parsed != 0 || st2.FromCache != 4 || tab2.Len() != tab.Len() {
		t.Fatalf("warm: %+v, %d symbols", st2, tab2.Len())
	}
	// One file changes, one goes: one parse, and the gone file's symbols go.
	later := time.Now().Add(2 * time.Second)
	os.WriteFile(filepath.Join(root, "main.go"), []byte("package main\n\nfunc main() {}\n\nfunc Added() {}\n"), 0o644)
	os.Chtimes(filepath.Join(root, "main.go"), later, later)
	os.Remove(filepath.Join(root, "lib/util.py"))
	_, tab3, st3 := index(t, root, cacheDir, nil)
	if st3.Parsed != 1 {
		t.Fatalf("after a change: %+v", st3)
	}
	var names []string
	tab3.Each(func(_ string, syms []Symbol) {
		for _, s := range syms {
			names = append(names, s.Name)
		}
	})
	got := strings.Join(sortedCopy(names), " ")
	if got != "Added CommandRouter main route route" {
		t.Errorf("symbols after change: %s", got)
	}
	// And the cache agrees on the next start.
	_, _, st4 := index(t, root, cacheDir, nil)
	if st4.Parsed != 0 || st4.FromCache != 3 {
		t.Errorf("cache after change: %+v", st4)
	}
}

func TestCacheDiscardsCorruptTruncatedAndOtherVersions(t *testing.T) {
	root := writeTree(t, cacheTree)
	cases := []struct {
		name  string
		spoil func(file string)
	}{
		{"garbage", func(f string) { os.WriteFile(f, []byte(strings.Repeat("not a bbolt file ", 1000)), 0o600) }},
		{"truncated", func(f string) {
			b, _ := os.ReadFile(f)
			os.WriteFile(f, b[:len(b)/3], 0o600)
		}},
		{"empty", func(f string) { os.WriteFile(f, nil, 0o600) }},
		{"other version", func(f string) {
			c := &Cache{file: f, logf: func(string, ...any) {}}
			saved := version
			version = []byte("an older wayfind")
			defer func() { version = saved }()
			os.Remove(f)
			if err := c.Save(map[string]Entry{"main.go": {Size: 1, Symbols: []Symbol{{Name: "Stale"}}}}, nil); err != nil {
				t.Fatal(err)
			}
		}},
		{"bad entry", func(f string) {
			c := &Cache{file: f, logf: func(string, ...any) {}}
			if err := c.guard(func() error { return c.save(context.Background(), nil, nil, nil) }); err != nil {
				t.Fatal(err)
			}
			db := openRaw(t, f)
			defer db.Close()
			putRaw(t, db, "main.go", []byte{0x05, 0xff})
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cacheDir := t.TempDir()
			_, want, _ := index(t, root, cacheDir, nil)
			c.spoil(OpenCache(cacheDir, mustClean(t, root), nil).File())
			var logs []string
			_, tab, st := index(t, root, cacheDir, &logs)
			if tab.Len() != want.Len() || st.Parsed != 4 {
				t.Fatalf("after %s: %+v, %d symbols, want %d", c.name, st, tab.Len(), want.Len())
			}
			if !strings.Contains(strings.Join(logs, "\n"), "discarded") && c.name != "empty" {
				t.Errorf("no log line for the discarded cache: %q", logs)
			}
			// The rebuilt cache serves the next start.
			if _, _, st := index(t, root, cacheDir, nil); st.Parsed != 0 {
				t.Errorf("cache not rebuilt: %+v", st)
			}
		})
	}
}

func TestCacheTwoIndexersOnOneRoot(t *testing.T) {
	root, cacheDir := writeTree(t, cacheTree), t.TempDir()
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, tab, _ := index(t, root, cacheDir, nil)
			if tab.Len() != 6 {
				t.Errorf("concurrent index: %d symbols", tab.Len())
			}
		}()
	}
	wg.Wait()
	if _, tab, st := index(t, root, cacheDir, nil); st.Parsed != 0 || tab.Len() != 6 {
		t.Errorf("after concurrent writers: %+v, %d symbols", st, tab.Len())
	}
}

func TestIndexerRefreshAndContent(t *testing.T) {
	root := writeTree(t, cacheTree)
	x, _, _ := index(t, root, "-", nil)
	roots := []string{mustClean(t, root)}
	main := filepath.Join(roots[0], "main.go")
	tab, err := x.SetContent(context.Background(), main, []byte("package main\n\nfunc Unsaved() {}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if syms, _ := tab.Get(main); len(syms) != 1 || syms[0].Name != "Unsaved" {
		t.Fatalf("content: %+v", syms)
	}
	// A refresh reads the disk again.
	ix := workspace.Build(roots, workspace.Options{})
	if tab, err = x.Refresh(context.Background(), ix, []string{main}); err != nil {
		t.Fatal(err)
	}
	if syms, _ := tab.Get(main); len(syms) != 2 {
		t.Fatalf("after refresh: %+v", syms)
	}
	// Re-checking every file when none changed (a poll) keeps the table.
	if again, err := x.Refresh(context.Background(), ix, roots); err != nil || again != tab {
		t.Errorf("a refresh of unchanged files made a new table (%v)", err)
	}
	// A deleted directory takes its files' symbols along.
	os.RemoveAll(filepath.Join(roots[0], "lib"))
	ix = workspace.Build(roots, workspace.Options{})
	if tab, err = x.Refresh(context.Background(), ix, []string{filepath.Join(roots[0], "lib")}); err != nil {
		t.Fatal(err)
	}
	if _, ok := tab.Get(filepath.Join(roots[0], "lib", "util.py")); ok || tab.Len() != 5 {
		t.Errorf("after deleting lib/: %d symbols", tab.Len())
	}
}

func mustClean(t *testing.T, root string) string {
	r, err := workspace.CleanRoots([]string{root})
	if err != nil {
		t.Fatal(err)
	}
	return r[0]
}

func sortedCopy(s []string) []string { return slices.Sorted(slices.Values(s)) }

// TestMmapForCoversTheSave: the mapping a save starts with holds the file
// it makes (bbolt maps the file anew, copying every page touched so far,
// whenever the file outgrows its mapping) — for a first save, and for a
// second that adds as much again.
func TestMmapForCoversTheSave(t *testing.T) {
	c := OpenCache(t.TempDir(), "/ws", nil)
	for round := range 2 {
		put := map[string]Entry{}
		for i := range 20000 {
			var syms []Symbol
			for k := range i % 4 {
				syms = append(syms, Symbol{Name: fmt.Sprintf("Handler%d", k*i%97), Container: "pkg.Server", Kind: Method})
			}
			put[fmt.Sprintf("r%d/src/module%03d/sub/file_%05d.go", round, i/50, i)] = Entry{Size: int64(i), ModTime: int64(i), Symbols: syms}
		}
		keys := slices.Sorted(maps.Keys(put))
		room := mmapFor(c.File(), keys, func(i int) *Entry {
			e := put[keys[i]]
			return &e
		})
		if err := c.Save(put, nil); err != nil {
			t.Fatal(err)
		}
		// What the file's pages reach (bbolt grows the file itself ahead,
		// in steps, and maps in powers of two).
		db, err := bolt.Open(c.File(), 0o600, &bolt.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		var used int64
		db.View(func(tx *bolt.Tx) error { used = tx.Size(); return nil })
		db.Close()
		if int(used) > room {
			t.Errorf("round %d: the save's pages reach %d bytes, mapped for %d", round, used, room)
		}
	}
}

// TestSaveInBatches: a save cut into transactions of saveBatch entries
// leaves the cache a save in one transaction leaves — every entry, and
// each name's and container's files — through a first save, a second
// that changes, adds and deletes, and a save of deletions alone.
func TestSaveInBatches(t *testing.T) {
	entry := func(i int, names ...string) Entry {
		var syms []Symbol
		for _, n := range names {
			syms = append(syms, Symbol{Name: n, Container: "pkg.T" + n[:1], Kind: Method})
		}
		return Entry{Size: int64(i), ModTime: int64(i), Symbols: syms}
	}
	saves := []struct {
		put map[string]Entry
		del []string
	}{
		{map[string]Entry{"a.go": entry(1, "Alpha"), "b.go": entry(2, "Beta", "Alpha"), "c.go": entry(3), "d.go": entry(4, "Delta"),
			"e.go": entry(5, "Alpha"), "f.go": entry(6, "Foxtrot"), "g.go": entry(7, "Beta"), "h.go": entry(8, "Hotel")}, nil},
		{map[string]Entry{"b.go": entry(9, "Bravo"), "i.go": entry(10, "Alpha"), "j.go": entry(11, "Juliet")}, []string{"a.go", "h.go"}},
		{nil, []string{"e.go"}},
	}
	dump := func(batch int) string {
		defer func(was int) { saveBatch = was }(saveBatch)
		saveBatch = batch
		c := OpenCache(t.TempDir(), "/ws", nil)
		for i, s := range saves {
			if err := c.Save(s.put, s.del); err != nil {
				t.Fatalf("batch %d, save %d: %v", batch, i, err)
			}
		}
		var lines []string
		c.eachEntry(func(k, v []byte) error {
			e, err := decodeEntry(v)
			lines = append(lines, fmt.Sprintf("entry %s %d %v %v", k, e.Size, e.Symbols, err))
			return nil
		})
		db, err := bolt.Open(c.File(), 0o600, &bolt.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		db.View(func(tx *bolt.Tx) error {
			for _, name := range [][]byte{bucketNames, bucketMembers} {
				tx.Bucket(name).ForEach(func(k, v []byte) error {
					lines = append(lines, fmt.Sprintf("%s %s %v", name, k, decodePaths(v)))
					return nil
				})
			}
			return nil
		})
		slices.Sort(lines)
		return strings.Join(lines, "\n") + "\n"
	}
	one, batched := dump(1<<16), dump(3)
	if one != batched {
		t.Errorf("in transactions of 3:\n%s\nin one:\n%s", batched, one)
	}
	for _, want := range []string{"entry i.go 10", "names alpha [i.go]", "names beta [g.go]", "members tb [b.go g.go]"} {
		if !strings.Contains(one, want+" ") && !strings.Contains(one, want+"\n") {
			t.Errorf("the saves did not land: no %q in\n%s", want, one)
		}
	}
	for _, gone := range []string{"a.go", "e.go", "h.go"} {
		if strings.Contains(one, gone) {
			t.Errorf("%s, deleted, is still in the cache:\n%s", gone, one)
		}
	}
}

// TestSaveStopsWhenCancelled: a save whose context ends between its
// transactions stops there with the context's error, and what it wrote
// stands — a smaller cache, each entry whole.
func TestSaveStopsWhenCancelled(t *testing.T) {
	defer func(was int) { saveBatch = was }(saveBatch)
	saveBatch = 2
	c := OpenCache(t.TempDir(), "/ws", nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	batches := 0
	c.pace = func() { // called before each transaction
		if batches++; batches == 3 {
			cancel()
		}
	}
	keys := []string{"a.go", "b.go", "c.go", "d.go", "e.go", "f.go", "g.go"}
	entries := make([]Entry, len(keys))
	for i := range entries {
		entries[i] = Entry{Size: int64(i + 1), Symbols: []Symbol{{Name: "S" + keys[i][:1], Kind: Function}}}
	}
	if err := c.SaveSorted(ctx, keys, func(i int) *Entry { return &entries[i] }, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("SaveSorted cancelled after two transactions: %v, want %v", err, context.Canceled)
	}
	var saved []string
	c.eachEntry(func(k, v []byte) error {
		e, err := decodeEntry(v)
		if err != nil || e.Size == 0 || len(e.Symbols) != 1 {
			t.Errorf("entry %s not whole: %+v, %v", k, e, err)
		}
		saved = append(saved, string(k))
		return nil
	})
	if want := keys[:4]; !slices.Equal(saved, want) {
		t.Errorf("saved %v, want the first two transactions' %v", saved, want)
	}
}

// TestLoadAligned: Load reads the entries of the paths asked, in their
// order whichever order that is, and names the cached paths not asked
// (gone); a missing cache holds none.
func TestLoadAligned(t *testing.T) {
	c := OpenCache(t.TempDir(), "/ws", nil)
	put := map[string]Entry{}
	for i, p := range []string{"a.go", "b/c.go", "b-c.go", "d.go", "z.go"} {
		put[p] = Entry{Size: int64(i + 1)}
	}
	if err := c.Save(put, nil); err != nil {
		t.Fatal(err)
	}
	for _, rels := range [][]string{
		{"a.go", "b-c.go", "b/c.go", "c.go", "d.go"},
		{"d.go", "b/c.go", "c.go", "a.go", "b-c.go"},
	} {
		entries, ok := make([]Entry, len(rels)), make([]bool, len(rels))
		gone := c.Load(rels, entries, ok)
		for i, rel := range rels {
			want, held := put[rel]
			if ok[i] != held || entries[i].Size != want.Size {
				t.Errorf("%v: %s: %+v (ok %v), want %+v (ok %v)", rels, rel, entries[i], ok[i], want, held)
			}
		}
		if !slices.Equal(gone, []string{"z.go"}) {
			t.Errorf("%v: gone %v, want [z.go]", rels, gone)
		}
	}
	missing := OpenCache(t.TempDir(), "/ws", nil)
	ok := []bool{false}
	if gone := missing.Load([]string{"a.go"}, make([]Entry, 1), ok); gone != nil || ok[0] {
		t.Errorf("a missing cache: gone %v, ok %v", gone, ok)
	}
}

// TestInOrder: a save's keys with the positions of their entries come out
// ascending, each key once with its last entry's position; keys already
// ascending come back as they were, without a copy.
func TestInOrder(t *testing.T) {
	for _, c := range []struct {
		name     string
		keys     []string
		at       []int32
		wantKeys []string
		wantAt   []int32
	}{
		{"ascending", []string{"a.go", "b.go", "c.go"}, []int32{4, 7, 9}, []string{"a.go", "b.go", "c.go"}, []int32{4, 7, 9}},
		{"out of order", []string{"c.go", "a.go", "b.go"}, []int32{0, 1, 2}, []string{"a.go", "b.go", "c.go"}, []int32{1, 2, 0}},
		{"a key twice: its last entry", []string{"b.go", "a.go", "b.go"}, []int32{0, 1, 2}, []string{"a.go", "b.go"}, []int32{1, 2}},
		{"none", nil, nil, nil, nil},
	} {
		keys, at := inOrder(c.keys, c.at)
		if !slices.Equal(keys, c.wantKeys) || !slices.Equal(at, c.wantAt) {
			t.Errorf("%s: %v %v, want %v %v", c.name, keys, at, c.wantKeys, c.wantAt)
		}
	}
}
