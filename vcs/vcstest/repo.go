// Package vcstest makes scratch git repositories for tests: commits with
// fixed dates and authors, files whose lines are their own (so that git
// sees a moved file as renamed), moves into directories made for them.
package vcstest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Repo is a scratch repository.
type Repo struct {
	T   testing.TB
	Dir string
	// Date is the next commits' date (ISO 8601).
	Date string
}

// New makes an empty repository on branch main. Without git the test
// fails under CI and is skipped elsewhere.
func New(t testing.TB) *Repo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("git is not installed")
		}
		t.Skip("git is not installed")
	}
	r := &Repo{T: t, Dir: t.TempDir(), Date: "2024-05-01T12:00:00Z"}
	r.Git("init", "-q", "-b", "main")
	return r
}

// Git runs git in the repository and returns its trimmed output.
func (r *Repo) Git(args ...string) string {
	r.T.Helper()
	cmd := exec.Command("git", append([]string{"-C", r.Dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.invalid",
		"GIT_COMMITTER_DATE="+r.Date, "GIT_AUTHOR_DATE="+r.Date, "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.T.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// Write writes a file (its directories made).
func (r *Repo) Write(p, content string) {
	r.T.Helper()
	full := filepath.Join(r.Dir, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		r.T.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		r.T.Fatal(err)
	}
}

// Mv is git mv into a directory made for it.
func (r *Repo) Mv(from, to string) {
	r.T.Helper()
	if err := os.MkdirAll(filepath.Join(r.Dir, filepath.Dir(filepath.FromSlash(to))), 0o755); err != nil {
		r.T.Fatal(err)
	}
	r.Git("mv", from, to)
}

// Commit commits everything and returns the commit's hash.
func (r *Repo) Commit(msg string) string {
	r.T.Helper()
	r.Git("add", "-A")
	r.Git("commit", "-q", "--allow-empty", "-m", msg)
	return r.Git("rev-parse", "HEAD")
}

// Text is a file's content of n lines that are the file's own.
func Text(name string, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString(name + " line " + strings.Repeat("=", i) + "\n")
	}
	return b.String()
}
