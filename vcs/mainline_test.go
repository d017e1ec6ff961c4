package vcs

import (
	"testing"

	"wayfind/vcs/vcstest"
)

// A branch cut long ago deleted a file (a Subversion-style branch of one
// directory deletes everything else); the merge that brought it in kept
// the file, which lived on and was renamed on the line to HEAD. The old
// path leads to the rename, not to the side branch's delete.
func TestSideBranchDeleteNeverOnLine(t *testing.T) {
	r := vcstest.New(t)
	r.Write("lib/utils.py", vcstest.Text("utils", 30))
	r.Write("distutils/core.py", vcstest.Text("core", 30))
	r.Commit("start")
	r.Git("checkout", "-q", "-b", "revamp")
	r.Date = "2024-05-02T12:00:00Z"
	r.Git("rm", "-q", "lib/utils.py")
	r.Commit("Branch distutils to distutils-revamp")
	r.Git("checkout", "-q", "main")
	r.Date = "2024-05-03T12:00:00Z"
	r.Write("lib/utils.py", vcstest.Text("utils", 30)+"an edit on the line\n")
	r.Commit("edit utils")
	r.Git("merge", "-q", "--no-edit", "-s", "ours", "revamp")
	r.Date = "2024-05-04T12:00:00Z"
	r.Mv("lib/utils.py", "lib/_utils_impl.py")
	mv := r.Commit("move utils into _utils_impl")
	rec := build(t, r.Dir, nil)
	f, ok := rec.Fate("lib/utils.py")
	if !ok || f.Deleted || f.Path != "lib/_utils_impl.py" || f.Commit.Hash != mv {
		t.Fatalf("lib/utils.py: %+v %v, want lib/_utils_impl.py moved in %s", f, ok, mv)
	}
}

// A branch cut long ago deleted a file; by the time its merge brought it
// onto the line, the line had moved the file already (and edited it
// there). The side's delete is not what ended the old path on the line:
// it leads where the line moved it.
func TestSideBranchDeleteMergedAfterTheLineMoved(t *testing.T) {
	r := vcstest.New(t)
	r.Write("doc/swig/Series.i", vcstest.Text("series", 30))
	r.Write("setup.py", vcstest.Text("setup", 30))
	r.Commit("start")
	r.Git("checkout", "-q", "-b", "revamp")
	r.Date = "2024-05-02T12:00:00Z"
	r.Git("rm", "-q", "doc/swig/Series.i")
	r.Commit("Branch setup to revamp")
	r.Git("checkout", "-q", "main")
	r.Date = "2024-05-03T12:00:00Z"
	r.Write("doc/swig/Series.i", vcstest.Text("series", 30)+"an edit on the line\n")
	r.Commit("edit Series.i")
	r.Date = "2024-05-04T12:00:00Z"
	r.Mv("doc/swig/Series.i", "tools/swig/test/Series.i")
	mv := r.Commit("move the swig tests")
	r.Date = "2024-05-05T12:00:00Z"
	r.Git("merge", "-q", "--no-edit", "-s", "ours", "revamp")
	rec := build(t, r.Dir, nil)
	f, ok := rec.Fate("doc/swig/Series.i")
	if !ok || f.Deleted || f.Path != "tools/swig/test/Series.i" || f.Commit.Hash != mv {
		t.Fatalf("doc/swig/Series.i: %+v %v, want tools/swig/test/Series.i moved in %s", f, ok, mv)
	}
}

// A side branch renamed a file; the merge that brought the branch in
// kept the file where it was, and the line deleted it later. The old
// path was deleted on the line; the branch's new path is a copy that
// never reached HEAD.
func TestSideBranchRenameNeverOnLine(t *testing.T) {
	r := vcstest.New(t)
	r.Write("pkg/__init__.py", vcstest.Text("init", 30))
	r.Write("keep.py", vcstest.Text("keep", 30))
	r.Commit("start")
	r.Git("checkout", "-q", "-b", "side")
	r.Date = "2024-05-02T12:00:00Z"
	r.Mv("pkg/__init__.py", "__init__.py")
	r.Commit("flatten on a branch")
	r.Git("checkout", "-q", "main")
	r.Date = "2024-05-03T12:00:00Z"
	r.Write("keep.py", vcstest.Text("keep", 30)+"edit\n")
	r.Commit("edit keep")
	r.Git("merge", "-q", "--no-edit", "-s", "ours", "side")
	r.Date = "2024-05-04T12:00:00Z"
	r.Git("rm", "-q", "pkg/__init__.py")
	del := r.Commit("drop the package")
	rec := build(t, r.Dir, nil)
	f, ok := rec.Fate("pkg/__init__.py")
	if !ok || !f.Deleted || f.Commit.Hash != del {
		t.Fatalf("pkg/__init__.py: %+v %v, want deleted in %s", f, ok, del)
	}
}

// A side branch's rename that its merge brought onto the line is a
// rename like any other (the common case: a pull request).
func TestMergedBranchRename(t *testing.T) {
	r := vcstest.New(t)
	r.Write("old/name.go", vcstest.Text("name", 30))
	r.Write("other.go", vcstest.Text("other", 30))
	r.Commit("start")
	r.Git("checkout", "-q", "-b", "pr")
	r.Date = "2024-05-02T12:00:00Z"
	r.Mv("old/name.go", "new/name.go")
	mv := r.Commit("move name.go")
	r.Git("checkout", "-q", "main")
	r.Date = "2024-05-03T12:00:00Z"
	r.Write("other.go", vcstest.Text("other", 30)+"edit\n")
	r.Commit("edit other")
	r.Git("merge", "-q", "--no-edit", "pr")
	rec := build(t, r.Dir, nil)
	f, ok := rec.Fate("old/name.go")
	if !ok || f.Path != "new/name.go" || f.Commit.Hash != mv {
		t.Fatalf("old/name.go: %+v %v, want new/name.go in %s", f, ok, mv)
	}
	// The same history read in two parts: the update reads only the
	// merge's span, whose line starts from the tree before it.
	r.Git("reset", "-q", "--hard", "HEAD~1")
	first := build(t, r.Dir, nil)
	r.Git("merge", "-q", "--no-edit", "pr")
	rec = build(t, r.Dir, first)
	if f, ok := rec.Fate("old/name.go"); !ok || f.Path != "new/name.go" {
		t.Fatalf("updated: old/name.go: %+v %v, want new/name.go", f, ok)
	}
}

// A file moved to a path and ended there (rewritten away); later another
// file was moved into that path and on. The old path leads where the
// path's life went on, not to the first file's end.
func TestPathTakenAgain(t *testing.T) {
	r := vcstest.New(t)
	r.Write("Sources/Application.swift", vcstest.Text("app", 30))
	r.Write("Sources/Boot.swift", vcstest.Text("boot", 30))
	r.Commit("start")
	r.Mv("Sources/Application.swift", "Sources/Vapor/Application/Application.swift")
	r.Commit("organize")
	r.Git("rm", "-q", "Sources/Vapor/Application/Application.swift")
	r.Commit("improved organization")
	r.Mv("Sources/Boot.swift", "Sources/Vapor/Application/Application.swift")
	r.Commit("boot becomes the application")
	r.Mv("Sources/Vapor/Application/Application.swift", "Sources/Vapor/Application.swift")
	r.Commit("flatten")
	rec := build(t, r.Dir, nil)
	for _, old := range []string{"Sources/Application.swift", "Sources/Vapor/Application/Application.swift"} {
		f, ok := rec.Fate(old)
		if !ok || f.Deleted || f.Path != "Sources/Vapor/Application.swift" {
			t.Errorf("%s: %+v %v, want Sources/Vapor/Application.swift", old, f, ok)
		}
	}
}

// What only a merge changed (a subtree merge's files, a file a merge
// took out) is what the line to HEAD has: the log leaves merges out.
func TestMergeOnlyChanges(t *testing.T) {
	r := vcstest.New(t)
	r.Write("docs/old.md", vcstest.Text("old", 30))
	r.Write("gone.c", vcstest.Text("gone", 30))
	r.Commit("start")
	r.Mv("docs/old.md", "docs/new.md")
	r.Commit("rename the doc")
	r.Git("rm", "-q", "docs/new.md")
	r.Commit("prepare for a new subtree")
	r.Git("checkout", "-q", "-b", "side")
	r.Write("side.c", vcstest.Text("side", 30))
	r.Commit("side work")
	r.Git("checkout", "-q", "main")
	r.Git("merge", "-q", "--no-ff", "--no-commit", "side")
	r.Write("docs/new.md", vcstest.Text("old", 30))
	r.Git("rm", "-q", "gone.c")
	merge := r.Commit("Merge the docs subtree")
	rec := build(t, r.Dir, nil)
	if f, ok := rec.Fate("docs/old.md"); !ok || f.Deleted || f.Path != "docs/new.md" {
		t.Errorf("docs/old.md: %+v %v, want docs/new.md (brought back by the merge)", f, ok)
	}
	if f, ok := rec.Fate("gone.c"); !ok || !f.Deleted || f.Commit.Hash != merge || f.Commit.Subject != "Merge the docs subtree" {
		t.Errorf("gone.c: %+v %v, want deleted in the merge %s", f, ok, merge)
	}
}

// A branch moves a module and leaves a stub at the old path; the merge
// brings both; the stub is dropped later. The old path leads to the
// module's new place, not to the stub's delete.
func TestRenameThenStub(t *testing.T) {
	r := vcstest.New(t)
	r.Write("sphinx/make_mode.py", vcstest.Text("make", 30))
	r.Write("other.py", vcstest.Text("other", 30))
	r.Commit("start")
	r.Git("checkout", "-q", "-b", "pr")
	r.Date = "2024-05-02T12:00:00Z"
	r.Mv("sphinx/make_mode.py", "sphinx/cmd/make_mode.py")
	mv := r.Commit("move make_mode into cmd")
	r.Write("sphinx/make_mode.py", "from sphinx.cmd.make_mode import *  # deprecated\n")
	r.Commit("a stub at the old path")
	r.Git("checkout", "-q", "main")
	r.Date = "2024-05-03T12:00:00Z"
	r.Write("other.py", vcstest.Text("other", 30)+"edit\n")
	r.Commit("edit other")
	r.Git("merge", "-q", "--no-edit", "pr")
	r.Date = "2024-05-04T12:00:00Z"
	r.Git("rm", "-q", "sphinx/make_mode.py")
	r.Commit("drop deprecated stubs")
	rec := build(t, r.Dir, nil)
	f, ok := rec.Fate("sphinx/make_mode.py")
	if !ok || f.Deleted || f.Path != "sphinx/cmd/make_mode.py" || f.Commit.Hash != mv {
		t.Fatalf("sphinx/make_mode.py: %+v %v, want sphinx/cmd/make_mode.py in %s", f, ok, mv)
	}
}
