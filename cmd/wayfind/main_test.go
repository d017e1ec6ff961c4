package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"wayfind/rerank/reranktest"
)

var binary string

// TestMain builds the real binary: these tests drive it as a user would.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "wayfind-cli")
	if err != nil {
		panic(err)
	}
	// Symbol caches go to a directory of the test's, not the user's.
	os.Setenv("WAYFIND_CACHE_DIR", filepath.Join(dir, "cache"))
	binary = filepath.Join(dir, "wayfind")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		panic(string(out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func tree(t *testing.T) string {
	dir := t.TempDir()
	for _, p := range []string{"src/auth/auth_middleware.py", "src/auth/login.py", "src/api/client.go", "lib/client.go", "docs/a.md", "ignored/x.py"} {
		full := filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, nil, 0o644)
	}
	os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("ignored/\n"), 0o644)
	return dir
}

type result struct {
	code           int
	stdout, stderr string
}

func wayfind(t *testing.T, args ...string) result {
	t.Helper()
	cmd := exec.Command(binary, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{code, out.String(), errb.String()}
}

func TestFindEnvelope(t *testing.T) {
	root := tree(t)
	r := wayfind(t, "find", "authmidlware", "--root", root)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var env struct {
		Meta struct {
			Command   string  `json:"command"`
			Version   string  `json:"version"`
			ElapsedMs float64 `json:"elapsedMs"`
		} `json:"_meta"`
		Success bool `json:"success"`
		Query   struct {
			Text      string  `json:"text"`
			Mode      string  `json:"mode"`
			Threshold float64 `json:"threshold"`
		} `json:"query"`
		Summary struct {
			TotalSearched int  `json:"totalSearched"`
			Matches       int  `json:"matches"`
			Truncated     bool `json:"truncated"`
		} `json:"summary"`
		Matches []struct {
			Path      string   `json:"path"`
			URI       string   `json:"uri"`
			Score     float64  `json:"score"`
			MatchedIn []string `json:"matchedIn"`
		} `json:"matches"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &env); err != nil {
		t.Fatalf("not JSON (%v): %s", err, r.stdout)
	}
	if !env.Success || env.Meta.Command != "find" || env.Meta.Version != Version || env.Query.Text != "authmidlware" || env.Query.Mode != "fuzzy" {
		t.Fatalf("envelope: %+v", env)
	}
	if env.Summary.TotalSearched != 6 || env.Summary.Matches != len(env.Matches) || len(env.Matches) == 0 {
		t.Fatalf("summary %+v (5 files and .gitignore; the ignored file must not count)", env.Summary)
	}
	m := env.Matches[0]
	if m.Path != "src/auth/auth_middleware.py" || !strings.HasPrefix(m.URI, "file:///") || !strings.HasSuffix(m.URI, "/src/auth/auth_middleware.py") || len(m.MatchedIn) == 0 {
		t.Fatalf("match %+v", m)
	}
}

func TestResolveEnvelope(t *testing.T) {
	root := tree(t)
	r := wayfind(t, "resolve", "src/auth/login.py:12:3", "--root", root, "--format", "json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s %s", r.code, r.stdout, r.stderr)
	}
	var env struct {
		Success bool `json:"success"`
		Result  struct {
			Resolved *struct {
				Path    string   `json:"path"`
				URI     string   `json:"uri"`
				Reasons []string `json:"reasons"`
				Range   struct {
					Start struct{ Line, Character int }
				} `json:"range"`
			} `json:"resolved"`
			Candidates []json.RawMessage `json:"candidates"`
			Exact      bool              `json:"exact"`
			Class      string            `json:"class"`
			Confidence float64           `json:"confidence"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &env); err != nil {
		t.Fatal(err, r.stdout)
	}
	res := env.Result.Resolved
	if !env.Success || res == nil || res.Path != "src/auth/login.py" || !env.Result.Exact || res.Range.Start.Line != 11 || res.Range.Start.Character != 2 {
		t.Fatalf("resolve: %s", r.stdout)
	}
	// A typo: read clearly, listed first with its line, not resolved
	// (names alone resolve nothing), exit 100.
	r = wayfind(t, "resolve", "src/auth/login.pyy:12:3", "--root", root, "--format", "json")
	env.Result.Resolved = nil
	if err := json.Unmarshal([]byte(r.stdout), &env); err != nil {
		t.Fatal(err, r.stdout)
	}
	if r.code != 100 || env.Result.Resolved != nil || len(env.Result.Candidates) == 0 || env.Result.Class == "" || env.Result.Confidence >= 0.99 ||
		!strings.Contains(string(env.Result.Candidates[0]), `"path":"src/auth/login.py"`) || !strings.Contains(string(env.Result.Candidates[0]), `"line":11`) {
		t.Fatalf("typo: exit %d %s", r.code, r.stdout)
	}

	// Ambiguous bare name: no resolved, candidates listed, exit 100.
	r = wayfind(t, "resolve", "client.go", "--root", root)
	if r.code != 100 || !strings.Contains(r.stdout, `"resolved":null`) || !strings.Contains(r.stdout, "lib/client.go") {
		t.Fatalf("ambiguous: exit %d %s", r.code, r.stdout)
	}
	// History orders it; nearness alone decides nothing (rank/confidence.go).
	r = wayfind(t, "resolve", "client.go", "--root", root, "--history", filepath.Join(root, "src/api/x.go"))
	if r.code != 100 || !strings.Contains(r.stdout, `"resolved":null,"candidates":[{"uri":"file://`+filepath.ToSlash(root)+`/src/api/client.go"`) {
		t.Fatalf("history: exit %d %s", r.code, r.stdout)
	}
	// --from orders it too.
	r = wayfind(t, "resolve", "client.go", "--root", root, "--from", "lib/other/y.go")
	if r.code != 100 || !strings.Contains(r.stdout, `"resolved":null,"candidates":[{"uri":"file://`+filepath.ToSlash(root)+`/lib/client.go"`) {
		t.Fatalf("from: exit %d %q", r.code, r.stdout)
	}
}

func TestExitCodesAndBadInput(t *testing.T) {
	root := tree(t)
	cases := []struct {
		name string
		args []string
		code int
	}{
		{"found", []string{"find", "login", "--root", root}, 0},
		{"nothing found", []string{"find", "zzzqqqxxx", "--root", root}, 100},
		{"resolve nothing", []string{"resolve", "src/quantum_flux.py", "--root", root}, 100},
		{"empty query", []string{"find", "", "--root", root}, 2},
		{"missing query", []string{"find", "--root", root}, 2},
		{"unknown flag", []string{"find", "x", "--bogus", "--root", root}, 2},
		{"missing root", []string{"find", "x", "--root", filepath.Join(root, "nope")}, 2},
		{"huge query", []string{"find", strings.Repeat("a", 100<<10), "--root", root}, 2},
		{"bad format", []string{"find", "x", "--format", "xml", "--root", root}, 2},
		{"bad threshold", []string{"find", "x", "--threshold", "2", "--root", root}, 2},
		{"bad limit", []string{"find", "x", "--limit", "0", "--root", root}, 2},
		{"unknown command", []string{"frobnicate"}, 2},
		{"no command", nil, 2},
		{"resolve two paths", []string{"resolve", "a", "b", "--root", root}, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := wayfind(t, c.args...)
			if r.code != c.code {
				t.Fatalf("exit %d, want %d; stdout %s stderr %s", r.code, c.code, r.stdout, r.stderr)
			}
			if strings.Contains(r.stderr, "goroutine") || strings.Contains(r.stderr, "panic") {
				t.Fatalf("stack trace on stderr: %s", r.stderr)
			}
			if c.code == 2 {
				// JSON (the default off a terminal) carries the error envelope.
				if c.args != nil && c.args[0] != "frobnicate" {
					var env struct {
						Success bool `json:"success"`
						Error   struct {
							Code     string `json:"code"`
							Message  string `json:"message"`
							ExitCode int    `json:"exitCode"`
						} `json:"error"`
					}
					if err := json.Unmarshal([]byte(r.stdout), &env); err != nil || env.Success || env.Error.Code != "E_INPUT" || env.Error.ExitCode != 2 || env.Error.Message == "" {
						t.Fatalf("error envelope: %s (%v)", r.stdout, err)
					}
				}
			}
		})
	}
	// A NUL byte cannot pass through argv; the engine's own tests cover it.
	r := wayfind(t, "find", "x", "--root", root, "--format", "text", "--bogus")
	if r.code != 2 || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 || r.stderr == "" {
		t.Fatalf("text errors are one line on stderr: %q", r.stderr)
	}
}

func TestFormats(t *testing.T) {
	root := tree(t)
	r := wayfind(t, "find", "client", "--root", root, "--format", "jsonl")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if r.code != 0 || len(lines) != 2 {
		t.Fatalf("jsonl: %q", r.stdout)
	}
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil || m["path"] == nil || m["uri"] == nil {
			t.Fatalf("jsonl line %q", l)
		}
	}
	r = wayfind(t, "find", "client", "--root", root, "--format", "text", "--limit", "1")
	if r.code != 0 || !strings.Contains(r.stdout, "client.go") || strings.Count(r.stdout, "\n") != 1 {
		t.Fatalf("text: %q", r.stdout)
	}
	// Flags before the query work as well as after.
	r = wayfind(t, "find", "--root", root, "--format", "text", "--quiet", "login")
	if r.code != 0 || strings.TrimSpace(r.stdout) != "src/auth/login.py" {
		t.Fatalf("flags first: %q", r.stdout)
	}
	// Several roots.
	other := t.TempDir()
	os.WriteFile(filepath.Join(other, "zebra_login.py"), nil, 0o644)
	r = wayfind(t, "find", "zebra", "--root", root, "--root", other, "--format", "text", "--quiet")
	if r.code != 0 || strings.TrimSpace(r.stdout) != "zebra_login.py" {
		t.Fatalf("two roots: %q %s", r.stdout, r.stderr)
	}
}

// commandCase is one run of the binary: its arguments, the exit code and
// a piece of its output expected.
type commandCase struct {
	args []string
	code int
	want string
}

func runCommands(t *testing.T, cases []commandCase) {
	t.Helper()
	for _, c := range cases {
		cmd := exec.Command(binary, c.args...)
		out, _ := cmd.Output()
		if code := cmd.ProcessState.ExitCode(); code != c.code || !strings.Contains(string(out), c.want) {
			t.Errorf("%v: exit %d, output %s; want exit %d and %q", c.args, code, out, c.code, c.want)
		}
	}
}

func TestSymbolsCommand(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "src"), 0o755)
	os.WriteFile(filepath.Join(dir, "src", "router.h"), []byte("class CommandRouter {\n  void route();\n};\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "src", "router.cpp"), []byte("void CommandRouter::route() {}\n"), 0o644)
	cases := []commandCase{
		{[]string{"symbols", "--root", dir, "--format", "text", "CoRo"}, 0, "class       CommandRouter  src/router.h:1:7"},
		{[]string{"symbols", "--root", dir, "--format", "json", "CommandRouter::route"}, 0, `"containerName":"CommandRouter"`},
		{[]string{"symbols", "--root", dir, "--format", "text", "zzzq"}, 100, ""},
		{[]string{"symbols", "--root", dir}, 2, ""},
		{[]string{"find", "--root", dir, "--format", "json", "--kind", "all", "--impl", "CommandRouter"}, 0, `"path":"src/router.cpp"`},
		{[]string{"find", "--root", dir, "--format", "jsonl", "--kind", "symbol", "route"}, 0, `"name":"route"`},
		{[]string{"index", "--root", dir, "--format", "json"}, 0, `"fromCache":2`},
		{[]string{"index", "--root", dir, "extra"}, 2, ""},
	}
	runCommands(t, cases)
}

func TestLocateCommand(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "locate"))
	cases := []commandCase{
		{[]string{"locate", "--root", root, "--format", "text", "--quiet", "where is Socket implemented"}, 0, "src/net/socket_posix.cc:4\n"},
		{[]string{"locate", "--root", root, "--format", "json", "find cursor binary"}, 0, `"strategies":["symbol","file","content"]`},
		{[]string{"locate", "--root", root, "--format", "json", "where is the flux capacitor"}, 100, `"confidence":0`},
		{[]string{"locate", "--root", root, "--min-confidence", "3", "x"}, 2, ""},
		{[]string{"locate", "--root", root}, 2, ""},
	}
	runCommands(t, cases)
}

// TestModelFlags: --model-dir loads the reranker; one that cannot load
// is a log line, and the answer is the lexical one.
func TestModelFlags(t *testing.T) {
	lib := reranktest.Lib(t)
	model, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "model"))
	dir := tree(t)
	run := func(args ...string) (string, string, int) {
		cmd := exec.Command(binary, args...)
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		cmd.Run()
		return out.String(), errb.String(), cmd.ProcessState.ExitCode()
	}
	plain, _, code := run("find", "--root", dir, "--format", "json", "client")
	if code != 0 {
		t.Fatalf("plain find: exit %d", code)
	}
	strip := func(s string) string { // the envelope's elapsed time differs
		i := strings.Index(s, `"success"`)
		return s[i:]
	}
	with, stderr, code := run("find", "--root", dir, "--format", "json", "--model-dir", model, "--ort-lib", lib, "client")
	if code != 0 || strings.Contains(stderr, "not loaded") {
		t.Fatalf("with the model: exit %d, %s", code, stderr)
	}
	if !strings.Contains(with, `"matches"`) {
		t.Errorf("with the model: %s", with)
	}
	bad, stderr, code := run("find", "--root", dir, "--format", "json", "--model-dir", filepath.Join(dir, "none"), "--ort-lib", lib, "client")
	if code != 0 || !strings.Contains(stderr, "model not loaded, answers stay lexical") || strip(bad) != strip(plain) {
		t.Errorf("missing model: exit %d, stderr %q, output %s vs %s", code, stderr, bad, plain)
	}
	_, stderr, code = run("resolve", "--root", dir, "--model-dir", model, "--ort-lib", "/nonexistent/libonnxruntime.so.1", "src/api/client.go")
	if code != 0 || !strings.Contains(stderr, "ONNX Runtime") {
		t.Errorf("missing library: exit %d, stderr %q", code, stderr)
	}
}

// Queries that run across directory and name, through the real binary on
// a fixture and on this repository itself (the README's first command).
func TestFindAcrossPath(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"net/http/server.go", "net/http/httptest/server.go", "builtin/cat-file.c", "services/cart/store.go", "xyz/index.js", "xyz/util.js", "app/color.js"} {
		full := filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, nil, 0o644)
	}
	repo, _ := filepath.Abs(filepath.Join("..", ".."))
	cases := []commandCase{
		{[]string{"find", "--root", dir, "--format", "text", "--quiet", "nethttpserver"}, 0, "net/http/server.go"},
		{[]string{"find", "--root", dir, "--format", "json", "buicatfil"}, 0, `"path":"builtin/cat-file.c","score":`},
		{[]string{"find", "--root", dir, "--format", "json", "cart store"}, 0, `"path":"services/cart/store.go"`},
		{[]string{"find", "--root", dir, "--format", "json", "js color"}, 0, `"path":"app/color.js"`},
		{[]string{"find", "--root", dir, "--format", "json", "xyz"}, 0, `"matches":[{"uri":"file://` + filepath.ToSlash(dir) + `/xyz/index.js"`},
		{[]string{"find", "--root", dir, "--format", "json", "qzxwvkjp"}, 100, ""},
		{[]string{"find", "--root", repo, "--format", "json", "lspserver"}, 0, `"matches":[{"uri":"file://` + filepath.ToSlash(repo) + `/lsp/server.go"`},
		// Beside a copy, that copy first; in it, the other (no one looks
		// for the file they are in).
		{[]string{"find", "--root", dir, "--format", "text", "--quiet", "--current", filepath.Join(dir, "net/http/httptest/x.go"), "server.go"}, 0, "net/http/httptest/server.go\nnet/http/server.go"},
		{[]string{"find", "--root", dir, "--format", "text", "--quiet", "--current", filepath.Join(dir, "net/http/server.go"), "server.go"}, 0, "net/http/httptest/server.go\nnet/http/server.go"},
	}
	runCommands(t, cases)
}

// TestLocateCachesFollowEdits: each `wayfind locate` is a new process
// that reads the symbol and text caches the last one left; an edit in
// between is seen — a new definition, a new phrase, one gone.
func TestLocateCachesFollowEdits(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, text string) {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(rel)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("pkg/a.go", "package pkg\n\nfunc Alpha() {}\n")
	write("pkg/b.go", "package pkg\n\n// nothing here yet\n")
	locate := func(q string) string {
		cmd := exec.Command(binary, "locate", "--root", dir, "--format", "text", "--quiet", q)
		out, _ := cmd.Output()
		return strings.TrimSpace(string(out))
	}
	if got := locate("where is Alpha defined"); got != "pkg/a.go:3" {
		t.Fatalf("Alpha: %q", got)
	}
	if got := locate("where is SessionBroker defined"); got != "" {
		t.Fatalf("before the edit: %q", got)
	}
	// Same size and time would hide an edit; a new size shows it.
	write("pkg/b.go", "package pkg\n\n// SessionBroker hands sessions to the pool of workers\ntype SessionBroker struct{}\n")
	if got := locate("where is SessionBroker defined"); got != "pkg/b.go:4" {
		t.Errorf("a definition added: %q", got)
	}
	if got := locate(`where is "hands sessions to the pool" handled`); got != "pkg/b.go:3" {
		t.Errorf("a phrase added: %q", got)
	}
	os.Remove(filepath.Join(dir, "pkg/a.go"))
	if got := locate("where is Alpha defined"); got != "" {
		t.Errorf("a file removed still answers: %q", got)
	}
}
