package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"

	"wayfind/session"
	"wayfind/symbols"
	"wayfind/wire"
)

// FuzzStream feeds any bytes to the framing layer: it must neither panic
// nor loop, and must end at the end of input.
func FuzzStream(f *testing.F) {
	for _, s := range []string{
		"Content-Length: 17\r\n\r\n{\"jsonrpc\":\"2.0\"}",
		"Content-Length: 5\r\n\r\n{bad}Content-Length: 2\r\n\r\n{}",
		"garbage\r\n\r\nContent-Length: -1\r\n\r\n",
		"Content-Length: 99999999999999999999\r\n\r\n",
		"Content-Type: x\r\n\r\n{}",
		"Content-Length: 40\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\"}",
		"\x00\xff\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var out bytes.Buffer
		st := newStream(bytes.NewReader(data), &out, nil)
		for i := 0; ; i++ {
			if i > len(data)+2 {
				t.Fatalf("more messages than bytes: the reader loops")
			}
			if _, _, err := st.Read(context.Background()); err != nil {
				return
			}
		}
	})
}

var (
	fuzzOnce   sync.Once
	fuzzServer *server
	fuzzRoot   string
)

// fuzzSetup is one server over a copy of the LSP fixture, shared by
// every fuzz input (building it per input would be all the fuzzer did).
func fuzzSetup(tb testing.TB) {
	fuzzOnce.Do(func() {
		dir, err := os.MkdirTemp("", "wayfind-fuzz")
		if err != nil {
			panic(err)
		}
		if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "testdata", "lsp", "project"))); err != nil {
			panic(err)
		}
		dir, _ = filepath.EvalSymlinks(dir)
		fuzzRoot = dir
		sess := session.New(session.Options{Symbols: symbols.IndexerOptions{CacheDir: "-"}})
		sess.SetRoots([]string{dir})
		if _, err := sess.LocateEngine(context.Background()); err != nil {
			panic(err)
		}
		fuzzServer = &server{stderr: &lineWriter{w: io.Discard}, exit: make(chan int, 1), inflight: map[string]context.CancelFunc{},
			docs: map[protocol.DocumentURI]*document{}, sess: sess, state: stateRunning, life: context.Background(), slots: make(chan struct{}, maxInFlight)}
	})
}

var fileURIs = regexp.MustCompile(`file://[^"]*`)

// outsideRoot lists the file:// URIs in a JSON answer that are neither
// the root directory (absolute, symlinks resolved) nor inside it.
func outsideRoot(body []byte, rootDir string) []string {
	root := wire.FileURI(rootDir)
	var out []string
	for _, u := range fileURIs.FindAllString(string(body), -1) {
		if u != root && !strings.HasPrefix(u, root+"/") {
			out = append(out, u)
		}
	}
	return out
}

// FuzzParams sends any params to every request handler: no panic, an
// answer or an error, and never a location outside the workspace root.
func FuzzParams(f *testing.F) {
	var methods []string
	for m := range requests {
		if m != "find/reindex" { // takes no params; a rebuild per input would be all the fuzzer did
			methods = append(methods, m)
		}
	}
	sort.Strings(methods)
	seeds := []string{
		`{}`, `null`, `[]`, `"x"`, `{"path":null}`, `{"path":5}`, `{"query":["a"]}`,
		`{"path":"../../../../etc/passwd"}`, `{"path":"/etc/passwd"}`, `{"path":"file:///etc/passwd"}`,
		`{"path":"%2e%2e/%2e%2e/etc/passwd"}`, `{"path":"src/auth/lo\u0000gin.py"}`, `{"query":"midlware","limit":-1}`,
		`{"query":"where is check implemented","minConfidence":2}`, `{"uri":"file:///etc/hosts"}`,
		`{"textDocument":{"uri":"file:///etc/passwd"}}`, `{"textDocument":{"uri":"x"},"position":{"line":-1}}`,
		`{"path":"src/auth/midleware.py:2","from":"file:///etc/x","history":["file:///etc/passwd",5]}`,
		`{"query":"Client","limit":100000000}`, `{"query":"\u0000"}`,
	}
	for i := range methods {
		for _, s := range seeds {
			f.Add(i, s)
		}
	}
	f.Fuzz(func(t *testing.T, which int, raw string) {
		fuzzSetup(t)
		if which < 0 {
			which = -which
		}
		method := methods[which%len(methods)]
		res, _, err := requests[method](fuzzServer, context.Background(), json.RawMessage(raw))
		if err != nil || res == nil {
			return
		}
		b, merr := json.Marshal(res)
		if merr != nil {
			t.Fatalf("%s(%s): unmarshalable result: %v", method, raw, merr)
		}
		if out := outsideRoot(b, fuzzRoot); len(out) > 0 {
			t.Fatalf("%s(%s) returned %s, outside the root %s", method, raw, out, fuzzRoot)
		}
	})
}

// TestFuzzSetupIsHealthy guards the fuzz fixture itself: the shared
// server answers a plain request with a file of the root.
func TestFuzzSetupIsHealthy(t *testing.T) {
	fuzzSetup(t)
	res, _, err := requests["find/resolvePath"](fuzzServer, context.Background(), json.RawMessage(`{"path":"src/auth/midleware.py"}`))
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(res); !strings.Contains(string(b), fmt.Sprintf("%q", "src/auth/middleware.py")) {
		t.Fatalf("%s", b)
	}
}
