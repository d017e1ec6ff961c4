package lsp

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"wayfind/wire"
)

type statusReply struct {
	Ready bool     `json:"ready"`
	Roots []string `json:"roots"`
	Files int      `json:"files"`
}

func TestCustomMethods(t *testing.T) {
	dir := project(t)
	c := startServer(t)
	c.initialize(nil, nil, dir)

	var res wire.Resolve
	// A typo is read clearly, and listed first: names alone resolve
	// nothing (rank/confidence.go).
	c.ok("find/resolvePath", map[string]any{"path": "src/auth/midleware.py:2"}, &res)
	if res.Resolved != nil || len(res.Candidates) == 0 || res.Candidates[0].Path != "src/auth/middleware.py" || res.Exact || res.Class != "lexical" {
		t.Fatalf("typo: %+v", res)
	}
	if first := res.Candidates[0]; first.Range == nil || first.Range.Start.Line != 1 {
		t.Errorf("line suffix lost: %+v", first.Range)
	}
	if !strings.HasPrefix(res.Candidates[0].URI, "file://"+filepath.ToSlash(dir)) {
		t.Errorf("uri %s", res.Candidates[0].URI)
	}
	// Another checkout's path to a file of this tree is the file.
	c.ok("find/resolvePath", map[string]any{"path": "/home/someone/src/" + filepath.Base(dir) + "/src/auth/middleware.py:2"}, &res)
	if res.Resolved == nil || res.Resolved.Path != "src/auth/middleware.py" || res.Class != "lexical/tail" {
		t.Fatalf("another checkout's path: %+v", res)
	}
	c.ok("find/resolvePath", map[string]any{"path": "./login.py", "from": fileURI(filepath.Join(dir, "src/auth/middleware.py"))}, &res)
	if res.Resolved == nil || res.Resolved.Path != "src/auth/login.py" || !res.Exact {
		t.Fatalf("relative to from: %+v", res)
	}

	var st statusReply
	c.ok("find/status", map[string]any{}, &st)
	if !st.Ready || st.Files != 10 || len(st.Roots) != 1 {
		t.Fatalf("status %+v", st)
	}

	var files wire.Files
	c.ok("find/files", map[string]any{"query": "midlware", "limit": 3}, &files)
	if len(files.Matches) == 0 || files.Matches[0].Path != "src/auth/middleware.py" || files.TotalSearched != 10 {
		t.Fatalf("files %+v", files)
	}

	var loc wire.Locate
	c.ok("find/locate", map[string]any{"query": "where is the auth middleware implemented"}, &loc)
	if loc.Term != "auth middleware" || !loc.Impl || len(loc.Results) == 0 || loc.Results[0].Path != "src/auth/middleware.py" || loc.Results[0].Via != "file" {
		t.Fatalf("locate %+v", loc)
	}

	var alt struct{ URI, Path string }
	c.ok("find/alternate", map[string]any{"uri": fileURI(filepath.Join(dir, "src/net/socket.cc"))}, &alt)
	if alt.Path != "include/net/socket.h" {
		t.Fatalf("alternate %+v", alt)
	}

	// Two client.go files: the one near the visited file comes first (and
	// is not resolved: nearness alone never reaches the confidence).
	c.notify("find/visited", map[string]any{"uri": fileURI(filepath.Join(dir, "pkg/api/other.go"))})
	c.ok("find/resolvePath", map[string]any{"path": "client.go"}, &res)
	if res.Resolved != nil || len(res.Candidates) == 0 || res.Candidates[0].Path != "pkg/api/client.go" {
		t.Fatalf("history from find/visited not used: %+v", res)
	}
	// An explicit empty history means none: then the name is a tie.
	c.ok("find/resolvePath", map[string]any{"path": "client.go", "history": []string{}}, &res)
	if res.Resolved != nil || len(res.Candidates) != 2 {
		t.Fatalf("empty history: %+v", res)
	}

	write(t, filepath.Join(dir, "late.go"))
	c.ok("find/reindex", map[string]any{}, &st)
	if st.Files != 11 {
		t.Fatalf("reindex saw %d files", st.Files)
	}
	if !strings.Contains(c.stderr.String(), `{"method":"find/files","elapsedMs":`) {
		t.Errorf("no metrics line on stderr:\n%s", c.stderr.String())
	}
	if !regexp.MustCompile(`{"method":"find/resolvePath","elapsedMs":[0-9.]+,"results":[0-9]+,"engineMs":[0-9.]+`).MatchString(c.stderr.String()) {
		t.Errorf("no engine time in resolve's metrics line:\n%s", c.stderr.String())
	}
	// What the user should see comes once: as a log message, not also on
	// stderr (editors show both in one place).
	c.waitNote("the index's log message", func(n note) bool {
		return n.Method == "window/logMessage" && strings.Contains(string(n.Params), "wayfind: indexed ")
	})
	if strings.Contains(c.stderr.String(), "indexed ") {
		t.Errorf("a log message repeated on stderr:\n%s", c.stderr.String())
	}
}

func write(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestBadInput(t *testing.T) {
	dir := project(t)
	outside := t.TempDir()
	write(t, filepath.Join(outside, "secret.txt"))
	c := startServer(t)

	if r := c.call("find/status", map[string]any{}); r.Error == nil || r.Error.Code != -32002 {
		t.Fatalf("before initialize: %+v", r)
	}
	c.initialize(nil, nil, dir)

	// Malformed JSON, then a missing Content-Length: each answered, and the
	// server keeps reading.
	c.raw("Content-Length: 9\r\n\r\n{\"id\": 1,")
	c.waitNote("parse error", func(n note) bool { return n.Method == "(response)" && strings.Contains(string(n.Params), "-32700") })
	// The body of a message without Content-Length cannot be told from
	// junk until the next header arrives: both are answered then.
	c.raw("Content-Type: x\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"find/status\"}")
	c.raw("Content-Length: 2\r\n\r\n[]")
	c.waitNote("missing Content-Length error", func(n note) bool {
		return n.Method == "(response)" && strings.Contains(string(n.Params), "Content-Length")
	})
	c.waitNote("invalid request", func(n note) bool { return n.Method == "(response)" && strings.Contains(string(n.Params), "-32600") })

	errCases := []struct {
		method string
		params any
		code   int
	}{
		{"find/nonsense", map[string]any{}, -32601},
		{"find/resolvePath", map[string]any{"path": 42}, -32602},
		{"find/resolvePath", map[string]any{}, -32602},
		{"find/resolvePath", map[string]any{"path": strings.Repeat("a/", 512<<10)}, -32602},
		{"find/files", map[string]any{"query": []int{1}}, -32602},
		{"find/files", map[string]any{"query": "x", "threshold": 7}, -32602},
		{"find/files", "not an object", -32602},
		{"find/alternate", map[string]any{"uri": "https://example.com/a.c"}, -32602},
	}
	for _, e := range errCases {
		r := c.call(e.method, e.params)
		if r.Error == nil || r.Error.Code != e.code {
			t.Errorf("%s %v: got %+v, want error %d", e.method, e.params, r, e.code)
		}
	}

	// Paths that point outside the roots get nothing from outside.
	for _, p := range []string{"../../etc/passwd", "/etc/passwd", filepath.Join(outside, "secret.txt"), "file:///etc/shadow"} {
		var res wire.Resolve
		c.ok("find/resolvePath", map[string]any{"path": p, "from": fileURI(filepath.Join(outside, "x.txt"))}, &res)
		for _, cand := range res.Candidates {
			if !strings.HasPrefix(cand.URI, "file://"+filepath.ToSlash(dir)+"/") {
				t.Errorf("%s: candidate outside the root: %s", p, cand.URI)
			}
		}
		if res.Resolved != nil {
			t.Errorf("%s: resolved to %s", p, res.Resolved.Path)
		}
	}
	var alt any
	c.ok("find/alternate", map[string]any{"uri": fileURI(filepath.Join(outside, "secret.c"))}, &alt)
	if alt != nil {
		t.Errorf("alternate outside the roots: %v", alt)
	}

	// Still serving.
	var st statusReply
	c.ok("find/status", nil, &st)
	if !st.Ready {
		t.Fatal("not ready after bad input")
	}
}

func TestCancelNumericID(t *testing.T) {
	dir := project(t)
	c := startServer(t)
	// No "initialized": the index never starts, so the request waits.
	c.ok("initialize", map[string]any{"rootUri": fileURI(dir), "capabilities": map[string]any{}}, nil)
	id, ch := c.send("find/files", map[string]any{"query": "client"})
	time.Sleep(50 * time.Millisecond)
	c.notify("$/cancelRequest", map[string]any{"id": id})
	r := c.await("find/files", ch)
	if r.Error == nil || r.Error.Code != -32800 {
		t.Fatalf("cancelled request: %+v", r)
	}
	var st statusReply
	c.ok("find/status", nil, &st)
}

func TestProgressWatchingAndFolders(t *testing.T) {
	dir := project(t)
	c := startServer(t)
	c.initialize(map[string]any{"window": map[string]any{"workDoneProgress": true}}, nil, dir)
	c.waitNote("progress end", func(n note) bool {
		return n.Method == "$/progress" && strings.Contains(string(n.Params), `"kind":"end"`)
	})
	c.mu.Lock()
	asked := strings.Join(c.serverR, ",")
	c.mu.Unlock()
	if !strings.Contains(asked, "window/workDoneProgress/create") {
		t.Errorf("no progress token created: %s", asked)
	}

	// The server watches by itself (no dynamic registration offered).
	write(t, filepath.Join(dir, "newdir", "fresh_module.py"))
	deadline := time.Now().Add(10 * time.Second)
	for {
		var res wire.Resolve
		c.ok("find/resolvePath", map[string]any{"path": "newdir/fresh_module.py"}, &res)
		if res.Exact {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("created file never found")
		}
		time.Sleep(20 * time.Millisecond)
	}

	// A second folder added at runtime.
	second := t.TempDir()
	write(t, filepath.Join(second, "lib", "second_root.rs"))
	c.notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{
		"added": []any{map[string]string{"uri": fileURI(second), "name": "second"}}, "removed": []any{},
	}})
	var files wire.Files
	c.ok("find/files", map[string]any{"query": "second_root"}, &files)
	if len(files.Matches) == 0 || files.Matches[0].Path != "lib/second_root.rs" {
		t.Fatalf("second folder: %+v", files)
	}
	// Dropped again.
	c.notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{
		"added": []any{}, "removed": []any{map[string]string{"uri": fileURI(second), "name": "second"}},
	}})
	c.ok("find/files", map[string]any{"query": "second_root"}, &files)
	if len(files.Matches) != 0 {
		t.Fatalf("removed folder still searched: %+v", files)
	}
}

func TestClientReportedChangesAreInTheNextAnswer(t *testing.T) {
	dir := project(t)
	c := startServer(t)
	caps := map[string]any{"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}}
	c.initialize(caps, nil, dir)
	var st statusReply
	c.ok("find/status", nil, &st)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		c.mu.Lock()
		asked := strings.Join(c.serverR, ",")
		c.mu.Unlock()
		if strings.Contains(asked, "client/registerCapability") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the server did not register a file watcher with the client")
		}
	}
	p := filepath.Join(dir, "src", "auth", "session_store.py")
	write(t, p)
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": fileURI(p), "type": 1}}})
	var res wire.Resolve
	c.ok("find/resolvePath", map[string]any{"path": "src/auth/session_store.py"}, &res)
	if !res.Exact {
		t.Fatalf("created file not in the next answer: %+v", res)
	}
	os.Remove(p)
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": fileURI(p), "type": 3}}})
	c.ok("find/resolvePath", map[string]any{"path": "src/auth/session_store.py"}, &res)
	if res.Exact {
		t.Fatal("deleted file still answered")
	}
}

func TestBrokenPathLiterals(t *testing.T) {
	dir := project(t)
	c := startServer(t)
	c.initialize(nil, nil, dir)
	guide := filepath.Join(dir, "docs", "guide.md")
	text, _ := os.ReadFile(guide)
	uri := fileURI(guide)
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "markdown", "version": 1, "text": string(text)}})
	n := c.waitNote("diagnostics", func(n note) bool { return n.Method == "textDocument/publishDiagnostics" })
	var diags struct {
		URI         string `json:"uri"`
		Diagnostics []struct {
			Range   wire.Range `json:"range"`
			Message string     `json:"message"`
		} `json:"diagnostics"`
	}
	json.Unmarshal(n.Params, &diags)
	if len(diags.Diagnostics) != 2 {
		t.Fatalf("want 2 diagnostics, got %s", n.Params)
	}
	if !strings.Contains(diags.Diagnostics[0].Message, "did you mean `src/auth/login.py`") ||
		!strings.Contains(diags.Diagnostics[1].Message, "did you mean `src/auth/middleware.py`") {
		t.Fatalf("messages: %s", n.Params)
	}

	var links []struct {
		Range  wire.Range `json:"range"`
		Target string     `json:"target"`
	}
	c.ok("textDocument/documentLink", map[string]any{"textDocument": map[string]any{"uri": uri}}, &links)
	if len(links) != 3 || !strings.HasSuffix(links[1].Target, "/src/api/client.go") {
		t.Fatalf("links %+v", links)
	}

	var loc struct {
		URI   string     `json:"uri"`
		Range wire.Range `json:"range"`
	}
	at := diags.Diagnostics[1].Range.Start
	at.Character += 3
	c.ok("textDocument/definition", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": at}, &loc)
	if !strings.HasSuffix(loc.URI, "/src/auth/middleware.py") || loc.Range.Start.Line != 1 {
		t.Fatalf("definition %+v", loc)
	}

	var actions []struct {
		Title string `json:"title"`
		Edit  struct {
			Changes map[string][]struct {
				NewText string `json:"newText"`
			} `json:"changes"`
		} `json:"edit"`
	}
	c.ok("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": diags.Diagnostics[0].Range,
		"context": map[string]any{"diagnostics": []any{}}}, &actions)
	if len(actions) != 1 || actions[0].Edit.Changes[uri][0].NewText != "../src/auth/login.py" {
		t.Fatalf("code actions %+v", actions)
	}

	// An import without extension links to the module and is never flagged.
	main := filepath.Join(dir, "web", "main.ts")
	text, _ = os.ReadFile(main)
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": fileURI(main), "languageId": "typescript", "version": 1, "text": string(text)}})
	n = c.waitNote("diagnostics for main.ts", func(n note) bool {
		return n.Method == "textDocument/publishDiagnostics" && strings.Contains(string(n.Params), "main.ts")
	})
	if strings.Contains(string(n.Params), "no such file") {
		t.Fatalf("import flagged: %s", n.Params)
	}
	c.ok("textDocument/documentLink", map[string]any{"textDocument": map[string]any{"uri": fileURI(main)}}, &links)
	if len(links) != 2 || !strings.HasSuffix(links[0].Target, "/web/util/helpers.ts") {
		t.Fatalf("import links %+v", links)
	}

	// An include read against a search path links to the header and is
	// not flagged ("socket.h" is include/net/socket.h's tail).
	cc := filepath.Join(dir, "src", "net", "socket.cc")
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": fileURI(cc), "languageId": "cpp", "version": 1, "text": string(mustRead(t, cc))}})
	n = c.waitNote("diagnostics for socket.cc", func(n note) bool {
		return n.Method == "textDocument/publishDiagnostics" && strings.Contains(string(n.Params), "socket.cc")
	})
	if strings.Contains(string(n.Params), "no such file") {
		t.Fatalf("include flagged: %s", n.Params)
	}
	c.ok("textDocument/documentLink", map[string]any{"textDocument": map[string]any{"uri": fileURI(cc)}}, &links)
	if len(links) != 1 || !strings.HasSuffix(links[0].Target, "/include/net/socket.h") {
		t.Fatalf("include links %+v", links)
	}

	// An edit that fixes the literal clears the diagnostic.
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"text": strings.ReplaceAll(strings.ReplaceAll(string(mustRead(t, guide)), "logn.py", "login.py"), "midleware", "middleware")}}})
	c.waitNote("cleared diagnostics", func(n note) bool {
		return n.Method == "textDocument/publishDiagnostics" && strings.Contains(string(n.Params), `"version":2`) && strings.Contains(string(n.Params), `"diagnostics":[]`)
	})
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDiagnosticsOff(t *testing.T) {
	dir := project(t)
	c := startServer(t)
	c.initialize(nil, map[string]any{"diagnostics": false}, dir)
	guide := filepath.Join(dir, "docs", "guide.md")
	uri := fileURI(guide)
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "markdown", "version": 1, "text": string(mustRead(t, guide))}})
	var actions []any
	c.ok("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": wire.Range{End: wire.Position{Line: 9}}}, &actions)
	time.Sleep(2 * diagnoseDelay)
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, n := range c.notes {
		if n.Method == "textDocument/publishDiagnostics" {
			t.Fatalf("diagnostics published although off: %s", n.Params)
		}
	}
	if len(actions) != 0 {
		t.Fatalf("quick fixes although off: %v", actions)
	}
}

func TestExitCodes(t *testing.T) {
	dir := project(t)
	c := startServer(t)
	c.initialize(nil, nil, dir)
	c.ok("shutdown", nil, nil)
	if r := c.call("find/status", nil); r.Error == nil {
		t.Error("requests after shutdown must fail")
	}
	c.notify("exit", nil)
	if code := <-c.done; code != 0 {
		t.Fatalf("shutdown+exit: code %d", code)
	}
	c.done <- 0 // for the cleanup

	c = startServer(t)
	c.initialize(nil, nil, dir)
	c.notify("exit", nil)
	if code := <-c.done; code != 1 {
		t.Fatalf("exit without shutdown: code %d", code)
	}
	c.done <- 1

	// The client process disappears.
	proc := exec.Command("sleep", "30")
	if err := proc.Start(); err != nil {
		t.Fatal(err)
	}
	c = startServer(t)
	c.ok("initialize", map[string]any{"processId": proc.Process.Pid, "rootUri": fileURI(dir), "capabilities": map[string]any{}}, nil)
	proc.Process.Kill()
	proc.Wait()
	select {
	case code := <-c.done:
		if code != 1 {
			t.Fatalf("orphaned: code %d", code)
		}
		c.done <- code
	case <-time.After(5 * time.Second):
		t.Fatal("server kept running after its client died")
	}
}

// TestEmptyInitializationOptions: Neovim encodes an empty Lua table as
// [], which must mean "no options", not an error.
func TestEmptyInitializationOptions(t *testing.T) {
	dir := project(t)
	c := startServer(t)
	r := c.call("initialize", map[string]any{"processId": nil, "rootUri": fileURI(dir), "capabilities": map[string]any{}, "initializationOptions": []any{}})
	if r.Error != nil {
		t.Fatalf("initialize with []: %+v", r.Error)
	}
	c.notify("initialized", map[string]any{})
	var st statusReply
	c.ok("find/resolvePath", map[string]any{"path": "src/auth/login.py"}, nil)
	c.ok("find/status", map[string]any{}, &st)
	if !st.Ready {
		t.Errorf("status %+v", st)
	}
}

// TestOneRequestLayer: every request goes through one service for the
// session's life, so that what it remembers between requests (the
// listing of the directories the index skips, fresh for ten seconds)
// is there for the next one: made anew for each, every resolve with no
// candidate listed them all again.
func TestOneRequestLayer(t *testing.T) {
	fuzzSetup(t)
	if a, b := fuzzServer.service(), fuzzServer.service(); a == nil || a != b {
		t.Errorf("two requests, two request layers: %p, %p", a, b)
	}
}
