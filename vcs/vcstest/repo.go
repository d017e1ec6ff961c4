// Package vcstest makes scratch git repositories for tests: commits with
// fixed dates and authors, files whose lines are their own (so that git
// sees a moved file as renamed), moves into directories made for them.
package vcstest

import (
	"fmt"
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

// LongLog is a repository of n first-parent commits made at once with
// git fast-import: a.c renamed to b.c in the second, then one small file
// changed by each of the others — a log long enough for the paths that
// read it in parts or in the background.
func LongLog(t testing.TB, n int) *Repo {
	t.Helper()
	r := New(t)
	var b strings.Builder
	text := strings.Repeat("the file's text, long enough to compare\n", 20)
	fmt.Fprintf(&b, "blob\nmark :1\ndata %d\n%s\n", len(text), text)
	commit := func(i int, ops string) {
		fmt.Fprintf(&b, "commit refs/heads/main\ncommitter T <t@t> %d +0000\ndata 1\nc\n%s\n", 1700000000+i, ops)
	}
	commit(0, "M 100644 :1 a.c\n")
	commit(1, "D a.c\nM 100644 :1 b.c\n")
	for i := 2; i < n; i++ {
		fmt.Fprintf(&b, "blob\nmark :%d\ndata %d\n%d\n", i+10, len(fmt.Sprint(i)), i)
		commit(i, fmt.Sprintf("M 100644 :%d log/%d.txt\n", i+10, i%40))
	}
	imp := exec.Command("git", "-C", r.Dir, "fast-import", "--quiet")
	imp.Stdin = strings.NewReader(b.String())
	if out, err := imp.CombinedOutput(); err != nil {
		t.Fatalf("git fast-import: %v %s", err, out)
	}
	r.Git("checkout", "-q", "-f", "main")
	return r
}

// RefusingGit is a directory holding a `git` that refuses every command
// as git refuses another user's repository at dir (its safe.directory
// check), for a test to put first on PATH: a test cannot give a checkout
// another owner without being root.
func RefusingGit(t testing.TB, dir string) string {
	t.Helper()
	bin := t.TempDir()
	script := "#!/bin/sh\necho \"fatal: detected dubious ownership in repository at '" + dir + "'\" >&2\nexit 128\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}
