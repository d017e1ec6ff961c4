package main

import (
	"slices"
	"testing"

	"wayfind/vcs/vcstest"
)

// TestNamesAsTheyAre: a name with bytes outside ASCII comes as it is from
// the tree and from the sessions' log alike — git would quote it, and a
// quoted name is no file of the tree, so its questions were lost.
func TestNamesAsTheyAre(t *testing.T) {
	r := vcstest.New(t)
	for _, p := range []string{"docs/README.md", "第一阶段/README.md"} {
		r.Write(p, vcstest.Text(p, 3))
	}
	base := r.Commit("the files")
	r.Write("第一阶段/README.md", vcstest.Text("again", 4))
	r.Commit("an edit")
	tree, err := gitTree(r.Dir, base)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"docs/README.md", "第一阶段/README.md"}; !slices.Equal(tree, want) {
		t.Errorf("tree: %q, want %q", tree, want)
	}
	got, commits, err := sessionLog(r.Dir, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got != base || len(commits) != 1 || !slices.Equal(commits[0].edited, []string{"第一阶段/README.md"}) {
		t.Errorf("log: base %s, commits %+v; want base %s and the edit as named", got, commits, base)
	}
}
