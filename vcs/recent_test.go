package vcs

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"wayfind/vcs/vcstest"
)

// TestRecent: the kept commits, oldest first, each its author's key and
// its files as named today — touched, and of them edited in place; a
// bot's commit left out, a file deleted since left out, a commit that
// only deletes not kept; across an incremental read, and the same after
// a save and a load.
func TestRecent(t *testing.T) {
	r := vcstest.New(t)
	as := func(who, msg string) {
		r.Git("add", "-A")
		r.Git("commit", "-q", "--author="+who, "-m", msg)
	}
	r.Write("a.go", vcstest.Text("a", 20))
	r.Write("b.go", vcstest.Text("b", 20))
	r.Write("gone.go", vcstest.Text("gone", 20))
	as("t <t@example.invalid>", "start")
	r.Write("a.go", vcstest.Text("a", 21))
	r.Write("c.go", vcstest.Text("c", 20))
	as("o <o@example.invalid>", "a edited, c added")
	r.Write("go.sum", "x\n")
	as("dependabot[bot] <49699333+dependabot[bot]@users.noreply.github.com>", "bump")
	r.Mv("b.go", "pkg/b.go")
	r.Write("gone.go", vcstest.Text("gone", 21))
	as("t <t@example.invalid>", "b moved, gone edited")
	rec := build(t, r.Dir, nil)
	r.Git("rm", "-q", "gone.go")
	as("o <o@example.invalid>", "gone deleted")
	rec = build(t, r.Dir, rec) // read on from where it was

	tk, ok := AuthorKey("t@example.invalid"), AuthorKey("o@example.invalid")
	want := []Work{
		{Author: tk, Touched: []string{"a.go", "pkg/b.go"}},
		{Author: ok, Touched: []string{"a.go", "c.go"}, Edited: []string{"a.go"}},
		{Author: tk, Touched: []string{"pkg/b.go"}}, // gone.go since deleted
		// The delete touched nothing a file of today carries: not kept.
	}
	norm := func(ws []Work) []Work {
		for i := range ws {
			slices.Sort(ws[i].Touched)
			slices.Sort(ws[i].Edited)
		}
		return ws
	}
	if got := norm(rec.Recent()); !reflect.DeepEqual(got, want) {
		t.Fatalf("recent %+v\nwant   %+v", got, want)
	}
	dir := t.TempDir()
	if err := Save(dir, rec); err != nil {
		t.Fatal(err)
	}
	back, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := norm(back.Recent()); !reflect.DeepEqual(got, want) {
		t.Fatalf("loaded %+v", got)
	}
}

// TestRecentKeepsTheLatest: past RecentCommits the oldest goes; a bot's
// commit, a commit of the whole tree and one touching nothing are not
// kept.
func TestRecentKeepsTheLatest(t *testing.T) {
	r := newRecord()
	for i := range RecentCommits + 3 {
		r.keepRecent(fmt.Sprint(i, "@example.invalid"), []int32{1, 1, 2}, []int32{1})
	}
	r.keepRecent("renovate[bot]@example.invalid", []int32{3}, nil)
	r.keepRecent("x@example.invalid", make([]int32, AuthoredCommitFiles+1), nil)
	r.keepRecent("x@example.invalid", nil, nil)
	if len(r.recent) != RecentCommits || r.recent[0].Author != AuthorKey("3@example.invalid") ||
		r.recent[len(r.recent)-1].Author != AuthorKey(fmt.Sprint(RecentCommits+2, "@example.invalid")) {
		t.Fatalf("kept %d, first %x", len(r.recent), r.recent[0].Author)
	}
	if c := r.recent[0]; !slices.Equal(c.Touched, []int32{1, 2}) || !slices.Equal(c.Edited, []int32{1}) {
		t.Fatalf("a commit's lineages %+v, want each once", c)
	}
}
