package workspace

import (
	"fmt"
	"strings"
	"testing"
)

// TestVerifyFindsWhatChanged applies random churn nobody reports and
// checks that Update told only what Verify found agrees with a full walk
// — and that Verify finds nothing when nothing changed.
func TestVerifyFindsWhatChanged(t *testing.T) {
	churnSeeds(t, func(t *testing.T, c *churn, ix *Index) {
		for step := 0; step < 40; step++ {
			if got := Verify(ix, churnOptions); len(got) != 0 {
				t.Fatalf("step %d: nothing changed, yet %q", step, got)
			}
			for range 1 + c.rng.Intn(3) {
				c.step() // and nobody is told
			}
			changed := Verify(ix, churnOptions)
			ix, _ = Update(ix, churnOptions, changed)
			want := Build(ix.Roots, churnOptions)
			if !SameFiles(ix, want) {
				t.Fatalf("step %d (verify found %q):\nupdate %s %v %v\nwalk   %s %v %v", step, changed,
					paths(ix), ix.Dirs, ix.Skipped, paths(want), want.Dirs, want.Skipped)
			}
			checkAbs(t, ix)
		}
	})
}

// BenchmarkPrintsOf: the prints a Verify keeps of an index of 250,000
// files in 50,000 directories, and what making them allocates.
func BenchmarkPrintsOf(b *testing.B) {
	var files, dirs []File
	for d := range 50000 {
		dir := fmt.Sprintf("pkg%03d/sub%02d/leaf%d", d/500, d/50%10, d%50)
		for f := range 5 {
			files = append(files, File{Path: fmt.Sprintf("%s/file%d.go", dir, f)})
		}
	}
	seen := map[string]bool{}
	for _, f := range files {
		for d := parentOf(f.Path); d != "" && !seen[d]; d = parentOf(d) {
			seen[d] = true
			dirs = append(dirs, File{Path: d})
		}
	}
	SortFiles(files)
	SortFiles(dirs)
	ix := NewIndex([]string{"/r"}, files)
	ix.Dirs = dirs
	b.ReportAllocs()
	for b.Loop() {
		printsOf(ix)
	}
}

// TestPrintsOf: each directory's print from the index's entries, whether
// the index lists the directory (searched for) or not (the map), against
// the prints made entry by entry.
func TestPrintsOf(t *testing.T) {
	files := []File{
		{Root: 0, Path: "a.go"}, {Root: 0, Path: "lib/b.go"}, {Root: 0, Path: "lib/c.go"},
		{Root: 0, Path: "lib/deep/d.go"}, {Root: 0, Path: "unlisted/e.go"}, {Root: 1, Path: "f.go"},
		{Root: 1, Path: "lib/g.go"},
	}
	SortFiles(files)
	ix := NewIndex([]string{"/r0", "/r1"}, files)
	ix.Dirs = []File{{Root: 0, Path: "lib"}, {Root: 0, Path: "lib/deep"}, {Root: 1, Path: "lib"}} // not "unlisted"
	ix.Skipped = []File{{Root: 0, Path: "lib/node_modules"}}
	want := map[dirKey]dirPrint{}
	for _, l := range []struct {
		files []File
		kind  entryKind
	}{{files, entryFile}, {ix.Dirs, entryDir}, {ix.Skipped, entrySkip}} {
		for _, f := range l.files {
			k := dirKey{f.Root, parentOf(f.Path)}
			p := want[k]
			p.add(l.kind, f.Path[strings.LastIndexByte(f.Path, '/')+1:])
			want[k] = p
		}
	}
	got := printsOf(ix)
	for _, k := range []dirKey{{0, ""}, {0, "lib"}, {0, "lib/deep"}, {0, "unlisted"}, {1, ""}, {1, "lib"}, {0, "nowhere"}, {1, "lib/deep"}} {
		if g := got.at(k.root, k.rel); g != want[k] {
			t.Errorf("%v: print %+v, want %+v", k, g, want[k])
		}
	}
	if got.at(0, "lib") == (dirPrint{}) || got.at(0, "unlisted") == (dirPrint{}) {
		t.Errorf("a directory with entries has the empty print")
	}
}
