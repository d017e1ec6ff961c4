package lsp

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"wayfind/vcs/vcstest"
	"wayfind/wire"
)

// TestTieWeightsFromTheRepositorysWork: the same tree, two histories.
// In one, each person works on their plugin and then edits the core's
// config.go; in the other, their plugin's own. Asked for config.go from a
// plugin's file, `wayfind lsp` answers as each repository's work says:
// the core's where the work goes there (the copy beside the user comes
// first without the lesson: the default weighs nearness ahead), the
// plugin's where people edit beside their work.
func TestTieWeightsFromTheRepositorysWork(t *testing.T) {
	bin := buildBinary(t)
	t.Setenv("GIT_AUTHOR_EMAIL", "new@example.invalid") // a user with no commits of their own
	const people = 32                                   // past the replay's 30 questions
	for _, tc := range []struct {
		name      string
		editsCore bool
		wantFirst string
	}{
		{"people edit the core's copy", true, "core/config.go"},
		{"people edit their plugin's copy", false, "plugins/p3/config.go"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := vcstest.New(t)
			g.Write("core/config.go", vcstest.Text("core", 3))
			for k := range people {
				g.Write(fmt.Sprintf("plugins/p%d/config.go", k), vcstest.Text(fmt.Sprint("config", k), 3))
				g.Write(fmt.Sprintf("plugins/p%d/plugin.go", k), vcstest.Text(fmt.Sprint("plugin", k), 3))
			}
			g.Commit("start")
			for k := range people {
				as := func(p string) {
					g.Write(p, vcstest.Text(fmt.Sprint(p, k), 4))
					g.Git("add", "-A")
					g.Git("commit", "-q", fmt.Sprintf("--author=p%d <p%d@example.invalid>", k, k), "-m", p)
				}
				as(fmt.Sprintf("plugins/p%d/plugin.go", k))
				if tc.editsCore {
					as("core/config.go")
				} else {
					as(fmt.Sprintf("plugins/p%d/config.go", k))
				}
			}

			srv := startBinary(t, bin, t.TempDir())
			srv.initialize(g.Dir)
			deadline := time.Now().Add(30 * time.Second)
			for st := (wire.Status{}); st.VCS == nil || !st.VCS.Ready; srv.call("find/status", map[string]any{}, &st) {
				if time.Now().After(deadline) {
					t.Fatalf("the history was not read: %+v", st.VCS)
				}
				time.Sleep(20 * time.Millisecond)
			}
			var files wire.Files
			srv.call("find/files", map[string]any{"query": "config.go", "current": wire.FileURI(filepath.Join(g.Dir, "plugins/p3/plugin.go"))}, &files)
			if len(files.Matches) == 0 || files.Matches[0].Path != tc.wantFirst {
				t.Fatalf("find config.go from plugins/p3: %+v, want %s first", files.Matches, tc.wantFirst)
			}
			srv.stop()
		})
	}
}
