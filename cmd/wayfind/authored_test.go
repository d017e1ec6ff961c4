package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestTheUsersOwnCommits: through the real binary, of a name three
// directories share, the copy the user committed last comes first, read
// near:authored — the user being whoever git would write as the author
// of the next commit — and a history saved for another user never lends
// that user's commits.
func TestTheUsersOwnCommits(t *testing.T) {
	root, git, write := authorsRepo(t)
	git("o@example.invalid", "init", "-q", "-b", "main")
	for _, d := range []string{"auth", "billing", "shipping"} {
		write("services/"+d+"/client.go", "package "+d+"\n")
	}
	git("o@example.invalid", "add", "-A")
	git("o@example.invalid", "commit", "-qm", "init")
	write("services/billing/client.go", "package billing\n// mine\n")
	git("me@example.invalid", "commit", "-qam", "mine")
	write("services/shipping/client.go", "package shipping\n// theirs\n")
	git("o@example.invalid", "commit", "-qam", "theirs")

	resolve := func(who, cache string) (first string, authored []string) {
		t.Helper()
		c := exec.Command(binary, "resolve", "client.go", "--root", root, "--format", "json")
		c.Env = append(os.Environ(), "GIT_AUTHOR_EMAIL="+who, "WAYFIND_CACHE_DIR="+cache)
		out, err := c.Output()
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == exitNothing {
			err = nil // no answer to act on, as a tie is: candidates only
		}
		if err != nil {
			t.Fatalf("resolve as %s: %v %s", who, err, out)
		}
		var res struct {
			Result struct {
				Candidates []struct {
					Path    string   `json:"path"`
					Reasons []string `json:"reasons"`
				} `json:"candidates"`
			} `json:"result"`
		}
		if err := json.Unmarshal(out, &res); err != nil || len(res.Result.Candidates) != 3 {
			t.Fatalf("resolve as %s: %v %s", who, err, out)
		}
		for _, c := range res.Result.Candidates {
			if slices.Contains(c.Reasons, "near:authored") {
				authored = append(authored, c.Path)
			}
		}
		return res.Result.Candidates[0].Path, authored
	}
	mine := t.TempDir()
	for _, c := range []struct {
		who, cache, first string
		authored          []string
	}{
		{"me@example.invalid", mine, "services/billing/client.go", []string{"services/billing/client.go"}},
		{"o@example.invalid", t.TempDir(), "services/shipping/client.go", []string{"services/shipping/client.go", "services/auth/client.go", "services/billing/client.go"}},
		// The history saved for me@: none of mine is o@'s.
		{"o@example.invalid", mine, "", nil},
	} {
		first, authored := resolve(c.who, c.cache)
		slices.Sort(authored)
		slices.Sort(c.authored)
		if (c.first != "" && first != c.first) || !slices.Equal(authored, c.authored) {
			t.Errorf("as %s: first %s, near:authored %v; want %s first, %v", c.who, first, authored, c.first, c.authored)
		}
	}
}

// TestActivityBelowTheUsersOwnCommit: through the real MCP server, of a
// name two directories share, the copy the user committed to comes
// before the one everyone else edits twenty times — activity weighs half
// beside where the user works (rank's activityNearShare; at full weight
// the busier copy came first) — and for a user with no commits there,
// the busier copy comes first; the same through the CLI's one question.
func TestActivityBelowTheUsersOwnCommit(t *testing.T) {
	root, git, write := authorsRepo(t)
	git("o@example.invalid", "init", "-q", "-b", "main")
	write("CHANGELOG.md", "0\n")
	write("pkg/sub/CHANGELOG.md", "0\n")
	git("o@example.invalid", "add", "-A")
	git("o@example.invalid", "commit", "-qm", "init")
	for i := range 20 {
		write("CHANGELOG.md", fmt.Sprintln(i+1))
		git("o@example.invalid", "commit", "-qam", "theirs")
	}
	write("pkg/sub/CHANGELOG.md", "mine\n")
	git("me@example.invalid", "commit", "-qam", "mine")

	for _, c := range []struct{ who, first string }{
		{"me@example.invalid", "pkg/sub/CHANGELOG.md"},
		{"new@example.invalid", "CHANGELOG.md"},
	} {
		t.Run(c.who, func(t *testing.T) {
			t.Setenv("GIT_AUTHOR_EMAIL", c.who)
			t.Setenv("WAYFIND_CACHE_DIR", t.TempDir())
			m := startMCP(t, []string{"--root", root}, nil)
			for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
				var st struct {
					VCS struct {
						Ready bool `json:"ready"`
					} `json:"vcs"`
				}
				m.tool("roots_list", map[string]any{}, &st)
				if st.VCS.Ready {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("the history was not read in 30 s")
				}
			}
			var res struct {
				Matches []struct {
					Path string `json:"path"`
				} `json:"matches"`
			}
			m.tool("find_files", map[string]any{"query": "CHANGELOG.md"}, &res)
			if len(res.Matches) != 2 || res.Matches[0].Path != c.first {
				t.Errorf("MCP, as %s: %+v, want %s first", c.who, res.Matches, c.first)
			}
			// The CLI, one question: copies its index cannot tell apart
			// are ordered by the history as the server's are.
			out, err := exec.Command(binary, "find", "CHANGELOG.md", "--root", root, "--format", "json").Output()
			if err != nil {
				t.Fatalf("find: %v %s", err, out)
			}
			res.Matches = nil
			if err := json.Unmarshal(out, &res); err != nil || len(res.Matches) != 2 || res.Matches[0].Path != c.first {
				t.Errorf("CLI, as %s: %+v %v, want %s first", c.who, res.Matches, err, c.first)
			}
		})
	}
}

// authorsRepo is a new directory (its real path) to make a repository
// in, git run in it as an author (who: name and e-mail), and a writer of
// its files.
func authorsRepo(t *testing.T) (root string, git func(who string, args ...string), write func(p, text string)) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	git = func(who string, args ...string) {
		t.Helper()
		c := exec.Command("git", append([]string{"-C", root, "-c", "user.name=" + who, "-c", "user.email=" + who, "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	write = func(p, text string) {
		t.Helper()
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root, git, write
}
