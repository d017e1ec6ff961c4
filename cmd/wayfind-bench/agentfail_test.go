package main

import (
	"compress/gzip"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadAgentFailCases(t *testing.T) {
	dir := t.TempDir()
	lines := `{"id":"a/1","repo":"o/r","commit":"c0ffee0c0ffee","root":"/testbed","cwd":"/testbed","tool":"cat","path":"x/y.py","kind":"read","scratch":false,"truth":"x/z/y.py","truth_kind":"file"}

{"id":"a/2","repo":"o/r","commit":"c0ffee0c0ffee","root":"/testbed","cwd":"/testbed","tool":"rm","path":"repro.py","kind":"write","scratch":true,"truth":null,"truth_kind":null}
`
	gz := filepath.Join(dir, "cases.jsonl.gz")
	f, err := os.Create(gz)
	if err != nil {
		t.Fatal(err)
	}
	w := gzip.NewWriter(f)
	w.Write([]byte(lines))
	w.Close()
	f.Close()
	plain := filepath.Join(dir, "cases.jsonl")
	os.WriteFile(plain, []byte(lines), 0o644)
	for _, p := range []string{gz, plain} {
		cases, err := readAgentFailCases(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if len(cases) != 2 || cases[0].truth() != "x/z/y.py" || cases[1].truth() != "" || !cases[1].Scratch || cases[1].Kind != "write" {
			t.Errorf("%s: read %+v", p, cases)
		}
	}
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte(`{"id":"b","repo":"o/r","commit":"c","path":"p","kind":"open"}`+"\n"), 0o644)
	if _, err := readAgentFailCases(bad); err == nil || !strings.Contains(err.Error(), "kind") {
		t.Errorf("a case of no known kind: %v", err)
	}
}

func TestAgentFailQuery(t *testing.T) {
	tree := t.TempDir()
	os.MkdirAll(filepath.Join(tree, "sub"), 0o755)
	for _, tc := range []struct {
		c         afCase
		query, in string
	}{
		{afCase{Root: "/testbed", Cwd: "/testbed", Path: "a/b.py"}, tree + "/a/b.py", tree},
		{afCase{Root: "/testbed", Cwd: "/testbed/sub", Path: "../a/"}, tree + "/a/", tree + "/sub"},
		{afCase{Root: "/testbed", Cwd: "/testbed", Path: "/testbed/a.py"}, tree + "/a.py", tree},
		{afCase{Root: "/workspace/r__r__1.0", RootAliases: []string{"/testbed"}, Cwd: "/workspace/r__r__1.0", Path: "/testbed/x"}, tree + "/x", tree},
		{afCase{Root: "/testbed", Cwd: "/testbed", Path: "/tmp/x.py"}, "/tmp/x.py", tree},
		{afCase{Root: "/workspace/r", Cwd: "/workspace/r", Path: "../repro.py"}, "/workspace/repro.py", tree},
	} {
		q, in := afQuery(tc.c, tree)
		if q != tc.query || in != tc.in {
			t.Errorf("%+v: asked %q from %q, want %q from %q", tc.c, q, in, tc.query, tc.in)
		}
	}
}

func TestJudgeAgentFail(t *testing.T) {
	truth := "lib/tests"
	dirQ := afCase{Kind: "list", Truth: &truth}
	none := afCase{Kind: "read", Scratch: true}
	fixed := "pkg/new.py"
	read := afCase{Kind: "read", Truth: &fixed}
	unfixed := afCase{Kind: "read"}
	write := afCase{Kind: "write"}
	for _, tc := range []struct {
		c        afCase
		a        afAnswer
		recorded string
		want     afOutcome
	}{
		{dirQ, afAnswer{resolved: "lib/tests"}, "", afOutcome{right: true}},
		{dirQ, afAnswer{resolved: "lib/tests/test_x.py"}, "", afOutcome{wrong: true}}, // a file for a directory question
		{dirQ, afAnswer{first: "lib/tests"}, "", afOutcome{none: true, told: true}},
		{dirQ, afAnswer{first: "lib"}, "", afOutcome{none: true}},
		{none, afAnswer{resolved: "repro.py"}, "", afOutcome{wrong: true}},
		{none, afAnswer{resolved: "repro.py"}, "repro.py", afOutcome{wrong: true}}, // the agent's own file: no record makes it meant
		{none, afAnswer{first: "repro.py"}, "", afOutcome{none: true}},
		// The agent's fix wins over the record.
		{read, afAnswer{resolved: "pkg/new.py"}, "pkg/other.py", afOutcome{right: true}},
		{read, afAnswer{resolved: "pkg/other.py"}, "pkg/other.py", afOutcome{wrong: true}},
		// No fix: the record's move, and only it, is right.
		{unfixed, afAnswer{resolved: "pkg/new.py"}, "pkg/new.py", afOutcome{right: true}},
		{unfixed, afAnswer{resolved: "pkg/else.py"}, "pkg/new.py", afOutcome{wrong: true}},
		{unfixed, afAnswer{resolved: "pkg/new.py"}, "", afOutcome{wrong: true}},
		{write, afAnswer{resolved: "pkg/new.py"}, "pkg/new.py", afOutcome{wrong: true}},
	} {
		if got := judgeAgentFail(tc.c, tc.a, tc.recorded); got != tc.want {
			t.Errorf("%+v %+v recorded %q: %+v, want %+v", tc.c, tc.a, tc.recorded, got, tc.want)
		}
	}
}

// TestRecordedMove: git's own record of where a path went, on a
// repository made here — a rename followed through a second one, a
// deletion, a file split in two, a path never there, a rename after the
// task's commit unseen.
func TestRecordedMove(t *testing.T) {
	repo := t.TempDir()
	gitIn := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	write := func(p, text string) {
		os.MkdirAll(filepath.Dir(filepath.Join(repo, p)), 0o755)
		if err := os.WriteFile(filepath.Join(repo, p), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	body := strings.Repeat("a line of the module that stays the same\n", 20)
	gitIn("init", "-q")
	write("old/mod.py", body)
	write("gone.py", body+"gone\n")
	var whole strings.Builder
	for i := range 40 {
		fmt.Fprintf(&whole, "def function_%d(): return %d\n", i, i)
	}
	lines := strings.SplitAfter(whole.String(), "\n")
	write("whole.py", whole.String())
	gitIn("add", "-A")
	gitIn("commit", "-q", "-m", "first")
	os.MkdirAll(filepath.Join(repo, "mid"), 0o755)
	os.MkdirAll(filepath.Join(repo, "pkg", "mod"), 0o755)
	gitIn("mv", "old/mod.py", "mid/mod.py")
	gitIn("rm", "-q", "gone.py")
	gitIn("rm", "-q", "whole.py") // split in two, seven tenths in one: not a move
	write("half_a.py", strings.Join(lines[:28], ""))
	write("half_b.py", strings.Join(lines[28:], ""))
	gitIn("add", "-A")
	gitIn("commit", "-q", "-m", "move and delete")
	gitIn("mv", "mid/mod.py", "pkg/mod/__init__.py")
	gitIn("commit", "-q", "-m", "a package")
	task := gitIn("rev-parse", "HEAD")
	gitIn("mv", "pkg/mod/__init__.py", "later.py")
	gitIn("commit", "-q", "-m", "after the task")
	tree := t.TempDir()
	os.MkdirAll(filepath.Join(tree, "pkg", "mod"), 0o755)
	os.WriteFile(filepath.Join(tree, "pkg", "mod", "__init__.py"), []byte(body), 0o644)
	os.WriteFile(filepath.Join(tree, "half_a.py"), []byte(strings.Join(lines[:28], "")), 0o644)
	git := filepath.Join(repo, ".git")
	for _, tc := range []struct{ path, want string }{
		{"old/mod.py", "pkg/mod/__init__.py"}, // two renames followed
		{"mid/mod.py", "pkg/mod/__init__.py"},
		{"gone.py", ""},  // deleted, not renamed
		{"whole.py", ""}, // split: which half was meant is not recorded
		{"never.py", ""}, // no history
	} {
		got, err := recordedMove(git, task, tree, tc.path)
		if err != nil || got != tc.want {
			t.Errorf("recordedMove(%q) = %q, %v; want %q", tc.path, got, err, tc.want)
		}
	}
}

// TestShellWord: the path a rewritten command holds, as the shell reads
// it, and the name a list case's call searched for.
func TestShellWord(t *testing.T) {
	for _, c := range []struct {
		command string
		i       int
		want    string
	}{
		{"ls src/_pytest/assertion", -1, "src/_pytest/assertion"},
		{"grep -rn x '/t/has space/d'", -1, "/t/has space/d"},
		{`cd "a b"`, -1, "a b"},
		{"find common/src -name X.java", 1, "common/src"},
		{"find src", 5, ""},
		{"ls a && ls b", -1, ""},
		{"ls 'unclosed", -1, ""},
	} {
		if got := shellWord(c.command, c.i); got != c.want {
			t.Errorf("shellWord(%q, %d) = %q, want %q", c.command, c.i, got, c.want)
		}
	}
	for _, c := range []struct{ tool, command, want string }{
		{"find_file", `find_file "ReflectUtils.java" src`, "ReflectUtils.java"},
		{"find_file", `find_file "Test"`, "Test"},
		{"find", `find src -name '*.py' -type f`, "*.py"},
		{"find", `find src -name a.py -o -name b.py`, ""},
		{"find", `find src -type d`, ""},
		{"search_dir", `search_dir "registry" src`, ""},
		{"ls", "ls -F test/", ""},
	} {
		if got := seekOf(afCase{Tool: c.tool, Command: c.command}); got != c.want {
			t.Errorf("seekOf(%s) = %q, want %q", c.command, got, c.want)
		}
	}
}

// TestFixByName: a fix of the path's name or stem is known by name; one
// found only as the next access by the same program is not.
func TestFixByName(t *testing.T) {
	for _, tc := range []struct {
		path, truth, from, want string
	}{
		{"sphinx/environment.py", "sphinx/environment/__init__.py", "fix", fixOther},
		{"src/skipping.py", "src/_pytest/skipping.py", "fix", fixSameName},
		{"lib/mod", "lib/mod.py", "fix", fixSameName},
		{"testbed/setup.py", "setup.py", "root name", fixSameName},
	} {
		truth := tc.truth
		c := afCase{Path: tc.path, Truth: &truth, TruthFrom: tc.from}
		if got := fixByName(c); got != tc.want {
			t.Errorf("%s → %s (%s): %q, want %q", tc.path, tc.truth, tc.from, got, tc.want)
		}
	}
}
