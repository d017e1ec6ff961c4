package workspace

import (
	"os"
	"path/filepath"
)

// ProjectOf is the nearest directory at or above dir that a version
// control system marks as a project (.git, as a directory or a worktree's
// file, .hg or .jj), else dir itself: the project the CLI and the hook
// open given no roots, and the one whose history of visits every root
// inside it shares.
func ProjectOf(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	for d := abs; ; {
		for _, marker := range []string{".git", ".hg", ".jj"} {
			if _, err := os.Stat(filepath.Join(d, marker)); err == nil {
				return d
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}
