package content

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestWithMerges: an index with files re-read (Indexer.update's partial
// pass) holds what a map of every file, changed and sorted again, holds:
// files added among, before and after the others, changed, dropped,
// given twice (the last stands), unknown and dropped (nothing).
func TestWithMerges(t *testing.T) {
	f := func(size int64) *filter { return &filter{bits: []uint64{uint64(size)}, size: size} }
	old := newIndex([]string{"/r/b", "/r/d", "/r/f"}, []filter{*f(1), *f(2), *f(3)})
	for _, c := range []struct {
		name  string
		files []string
		got   []*filter
		want  string
	}{
		{"nothing", nil, nil, "/r/b:1 /r/d:2 /r/f:3"},
		{"added first, among, last", []string{"/r/g", "/r/a", "/r/c"}, []*filter{f(7), f(5), f(6)}, "/r/a:5 /r/b:1 /r/c:6 /r/d:2 /r/f:3 /r/g:7"},
		{"changed and dropped", []string{"/r/f", "/r/b"}, []*filter{f(9), nil}, "/r/d:2 /r/f:9"},
		{"given twice", []string{"/r/d", "/r/e", "/r/d", "/r/e"}, []*filter{f(8), f(4), nil, f(5)}, "/r/b:1 /r/e:5 /r/f:3"},
		{"unknown dropped", []string{"/r/zz"}, []*filter{nil}, "/r/b:1 /r/d:2 /r/f:3"},
		{"all dropped", []string{"/r/b", "/r/d", "/r/f"}, []*filter{nil, nil, nil}, ""},
	} {
		got := show(old.with(c.files, c.got))
		// The reference: every file in a map, the changes applied, sorted.
		m := map[string]filter{}
		for p, f := range old.all() {
			m[p] = *f
		}
		for i, p := range c.files {
			if c.got[i] == nil {
				delete(m, p)
			} else {
				m[p] = *c.got[i]
			}
		}
		if ref := show(indexOf(m)); got != c.want || ref != c.want {
			t.Errorf("%s: merged %q, through a map %q, want %q", c.name, got, ref, c.want)
		}
	}
	if show(old) != "/r/b:1 /r/d:2 /r/f:3" {
		t.Errorf("the old index changed: %s", show(old))
	}
}

// contents is every path of ix and its filter, in order.
func contents(ix *Index) (paths []string, filters []filter) {
	for p, f := range ix.all() {
		paths, filters = append(paths, p), append(filters, *f)
	}
	return paths, filters
}

func show(ix *Index) string {
	var out []string
	paths, filters := contents(ix)
	for i, p := range paths {
		out = append(out, p+":"+string(rune('0'+filters[i].size)))
	}
	if !slices.IsSorted(paths) || ix.text != len(paths) {
		return "unsorted or miscounted: " + strings.Join(out, " ")
	}
	return strings.Join(out, " ")
}

// indexOf is the reference index of filters by absolute path: the map's
// paths sorted.
func indexOf(m map[string]filter) *Index {
	paths := slices.Sorted(maps.Keys(m))
	filters := make([]filter, len(paths))
	for i, p := range paths {
		filters[i] = m[p]
	}
	return newIndex(paths, filters)
}
