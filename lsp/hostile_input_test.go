package lsp

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"
	"time"

	"wayfind/wire"
)

// TestHostileInput: every request with missing or wrongly typed params,
// a 10 MB message, wrong Content-Lengths, cancellations of ids that do
// not exist and paths with NUL bytes — each answered, and the server
// keeps serving.
func TestHostileInput(t *testing.T) {
	dir := project(t)
	c := startServer(t)
	c.initialize(nil, nil, dir)

	var methods []string
	for m := range requests {
		if m != "find/reindex" {
			methods = append(methods, m)
		}
	}
	sort.Strings(methods)
	bad := []any{nil, "text", 5, []any{1}, map[string]any{"path": 5, "query": 5, "uri": 5, "textDocument": 5, "limit": "x"}}
	answered := 0
	for _, m := range methods {
		for _, p := range bad {
			_ = c.call(m, p) // an error or a result; a missing reply fails inside call
			answered++
		}
	}

	// A 10 MB message: answered (the path is over the engine's limit).
	r := c.call("find/resolvePath", map[string]any{"path": strings.Repeat("x", 10<<20)})
	if r.Error == nil {
		t.Errorf("10 MB path: %+v", r)
	}
	// Content-Length longer than the body: it swallows the next message,
	// the server answers a parse error and reads on.
	c.raw("Content-Length: 80\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":7001,\"method\":\"find/status\"}")
	c.raw("Content-Length: 52\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":7002,\"method\":\"find/status\"}")
	// Content-Length shorter than the body: the rest is junk.
	c.raw("Content-Length: 20\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":7003,\"method\":\"find/status\"}")
	c.waitNote("parse errors", func(n note) bool { return n.Method == "(response)" && strings.Contains(string(n.Params), "-32700") })

	// Cancellations of ids that were never sent.
	for _, id := range []any{123456, "nope", 1.5, nil, map[string]any{"x": 1}} {
		c.notify("$/cancelRequest", map[string]any{"id": id})
	}
	c.notify("$/cancelRequest", "not an object")

	// NUL bytes and escapes: nothing from outside the root.
	root := mustEval(t, dir)
	for _, p := range []string{"src/auth/lo\x00gin.py", "\x00", "%2e%2e/%2e%2e/etc/passwd", "file:///etc/passwd", "../../../../etc/passwd"} {
		r := c.call("find/resolvePath", map[string]any{"path": p})
		if r.Error != nil {
			continue
		}
		if out := outsideRoot(r.Result, root); len(out) > 0 {
			t.Errorf("%q: %s outside the root", p, out)
		}
	}

	var st wire.Status
	c.ok("find/status", map[string]any{}, &st)
	if !st.Ready {
		t.Errorf("not serving after hostile input: %+v", st)
	}
	t.Logf("%d malformed requests answered", answered)
}

// TestPipelinedWithoutReading: 10,000 requests written to `wayfind lsp`
// without reading a single answer. The server stops reading (its writes
// block on the full pipe, in-flight requests are bounded) instead of
// growing, and answers everything once the client reads.
func TestPipelinedWithoutReading(t *testing.T) {
	bin := buildBinary(t)
	dir := project(t)
	cmd := exec.Command(bin, "lsp")
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	// Closed at the end, not before: once the sender is done nothing else
	// refers to the pipe, and a finalizer closing it mid-test made the
	// server see the end of its input before the last answer (a flake).
	defer in.Close()
	send := func(s string) { fmt.Fprintf(in, "Content-Length: %d\r\n\r\n%s", len(s), s) }
	send(fmt.Sprintf(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"rootUri":%q,"capabilities":{}}}`, wire.FileURI(dir)))
	send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	const n = 10000
	go func() {
		for i := 1; i <= n; i++ {
			send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"find/files","params":{"query":"client","limit":50}}`, i))
		}
	}()
	time.Sleep(3 * time.Second)
	stalled := processRSS(cmd.Process.Pid)
	answers := make(chan int, 1)
	go func() {
		r := bufio.NewReader(out)
		got := 0
		for got < n+1 {
			line, err := r.ReadString('\n')
			if err != nil {
				break
			}
			var l int
			if _, err := fmt.Sscanf(line, "Content-Length: %d", &l); err == nil {
				r.ReadString('\n')
				io.CopyN(io.Discard, r, int64(l))
				got++
			}
		}
		answers <- got
	}()
	select {
	case got := <-answers:
		if got != n+1 {
			t.Fatalf("%d answers of %d", got, n+1)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("deadlock: not every request was answered in 60 s")
	}
	t.Logf("RSS %.0f MB while the client did not read; %d requests answered after", stalled, n)
	if stalled > 100 {
		t.Errorf("RSS %.0f MB while stalled: pending requests are not bounded", stalled)
	}
}

func processRSS(pid int) float64 {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			var kb float64
			fmt.Sscanf(strings.TrimSpace(v), "%f", &kb)
			return kb / 1024
		}
	}
	return 0
}
