package pathtable

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// contents is every path of t and its value, in order, through All.
func contents(t *Table[int]) ([]string, []int) {
	var paths []string
	var vals []int
	for p, v := range t.All() {
		paths, vals = append(paths, p), append(vals, *v)
	}
	return paths, vals
}

func sum(t *Table[int]) int {
	n := 0
	for _, v := range t.All() {
		n += *v
	}
	return n
}

func tableOf(m map[string]int) *Table[int] {
	paths := slices.Sorted(maps.Keys(m))
	vals := make([]int, len(paths))
	for i, p := range paths {
		vals[i] = m[p]
	}
	return New(paths, vals)
}

// TestWithMatchesAMap applies random changes (sets, removals, a path
// named twice, paths the table never had) to a table and to a map, and
// checks after each that every read of the table — All, Get, Cursor,
// Len, Under — says what the map does, across overlays and compactions.
func TestWithMatchesAMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	dirs := []string{"/r", "/r/a", "/r/a/b", "/r/a-b", "/r/ab", "/r/a.b", "/s"}
	name := func() string { return fmt.Sprintf("%s/f%d", dirs[rng.IntN(len(dirs))], rng.IntN(40)) }
	for _, start := range []int{0, 1, 30, 200} {
		want := map[string]int{}
		for range start {
			want[name()] = rng.IntN(1000)
		}
		tab := tableOf(want)
		compactions := 0
		for step := range 300 {
			n := 1 + rng.IntN(4)
			if rng.IntN(20) == 0 {
				n = 40 // a batch past the overlay's limit
			}
			var paths []string
			var vals []int
			var keep []bool
			for range n {
				p := name()
				if len(paths) > 0 && rng.IntN(5) == 0 {
					p = paths[rng.IntN(len(paths))] // named twice: the last holds
				}
				k := rng.IntN(3) != 0
				v := rng.IntN(1000)
				paths, vals, keep = append(paths, p), append(vals, v), append(keep, k)
			}
			before, beforePaths := tab, slices.Collect(func(yield func(string) bool) {
				for p := range tab.All() {
					if !yield(p) {
						return
					}
				}
			})
			// A total over the values kept by what With says changed.
			total := sum(tab)
			tab = tab.With(paths, vals, keep, func(was, now *int) {
				if was != nil {
					total -= *was
				}
				if now != nil {
					total += *now
				}
			})
			for i, p := range paths {
				if keep[i] {
					want[p] = vals[i]
				} else {
					delete(want, p)
				}
			}
			if s := sum(tab); total != s {
				t.Fatalf("start %d, step %d: the total kept by the changes is %d, the table's %d", start, step, total, s)
			}
			if tab.Overlay() == 0 {
				compactions++
			}
			check(t, fmt.Sprintf("start %d, step %d", start, step), tab, want)
			if got, _ := contents(before); !slices.Equal(got, beforePaths) {
				t.Fatalf("start %d, step %d: With changed the table it was called on", start, step)
			}
		}
		if compactions == 0 {
			t.Errorf("start %d: no change compacted", start)
		}
		if c := tab.Compacted(); c.Overlay() != 0 {
			t.Errorf("start %d: Compacted kept an overlay of %d", start, c.Overlay())
		} else {
			check(t, fmt.Sprintf("start %d, compacted", start), c, want)
		}
	}
}

func check(t *testing.T, at string, tab *Table[int], want map[string]int) {
	t.Helper()
	paths, vals := contents(tab)
	wantPaths := slices.Sorted(maps.Keys(want))
	if !slices.Equal(paths, wantPaths) {
		t.Fatalf("%s: paths %q, want %q", at, paths, wantPaths)
	}
	for i, p := range paths {
		if vals[i] != want[p] {
			t.Fatalf("%s: %s is %d, want %d", at, p, vals[i], want[p])
		}
	}
	if tab.Len() != len(want) {
		t.Fatalf("%s: Len %d, want %d", at, tab.Len(), len(want))
	}
	cur := tab.Cursor()
	for _, p := range []string{"/a", "/r/a", "/r/a/b/f3", "/r/a/f1", "/r/ab/f7", "/s/f39", "/t"} {
		v, ok := want[p]
		g := tab.Get(p)
		c := cur(p)
		if (g != nil) != ok || ok && *g != v {
			t.Fatalf("%s: Get(%s) = %v, want %d (%v)", at, p, g, v, ok)
		}
		if c != g {
			t.Fatalf("%s: Cursor(%s) gave another pointer than Get", at, p)
		}
	}
	for _, dir := range []string{"/r", "/r/a", "/r/a/b", "/r/ab", "/s", "/s/f1", "/q"} {
		var under []string
		for _, p := range wantPaths {
			if p == dir || strings.HasPrefix(p, dir+"/") {
				under = append(under, p)
			}
		}
		if got := tab.Under(dir, '/'); !slices.Equal(got, under) {
			t.Fatalf("%s: Under(%s) = %q, want %q", at, dir, got, under)
		}
	}
}

// TestCarriedValuesKeepTheirPlace: a value a change did not touch is the
// same pointer in the new table while the base is shared, so a caller can
// tell what was carried over from what was set.
func TestCarriedValuesKeepTheirPlace(t *testing.T) {
	base := tableOf(map[string]int{"/a": 1, "/b": 2, "/c": 3})
	next := base.With([]string{"/b"}, []int{20}, []bool{true}, nil)
	if base.Get("/a") != next.Get("/a") || base.Get("/c") != next.Get("/c") {
		t.Error("an untouched value moved")
	}
	if base.Get("/b") == next.Get("/b") || *next.Get("/b") != 20 || *base.Get("/b") != 2 {
		t.Error("the changed value is not the new one, or the old table changed")
	}
}

func TestOverlayLimit(t *testing.T) {
	for _, c := range []struct{ n, want int }{{0, 1}, {1, 1}, {4, 2}, {99, 9}, {1_000_000, 1000}} {
		if got := overlayLimit(c.n); got != c.want {
			t.Errorf("overlayLimit(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}

func TestRepointed(t *testing.T) {
	tab := tableOf(map[string]int{"/a": 1, "/b": 2}).With([]string{"/c"}, []int{3}, []bool{true}, nil)
	other := []string{strings.Clone("/a"), strings.Clone("/b"), strings.Clone("/c")}
	got := tab.Repointed(func(p []string) ([]string, bool) { return other, true })
	if got.Overlay() != 0 {
		t.Error("Repointed kept an overlay")
	}
	if paths, vals := contents(got); !slices.Equal(paths, other) || !slices.Equal(vals, []int{1, 2, 3}) {
		t.Errorf("Repointed: %q %v", paths, vals)
	}
	if same := tab.Repointed(func(p []string) ([]string, bool) { return nil, false }); same != tab {
		t.Error("a declined repoint changed the table")
	}
}

// TestOf: paths in any order make the table their sorted order makes,
// with no overlay; sorted ones are kept as the base itself.
func TestOf(t *testing.T) {
	got := Of([]string{"/s/b", "/r/z", "/s/a"}, []int{1, 2, 3})
	if paths, vals := contents(got); !slices.Equal(paths, []string{"/r/z", "/s/a", "/s/b"}) || !slices.Equal(vals, []int{2, 3, 1}) || got.Overlay() != 0 {
		t.Errorf("Of, unsorted: %q %v (overlay %d)", paths, vals, got.Overlay())
	}
	sorted := []string{"/a", "/b"}
	if got := Of(sorted, []int{1, 2}); &got.paths[0] != &sorted[0] {
		t.Error("Of copied paths already sorted")
	}
}
