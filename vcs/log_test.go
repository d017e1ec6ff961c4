package vcs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wayfind/vcs/vcstest"
)

// renamedWithEdits makes a history of n files each renamed with an edit
// (git pairs them only by similarity), one commit a rename, and returns
// the repository and the blob of each file before its rename.
func renamedWithEdits(t *testing.T, n int) (*vcstest.Repo, []string) {
	r := vcstest.New(t)
	names := make([]string, n)
	for i := range names {
		names[i] = "old/file" + string(rune('a'+i)) + ".c"
		r.Write(names[i], vcstest.Text(names[i], 40))
	}
	r.Commit("start")
	blobs := make([]string, n)
	for i, p := range names {
		blobs[i] = r.Git("rev-parse", "HEAD:"+p)
		to := "new/" + strings.TrimSuffix(strings.TrimPrefix(p, "old/"), ".c") + "_v2.c"
		r.Mv(p, to)
		r.Write(to, vcstest.Text(p, 40)+"an edit with the move\n")
		r.Commit("move " + p)
	}
	return r, blobs
}

// dropObject deletes a loose object from the repository's store.
func dropObject(t *testing.T, dir, hash string) {
	t.Helper()
	if err := os.Remove(filepath.Join(dir, ".git", "objects", hash[:2], hash[2:])); err != nil {
		t.Fatal(err)
	}
}

// A store missing one blob that one commit's rename detection compares:
// that commit's rename is read exactly (here: not at all, the content
// changed), every other commit's by similarity.
func TestMissingBlobOneCommitExact(t *testing.T) {
	r, blobs := renamedWithEdits(t, 4)
	whole := build(t, r.Dir, nil)
	if whole.Detection != Similarity {
		t.Fatalf("whole store: detection %q", whole.Detection)
	}
	dropObject(t, r.Dir, blobs[1])
	rec := build(t, r.Dir, nil)
	if rec.Detection != Mixed {
		t.Errorf("detection %q, want mixed", rec.Detection)
	}
	for i, want := range []string{"new/filea_v2.c", "", "new/filec_v2.c", "new/filed_v2.c"} {
		old := "old/file" + string(rune('a'+i)) + ".c"
		f, ok := rec.Fate(old)
		switch {
		case want == "" && !(ok && f.Deleted && f.Unsure):
			t.Errorf("%s: %+v %v, want deleted, unsure (its rename needed the missing blob)", old, f, ok)
		case want != "" && (!ok || f.Path != want):
			t.Errorf("%s: %+v %v, want %s", old, f, ok, want)
		}
	}
	if rec.Renames != whole.Renames-1 {
		t.Errorf("renames %d, want %d", rec.Renames, whole.Renames-1)
	}
}

// One commit moves several files with edits, and the store lacks the
// blob of one of them: git is given the pairs it can read, so the others
// are still renames; the one it could not compare is paired by its name
// when one file the commit adds has it, else an unsure delete.
func TestMissingBlobOtherPairsRead(t *testing.T) {
	r := vcstest.New(t)
	names := []string{"lib/a.py", "lib/b.py", "lib/c.py", "lib/d.py"}
	blobs := map[string]string{}
	for _, p := range names {
		r.Write(p, vcstest.Text(p, 40))
	}
	r.Commit("start")
	moved := map[string]string{"lib/a.py": "src/lib/a.py", "lib/b.py": "src/lib/b.py", "lib/c.py": "src/lib/c.py", "lib/d.py": "src/lib/dee.py"}
	for _, p := range names {
		blobs[p] = r.Git("rev-parse", "HEAD:"+p)
		r.Mv(p, moved[p])
		r.Write(moved[p], vcstest.Text(p, 40)+"an edit with the move\n")
	}
	r.Commit("move lib into src")
	dropObject(t, r.Dir, blobs["lib/b.py"])
	dropObject(t, r.Dir, blobs["lib/d.py"])
	rec := build(t, r.Dir, nil)
	if rec.Detection != Mixed {
		t.Errorf("detection %q, want mixed", rec.Detection)
	}
	for _, p := range []string{"lib/a.py", "lib/c.py", "lib/b.py"} { // two pairs git read, one by its name
		if f, ok := rec.Fate(p); !ok || f.Path != moved[p] {
			t.Errorf("%s: %+v %v, want %s", p, f, ok, moved[p])
		}
	}
	if f, ok := rec.Fate("lib/d.py"); !ok || !f.Deleted || !f.Unsure {
		t.Errorf("lib/d.py: %+v %v, want an unsure delete (renamed to another name, its blob missing)", f, ok)
	}
}

// A partial clone lacks the history's blobs; its remote is never asked
// for them (transports are off): renames are read exactly where blobs
// are missing, by similarity where they are there, and no fetch runs.
func TestPartialCloneNeverFetches(t *testing.T) {
	src, _ := renamedWithEdits(t, 3)
	src.Git("config", "uploadpack.allowFilter", "true")
	clone := vcstest.New(t)
	clone.Git("clone", "-q", "--no-local", "--filter=blob:none", "file://"+src.Dir, "c")
	dir := filepath.Join(clone.Dir, "c")
	if !partialClone(t.Context(), dir) {
		t.Fatal("not a partial clone")
	}
	trace := filepath.Join(t.TempDir(), "trace")
	t.Setenv("GIT_TRACE", trace)
	rec := build(t, dir, nil)
	if rec.Commits != 4 || (rec.Detection != Exact && rec.Detection != Mixed) {
		t.Errorf("commits %d detection %q, want 4 and exact or mixed", rec.Commits, rec.Detection)
	}
	got, _ := os.ReadFile(trace)
	for _, fetch := range []string{" fetch ", "fetch-pack", "upload-pack"} {
		if strings.Contains(string(got), fetch) {
			t.Fatalf("git was asked to fetch (%q in its trace)", fetch)
		}
	}
	if !strings.Contains(string(got), "cat-file") {
		t.Fatal("the trace saw no git at all: the test checks nothing")
	}
}
