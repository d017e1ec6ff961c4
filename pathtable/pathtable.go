// Package pathtable is a table of paths and their values in path order,
// kept as an immutable base and a small overlay of what changed since.
//
// The base is two sorted arrays, shared by every table made from it and
// never written. A change (With) makes a new table whose overlay holds
// each changed path, in order: a value, shadowing the base's entry of
// that path if it has one, or a tombstone where a path was removed. A
// change then costs the overlay, not the base. Once the overlay reaches
// overlayLimit of the base, a change compacts base and overlay into a
// new base.
//
// Values are handed out as pointers into the table that holds them:
// stable for that table's life, and equal between two tables exactly
// when the value was carried over from one to the other unchanged.
package pathtable

import (
	"iter"
	"math"
	"slices"
	"strings"
)

// Table is a set of paths (sorted, distinct) and a value of each. The
// zero value is empty. A Table is immutable: safe for concurrent reads.
type Table[V any] struct {
	paths []string // the base, sorted
	vals  []V      // the base's values, by position
	over  []change[V]
	n     int // paths present
}

// change is an overlay entry: path set to val, or removed.
type change[V any] struct {
	path string
	val  V
	// at is where path is, or would go, in the base (its first path ≥
	// path); shadows says the base holds path at at.
	at      int
	shadows bool
	removed bool
}

// New is a table of paths, which must be sorted and distinct, and their
// values; it keeps both arrays as its base.
func New[V any](paths []string, vals []V) *Table[V] {
	if len(paths) != len(vals) {
		panic("pathtable: paths and values differ in length")
	}
	return &Table[V]{paths: paths, vals: vals, n: len(paths)}
}

// Of is a table of paths, distinct, in any order, and their values: New
// when they are sorted already (a workspace's files, root by root, in a
// single root), else sorted into a base first (several roots, whose own
// order need not be their paths').
func Of[V any](paths []string, vals []V) *Table[V] {
	if slices.IsSorted(paths) {
		return New(paths, vals)
	}
	return (&Table[V]{}).With(paths, vals, slices.Repeat([]bool{true}, len(paths)), nil).Compacted()
}

// Len is the number of paths in the table.
func (t *Table[V]) Len() int {
	if t == nil {
		return 0
	}
	return t.n
}

// overlayLimit is the largest overlay kept beside a base of n paths.
// A change copies the overlay and a compaction the base: an overlay of
// at most √n paths makes both cost at most √n copies a changed path
// (the compaction's n spread over the √n paths that led to it).
func overlayLimit(n int) int { return max(int(math.Sqrt(float64(n))), 1) }

// Get is path's value, nil when the table does not hold path.
func (t *Table[V]) Get(path string) *V {
	if t == nil {
		return nil
	}
	if i, ok := slices.BinarySearchFunc(t.over, path, byPath); ok {
		if t.over[i].removed {
			return nil
		}
		return &t.over[i].val
	}
	if i, ok := slices.BinarySearch(t.paths, path); ok {
		return &t.vals[i]
	}
	return nil
}

func byPath[V any](c change[V], path string) int { return strings.Compare(c.path, path) }

// Cursor is Get for paths asked in ascending order: one pass over the
// table instead of a search a path.
func (t *Table[V]) Cursor() func(path string) *V {
	if t == nil {
		return func(string) *V { return nil }
	}
	i, j := 0, 0
	return func(path string) *V {
		for j < len(t.over) && t.over[j].path < path {
			j++
		}
		if j < len(t.over) && t.over[j].path == path {
			if t.over[j].removed {
				return nil
			}
			return &t.over[j].val
		}
		for i < len(t.paths) && t.paths[i] < path {
			i++
		}
		if i < len(t.paths) && t.paths[i] == path {
			return &t.vals[i]
		}
		return nil
	}
}

// All is every path and its value, in path order.
func (t *Table[V]) All() iter.Seq2[string, *V] {
	return func(yield func(string, *V) bool) {
		if t == nil {
			return
		}
		i := 0
		for j := range t.over {
			c := &t.over[j]
			for ; i < c.at; i++ {
				if !yield(t.paths[i], &t.vals[i]) {
					return
				}
			}
			if c.shadows {
				i++
			}
			if !c.removed && !yield(c.path, &c.val) {
				return
			}
		}
		for ; i < len(t.paths); i++ {
			if !yield(t.paths[i], &t.vals[i]) {
				return
			}
		}
	}
}

// Under is every path of the table that is prefix or starts with
// prefix+sep, in path order: the files at or under a path.
func (t *Table[V]) Under(prefix string, sep byte) []string {
	if t == nil {
		return nil
	}
	var out []string
	dir := prefix
	if !strings.HasSuffix(dir, string(sep)) {
		dir += string(sep)
	}
	// Paths under dir are one run of the sorted paths, prefix itself just
	// before it (sep sorts after nothing that matters: a path p+"!" may
	// come between them, and is skipped).
	lo, _ := slices.BinarySearch(t.paths, prefix)
	olo, _ := slices.BinarySearchFunc(t.over, prefix, byPath)
	in := func(p string) bool { return p == prefix || strings.HasPrefix(p, dir) }
	i, j := lo, olo
	for {
		// Skip what lies between prefix and dir's run (prefix+"!" and the
		// like) in both lists.
		for i < len(t.paths) && !in(t.paths[i]) && t.paths[i] < dir {
			i++
		}
		for j < len(t.over) && !in(t.over[j].path) && t.over[j].path < dir {
			j++
		}
		bi := i < len(t.paths) && in(t.paths[i])
		oj := j < len(t.over) && in(t.over[j].path)
		switch {
		case !bi && !oj:
			return out
		case oj && (!bi || t.over[j].path <= t.paths[i]):
			c := &t.over[j]
			if bi && t.paths[i] == c.path {
				i++
			}
			if !c.removed {
				out = append(out, c.path)
			}
			j++
		default:
			out = append(out, t.paths[i])
			i++
		}
	}
}

// With is t with paths changed: path k set to vals[k] when keep[k],
// else removed. paths may come in any order; a path given twice takes
// its last. t is unchanged. changed, when set, hears each path changed
// once: its value in t (was) and in the new table (now), nil where it
// has none, so that a caller keeping a total over the values (the text
// files, the symbols) counts what changed.
func (t *Table[V]) With(paths []string, vals []V, keep []bool, changed func(was, now *V)) *Table[V] {
	if t == nil {
		t = &Table[V]{}
	}
	order := make([]int, len(paths))
	for k := range order {
		order[k] = k
	}
	slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(paths[a], paths[b]) })
	// The changes, in order, one a path (the last given: the sort is
	// stable), merged with the overlay's.
	over := make([]change[V], 0, len(t.over)+len(paths))
	j := 0
	for n, k := range order {
		p := paths[k]
		if n+1 < len(order) && paths[order[n+1]] == p {
			continue
		}
		for j < len(t.over) && t.over[j].path < p {
			over = append(over, t.over[j])
			j++
		}
		at, shadows := slices.BinarySearch(t.paths, p)
		if changed != nil {
			var was, now *V
			switch {
			case j < len(t.over) && t.over[j].path == p:
				if !t.over[j].removed {
					was = &t.over[j].val
				}
			case shadows:
				was = &t.vals[at]
			}
			if keep[k] {
				now = &vals[k]
			}
			changed(was, now)
		}
		if j < len(t.over) && t.over[j].path == p {
			j++
		}
		if !keep[k] && !shadows {
			continue // removing what the base never had: nothing to mark
		}
		c := change[V]{path: p, at: at, shadows: shadows, removed: !keep[k]}
		if keep[k] {
			c.val = vals[k]
		}
		over = append(over, c)
	}
	over = append(over, t.over[j:]...)
	n := len(t.paths)
	for k := range over {
		switch c := &over[k]; {
		case c.shadows && c.removed:
			n--
		case !c.shadows && !c.removed:
			n++
		}
	}
	next := &Table[V]{paths: t.paths, vals: t.vals, over: over, n: n}
	if len(over) > overlayLimit(len(t.paths)) {
		return next.Compacted()
	}
	return next
}

// Compacted is t with its overlay merged into a new base: t itself when
// it has no overlay.
func (t *Table[V]) Compacted() *Table[V] {
	if t == nil || len(t.over) == 0 {
		return t
	}
	paths, vals := make([]string, 0, t.n), make([]V, 0, t.n)
	for p, v := range t.All() {
		paths, vals = append(paths, p), append(vals, *v)
	}
	return New(paths, vals)
}

// Repointed is t compacted with its paths replaced by repoint's strings
// of them (the same paths, in order, other strings); t as it is when
// repoint declines (ok false).
func (t *Table[V]) Repointed(repoint func(paths []string) ([]string, bool)) *Table[V] {
	c := t.Compacted()
	if c == nil {
		return t
	}
	paths, ok := repoint(c.paths)
	if !ok || len(paths) != len(c.paths) {
		return t
	}
	return &Table[V]{paths: paths, vals: c.vals, n: c.n}
}

// Overlay is the number of paths in t's overlay: changed since its base.
func (t *Table[V]) Overlay() int {
	if t == nil {
		return 0
	}
	return len(t.over)
}
