package workspace

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
)

// TestVerifyFindsWhatChanged applies random churn nobody reports (files
// and directories created, deleted, renamed; ignore files edited) and
// checks that Update told only what Verify found agrees with a full walk
// — and that Verify finds nothing when nothing changed.
func TestVerifyFindsWhatChanged(t *testing.T) {
	for seed := int64(1); seed <= 12; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewSource(seed))
			dir := t.TempDir()
			opt := Options{IncludeDirs: []string{"keep"}, ExcludeGlobs: []string{"*.tmp"}}
			names := []string{"a", "b", "gen", "keep", "node_modules", "src", "x.go", "y.tmp", "z.txt", "build"}
			pick := func() string {
				p := ""
				for range 1 + rng.Intn(3) {
					p = filepath.Join(p, names[rng.Intn(len(names))])
				}
				return filepath.Join(dir, p)
			}
			roots, err := CleanRoots([]string{dir})
			must(t, err)
			ix := Build(roots, opt)
			for step := 0; step < 40; step++ {
				if got := Verify(ix, opt); len(got) != 0 {
					t.Fatalf("step %d: nothing changed, yet %q", step, got)
				}
				for range 1 + rng.Intn(3) {
					abs := pick()
					switch op := rng.Intn(10); {
					case op < 4:
						if os.MkdirAll(filepath.Dir(abs), 0o755) == nil {
							_ = os.WriteFile(abs, nil, 0o644)
						}
					case op < 6:
						os.RemoveAll(abs)
					case op < 8:
						to := pick()
						if os.MkdirAll(filepath.Dir(to), 0o755) == nil {
							_ = os.Rename(abs, to)
						}
					default:
						pats := []string{"gen/", "*.txt", "!keep.txt", "b", "/src"}
						if os.MkdirAll(filepath.Dir(abs), 0o755) == nil {
							_ = os.WriteFile(filepath.Join(filepath.Dir(abs), ".gitignore"), []byte(pats[rng.Intn(len(pats))]+"\n"), 0o644)
						}
					}
				}
				changed := Verify(ix, opt)
				ix, _ = Update(ix, opt, changed)
				want := Build(roots, opt)
				if !SameFiles(ix, want) {
					t.Fatalf("step %d (verify found %q):\nupdate %s %v %v\nwalk   %s %v %v", step, changed,
						paths(ix), ix.Dirs, ix.Skipped, paths(want), want.Dirs, want.Skipped)
				}
				checkAbs(t, ix)
			}
		})
	}
}
