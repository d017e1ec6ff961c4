package hook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wayfind/service"
	"wayfind/wire"
)

// fakeRequests answers from a table.
type fakeRequests struct {
	resolve map[string]wire.Resolve
	dirs    map[string]*wire.DirMove
	sought  map[string]*wire.DirMove // by directory and the name sought ("DIR NAME"; -iname's: "DIR NAME i")
	named   map[string][]wire.NamedDir
	asked   []service.ResolveParams
	note    string
}

func (f *fakeRequests) Resolve(_ context.Context, p service.ResolveParams) (wire.Resolve, int, error) {
	f.asked = append(f.asked, p)
	r, ok := f.resolve[p.Path]
	if !ok {
		return wire.Resolve{Candidates: []wire.Candidate{}}, 0, nil
	}
	return r, len(r.Candidates), nil
}

func (f *fakeRequests) Note() string { return f.note }

func (f *fakeRequests) MovedDir(_ context.Context, dir string) (*wire.DirMove, error) {
	return f.dirs[dir], nil
}

func (f *fakeRequests) NamedDirs(_ context.Context, dir string, most int) ([]wire.NamedDir, error) {
	named := f.named[dir]
	return named[:min(most, len(named))], nil
}

func (f *fakeRequests) SoughtDir(_ context.Context, dir, seek string, fold bool) (*wire.DirMove, error) {
	key := dir + " " + seek
	if fold {
		key += " i"
	}
	return f.sought[key], nil
}

type fakeDisk map[string]string // path → "file" or "dir"

func (d fakeDisk) IsFile(p string) bool { return d[p] == "file" }
func (d fakeDisk) IsDir(p string) bool  { return d[p] == "dir" }

// LinesWithin: a file named "large" is 100 lines of 1 KiB; the others fit.
func (d fakeDisk) LinesWithin(p string, from, budget int) (int, bool) {
	if !strings.Contains(p, "large") {
		return 0, true
	}
	left := 100 - (from - 1)
	return min(left, budget>>10), budget>>10 >= left
}

func TestAnswer(t *testing.T) {
	moved := wire.Resolve{Resolved: &wire.Candidate{URI: "file:///ws/new/a.go", Path: "new/a.go",
		Range: &wire.Range{Start: wire.Position{Line: 11}}}, Exact: false,
		Moved: &wire.HistoryNote{Path: "old/a.go", Commit: "3f2a1c9e", Date: "2024-05-01", Subject: "move a"}}
	gone := wire.Resolve{Gone: &wire.HistoryNote{Path: "gone.go", Commit: "aa11bb22", Date: "2024-06-01", Subject: "remove gone"}, Candidates: []wire.Candidate{},
		Confidence: 0.98, Class: "history/gone"}
	goneSure := gone
	goneSure.Confidence = 0.99 // a class of "gone" that held 99% on the held-out half
	ambiguous := wire.Resolve{Candidates: []wire.Candidate{{URI: "file:///ws/a/config.go", Path: "a/config.go", Reasons: []string{"name:exact"}},
		{URI: "file:///ws/b/config.go", Path: "b/config.go", Reasons: []string{"name:exact"}}}}
	req := &fakeRequests{
		resolve: map[string]wire.Resolve{"/ws/old/a.go:12": moved, "/ws/old/a.go": moved, "/ws/old/large.go": {Resolved: &wire.Candidate{URI: "file:///ws/new/large.go", Path: "new/large.go"}},
			"/ws/old/large.go:90": {Resolved: &wire.Candidate{URI: "file:///ws/new/large.go", Path: "new/large.go", Range: &wire.Range{Start: wire.Position{Line: 89}}}}, "/ws/gone.go": gone, "/ws/sure/gone.go": goneSure, "/ws/config.go": ambiguous, "/ws/unread.go": {HistoryPending: true},
			"/ws/pkg/assertion": {Resolved: &wire.Candidate{URI: "file:///ws/src/pkg/assertion/__init__.py", Path: "src/pkg/assertion/__init__.py"}}},
		dirs: map[string]*wire.DirMove{"/ws/old": {From: "old", To: "new", URI: "file:///ws/new", Moved: 3, Followed: 3, Commit: moved.Moved},
			"/ws/ws/src": {From: "ws/src", To: "src", URI: "file:///ws/src"}}, // a reading: no history followed
		sought: map[string]*wire.DirMove{"/ws/mods X.java": {From: "mods", To: "core/mods", URI: "file:///ws/core/mods"}},
		named: map[string][]wire.NamedDir{"/ws/mods2": {{Path: "big/mods2", URI: "file:///ws/big/mods2", Files: 9}, {Path: "small/mods2", URI: "file:///ws/small/mods2", Files: 1}},
			"/ws/mods2.go": {{Path: "x", URI: "file:///ws/x", Files: 1}}},
	}
	disk := fakeDisk{"/ws/core/mods": "dir", "/ws/README.md": "file", "/ws/src": "dir", "/ws/new": "dir", "/ws/src/pkg/assertion": "dir"}
	opened := 0
	open := func() (Requests, error) { opened++; return req, nil }
	ev := func(name, tool string, input map[string]any) Event {
		return Event{Name: name, Tool: tool, Cwd: "/ws", Input: input}
	}
	cases := []struct {
		name     string
		ev       Event
		decision string // "" for no answer
		want     map[string]any
		says     string
	}{
		{"an existing path: nothing, no index opened", ev("PreToolUse", "Read", map[string]any{"file_path": "/ws/README.md"}), "", nil, ""},
		{"a moved file's old path, with a line: the Read rewritten, its offset the line", ev("PreToolUse", "Read", map[string]any{"file_path": "/ws/old/a.go:12"}),
			"allow", map[string]any{"file_path": "/ws/new/a.go", "offset": 12}, "moved to /ws/new/a.go in 3f2a1c9 (2024-05-01)"},
		{"a rewritten Read of more than readWindow: a limit, the lines that fit", ev("PreToolUse", "Read", map[string]any{"file_path": "/ws/old/large.go"}),
			"allow", map[string]any{"file_path": "/ws/new/large.go", "limit": 48}, "is /ws/new/large.go"},
		{"the same from a line near its end: what is left fits, no limit", ev("PreToolUse", "Read", map[string]any{"file_path": "/ws/old/large.go:90"}),
			"allow", map[string]any{"file_path": "/ws/new/large.go", "offset": 90}, "is /ws/new/large.go"},
		{"the same with a limit asked: the asker's", ev("PreToolUse", "Read", map[string]any{"file_path": "/ws/old/large.go", "limit": 5}),
			"allow", map[string]any{"file_path": "/ws/new/large.go", "limit": 5}, "is /ws/new/large.go"},
		{"an Edit's rewrite is put to the person", ev("PreToolUse", "Edit", map[string]any{"file_path": "/ws/old/a.go", "old_string": "x", "new_string": "y"}),
			"ask", map[string]any{"file_path": "/ws/new/a.go", "old_string": "x", "new_string": "y"}, "moved to"},
		{"a deleted file below the promise: the call goes ahead, the commit named", ev("PreToolUse", "Read", map[string]any{"file_path": "gone.go"}), "", nil, `likely deleted in aa11bb2 (2024-06-01) "remove gone"`},
		{"a deleted file at the promise: denied, naming the commit", ev("PreToolUse", "Read", map[string]any{"file_path": "sure/gone.go"}), "deny", nil, `deleted in aa11bb2 (2024-06-01) "remove gone"`},
		{"a path with a line break is no path: nothing", ev("PreToolUse", "Read", map[string]any{"file_path": "old/a.go\n/etc/passwd"}), "", nil, ""},
		{"an ambiguous name: denied with the candidates, best first", ev("PreToolUse", "Read", map[string]any{"file_path": "config.go"}), "deny", nil, "1. /ws/a/config.go (name:exact)\n2. /ws/b/config.go"},
		{"nothing to offer: nothing said", ev("PreToolUse", "Read", map[string]any{"file_path": "/ws/nothing.go"}), "", nil, ""},
		{"nothing to offer before the history is read: the call goes ahead, that said", ev("PreToolUse", "Read", map[string]any{"file_path": "unread.go"}), "", nil,
			"wayfind: no file at unread.go, and none by its name; the repository's history, not read for this answer, may say where it went."},
		{"a directory that moved: the Glob rewritten", ev("PreToolUse", "Glob", map[string]any{"pattern": "*.go", "path": "/ws/old"}), "allow", map[string]any{"pattern": "*.go", "path": "/ws/new"}, "old moved to new"},
		{"a directory searched for a name one directory of that name holds: the Glob rewritten", ev("PreToolUse", "Glob", map[string]any{"pattern": "**/X.java", "path": "mods"}), "allow", map[string]any{"pattern": "**/X.java", "path": "/ws/core/mods"}, "mods is /ws/core/mods, the one directory named so that holds X.java"},
		{"a Grep's file filter is what it seeks", ev("PreToolUse", "Grep", map[string]any{"pattern": "class", "glob": "X.java", "path": "mods"}), "allow", map[string]any{"pattern": "class", "glob": "X.java", "path": "/ws/core/mods"}, "holds X.java"},
		{"a Grep's text is not", ev("PreToolUse", "Grep", map[string]any{"pattern": "X.java", "path": "mods"}), "", nil, ""},
		{"a directory the root's name was written before: the Glob rewritten", ev("PreToolUse", "Glob", map[string]any{"pattern": "*.go", "path": "ws/src"}), "allow", map[string]any{"pattern": "*.go", "path": "/ws/src"}, "wayfind: ws/src is src"},
		{"a package's directory written without its prefix: the Glob rewritten to the directory, not its __init__.py", ev("PreToolUse", "Grep", map[string]any{"pattern": "x", "path": "pkg/assertion"}),
			"allow", map[string]any{"pattern": "x", "path": "/ws/src/pkg/assertion"}, "pkg/assertion is /ws/src/pkg/assertion"},
		{"a Write is never rewritten; into a moved directory, a line", ev("PreToolUse", "Write", map[string]any{"file_path": "/ws/old/b.go", "content": "x"}), "", nil, "old moved to new"},
		{"a Write into a directory that is there: nothing", ev("PreToolUse", "Write", map[string]any{"file_path": "/ws/src/b.go"}), "", nil, ""},
		{"a tool that takes no path: nothing", ev("PreToolUse", "WebFetch", map[string]any{"url": "x"}), "", nil, ""},
		{"an event it does not know: nothing", ev("SessionStart", "", nil), "", nil, ""},
		{"a shell command that named a moved file: a line after it", Event{Name: "PostToolUse", Tool: "Bash", Cwd: "/ws",
			Response: json.RawMessage(`{"stdout":"","stderr":"cat: old/a.go: No such file or directory\n"}`)}, "", nil, "old/a.go moved to new/a.go"},
		{"a failed shell command: the same", Event{Name: "PostToolUseFailure", Tool: "Bash", Cwd: "/ws", Error: "ls: cannot access 'gone.go': No such file or directory"}, "", nil, "gone.go was deleted in aa11bb2"},
		{"a directory that is not there, searched for nothing in particular: the directories named so, told", ev("PreToolUse", "LS", map[string]any{"path": "mods2"}), "", nil,
			"wayfind: no directory mods2; those named so: /ws/big/mods2, /ws/small/mods2"},
		{"a failed listing of a directory that is not there: the same after it", Event{Name: "PostToolUseFailure", Tool: "Bash", Cwd: "/ws", Error: "ls: cannot access 'mods2': No such file or directory"}, "", nil,
			"wayfind: no directory mods2; those named so: /ws/big/mods2, /ws/small/mods2"},
		{"a file's name is not a directory's", Event{Name: "PostToolUseFailure", Tool: "Bash", Cwd: "/ws", Error: "cat: mods2.go: No such file or directory"}, "", nil, ""},
		{"Codex's answer of a shell command, one string: the same", Event{Name: "PostToolUse", Tool: "Bash", Cwd: "/ws", TurnID: "t",
			Response: json.RawMessage(`"cat: old/a.go: No such file or directory\n"`)}, "", nil, "old/a.go moved to new/a.go"},
	}
	for _, c := range cases {
		before := opened
		out, err := Answer(context.Background(), c.ev, disk, nil, open)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if c.decision == "" && c.says == "" {
			if out != nil {
				t.Errorf("%s: answered %+v, want nothing", c.name, out.Specific)
			}
			if strings.HasPrefix(c.name, "an existing path") && opened != before {
				t.Errorf("%s: the index was opened", c.name)
			}
			continue
		}
		if out == nil || out.Specific == nil {
			t.Errorf("%s: no answer", c.name)
			continue
		}
		s := out.Specific
		if s.Event != c.ev.Name || s.Decision != c.decision || !strings.Contains(s.Reason+s.Context, c.says) {
			t.Errorf("%s: %+v, want %q saying %q", c.name, s, c.decision, c.says)
		}
		if c.want != nil {
			got, _ := json.Marshal(s.UpdatedInput)
			want, _ := json.Marshal(c.want)
			if string(got) != string(want) {
				t.Errorf("%s: updatedInput %s, want %s", c.name, got, want)
			}
		}
	}
}

// A history read for the first time is said in the answer.
func TestAnswerNote(t *testing.T) {
	req := &fakeRequests{note: "history read for the first time: 4.2 s", resolve: map[string]wire.Resolve{"/ws/config.go": {
		Candidates: []wire.Candidate{{URI: "file:///ws/a/config.go", Path: "a/config.go", Reasons: []string{"name:exact"}}}}}}
	out, err := Answer(context.Background(), Event{Name: "PreToolUse", Tool: "Read", Cwd: "/ws", Input: map[string]any{"file_path": "config.go"}},
		fakeDisk{}, nil, func() (Requests, error) { return req, nil })
	if err != nil || out == nil || !strings.HasSuffix(out.Specific.Reason, "(history read for the first time: 4.2 s)") {
		t.Errorf("out %+v, err %v", out, err)
	}
}

// An error of the request layer is the caller's to log: the call goes
// ahead (no answer).
func TestAnswerError(t *testing.T) {
	out, err := Answer(context.Background(), Event{Name: "PreToolUse", Tool: "Read", Input: map[string]any{"file_path": "/nowhere/x.go"}},
		fakeDisk{}, nil, func() (Requests, error) { return nil, errors.New("no index") })
	if out != nil || err == nil {
		t.Errorf("out %+v, err %v", out, err)
	}
}

// The hook keeps its own trail: the files an agent's calls named that
// were there place it, most recent last, whatever its transcript has
// written yet; a file gone since is left out.
func TestTrailPlacesTheAgent(t *testing.T) {
	trail := OpenTrail(t.TempDir(), "session-1")
	req := &fakeRequests{}
	open := func() (Requests, error) { return req, nil }
	disk := fakeDisk{"/ws/services/ship/handler.go": "file", "/ws/README.md": "file", "/ws/old.go": "file"}
	read := func(p string) {
		if _, err := Answer(context.Background(), Event{Name: "PreToolUse", Tool: "Read", Cwd: "/ws", Input: map[string]any{"file_path": p}}, disk, trail, open); err != nil {
			t.Fatal(err)
		}
	}
	shell := func(command string) {
		if _, err := Answer(context.Background(), Event{Name: "PreToolUse", Tool: shellTool, Cwd: "/ws", Input: map[string]any{shellField: command}}, disk, trail, open); err != nil {
			t.Fatal(err)
		}
	}
	read("/ws/old.go")
	read("services/ship/handler.go")
	read("/ws/README.md")
	read("/ws/services/ship/handler.go") // again: its latest mention counts
	delete(disk, "/ws/old.go")
	read("config.go")
	if len(req.asked) != 1 {
		t.Fatalf("asked %d times, want once (for config.go)", len(req.asked))
	}
	p := req.asked[0]
	if got := strings.Join(p.History, ","); got != "/ws/README.md,/ws/services/ship/handler.go" || p.Current != "/ws/services/ship/handler.go" {
		t.Errorf("history %s, current %s", got, p.Current)
	}
	// A file a shell command reads places the agent as a Read does; a
	// word it does not read (a pattern, a file it writes) does not.
	shell("grep -n handler README.md && rm services/ship/handler.go")
	read("config.go")
	if p := req.asked[len(req.asked)-1]; p.Current != "/ws/README.md" {
		t.Errorf("after the shell's read: history %s, current %s", strings.Join(p.History, ","), p.Current)
	}
}

func TestFileTrail(t *testing.T) {
	dir := t.TempDir()
	if OpenTrail(dir, "../escape") != nil || OpenTrail("", "abc") != nil {
		t.Error("a trail outside its directory, or without one")
	}
	tr := OpenTrail(dir, "abc")
	if tr.Files() != nil {
		t.Error("a new trail has files")
	}
	tr.Add("/ws/a.go")
	tr.Add("/ws/b c.go")
	tr.Add("/ws/new\nline.go") // a name with a newline is not kept
	if got := strings.Join(tr.Files(), ","); got != "/ws/a.go,/ws/b c.go" {
		t.Errorf("files %q", got)
	}
	long := OpenTrail(dir, "long")
	for i := range 5000 {
		long.Add(fmt.Sprintf("/ws/dir/%05d/some/longer/path/file.go", i))
	}
	files := long.Files()
	if len(files) == 0 || files[len(files)-1] != "/ws/dir/04999/some/longer/path/file.go" || !strings.HasPrefix(files[0], "/ws/dir/") {
		t.Errorf("a long trail's tail: %d files, first %q", len(files), files[0])
	}
}

func TestMissingPaths(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"cat: src/old.go: No such file or directory", "src/old.go"},
		{"ls: cannot access 'docs/x.md': No such file or directory", "docs/x.md"},
		{"python3: can't open file '/w/tools/gen.py': [Errno 2] No such file or directory", "/w/tools/gen.py"},
		{"FileNotFoundError: [Errno 2] No such file or directory: 'data/in.csv'", "data/in.csv"},
		{"Error: ENOENT: no such file or directory, open 'lib/a.js'", "lib/a.js"},
		{"open internal/x.go: no such file or directory", "internal/x.go"},
		{"java.io.FileNotFoundException: conf/app.yml (No such file or directory)", "conf/app.yml"},
		{"everything is fine", ""},
		{"cat: *.go: No such file or directory", ""},
	} {
		got := strings.Join(missingPaths(c.text), ",")
		if got != c.want {
			t.Errorf("%q: %q, want %q", c.text, got, c.want)
		}
	}
}

func TestInstall(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".claude", "settings.json")
	// The user's own settings and hooks, in their order.
	user := `{
  "model": "opus",
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "audit.sh"}]}
    ]
  },
  "permissions": {"allow": ["Read"]}
}
`
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte(user), 0o600)
	cmd := Command("/opt/my tools/wayfind")
	if changed, err := Install(path, cmd); err != nil || !changed {
		t.Fatalf("install: %v %v", changed, err)
	}
	got, _ := os.ReadFile(path)
	var s struct {
		Model string `json:"model"`
		Hooks map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Command string `json:"command"`
			} `json:"hooks"`
		} `json:"hooks"`
		Permissions map[string][]string `json:"permissions"`
	}
	if err := json.Unmarshal(got, &s); err != nil {
		t.Fatal(err, string(got))
	}
	if s.Model != "opus" || s.Permissions["allow"][0] != "Read" || len(s.Hooks["PreToolUse"]) != 2 || s.Hooks["PreToolUse"][0].Hooks[0].Command != "audit.sh" ||
		s.Hooks["PreToolUse"][1].Hooks[0].Command != `'/opt/my tools/wayfind' hook` || len(s.Hooks["PostToolUse"]) != 1 || len(s.Hooks["PostToolUseFailure"]) != 1 {
		t.Fatalf("settings after install:\n%s", got)
	}
	if strings.Index(string(got), `"model"`) > strings.Index(string(got), `"permissions"`) {
		t.Errorf("keys reordered:\n%s", got)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the file's own 0600", st.Mode().Perm())
	}
	// Idempotent; an install from another binary replaces the entry.
	if changed, err := Install(path, cmd); err != nil || changed {
		t.Errorf("second install: changed %v, %v", changed, err)
	}
	if _, err := Install(path, Command("/usr/local/bin/wayfind")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); strings.Count(string(got), "wayfind") != 3 || strings.Contains(string(got), "my tools") {
		t.Errorf("reinstall from another binary:\n%s", got)
	}
	// Uninstall leaves the user's as it was.
	if changed, err := Uninstall(path); err != nil || !changed {
		t.Fatalf("uninstall: %v %v", changed, err)
	}
	got, _ = os.ReadFile(path)
	if strings.Contains(string(got), "wayfind") || !strings.Contains(string(got), "audit.sh") || !strings.Contains(string(got), `"opus"`) ||
		strings.Contains(string(got), "PostToolUse") {
		t.Errorf("after uninstall:\n%s", got)
	}
	if changed, err := Uninstall(path); err != nil || changed {
		t.Errorf("second uninstall: %v %v", changed, err)
	}
	// A file that is not JSON is left as it is.
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte("{ not json"), 0o644)
	if _, err := Install(bad, cmd); !errors.Is(err, ErrSettings) {
		t.Errorf("install into a broken file: %v", err)
	}
	if b, _ := os.ReadFile(bad); string(b) != "{ not json" {
		t.Errorf("broken file changed: %q", b)
	}
	// No file yet: made.
	fresh := filepath.Join(dir, "new", "settings.json")
	if changed, err := Install(fresh, cmd); err != nil || !changed {
		t.Errorf("install into no file: %v %v", changed, err)
	}
}

func TestTranscript(t *testing.T) {
	p := filepath.Join(t.TempDir(), "t.jsonl")
	lines := []string{
		`{"type":"user","message":{"role":"user","content":"go"}}`,
		`{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Read","input":{"file_path":"/ws/a.go"}}]}}`,
		`{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Bash","input":{"command":"ls"}}]}}`,
		`{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Edit","input":{"file_path":"/ws/b.go"}}]}}`,
		`{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Read","input":{"file_path":"/ws/a.go"}}]}}`,
		`not json`,
	}
	os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o644)
	if got := strings.Join(workedOn(p), ","); got != "/ws/b.go,/ws/a.go" {
		t.Errorf("worked on %q, want /ws/b.go,/ws/a.go", got)
	}
	if got := workedOn(filepath.Join(t.TempDir(), "none")); got != nil {
		t.Errorf("no transcript: %v", got)
	}
}

// TestInstallRefuses: a file Install may not write, or whose hooks it
// cannot merge into, is refused with a clear error and left byte for
// byte; a symbolic link is written through, and stays a link.
func TestInstallRefuses(t *testing.T) {
	dir := t.TempDir()
	cmd := Command("wayfind")
	for _, c := range []struct {
		name, text string
		mode       os.FileMode
		want       error
	}{
		{"read-only", `{"model":"opus"}`, 0o444, ErrReadOnly},
		{"an event that is not a list", `{"hooks":{"PreToolUse":{"matcher":"Bash"}}}`, 0o644, ErrSettings},
		{"hooks not an object", `{"hooks":[]}`, 0o644, ErrSettings},
	} {
		p := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".json")
		os.WriteFile(p, []byte(c.text), c.mode)
		os.Chmod(p, c.mode)
		if _, err := Install(p, cmd); !errors.Is(err, c.want) || !strings.Contains(err.Error(), "not changed") {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
		if b, _ := os.ReadFile(p); string(b) != c.text {
			t.Errorf("%s: changed to %q", c.name, b)
		}
	}

	// Settings kept with one's dotfiles: the link stays, its target takes
	// the hook; uninstall gives the target back its meaning.
	target := filepath.Join(dir, "dotfiles", "claude.json")
	os.MkdirAll(filepath.Dir(target), 0o755)
	mine := "{\n  \"model\": \"opus\",\n  \"env\": {\"A\": \"1\"}\n}\n"
	os.WriteFile(target, []byte(mine), 0o600)
	link := filepath.Join(dir, "home", ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(link), 0o755)
	if err := os.Symlink("../../dotfiles/claude.json", link); err != nil {
		t.Fatal(err)
	}
	if changed, err := Install(link, cmd); err != nil || !changed {
		t.Fatalf("install through a link: %v %v", changed, err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v", err)
	}
	if b, _ := os.ReadFile(target); !strings.Contains(string(b), "wayfind hook") || !strings.Contains(string(b), `"opus"`) {
		t.Errorf("the target after install:\n%s", b)
	}
	if changed, err := Uninstall(link); err != nil || !changed {
		t.Fatalf("uninstall through a link: %v %v", changed, err)
	}
	var before, after any
	json.Unmarshal([]byte(mine), &before)
	b, _ := os.ReadFile(target)
	json.Unmarshal(b, &after)
	if fmt.Sprint(before) != fmt.Sprint(after) {
		t.Errorf("after uninstall the target says %s, before %s", b, mine)
	}
	// A link to a file not made yet: made where it leads.
	dangling := filepath.Join(dir, "home2", "settings.json")
	os.MkdirAll(filepath.Dir(dangling), 0o755)
	os.Symlink(filepath.Join(dir, "dotfiles", "new.json"), dangling)
	if _, err := Install(dangling, cmd); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "dotfiles", "new.json")); err != nil || !strings.Contains(string(b), "wayfind hook") {
		t.Errorf("a dangling link's target: %v %s", err, b)
	}
}

// TestNamedDirsFollowTheTrail: of the directories a path that is not
// there names, those holding a file the agent was in come first, the
// latest first; the others keep the request layer's order.
func TestNamedDirsFollowTheTrail(t *testing.T) {
	named := []wire.NamedDir{{URI: "file:///ws/core/src", Files: 9}, {URI: "file:///ws/plugin/src", Files: 5}, {URI: "file:///ws/cli/src", Files: 3}, {URI: "file:///ws/docs/src", Files: 1}}
	req := &fakeRequests{named: map[string][]wire.NamedDir{"/ws/src": named}}
	for _, c := range []struct {
		name    string
		visited []string // oldest first
		want    string
	}{
		{"no trail: the most files first", nil, "/ws/core/src, /ws/plugin/src, /ws/cli/src, /ws/docs/src"},
		{"the latest visit's first", []string{"/ws/cli/src/a.go", "/ws/plugin/src/b.go"}, "/ws/plugin/src, /ws/cli/src, /ws/core/src, /ws/docs/src"},
		{"a visit beside a directory is not in it", []string{"/ws/docs/srcx/a.go", "/ws/docs/README.md"}, "/ws/core/src, /ws/plugin/src, /ws/cli/src, /ws/docs/src"},
	} {
		trail := OpenTrail(t.TempDir(), "s")
		for _, f := range c.visited {
			trail.Add(f)
		}
		if got := namedLine(context.Background(), req, "src", "/ws/src", trail); got != "wayfind: no directory src; those named so: "+c.want {
			t.Errorf("%s: %q", c.name, got)
		}
	}
}
