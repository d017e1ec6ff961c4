package workspace

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"wayfind/pathtable"
)

// churn makes random changes under a root, as a person or a build would:
// files and directories created, deleted, renamed; ignore files edited.
type churn struct {
	rng  *rand.Rand
	root string
}

// churnOptions are the walk options the churned trees are indexed with.
var churnOptions = Options{IncludeDirs: []string{"keep"}, ExcludeGlobs: []string{"*.tmp"}}

var churnNames = []string{"a", "b", "gen", "keep", "node_modules", "src", "x.go", "y.tmp", "z.txt", "build"}

// pick is a random root-relative path one to three names deep.
func (c *churn) pick() string {
	p := ""
	for range 1 + c.rng.Intn(3) {
		p = filepath.Join(p, churnNames[c.rng.Intn(len(churnNames))])
	}
	return p
}

// step makes one change and returns the paths a watcher would report.
func (c *churn) step() (changed []string) {
	rel := c.pick()
	abs := filepath.Join(c.root, rel)
	switch op := c.rng.Intn(10); {
	case op < 4: // create a file (and its directories)
		// a watcher reports each directory made on the way, even when the write fails
		if os.MkdirAll(filepath.Dir(abs), 0o755) == nil {
			_ = os.WriteFile(abs, nil, 0o644)
		}
		for p := rel; p != "."; p = filepath.Dir(p) {
			changed = append(changed, filepath.Join(c.root, p))
		}
	case op < 6: // delete a file or a whole tree
		if os.RemoveAll(abs) == nil {
			changed = append(changed, abs)
		}
	case op < 8: // rename
		to := filepath.Join(c.root, c.pick())
		if os.MkdirAll(filepath.Dir(to), 0o755) == nil {
			_ = os.Rename(abs, to)
		}
		changed = append(changed, abs, to, filepath.Dir(to), filepath.Dir(filepath.Dir(to)))
	default: // edit an ignore file
		gi := filepath.Join(filepath.Dir(abs), ".gitignore")
		pats := []string{"gen/", "*.txt", "!keep.txt", "b", "/src"}
		if os.MkdirAll(filepath.Dir(gi), 0o755) == nil {
			_ = os.WriteFile(gi, []byte(pats[c.rng.Intn(len(pats))]+"\n"), 0o644)
		}
		for p := filepath.Join(rel, "..", ".gitignore"); p != "."; p = filepath.Dir(p) {
			changed = append(changed, filepath.Join(c.root, p))
		}
	}
	return changed
}

// churnSeeds runs test on twelve churned trees, each from its own seed,
// with the root's first index.
func churnSeeds(t *testing.T, test func(t *testing.T, c *churn, ix *Index)) {
	for seed := int64(1); seed <= 12; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			roots, err := CleanRoots([]string{t.TempDir()})
			must(t, err)
			test(t, &churn{rng: rand.New(rand.NewSource(seed)), root: roots[0]}, Build(roots, churnOptions))
		})
	}
}

// TestUpdateMatchesAFreshWalk applies random churn and checks after each
// step that Update, told only which paths changed, agrees with a full walk.
func TestUpdateMatchesAFreshWalk(t *testing.T) {
	churnSeeds(t, func(t *testing.T, c *churn, ix *Index) {
		for step := 0; step < 60; step++ {
			changed := c.step()
			ix, _ = Update(ix, churnOptions, changed)
			want := Build(ix.Roots, churnOptions)
			if got, exp := paths(ix), paths(want); got != exp {
				t.Fatalf("step %d (%v):\nupdate %s\nwalk   %s", step, changed, got, exp)
			}
			if got, exp := fmt.Sprint(ix.Dirs), fmt.Sprint(want.Dirs); got != exp {
				t.Fatalf("step %d (%v): dirs\nupdate %s\nwalk   %s", step, changed, got, exp)
			}
			if got, exp := fmt.Sprint(ix.Skipped), fmt.Sprint(want.Skipped); got != exp {
				t.Fatalf("step %d (%v): skipped\nupdate %s\nwalk   %s", step, changed, got, exp)
			}
			checkAbs(t, ix)
			checkAbs(t, want)
		}
	})
}

// TestKeptFromUpdate: what Update recorded of the files it kept lines an
// index up with its parent exactly as comparing their paths does (Kept,
// Delta); an index that is not the other's child is compared by path.
func TestKeptFromUpdate(t *testing.T) {
	churnSeeds(t, func(t *testing.T, c *churn, ix *Index) {
		for step := 0; step < 30; step++ {
			next, _ := Update(ix, churnOptions, c.step())
			from, gone := Kept(ix, next)
			byPath := *next
			byPath.parent = 0
			wantFrom, wantGone := Kept(ix, &byPath)
			if fmt.Sprint(from, gone) != fmt.Sprint(wantFrom, wantGone) {
				t.Fatalf("step %d: recorded %v %v, by path %v %v", step, from, gone, wantFrom, wantGone)
			}
			var wantAdded, wantLost []File
			for j, i := range wantFrom {
				if i < 0 {
					wantAdded = append(wantAdded, next.Files()[j])
				}
			}
			for _, g := range wantGone {
				wantLost = append(wantLost, ix.Files()[g])
			}
			added, lost := Delta(ix, next)
			if fmt.Sprint(added, lost) != fmt.Sprint(wantAdded, wantLost) {
				t.Fatalf("step %d: delta %v %v, by path %v %v", step, added, lost, wantAdded, wantLost)
			}
			var wantDiff []string
			for _, f := range wantLost {
				wantDiff = append(wantDiff, ix.Abs(f))
			}
			for _, f := range wantAdded {
				wantDiff = append(wantDiff, next.Abs(f))
			}
			if got := Diff(ix, next); !slices.Equal(got, wantDiff) {
				t.Fatalf("step %d: diff %v, want %v", step, got, wantDiff)
			}
			ix = next
		}
	})
}

// TestSplice: what a touched path takes out of a sorted list is the
// entry itself and its tree, not the names that only begin like it
// ("a-b", "a0"); a re-walked root takes all of that root; the fresh
// entries go where they sort, one kept where both hold it.
func TestSplice(t *testing.T) {
	list := []File{{0, "a"}, {0, "a-b/x"}, {0, "a/x"}, {0, "a/y/z"}, {0, "a0"}, {0, "b"}, {1, "a/x"}, {1, "c"}}
	for _, c := range []struct {
		name    string
		rewalk  []int
		touched []File
		fresh   []File
		want    string
	}{
		{"nothing", nil, nil, nil, "[{0 a} {0 a-b/x} {0 a/x} {0 a/y/z} {0 a0} {0 b} {1 a/x} {1 c}]"},
		{"a directory", nil, []File{{0, "a"}}, []File{{0, "a/new"}}, "[{0 a-b/x} {0 a/new} {0 a0} {0 b} {1 a/x} {1 c}]"},
		{"nested and overlapping", nil, []File{{0, "a/y"}, {0, "a"}, {0, "a/x"}}, nil, "[{0 a-b/x} {0 a0} {0 b} {1 a/x} {1 c}]"},
		{"a root", []int{1}, []File{{1, "c"}}, []File{{1, "d"}}, "[{0 a} {0 a-b/x} {0 a/x} {0 a/y/z} {0 a0} {0 b} {1 d}]"},
		{"fresh first, last, among and already there", nil, []File{{0, "b"}}, []File{{0, "0"}, {0, "a/x"}, {0, "b"}, {1, "z"}}, "[{0 0} {0 a} {0 a-b/x} {0 a/x} {0 a/y/z} {0 a0} {0 b} {1 a/x} {1 c} {1 z}]"},
	} {
		rewalk, touched := map[int]bool{}, map[File]bool{}
		for _, r := range c.rewalk {
			rewalk[r] = true
		}
		for _, f := range c.touched {
			touched[f] = true
		}
		if got := fmt.Sprint(spliceList(list, goneSpans(list, rewalk, touched), c.fresh)); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

func TestUpdateIgnoresOutsideAndGitInternals(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.go"), "")
	ix := build(t, dir, Options{})
	write(t, filepath.Join(dir, ".git", "index"), "")
	outside := t.TempDir()
	write(t, filepath.Join(outside, "b.go"), "")
	next, changed := Update(ix, Options{}, []string{filepath.Join(ix.Roots[0], ".git", "index"), filepath.Join(outside, "b.go"), "/etc/passwd"})
	if changed || next != ix {
		t.Fatalf("changed the index: %s", paths(next))
	}
}

// TestUpdateReadAgainAsItWas: paths read again as the index has them —
// a file, its directory, the root, an ignore file, before and after a
// change was applied over the index (a delta) — leave the very index;
// an empty directory made is a change of the index, not of its files.
func TestUpdateReadAgainAsItWas(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "src", "a.go"), "")
	write(t, filepath.Join(dir, ".gitignore"), "*.log\n")
	write(t, filepath.Join(dir, "x.log"), "")
	ix := build(t, dir, Options{})
	root := ix.Roots[0]
	asWas := []string{filepath.Join(root, "src", "a.go"), filepath.Join(root, "src"), root, filepath.Join(root, ".gitignore"), filepath.Join(root, "x.log")}
	for _, p := range asWas {
		if next, changed := Update(ix, Options{}, []string{p}); changed || next != ix {
			t.Fatalf("%s read again as it was: a new index (changed %v)", p, changed)
		}
	}
	write(t, filepath.Join(dir, "src", "b.go"), "")
	ix, changed := Update(ix, Options{}, []string{filepath.Join(root, "src", "b.go")})
	if !changed {
		t.Fatal("a file added: unchanged")
	}
	for _, p := range append(asWas, filepath.Join(root, "src", "b.go")) {
		if next, changed := Update(ix, Options{}, []string{p}); changed || next != ix {
			t.Fatalf("%s read again over a delta: a new index (changed %v)", p, changed)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	next, changed := Update(ix, Options{}, []string{filepath.Join(root, "empty")})
	if changed || next == ix || !slices.Contains(next.Dirs, File{0, "empty"}) {
		t.Fatalf("an empty directory made: changed %v, the same index %v, dirs %v", changed, next == ix, next.Dirs)
	}
}

// checkAbs holds the walk's shared strings to what Abs makes: every file
// has its own absolute path, and its Path is that string's tail, the same
// bytes — with no second string kept for it where paths are
// '/'-separated (shareTails).
func checkAbs(t *testing.T, ix *Index) {
	t.Helper()
	ix = ix.flat()
	if slashed && (len(ix.abs) > 0 || ix.Len() > 0 && ix.tails == nil) {
		t.Fatalf("%d absolute paths kept for %d files (tails %d)", len(ix.abs), ix.Len(), len(ix.tails))
	}
	for i, f := range ix.Files() {
		got, want := ix.AbsAt(i), ix.Abs(f)
		if got != want || !strings.HasSuffix(got, filepath.FromSlash(f.Path)) {
			t.Fatalf("AbsAt(%d) = %q, want %q", i, got, want)
		}
		if slashed && unsafe.StringData(got[len(got)-len(f.Path):]) != unsafe.StringData(f.Path) {
			t.Fatalf("AbsAt(%d) = %q is not the string %q is the tail of", i, got, f.Path)
		}
	}
}

// TestChangedSince: after a walk, the directories whose entries changed
// since it began (and those gone) are the ones to re-walk, not the roots.
func TestChangedSince(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"a/b/x.go", "a/c/y.go", "d/z.go"} {
		write(t, filepath.Join(dir, p), "")
	}
	hourAgo := time.Now().Add(-time.Hour)
	for _, d := range []string{"", "a", "a/b", "a/c", "d"} {
		if err := os.Chtimes(filepath.Join(dir, d), hourAgo, hourAgo); err != nil {
			t.Fatal(err)
		}
	}
	ix := build(t, dir, Options{})
	began := time.Now()
	if got := ChangedSince(ix, began, nil); len(got) != 0 {
		t.Fatalf("nothing changed, yet %q", got)
	}
	write(t, filepath.Join(dir, "a", "b", "new.go"), "")
	os.RemoveAll(filepath.Join(dir, "d"))
	got := ChangedSince(ix, began, nil)
	slices.Sort(got)
	want := []string{dir, filepath.Join(dir, "a", "b"), filepath.Join(dir, "d")}
	if !slices.Equal(got, want) {
		t.Fatalf("changed since the walk: %q, want %q", got, want)
	}
}

// TestAbsAtFilesReplaced: an index whose Files were put in place of the
// ones the walk made (a copy, a path changed) no longer reads absolute
// paths in front of them; each is made from its root and path.
func TestAbsAtFilesReplaced(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"a/b.go", "c.go"} {
		write(t, filepath.Join(dir, p), "")
	}
	ix := build(t, dir, Options{})
	checkAbs(t, ix)
	ix.files = slices.Clone(ix.files)
	ix.files[1].Path = "d.go"
	for i, f := range ix.files {
		if got, want := ix.AbsAt(i), filepath.Join(ix.Roots[0], f.Path); got != want {
			t.Errorf("AbsAt(%d) = %q, want %q", i, got, want)
		}
	}
}

// TestAffected: the files at or under paths, found by search, are what
// reading every file of the index and testing each against the paths
// finds (the reference below) — in index order, once each, a name that
// only begins like a directory's not taken for inside it, with the known
// files under the paths after them.
func TestAffected(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	for _, p := range []string{"src/a.txt", "src/a-b/x.go", "src/a/x.go", "src/a/y/z.go", "src/ab.go", "top.go", "src/b.go"} {
		write(t, filepath.Join(a, p), "")
	}
	write(t, filepath.Join(b, "only.go"), "")
	roots, err := CleanRoots([]string{a, b})
	if err != nil {
		t.Fatal(err)
	}
	ix := Build(roots, Options{})
	goOnly := func(rel string) bool { return strings.HasSuffix(rel, ".go") }
	known := []string{filepath.Join(roots[0], "src/a/gone.go"), filepath.Join(roots[0], "src/a/x.go"), filepath.Join(roots[0], "src/a-b/gone.go"), filepath.Join(roots[1], "gone.go")}
	slices.Sort(known)
	knownUnder := func(p string) []string {
		return pathtable.New(known, make([]struct{}, len(known))).Under(p, filepath.Separator)
	}
	for _, c := range [][]string{
		{filepath.Join(roots[0], "src/a")},
		{filepath.Join(roots[0], "src/a/x.go"), filepath.Join(roots[0], "src/a")},
		{filepath.Join(roots[0], "src")},
		{roots[0]},
		{roots[1], filepath.Join(roots[0], "top.go")},
		{filepath.Dir(roots[0])},
		{filepath.Join(roots[0], "nothing/here")},
		{"/elsewhere/x.go"},
		{filepath.Join(roots[0], "src/") + "/a/"},
	} {
		for _, want := range []func(string) bool{nil, goOnly} {
			got := Affected(ix, c, knownUnder, want)
			ref := affectedByReading(ix, c, known, want)
			if !slices.Equal(got, ref) {
				t.Errorf("Affected(%q, filtered %v) = %q, reading every file %q", c, want != nil, got, ref)
			}
		}
	}
}

// affectedByReading is Affected as it was: every file of ix tested.
func affectedByReading(ix *Index, paths, known []string, want func(rel string) bool) []string {
	under := underAny(paths)
	seen := map[string]bool{}
	var out []string
	for i, f := range ix.Files() {
		if want != nil && !want(f.Path) {
			continue
		}
		if abs := ix.AbsAt(i); under(abs) && !seen[abs] {
			seen[abs] = true
			out = append(out, abs)
		}
	}
	for _, abs := range known {
		if !seen[abs] && under(abs) {
			seen[abs] = true
			out = append(out, abs)
		}
	}
	return out
}

// underAny returns a test of whether an absolute path is one of paths or
// inside one of them: a set and a walk up the path's parents, so checking
// every file of an index costs files × depth, not files × paths.
func underAny(paths []string) func(abs string) bool {
	named := make(map[string]bool, len(paths))
	for _, p := range paths {
		named[filepath.Clean(p)] = true
	}
	return func(f string) bool {
		for p := f; ; {
			if named[p] {
				return true
			}
			parent := filepath.Dir(p)
			if parent == p {
				return false
			}
			p = parent
		}
	}
}
