package lsp

import (
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
			result, rpcErr := srv.request(req.method, req.params)
			tr.Check(t, "lsp "+req.method, p, append(result, rpcErr...))
		}
	}
	var st map[string]any
	srv.call("find/status", map[string]any{}, &st) // still answering
}
