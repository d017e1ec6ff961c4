package symbols

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"wayfind/workspace"
)

// TestTableMerged: a table with files changed keeps its paths sorted and
// each once; a change replaces, adds or drops its file, the last change
// of a file named twice holds, and the count follows.
func TestTableMerged(t *testing.T) {
	sym := func(names ...string) []Symbol {
		var out []Symbol
		for _, n := range names {
			out = append(out, Symbol{Name: n})
		}
		return out
	}
	base := TableOf(map[string][]Symbol{"/r/b.go": sym("B"), "/r/d.go": sym("D", "D2"), "/r/a.go": nil, "/r/f.go": sym("F")})
	if want := []string{"/r/a.go", "/r/b.go", "/r/d.go", "/r/f.go"}; !slices.Equal(tablePaths(base), want) || base.Len() != 4 {
		t.Fatalf("TableOf: %q, %d symbols", tablePaths(base), base.Len())
	}
	type change struct {
		file string
		syms []Symbol
		keep bool
	}
	for _, c := range []struct {
		name    string
		changes []change
		want    string // path:symbols…, in order
	}{
		{"nothing", nil, "a: b:B d:D,D2 f:F"},
		{"replace", []change{{"/r/d.go", sym("E"), true}}, "a: b:B d:E f:F"},
		{"add before, between and after", []change{{"/r/g.go", sym("G"), true}, {"/r/0.go", nil, true}, {"/r/c.go", sym("C"), true}}, "0: a: b:B c:C d:D,D2 f:F g:G"},
		{"drop", []change{{"/r/b.go", nil, false}, {"/r/f.go", nil, false}}, "a: d:D,D2"},
		{"drop one never held", []change{{"/r/c.go", nil, false}}, "a: b:B d:D,D2 f:F"},
		{"named twice, last holds", []change{{"/r/b.go", sym("X"), true}, {"/r/b.go", nil, false}}, "a: d:D,D2 f:F"},
		{"named twice, kept", []change{{"/r/e.go", nil, false}, {"/r/e.go", sym("E"), true}}, "a: b:B d:D,D2 e:E f:F"},
	} {
		var files []string
		var got []Entry
		var keep []bool
		for _, ch := range c.changes {
			files, got, keep = append(files, ch.file), append(got, Entry{Size: -1, Symbols: ch.syms}), append(keep, ch.keep)
		}
		m := base.merged(files, got, keep)
		var b strings.Builder
		n := 0
		i := -1
		for p, e := range m.files.All() {
			if i++; i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(strings.TrimSuffix(strings.TrimPrefix(p, "/r/"), ".go") + ":")
			for k, s := range e.Symbols {
				if k > 0 {
					b.WriteByte(',')
				}
				b.WriteString(s.Name)
			}
			n += len(e.Symbols)
		}
		if b.String() != c.want || m.Len() != n {
			t.Errorf("%s: %s (%d symbols counted), want %s", c.name, b.String(), m.Len(), c.want)
		}
		for _, p := range tablePaths(m) {
			if _, ok := m.Get(p); !ok {
				t.Errorf("%s: Get(%s) finds nothing", c.name, p)
			}
		}
	}
	if base.Len() != 4 || len(tablePaths(base)) != 4 {
		t.Errorf("merging changed the table merged from: %q", tablePaths(base))
	}
}

// tablePaths is every file of t, in order.
func tablePaths(t *Table) []string {
	var paths []string
	for p := range t.files.All() {
		paths = append(paths, p)
	}
	return paths
}

// TestSyncStopsWhenCancelled: a pass whose context is done stops before
// it stats the tree's files (plan), rather than stat every file of a
// large tree as its session closes; a pass not cancelled stats them all.
func TestSyncStopsWhenCancelled(t *testing.T) {
	files := map[string]string{}
	for i := range 3 * planBatch {
		files[fmt.Sprintf("pkg/f%03d.go", i)] = "package pkg\n"
	}
	dir := writeTree(t, files)
	roots, _ := workspace.CleanRoots([]string{dir})
	ix := workspace.Build(roots, workspace.Options{})
	for _, tc := range []struct {
		name      string
		cancelled bool
		paces     int // at least, before each planBatch stats and each parse
		err       error
	}{
		{"cancelled", true, 0, context.Canceled},
		{"running", false, 3, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.cancelled {
				cancel()
			}
			paces := 0
			x := NewIndexer(IndexerOptions{CacheDir: "-", Pace: func() { paces++ }, Workers: 1})
			_, _, err := x.Sync(ctx, ix)
			if !errors.Is(err, tc.err) {
				t.Fatalf("Sync: %v, want %v", err, tc.err)
			}
			if tc.cancelled && paces != 0 || !tc.cancelled && paces < tc.paces {
				t.Errorf("Pace called %d times, want %s%d", paces, map[bool]string{true: "", false: "at least "}[tc.cancelled], tc.paces)
			}
		})
	}
}
