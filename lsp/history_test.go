package lsp

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"wayfind/wire"
)

// stdioServer is `wayfind lsp` as a child process, spoken to the way an
// editor does: framed messages on stdin, answers read from stdout.
type stdioServer struct {
	t   *testing.T
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
	id  int
}

func startBinary(t *testing.T, bin, cache string) *stdioServer {
	t.Helper()
	cmd := exec.Command(bin, "lsp")
	cmd.Env = append(os.Environ(), "WAYFIND_CACHE_DIR="+cache)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &stdioServer{t: t, cmd: cmd, in: in, out: bufio.NewReader(out)}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return s
}

func (s *stdioServer) write(msg map[string]any) {
	msg["jsonrpc"] = "2.0"
	b, _ := json.Marshal(msg)
	fmt.Fprintf(s.in, "Content-Length: %d\r\n\r\n%s", len(b), b)
}

func (s *stdioServer) notify(method string, params any) {
	s.write(map[string]any{"method": method, "params": params})
}

// call sends a request and decodes its result into v, skipping what the
// server sends meanwhile; an error answer fails the test.
func (s *stdioServer) call(method string, params, v any) {
	s.t.Helper()
	result, rpcErr := s.request(method, params)
	if rpcErr != nil {
		s.t.Fatalf("%s: %s", method, rpcErr)
	}
	if v != nil {
		if err := json.Unmarshal(result, v); err != nil {
			s.t.Fatal(err)
		}
	}
}

// request sends a request and returns its result, or its error, as the
// server wrote it, skipping what the server sends meanwhile.
func (s *stdioServer) request(method string, params any) (result, rpcErr json.RawMessage) {
	s.t.Helper()
	s.id++
	s.write(map[string]any{"id": s.id, "method": method, "params": params})
	for {
		var n int
		line, err := s.out.ReadString('\n')
		if err != nil {
			s.t.Fatalf("%s: %v", method, err)
		}
		if _, err := fmt.Sscanf(line, "Content-Length: %d", &n); err != nil {
			continue
		}
		s.out.ReadString('\n')
		body := make([]byte, n)
		if _, err := io.ReadFull(s.out, body); err != nil {
			s.t.Fatal(err)
		}
		var m struct {
			ID     *int            `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		json.Unmarshal(body, &m)
		if m.ID == nil || *m.ID != s.id || m.Method != "" {
			continue
		}
		return m.Result, m.Error
	}
}

// stop shuts the server down as an editor does and waits for it.
func (s *stdioServer) stop() {
	s.t.Helper()
	s.call("shutdown", nil, nil)
	s.notify("exit", nil)
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			s.t.Fatalf("exit: %v", err)
		}
	case <-time.After(10 * time.Second):
		s.t.Fatal("the server did not exit")
	}
}

func (s *stdioServer) initialize(root string) {
	s.call("initialize", map[string]any{"processId": os.Getpid(), "rootUri": wire.FileURI(root), "capabilities": map[string]any{}}, nil)
	s.notify("initialized", map[string]any{})
}

// TestHistorySurvivesRestart, through the real binary: where the user went
// (find/visited, didOpen) decides an ambiguous name and fills the empty
// query's list, and still does after the server restarts; a visit with an
// unknown reason or outside the root changes nothing.
func TestHistorySurvivesRestart(t *testing.T) {
	bin := buildBinary(t)
	dir, cache := project(t), t.TempDir()
	write(t, filepath.Join(dir, "pkg/api/server.go"))
	srv := startBinary(t, bin, cache)
	srv.initialize(dir)
	var files wire.Files
	srv.call("find/files", map[string]any{"query": ""}, &files)
	if len(files.Matches) != 0 {
		t.Fatalf("recent files before any visit: %+v", files.Matches)
	}
	srv.notify("find/visited", map[string]any{"uri": wire.FileURI(filepath.Join(dir, "pkg/api/server.go")), "reason": "focus"})
	srv.notify("find/visited", map[string]any{"uri": wire.FileURI(filepath.Join(dir, "include/net/socket.h"))})
	srv.notify("find/visited", map[string]any{"uri": wire.FileURI(filepath.Join(dir, "src/auth/login.py")), "reason": "hover"})
	srv.notify("find/visited", map[string]any{"uri": wire.FileURI(filepath.Join(filepath.Dir(dir), "elsewhere.go")), "reason": "focus"})
	srv.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": wire.FileURI(filepath.Join(dir, "src/auth/middleware.py")), "languageId": "python", "version": 1, "text": "x = 1\n"}})
	// Before the restart the last file opened (src/auth/middleware.py)
	// stands for the current file: the client.go beside its directory
	// comes first. After it, only the history is left: the one near the
	// most visited place.
	check := func(when string, s *stdioServer, first string) {
		t.Helper()
		var res wire.Resolve
		s.call("find/resolvePath", map[string]any{"path": "client.go"}, &res)
		if res.Resolved != nil || len(res.Candidates) == 0 || res.Candidates[0].Path != first {
			t.Fatalf("%s: client.go resolved to %+v, candidates %+v (the history orders, never decides alone)", when, res.Resolved, res.Candidates)
		}
		var files wire.Files
		s.call("find/files", map[string]any{"query": "client.go"}, &files)
		if len(files.Matches) != 2 || files.Matches[0].Path != first {
			t.Fatalf("%s: find client.go %+v", when, files.Matches)
		}
		s.call("find/files", map[string]any{"query": "", "current": wire.FileURI(filepath.Join(dir, "src/auth/middleware.py"))}, &files)
		if got := matchPaths(files.Matches); got != "include/net/socket.h pkg/api/server.go" {
			t.Fatalf("%s: recent files %s", when, got)
		}
		s.call("find/files", map[string]any{"query": ""}, &files)
		if got := matchPaths(files.Matches); got != "src/auth/middleware.py include/net/socket.h pkg/api/server.go" {
			t.Fatalf("%s: recent files without a current one: %s", when, got)
		}
	}
	check("before the restart", srv, "src/api/client.go")
	srv.stop()

	again := startBinary(t, bin, cache)
	again.initialize(dir)
	check("after the restart", again, "pkg/api/client.go")
	again.stop()
}

func matchPaths(ms []wire.Match) string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Path)
	}
	return strings.Join(out, " ")
}
