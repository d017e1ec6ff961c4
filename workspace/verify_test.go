package workspace

import "testing"

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
