package rank

import (
	"context"
	"fmt"
	"testing"

	"wayfind/vcs"
	"wayfind/vcs/vcstest"
	"wayfind/workspace"
)

// fakeWork is a repository's history as a replay reads it: recent
// commits, and each file's commits before them (no co-change).
type fakeWork struct {
	work    []vcs.Work
	changes map[string]int
}

func (f *fakeWork) Recent() []vcs.Work               { return f.work }
func (f *fakeWork) Changes(p string) int             { return f.changes[p] }
func (f *fakeWork) CoChanged(string) []vcs.Partner   { return nil }
func (f *fakeWork) CoChangedBy(string) []vcs.Partner { return nil }
func (f *fakeWork) commit(author uint64, files ...string) {
	f.work = append(f.work, vcs.Work{Author: author, Touched: files, Edited: files})
	for _, p := range files {
		f.changes[p]++
	}
}

// sessions is a history of n people, each working in their own plugin's
// directory and then editing one config.go: the one beside their work
// (near) or the core's, which every session edits (busy).
func sessions(n int, busy bool) (*fakeWork, func(string) []string) {
	f := &fakeWork{changes: map[string]int{"core/config.go": 50}}
	copies := []string{"core/config.go"}
	for k := range n {
		dir := fmt.Sprintf("plugins/p%d", k)
		copies = append(copies, dir+"/config.go")
		f.changes[dir+"/config.go"] = 1
		f.commit(uint64(k), dir+"/plugin.go")
		if busy {
			f.commit(uint64(k), "core/config.go")
		} else {
			f.commit(uint64(k), dir+"/config.go")
		}
	}
	return f, func(base string) []string {
		if base == "config.go" {
			return copies[:min(len(copies), maxReplayCopies)]
		}
		return nil
	}
}

func TestLearnTieWeights(t *testing.T) {
	for _, tc := range []struct {
		name      string
		people    int
		busy      bool
		want      tieWeights
		wantAsked int
	}{
		// Fewer questions than minReplayQuestions: the default.
		{"too little work", minReplayQuestions - 1, true, defaultTieWeights, minReplayQuestions - 1},
		// People edit the copy beside their work: nearness alone (the
		// first weighting to answer all; the default answers all too, and
		// is kept: nothing beats it).
		{"the copy beside the work", 30, false, defaultTieWeights, 30},
		// People edit the core's copy whatever they worked on: the first
		// weighting to answer every question — activity as much as
		// nearness (the plugin's copy: nearness 1 ÷ 2.5 with the author's
		// own commits in the divisor, activity 1/9; the core's: nearness
		// 0, activity past 0.86 — ahead only at activity's full weight).
		{"the copy everyone edits", 30, true, tieWeights{1, 1}, 30},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, copiesOf := sessions(tc.people, tc.busy)
			got, asked := learnTieWeights(f, copiesOf)
			if got != tc.want || asked != tc.wantAsked {
				t.Fatalf("got %+v after %d questions, want %+v after %d", got, asked, tc.want, tc.wantAsked)
			}
		})
	}
}

// TestReplayFirst pins the replay's reading of find's tie-break: a test
// copy after the source whatever its nearness, the user not among tests;
// nearness against activity as weighed; equal scores by path.
func TestReplayFirst(t *testing.T) {
	near := replayCopy{path: "pkg/a/x.go", aff: 1, act: 0.1}
	busy := replayCopy{path: "core/x.go", aff: 0, act: 0.9}
	test := replayCopy{path: "pkg/a/x_test/x.go", aff: 1, act: 1, penalized: true}
	for _, tc := range []struct {
		tw   tieWeights
		cs   []replayCopy
		want string
	}{
		{defaultTieWeights, []replayCopy{busy, near}, near.path},
		{tieWeights{0.25, 1}, []replayCopy{near, busy}, busy.path},
		{tieWeights{1, 1}, []replayCopy{test, busy}, busy.path},
		{tieWeights{0, 0}, []replayCopy{near, busy}, busy.path}, // the shorter path
	} {
		if got := replayFirst(tc.cs, tc.tw); got != tc.want {
			t.Errorf("%+v over %v: %s, want %s", tc.tw, tc.cs, got, tc.want)
		}
	}
}

// TestFixTieWeights: a history given weighting k gives it for its root,
// having replayed nothing; a weighting out of range is an error.
func TestFixTieWeights(t *testing.T) {
	r := vcstest.New(t)
	r.Write("a/config.go", vcstest.Text("a", 3))
	r.Write("b/config.go", vcstest.Text("b", 3))
	r.Commit("two configs")
	roots, err := workspace.CleanRoots([]string{r.Dir})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := vcs.Build(context.Background(), roots[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	for k := -1; k <= TieWeightings(); k++ {
		t.Run(fmt.Sprint(k), func(t *testing.T) {
			h := NewRepoHistory(roots, []*vcs.Record{rec})
			err := h.FixTieWeights(k)
			if k < 0 || k >= TieWeightings() {
				if err == nil {
					t.Fatalf("weighting %d of %d: no error", k, TieWeightings())
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			near, act, replayed := New(workspace.Build(roots, workspace.Options{})).WithRepoHistory(h).TieWeights(0)
			if want := tieWeightsTried[k]; near != want.near || act != want.act || replayed != 0 {
				t.Fatalf("got %v, %v after %d questions, want %+v after none", near, act, replayed, want)
			}
			// Learned first: the weighting stays, and fixing it fails.
			learned := NewRepoHistory(roots, []*vcs.Record{rec})
			New(workspace.Build(roots, workspace.Options{})).WithRepoHistory(learned).TieWeights(0)
			if err := learned.FixTieWeights(k); (err == nil) != (tieWeightsTried[k] == defaultTieWeights) {
				t.Fatalf("fixing weighting %d after learning the default: %v", k, err)
			}
		})
	}
}
