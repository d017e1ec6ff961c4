package vcs

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	"wayfind/workspace"
)

// Sync is root's record brought up to date with its HEAD: prev (the
// caller's copy in memory, or nil to read the cache directory base —
// workspace.CacheDirOf; "-" keeps nothing on disk) updated by Build, and
// written back when it changed. ErrNoRepository when root is in no git
// work tree.
func Sync(ctx context.Context, base, root string, prev *Record, logf func(string, ...any)) (*Record, error) {
	dir := ""
	if base != "" && base != "-" {
		dir = workspace.RootCacheDir(base, root)
	}
	if prev == nil && dir != "" {
		r, err := Load(dir)
		switch {
		case err == nil:
			prev = r
		case !errors.Is(err, ErrNoCache):
			logf("history cache of %s unreadable, rebuilding: %v", root, err)
		}
	}
	r, err := Build(ctx, root, prev)
	if err != nil {
		return nil, err
	}
	if r != prev && dir != "" {
		workspace.NoteRoot(base, root)
		if err := Save(dir, r); err != nil {
			logf("history cache of %s not written: %v", root, err)
		}
	}
	return r, nil
}

// InRepository reports whether root lies in a git work tree, by the
// .git it or an ancestor holds (a directory, or a worktree's file):
// a stat or two, for a status that must answer at once.
func InRepository(root string) bool {
	for d := root; ; {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return false
		}
		d = parent
	}
}
