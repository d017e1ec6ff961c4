package hook

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"wayfind/wire"
)

// TestShellReads: the words a command reads as paths, each with the
// directory it is read from and what it may name — and never a write
// target, a pattern, a program's own argument or a word the shell
// expands.
func TestShellReads(t *testing.T) {
	for _, c := range []struct {
		command string
		want    string // each word offered: path@cwd:fd+suffix, space-separated
	}{
		{"cat a.go", "a.go@/ws:f"},
		{"cat a.go b/c.go > out.txt 2>&1", "a.go@/ws:f b/c.go@/ws:f"},
		{"cat < in.txt", ""},
		{"head -n 20 src/x.py", "src/x.py@/ws:f"},
		{"head -20 src/x.py", "src/x.py@/ws:f"},
		{"tail -n5 -f log/app.log", "log/app.log@/ws:f"},
		{"sed -n '10,40p' pkg/a.go", "pkg/a.go@/ws:f"},
		{"sed -ne 's/a/b/p' -e 1d pkg/a.go", "pkg/a.go@/ws:f"},
		{"sed -i 's/a/b/' pkg/a.go", ""},
		{"sed -i.bak 's/a/b/' pkg/a.go", ""},
		{"sed --in-place 's/a/b/' pkg/a.go", ""},
		{"awk -F: '{print $1}' etc/x.conf", "etc/x.conf@/ws:f"},
		{"awk -v n=3 -f prog.awk data/in.csv", "data/in.csv@/ws:f"},
		{"grep -rn 'func main' cmd/ internal/x.go", "cmd/@/ws:fd internal/x.go@/ws:fd"},
		{"grep -e foo -e bar a/b.go", "a/b.go@/ws:fd"},
		{"grep -A 3 pattern a/b.go", "a/b.go@/ws:fd"},
		{"rg -t go Serve src", "src@/ws:fd"},
		{"ls -la old/dir", "old/dir@/ws:fd"},
		{"ls", ""},
		{"wc -l a.go | sort -n", "a.go@/ws:f"},
		{"diff a/x.go b/x.go", "a/x.go@/ws:fd b/x.go@/ws:fd"},
		{"cd sub && cat x.go", "sub@/ws:d x.go@/ws/sub:f"},
		{"cd /abs/dir; cat x.go", "/abs/dir@/ws:d x.go@/abs/dir:f"},
		{"(cd sub && cat x.go); cat y.go", "sub@/ws:d x.go@/ws/sub:f y.go@/ws:f"},
		{"cd $DIR && cat x.go", ""},
		{"cd sub || cat x.go", "sub@/ws:d"},
		{"for f in a b; do cat $f; done; cat x.go", ""},
		{"python3 scripts/run.py data/in.txt", "scripts/run.py@/ws:f"},
		{"python -u tools/gen.py", "tools/gen.py@/ws:f"},
		{"python -m pytest tests/test_a.py::TestX::test_y -k fast", "tests/test_a.py@/ws:fd+::TestX::test_y"},
		{"python -m http.server", ""},
		{"python -c 'print(1)'", ""},
		{"pytest -x tests/unit", "tests/unit@/ws:fd"},
		{"node build/index.js --flag x.js", "build/index.js@/ws:f"},
		{"node -e 'require(\"./a.js\")'", ""},
		{"go test -run TestX ./internal/foo/...", "./internal/foo@/ws:fd+/..."},
		{"go test -count=1 ./pkg github.com/x/y", "./pkg@/ws:fd"},
		{"go run ./cmd/tool -- arg", "./cmd/tool@/ws:fd"},
		{"go -C other test ./x", ""},
		{"go test -C other ./x", ""},
		{"go build -o bin/out ./cmd/x", "./cmd/x@/ws:fd"},
		{"git log --oneline -- src/a.go", "src/a.go@/ws:fd"},
		{"git log src/a.go", ""},
		{"git -C other log -- a.go", ""},
		{"git --no-pager diff HEAD~1 -- docs/", "docs/@/ws:fd"},
		{"git blame -L 10,20 src/a.go", "src/a.go@/ws:f"},
		{"time cat a.go", "a.go@/ws:f"},
		{"env A=1 B=2 cat a.go", "a.go@/ws:f"},
		{"timeout 5 cat a.go", "a.go@/ws:f"},
		{"sudo cat a.go", ""},
		{"cat *.go", ""},
		{"cat ~/notes.txt", ""},
		{`cat "$HOME/x"`, ""},
		{`cat "a b.go" 'c.go'`, "a b.go@/ws:f c.go@/ws:f"},
		{`cat a\ b.go`, ""},
		{"cat -- -weird.go", "-weird.go@/ws:f"},
		{"cat https://example.com/x", ""},
		{"touch new.go && mkdir -p d && cp a.go b.go && mv x y && rm -f z.go && tee out.go", ""},
		{"echo hi > a.go", ""},
		{"cat a.go &", "a.go@/ws:f"},
		{"find testbed/sympy -name '*.py' -type f", "testbed/sympy@/ws:fd"},
		{"find src lib -name x.go", "src@/ws:fd lib@/ws:fd"},
		{"find -L src -O3 -type f", "src@/ws:fd"},
		{"find -D tree src -type f", "src@/ws:fd"},
		{`find src -name '*.py' -exec grep -l 'class X' {} \; | head`, "src@/ws:fd"},
		{"find src ! -name a.go", "src@/ws:fd"},
		{"find src -name '*.pyc' -delete", ""},
		{"find src -exec rm {} +", ""},
		{"find src -execdir sed -i s/a/b/ {} +", ""},
		{`find src -exec "$CMD" {} +`, ""},
		{`find src -ok rm {} \;`, ""},
		{"find src -fprint out.txt", ""},
		{"find src -exec", ""},
		{"find $D -name x", ""},
		{"find -name x", ""},
		{"bash -c 'cat a.go'", ""},
		{"cat <<EOF\nx.go\nEOF", ""},
	} {
		var got []string
		err := shellReads(c.command, "/ws", func(w shellWord) string {
			kind := ""
			if w.file {
				kind += "f"
			}
			if w.dir {
				kind += "d"
			}
			s := fmt.Sprintf("%s@%s:%s", w.path, w.cwd, kind)
			if w.suffix != "" {
				s += "+" + w.suffix
			}
			got = append(got, s)
			if quoted := c.command[w.from:w.to]; !strings.Contains(quoted, strings.TrimPrefix(w.path, "-")) && !strings.Contains(quoted, w.path) {
				t.Errorf("%q: word %q at [%d,%d) is %q", c.command, w.path, w.from, w.to, quoted)
			}
			return ""
		})
		if err != nil {
			t.Errorf("%q: %v", c.command, err)
			continue
		}
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("%q:\n got %q\nwant %q", c.command, g, c.want)
		}
	}
}

// TestBeforeShell: a command's paths that name nothing and resolve are
// rewritten in place, the rest of the command byte for byte as it was;
// a path that does not resolve, or one that is there, is left.
func TestBeforeShell(t *testing.T) {
	file := func(p string) wire.Resolve {
		return wire.Resolve{Resolved: &wire.Candidate{URI: "file://" + p, Path: strings.TrimPrefix(p, "/ws/")}}
	}
	moved := file("/ws/new/a.go")
	moved.Moved = &wire.HistoryNote{Path: "old/a.go", Commit: "3f2a1c9e", Date: "2024-05-01", Subject: "move a"}
	req := &fakeRequests{
		resolve: map[string]wire.Resolve{
			"/ws/old/a.go":        moved,
			"/ws/sub/old.go":      file("/ws/sub/new.go"),
			"/ws/tests/test_o.py": file("/ws/tests/unit/test_o.py"),
			"/ws/odd.go":          file("/ws/has space.go"),
			"/ws/dir.go":          file("/ws/new"), // a directory: never a file's answer
			"/ws/pkg/assertion":   file("/ws/src/pkg/assertion/__init__.py"),
			"/ws/lib/util":        file("/ws/lib/util.py"),
			"/ws/config.go": {Candidates: []wire.Candidate{{URI: "file:///ws/a/config.go", Path: "a/config.go"},
				{URI: "file:///ws/b/config.go", Path: "b/config.go"}}},
		},
		dirs: map[string]*wire.DirMove{"/ws/old": {From: "old", To: "new", URI: "file:///ws/new", Moved: 3, Followed: 3, Commit: moved.Moved},
			"/ws/ws/sub": {From: "ws/sub", To: "sub", URI: "file:///ws/sub"}}, // a reading: no history followed
		sought: map[string]*wire.DirMove{"/ws/src X.java": {From: "src", To: "common/src", URI: "file:///ws/common/src"},
			"/ws/src x.JAVA i": {From: "src", To: "common/src", URI: "file:///ws/common/src"}},
	}
	disk := fakeDisk{"/ws/common/src": "dir", "/ws/new/a.go": "file", "/ws/sub": "dir", "/ws/sub/new.go": "file", "/ws/tests/unit/test_o.py": "file",
		"/ws/has space.go": "file", "/ws/new": "dir", "/ws/src/pkg/assertion": "dir", "/ws/src/pkg/assertion/__init__.py": "file", "/ws/lib/util.py": "file", "/ws/README.md": "file", "/ws/a/config.go": "file", "/ws/b/config.go": "file"}
	for _, c := range []struct {
		command, want, says string
	}{
		{"cat old/a.go", "cat new/a.go", "old/a.go moved to /ws/new/a.go in 3f2a1c9"},
		{"cat /ws/old/a.go | head -5", "cat /ws/new/a.go | head -5", "moved to"},
		{"sed -n '1,20p' old/a.go && cat README.md", "sed -n '1,20p' new/a.go && cat README.md", "moved to"},
		{"cd sub && cat old.go", "cd sub && cat new.go", "old.go is /ws/sub/new.go"},
		{"cd sub && cat ../old/a.go", "cd sub && cat /ws/new/a.go", "moved to"},
		{"cd old && ls", "cd new && ls", "old moved to /ws/new"},
		{"pytest tests/test_o.py::test_x -q", "pytest tests/unit/test_o.py::test_x -q", "is /ws/tests/unit/test_o.py"},
		{"cat odd.go", "cat 'has space.go'", "odd.go is"},
		{"ls pkg/assertion", "ls src/pkg/assertion", "pkg/assertion is /ws/src/pkg/assertion"},
		{"grep -rn assert_ pkg/assertion", "grep -rn assert_ src/pkg/assertion", "pkg/assertion is /ws/src/pkg/assertion"},
		{"cd pkg/assertion && ls", "cd src/pkg/assertion && ls", "is /ws/src/pkg/assertion"},
		{"cat pkg/assertion", "cat src/pkg/assertion/__init__.py", "is /ws/src/pkg/assertion/__init__.py"},
		{"ls lib/util", "ls lib/util.py", "lib/util is /ws/lib/util.py"},
		{"ls ws/sub", "ls sub", "ws/sub is /ws/sub"},
		{"find src -name X.java", "find common/src -name X.java", "src is /ws/common/src, the one directory named so that holds X.java"},
		{"find src -iname 'x.JAVA' -type f", "find common/src -iname 'x.JAVA' -type f", "holds x.JAVA"},
		{"find src -name x.JAVA", "", ""},
		{"find src -name X.java -o -name Y.java", "", ""},
		{"find src ! -name X.java", "", ""},
		{"grep -rn class --include=X.java src", "grep -rn class --include=X.java common/src", "holds X.java"},
		{"grep -rn class --include '*/X.java' src", "grep -rn class --include '*/X.java' common/src", "holds X.java"},
		{"rg class -g X.java src", "rg class -g X.java common/src", "holds X.java"},
		{"rg class --iglob=x.JAVA src", "rg class --iglob=x.JAVA common/src", "holds x.JAVA"},
		{"rg class -g '!X.java' src", "", ""},
		{"grep -rn class --include=X.java --exclude=Y.java src", "", ""},
		{"grep -rn class --include=X.java --include=Y.java src", "", ""},
		{"grep -rn class src", "", ""},
		{"ls src", "", ""},
		{"cd lib/util", "", ""},
		{"cat README.md", "", ""},
		{"cat config.go", "", ""},
		{"cat dir.go", "", ""},
		{"cat nothing.go", "", ""},
		{"rm old/a.go", "", ""},
		{"cat old/a.go > /ws/old/a.go.bak", "cat new/a.go > /ws/old/a.go.bak", "moved to"},
		{"touch old/a.go", "", ""},
		{"cat 'unclosed", "", ""},
	} {
		ev := Event{Name: "PreToolUse", Tool: "Bash", Cwd: "/ws", Input: map[string]any{"command": c.command, "description": "d"}}
		out, err := Answer(context.Background(), ev, disk, nil, func() (Requests, error) { return req, nil })
		if err != nil {
			t.Errorf("%q: %v", c.command, err)
			continue
		}
		if c.want == "" {
			if out != nil {
				t.Errorf("%q: answered %+v, want nothing", c.command, out.Specific)
			}
			continue
		}
		if out == nil || out.Specific == nil {
			t.Errorf("%q: no answer, want %q", c.command, c.want)
			continue
		}
		s := out.Specific
		if got := s.UpdatedInput["command"]; got != c.want || s.UpdatedInput["description"] != "d" {
			t.Errorf("%q: rewritten to %q (input %v), want %q", c.command, got, s.UpdatedInput, c.want)
		}
		if s.Decision != "" || !strings.Contains(s.Context, c.says) {
			t.Errorf("%q: decision %q, context %q; want no decision, saying %q", c.command, s.Decision, s.Context, c.says)
		}
	}
}

// TestNamesDir: a path names a directory when the components below what
// the two share end the directory, in order.
func TestNamesDir(t *testing.T) {
	for _, c := range []struct {
		asked, dir string
		want       bool
	}{
		{"/ws/_pytest/assertion", "/ws/src/_pytest/assertion", true},
		{"/ws/assertion", "/ws/src/_pytest/assertion", true},
		{"/ws/_pytest/assertion/", "/ws/src/_pytest/assertion", true},
		{"/ws/pytest/assertion", "/ws/src/_pytest/assertion", false},
		{"/ws/_pytest/assert", "/ws/src/_pytest/assertion", false},
		{"/ws/lib/util", "/ws/lib", false},
		{"/ws/src", "/ws/src/_pytest/assertion", false},
		{"/ws", "/ws", false},
		{"/other/assertion", "/ws/src/_pytest/assertion", false},
	} {
		if got := namesDir(c.asked, c.dir); got != c.want {
			t.Errorf("namesDir(%q, %q) = %v, want %v", c.asked, c.dir, got, c.want)
		}
	}
}

// TestDirWordAskedOnce: a word that may name a directory or a file (ls's)
// is resolved once, whichever it turns out to name.
func TestDirWordAskedOnce(t *testing.T) {
	req := &fakeRequests{resolve: map[string]wire.Resolve{
		"/ws/lib/util": {Resolved: &wire.Candidate{URI: "file:///ws/lib/util.py", Path: "lib/util.py"}}}}
	disk := fakeDisk{"/ws/lib": "dir", "/ws/lib/util.py": "file"}
	ev := Event{Name: "PreToolUse", Tool: "Bash", Cwd: "/ws", Input: map[string]any{"command": "ls lib/util"}}
	out, err := Answer(context.Background(), ev, disk, nil, func() (Requests, error) { return req, nil })
	if err != nil || out == nil || out.Specific.UpdatedInput["command"] != "ls lib/util.py" {
		t.Fatalf("answered %+v, %v", out, err)
	}
	if len(req.asked) != 1 {
		t.Errorf("resolved %d times, want once", len(req.asked))
	}
}
