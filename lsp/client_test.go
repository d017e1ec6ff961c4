package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"wayfind/wire"
)

// testClient drives Serve in-process over pipes with raw LSP frames, the
// way an editor would, and answers the server's own requests.
type testClient struct {
	t      *testing.T
	in     *io.PipeWriter // to the server
	stderr *syncBuffer
	done   chan int

	mu      sync.Mutex
	nextID  int
	waiting map[string]chan json.RawMessage
	notes   []note
	noteCh  chan struct{}
	serverR []string // methods of requests the server sent
}

type note struct {
	Method string
	Params json.RawMessage
}

type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// project copies testdata/lsp/project to a fresh directory.
func project(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	src := filepath.Join("..", "testdata", "lsp", "project")
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	real, err := filepath.EvalSymlinks(dst)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

func startServer(t *testing.T) *testClient {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &testClient{t: t, in: inW, stderr: &syncBuffer{}, done: make(chan int, 1),
		waiting: map[string]chan json.RawMessage{}, noteCh: make(chan struct{}, 1)}
	go func() {
		c.done <- Serve(context.Background(), inR, outW, c.stderr, Options{Version: "test", ParentCheck: 50 * time.Millisecond})
		outW.Close()
	}()
	go c.readLoop(outR)
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-c.done:
		case <-time.After(10 * time.Second):
			t.Error("server did not exit after its input closed")
		}
	})
	return c
}

func (c *testClient) readLoop(r io.Reader) {
	frames := newStream(r, io.Discard, nil) // the server's own frame reader
	for {
		body, _, err := frames.frame()
		if err != nil {
			return
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal(body, &m); err != nil {
			c.t.Errorf("server sent invalid JSON: %s", body)
			return
		}
		c.mu.Lock()
		switch {
		case m.Method != "" && len(m.ID) > 0: // the server asks something
			c.serverR = append(c.serverR, m.Method)
			c.mu.Unlock()
			// Not c.write: once the test has closed the server's input
			// (cleanup), the reply cannot go, and this loop must still
			// read on, or the server blocks writing and never exits.
			b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": nil})
			_, _ = fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n%s", len(b), b)
			continue
		case m.Method != "":
			c.notes = append(c.notes, note{m.Method, m.Params})
			select {
			case c.noteCh <- struct{}{}:
			default:
			}
		default:
			if ch := c.waiting[string(m.ID)]; ch != nil {
				ch <- body
			} else {
				c.notes = append(c.notes, note{"(response)", body})
			}
		}
		c.mu.Unlock()
	}
}

func (c *testClient) write(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		c.t.Fatal(err)
	}
	c.raw(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(b), b))
}

func (c *testClient) raw(s string) {
	if _, err := io.WriteString(c.in, s); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

// response is a JSON-RPC reply.
type response struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// send issues a request and returns its id and a channel for the reply.
func (c *testClient) send(method string, params any) (int, chan json.RawMessage) {
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	ch := make(chan json.RawMessage, 1)
	c.waiting[strconv.Itoa(id)] = ch
	c.mu.Unlock()
	c.write(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return id, ch
}

func (c *testClient) call(method string, params any) response {
	c.t.Helper()
	_, ch := c.send(method, params)
	return c.await(method, ch)
}

func (c *testClient) await(method string, ch chan json.RawMessage) response {
	c.t.Helper()
	select {
	case body := <-ch:
		var r response
		if err := json.Unmarshal(body, &r); err != nil {
			c.t.Fatalf("%s: %v", method, err)
		}
		return r
	case <-time.After(20 * time.Second):
		c.t.Fatalf("%s: no reply in 20 s; stderr:\n%s", method, c.stderr.String())
	}
	return response{}
}

// ok calls and decodes a successful result into v.
func (c *testClient) ok(method string, params any, v any) {
	c.t.Helper()
	r := c.call(method, params)
	if r.Error != nil {
		c.t.Fatalf("%s: error %d %s", method, r.Error.Code, r.Error.Message)
	}
	if v != nil {
		if err := json.Unmarshal(r.Result, v); err != nil {
			c.t.Fatalf("%s: result %s: %v", method, r.Result, err)
		}
	}
}

func (c *testClient) notify(method string, params any) {
	c.write(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// waitNote waits for a notification that pred accepts.
func (c *testClient) waitNote(what string, pred func(note) bool) note {
	c.t.Helper()
	deadline := time.After(20 * time.Second)
	seen := 0
	for {
		c.mu.Lock()
		for ; seen < len(c.notes); seen++ {
			if pred(c.notes[seen]) {
				n := c.notes[seen]
				c.mu.Unlock()
				return n
			}
		}
		c.mu.Unlock()
		select {
		case <-c.noteCh:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			c.t.Fatalf("no %s within 20 s; stderr:\n%s", what, c.stderr.String())
		}
	}
}

func fileURI(p string) string { return wire.FileURI(p) }

// initialize opens a session over roots and waits for the first index.
func (c *testClient) initialize(caps map[string]any, opts map[string]any, roots ...string) {
	c.t.Helper()
	var folders []map[string]string
	for _, r := range roots {
		folders = append(folders, map[string]string{"uri": fileURI(r), "name": filepath.Base(r)})
	}
	if caps == nil {
		caps = map[string]any{}
	}
	c.ok("initialize", map[string]any{"processId": os.Getpid(), "rootUri": fileURI(roots[0]), "workspaceFolders": folders,
		"capabilities": caps, "initializationOptions": opts}, nil)
	c.notify("initialized", map[string]any{})
}
