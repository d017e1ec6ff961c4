package lsp

import (
	"encoding/json"
	"fmt"
	"io"
	"testing"

	"wayfind/service/hostiletest"
)

// TestHostileTreeLSP: the LSP server over a hostile tree (links to / and
// to .., a link out to secrets, a FIFO, names with line breaks) names
// and returns nothing outside the root by its real path, for every path
// asked of find/resolvePath and find/files; bad input is an error, and
// the server keeps answering.
func TestHostileTreeLSP(t *testing.T) {
	bin := buildBinary(t)
	tr := hostiletest.Build(t)
	srv := startBinary(t, bin, t.TempDir())
	srv.initialize(tr.Root)
	for _, p := range tr.Paths() {
		for _, req := range []struct {
			method string
			params map[string]any
		}{{"find/resolvePath", map[string]any{"path": p}}, {"find/files", map[string]any{"query": p}}} {
			tr.Check(t, "lsp "+req.method, p, srv.callAny(req.method, req.params))
		}
	}
	var st map[string]any
	srv.call("find/status", map[string]any{}, &st) // still answering
}

// callAny sends a request and returns its result, or its error, as the
// server wrote it.
func (s *stdioServer) callAny(method string, params any) []byte {
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
		if m.Error != nil {
			return m.Error
		}
		return m.Result
	}
}
