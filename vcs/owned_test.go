package vcs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wayfind/vcs/vcstest"
)

// TestNotOwned: git's refusal of another user's repository is read from
// its standard error as a NotOwnedError naming the directory git names
// (the one safe.directory takes) when it is the root or inside it —
// nothing above the root is named — which is ErrNoRepository as well;
// any other failure is not one.
func TestNotOwned(t *testing.T) {
	for _, c := range []struct {
		name, stderr, want string // want: the directory, "-" a refusal naming none, "" no refusal
	}{
		{"git's words", "fatal: detected dubious ownership in repository at '/root/asked'\nTo add an exception for this directory, call:\n\n\tgit config --global --add safe.directory /root/asked\n", "/root/asked"},
		{"a directory with a space, inside the root", "fatal: detected dubious ownership in repository at '/root/asked/my app'\n", "/root/asked/my app"},
		{"the repository above the root: not named", "fatal: detected dubious ownership in repository at '/root'\n", "-"},
		{"another root's that shares a prefix: not named", "fatal: detected dubious ownership in repository at '/root/asked2'\n", "-"},
		{"no directory said: none named", "fatal: detected dubious ownership in repository at '", "-"},
		{"not a repository", "fatal: not a git repository (or any of the parent directories): .git\n", ""},
		{"nothing said", "", ""},
	} {
		err := notOwned([]byte(c.stderr), "/root/asked")
		var no *NotOwnedError
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v, want no refusal", c.name, err)
		case c.want != "" && (!errors.As(err, &no) || no.Dir != strings.TrimPrefix(c.want, "-") || !errors.Is(err, ErrNoRepository)):
			t.Errorf("%s: %v, want a refusal of %q that is also ErrNoRepository", c.name, err, c.want)
		}
	}
}

// TestStateNotOwned: a root git refuses (a git on PATH that says so, as
// git does for every command in another user's repository) is a
// NotOwnedError from every question that asks git of it.
func TestStateNotOwned(t *testing.T) {
	root := t.TempDir()
	t.Setenv("PATH", vcstest.RefusingGit(t, root))
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	_, err := Head(context.Background(), root)
	var no *NotOwnedError
	if !errors.As(err, &no) || no.Dir != root || !errors.Is(err, ErrNoRepository) {
		t.Errorf("Head: %v, want git's refusal of %s", err, root)
	}
	if _, err := Sync(context.Background(), t.TempDir(), root, nil, t.Logf); !errors.As(err, &no) {
		t.Errorf("Sync: %v, want git's refusal", err)
	}
}
