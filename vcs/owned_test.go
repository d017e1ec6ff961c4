package vcs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"wayfind/vcs/vcstest"
)

// TestNotOwned: git's refusal of another user's repository is read from
// its standard error as a NotOwnedError naming the directory git names
// (the one safe.directory takes), which is ErrNoRepository as well; any
// other failure is not one.
func TestNotOwned(t *testing.T) {
	for _, c := range []struct {
		name, stderr, want string // want: the directory, "" for no refusal
	}{
		{"git's words", "fatal: detected dubious ownership in repository at '/work/app'\nTo add an exception for this directory, call:\n\n\tgit config --global --add safe.directory /work/app\n", "/work/app"},
		{"a directory with a space", "fatal: detected dubious ownership in repository at '/work/my app'\n", "/work/my app"},
		{"no directory said: the root", "fatal: detected dubious ownership in repository at '", "/root/asked"},
		{"not a repository", "fatal: not a git repository (or any of the parent directories): .git\n", ""},
		{"nothing said", "", ""},
	} {
		err := notOwned([]byte(c.stderr), "/root/asked")
		var no *NotOwnedError
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v, want no refusal", c.name, err)
		case c.want != "" && (!errors.As(err, &no) || no.Dir != c.want || !errors.Is(err, ErrNoRepository)):
			t.Errorf("%s: %v, want a refusal of %s that is also ErrNoRepository", c.name, err, c.want)
		}
	}
}

// TestStateNotOwned: a root git refuses (a git on PATH that says so, as
// git does for every command in another user's repository) is a
// NotOwnedError from every question that asks git of it.
func TestStateNotOwned(t *testing.T) {
	t.Setenv("PATH", vcstest.RefusingGit(t, "/elsewhere/repo"))
	root := t.TempDir()
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	_, err := Head(context.Background(), root)
	var no *NotOwnedError
	if !errors.As(err, &no) || no.Dir != "/elsewhere/repo" || !errors.Is(err, ErrNoRepository) {
		t.Errorf("Head: %v, want git's refusal of /elsewhere/repo", err)
	}
	if _, err := Sync(context.Background(), t.TempDir(), root, nil, t.Logf); !errors.As(err, &no) {
		t.Errorf("Sync: %v, want git's refusal", err)
	}
}
