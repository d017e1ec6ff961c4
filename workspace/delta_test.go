package workspace

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"testing"
)

// TestDeltaAnswersAsFlat: an index Update made (a delta over its base,
// or laid flat past maxDelta) answers every question it answers without
// a flat list — Len, Contains, Has, HoldsUnder, AnyUnder, the files
// under a path (Affected), the entries of a directory (entriesOf), what
// changed (Delta, Diff) — as a flat index of the same files does, change
// after change, in churned trees laid flat every few changes; and the
// deltas are used, their bases' files removed.
func TestDeltaAnswersAsFlat(t *testing.T) {
	deltas, removed := 0, 0
	churnSeeds(t, func(t *testing.T, c *churn, ix *Index) {
		for step := 0; step < 40; step++ {
			next, _ := Update(ix, churnOptions, c.step())
			if next.delta != nil {
				deltas++
				removed += len(next.delta.removed)
			}
			flat := &Index{Roots: next.Roots, files: slices.Clone(next.Files()), Dirs: next.Dirs, Skipped: next.Skipped}
			what := fmt.Sprint("step ", step)
			if next.Len() != flat.Len() {
				t.Fatalf("%s: %d files, flat %d", what, next.Len(), flat.Len())
			}
			// Every path either index had, each directory above one, and
			// names that only begin like them.
			var asked []string
			for _, f := range slices.Concat(ix.Files(), next.Files(), next.Dirs, next.Skipped) {
				for p := f.Path; p != "." && p != ""; p = path.Dir(p) {
					asked = append(asked, p, p+"-b", p+"0")
				}
			}
			asked = append(asked, "")
			for _, p := range asked {
				if got, want := next.Contains(0, p), flat.Lookup(0, p) >= 0; got != want {
					t.Fatalf("%s: Contains(%q) %v, flat %v", what, p, got, want)
				}
				abs := filepath.Join(next.Roots[0], filepath.FromSlash(p))
				if got, want := next.Has(abs), flat.Has(abs); got != want {
					t.Fatalf("%s: Has(%q) %v, flat %v", what, p, got, want)
				}
				if got, want := next.HoldsUnder(0, p), flat.HoldsUnder(0, p); got != want {
					t.Fatalf("%s: HoldsUnder(%q) %v, flat %v", what, p, got, want)
				}
				f, ok := next.AnyUnder(0, p)
				i := flat.FirstUnder(0, p)
				if ok != (i >= 0) || ok && f != flat.files[i] {
					t.Fatalf("%s: AnyUnder(%q) %v %v, flat at %d", what, p, f, ok, i)
				}
				if got, want := fmt.Sprint(next.entriesOf(0, p)), fmt.Sprint(flat.entriesOf(0, p)); got != want {
					t.Fatalf("%s: entriesOf(%q) %s, flat %s", what, p, got, want)
				}
				none := func(string) []string { return nil }
				if got, want := Affected(next, []string{abs}, none, nil), Affected(flat, []string{abs}, none, nil); !slices.Equal(got, want) {
					t.Fatalf("%s: Affected(%q) %v, flat %v", what, p, got, want)
				}
			}
			added, gone := Delta(ix, next)
			prevFlat := &Index{Roots: ix.Roots, files: slices.Clone(ix.Files())}
			wantAdded, wantGone := Delta(prevFlat, flat)
			if fmt.Sprint(added, gone) != fmt.Sprint(wantAdded, wantGone) {
				t.Fatalf("%s: Delta %v %v, flat %v %v", what, added, gone, wantAdded, wantGone)
			}
			checkAbs(t, next)
			ix = next
			if step%8 == 7 {
				ix = ix.flat() // a new base, as a compaction makes: its files to remove
			}
		}
	})
	if deltas < 100 || removed < 100 {
		t.Errorf("%d updates made a delta, removing %d of their bases' files", deltas, removed)
	}
}
