package vcs

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"wayfind/vcs/vcstest"
)

// renamedWithEdits makes a history of n files each renamed with an edit
// (git pairs them only by similarity), one commit a rename, and returns
// the repository and the blob of each file before its rename.
func renamedWithEdits(t *testing.T, n int, suffix string) (*vcstest.Repo, []string) {
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
		to := "new/" + strings.TrimSuffix(strings.TrimPrefix(p, "old/"), ".c") + suffix + ".c"
		if suffix == "" {
			to = fmt.Sprintf("new/part%d.c", i)
		}
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
// changed), every other commit's by similarity; a delete that keeps no
// stem of the commit's add stays an unsure delete.
func TestMissingBlobOneCommitExact(t *testing.T) {
	r, blobs := renamedWithEdits(t, 4, "")
	whole := build(t, r.Dir, nil)
	if whole.Detection != Similarity {
		t.Fatalf("whole store: detection %q", whole.Detection)
	}
	dropObject(t, r.Dir, blobs[1])
	rec := build(t, r.Dir, nil)
	if rec.Detection != Mixed {
		t.Errorf("detection %q, want mixed", rec.Detection)
	}
	for i, want := range []string{"new/part0.c", "", "new/part2.c", "new/part3.c"} {
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

// Where git could not compare a commit's files, a delete takes the one
// add that keeps its stem (a test prefix, a template's extension), only
// when neither has another such partner and one of them is the file git
// could not read.
func TestPairByKinName(t *testing.T) {
	for _, c := range []struct {
		name       string
		ops        []op
		unreadable []string
		want       map[string]string // old → new; "" an unsure delete
	}{
		{"a test prefix", []op{{status: 'D', new: "tests/cascade.py"}, {status: 'A', new: "tests/orm/test_cascade.py"}},
			[]string{"tests/cascade.py"}, map[string]string{"tests/cascade.py": "tests/orm/test_cascade.py"}},
		{"a template's extension", []op{{status: 'D', new: "tex/latexmkjarc"}, {status: 'A', new: "tex/latexmkjarc.jinja"}},
			[]string{"tex/latexmkjarc.jinja"}, map[string]string{"tex/latexmkjarc": "tex/latexmkjarc.jinja"}},
		{"the same name first", []op{{status: 'D', new: "a/signals.py"}, {status: 'A', new: "b/test_signals.py"}, {status: 'A', new: "c/signals.py"}},
			[]string{"a/signals.py"}, map[string]string{"a/signals.py": "c/signals.py"}},
		{"two kin adds: unsure", []op{{status: 'D', new: "a/signals.py"}, {status: 'A', new: "b/test_signals.py"}, {status: 'A', new: "b/signals_old.py"}},
			[]string{"a/signals.py"}, map[string]string{"a/signals.py": ""}},
		{"two kin deletes of one add: unsure", []op{{status: 'D', new: "a/conf.py"}, {status: 'D', new: "a/config.py"}, {status: 'A', new: "b/configure.py"}},
			[]string{"b/configure.py"}, map[string]string{"a/conf.py": "", "a/config.py": ""}},
		{"a stem too short", []op{{status: 'D', new: "lib/d.py"}, {status: 'A', new: "src/lib/dee.py"}},
			[]string{"lib/d.py"}, map[string]string{"lib/d.py": ""}},
		{"neither unreadable", []op{{status: 'D', new: "tests/cascade.py"}, {status: 'A', new: "tests/test_cascade.py"}},
			[]string{"other.bin"}, map[string]string{"tests/cascade.py": ""}},
		{"unrelated names", []op{{status: 'D', new: "src/TarDumper.php"}, {status: 'A', new: "src/PharArchiver.php"}},
			[]string{"src/TarDumper.php"}, map[string]string{"src/TarDumper.php": ""}},
	} {
		unreadable := map[string]bool{}
		for _, p := range c.unreadable {
			unreadable[p] = true
		}
		got := map[string]string{}
		for _, o := range pairByName(slices.Clone(c.ops), unreadable) {
			switch {
			case o.status == 'R':
				got[o.old] = o.new
			case o.status == 'D' && o.unsure:
				got[o.new] = ""
			case o.status == 'D':
				t.Errorf("%s: %s deleted, not unsure", c.name, o.new)
			}
		}
		if !maps.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// A partial clone lacks the history's blobs; its remote is never asked
// for them (transports are off): renames are read exactly where blobs
// are missing, by similarity where they are there, and no fetch runs.
func TestPartialCloneNeverFetches(t *testing.T) {
	src, _ := renamedWithEdits(t, 3, "")
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

// In a partial clone, which lacks every blob of the past, a name shared
// by a delete and an add is no rename: a commit that replaces one
// example with another (the same page names, other pages) reads as git
// reads it given the blobs — the old page deleted (unsure: nothing was
// compared) — not moved; a rename that kept its content is still
// followed (git pairs those by object name).
func TestPartialCloneDoesNotPairByName(t *testing.T) {
	src := vcstest.New(t)
	src.Write("examples/old/register.html", "<form>the old example's registration, line one</form>\nits second line\nits third line\n")
	src.Write("examples/old/notes.txt", "kept as it is\nword for word\n")
	src.Commit("the old example")
	src.Git("rm", "-q", "examples/old/register.html")
	src.Write("examples/new/register.html", "{% extends 'base.html' %}\n{% block content %}a new page altogether{% endblock %}\n")
	src.Mv("examples/old/notes.txt", "examples/new/notes.txt")
	src.Commit("the example rewritten")
	src.Git("config", "uploadpack.allowFilter", "true")
	full := build(t, src.Dir, nil)
	clone := vcstest.New(t)
	clone.Git("clone", "-q", "--no-local", "--filter=blob:none", "file://"+src.Dir, "c")
	dir := filepath.Join(clone.Dir, "c")
	if !partialClone(t.Context(), dir) {
		t.Fatal("not a partial clone")
	}
	partial := build(t, dir, nil)
	if f, ok := full.Fate("examples/old/register.html"); !ok || !f.Deleted {
		t.Fatalf("the full store: %+v %v, want the page deleted (git's reading the clone must keep)", f, ok)
	}
	if f, ok := partial.Fate("examples/old/register.html"); !ok || !f.Deleted || !f.Unsure {
		t.Errorf("the partial clone: %+v %v, want the page deleted, unsure", f, ok)
	}
	if f, ok := partial.Fate("examples/old/notes.txt"); !ok || f.Path != "examples/new/notes.txt" {
		t.Errorf("the partial clone: notes.txt %+v %v, want moved to examples/new/notes.txt", f, ok)
	}
}
