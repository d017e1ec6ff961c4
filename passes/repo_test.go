package passes

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wayfind/vcs/vcstest"
)

// TestRepoSaysARefusalOnce: a root whose repository git refuses as
// another user's (a git on PATH that says so, as git does) is read as
// outside a repository — the passes end, nothing pending — and the log
// says why once, with git's remedy, however many passes follow.
func TestRepoSaysARefusalOnce(t *testing.T) {
	root := t.TempDir()
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	t.Setenv("PATH", vcstest.RefusingGit(t, root))
	var said []string
	r := NewRepo(t.TempDir(), func(f string, a ...any) { said = append(said, fmt.Sprintf(f, a...)) })
	r.SetRoots([]string{root})
	r.Kick()
	for range 3 {
		r.sync(context.Background())
	}
	var refused []string
	for _, line := range said {
		if strings.Contains(line, "owned by another user") {
			refused = append(refused, line)
		}
	}
	if len(refused) != 1 || !strings.Contains(refused[0], "git config --global --add safe.directory "+root+" allows it") {
		t.Errorf("said %q, want the refusal once, with its remedy", said)
	}
	if st := r.Status(); st == nil || !st.Ready {
		t.Errorf("status %+v, want the history done (nothing to wait for)", st)
	}
}
