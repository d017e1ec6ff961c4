package main

import (
	"compress/gzip"
	"os"
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
	for _, tc := range []struct {
		c    afCase
		a    afAnswer
		want afOutcome
	}{
		{dirQ, afAnswer{resolved: "lib/tests"}, afOutcome{right: true}},
		{dirQ, afAnswer{resolved: "lib/tests/test_x.py"}, afOutcome{wrong: true}}, // a file for a directory question
		{dirQ, afAnswer{first: "lib/tests"}, afOutcome{none: true, told: true}},
		{dirQ, afAnswer{first: "lib"}, afOutcome{none: true}},
		{none, afAnswer{resolved: "repro.py"}, afOutcome{wrong: true}},
		{none, afAnswer{first: "repro.py"}, afOutcome{none: true}},
	} {
		if got := judgeAgentFail(tc.c, tc.a); got != tc.want {
			t.Errorf("%+v %+v: %+v, want %+v", tc.c, tc.a, got, tc.want)
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
