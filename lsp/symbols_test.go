package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"wayfind/wire"
)

func TestWorkspaceAndDocumentSymbols(t *testing.T) {
	dir := project(t)
	c := startServer(t)
	c.initialize(map[string]any{"textDocument": map[string]any{"documentSymbol": map[string]any{"hierarchicalDocumentSymbolSupport": true}}}, nil, dir)

	var syms []wire.SymbolInformation
	c.ok("workspace/symbol", map[string]any{"query": "Socket"}, &syms)
	if len(syms) == 0 || syms[0].Name != "Socket" || syms[0].Kind != 5 || syms[0].Path != "include/net/socket.h" || syms[0].ContainerName != "net" {
		t.Fatalf("Socket: %+v", syms)
	}
	// The cursor lands on the name (line 3, "class Socket"), as gopls
	// answers; the declaration's span is an extension.
	if r := syms[0].Location.Range; r.Start.Line != 3 || r.Start.Character != 6 || r.End.Character != 12 || syms[0].Location.URI != fileURI(filepath.Join(dir, "include/net/socket.h")) {
		t.Errorf("Socket location: %+v", syms[0].Location)
	}
	if d := syms[0].DeclarationRange; d == nil || d.Start.Line != 3 || d.Start.Character != 0 || d.End.Line != 6 {
		t.Errorf("Socket declaration: %+v", d)
	}
	c.ok("workspace/symbol", map[string]any{"query": "Socket::connect"}, &syms)
	if len(syms) != 2 || syms[0].Path != "include/net/socket.h" || syms[1].Path != "src/net/socket.cc" || syms[1].ContainerName != "net.Socket" {
		t.Errorf("Socket::connect: %+v", syms)
	}
	c.ok("workspace/symbol", map[string]any{"query": "cli"}, &syms)
	if len(syms) == 0 || syms[0].Name != "Client" {
		t.Errorf("cli: %+v", syms)
	}
	c.ok("workspace/symbol", map[string]any{"query": ""}, &syms)
	if len(syms) != 0 {
		t.Errorf("empty query: %+v", syms)
	}
	if r := c.call("workspace/symbol", map[string]any{"limit": 3}); r.Error == nil {
		t.Error("workspace/symbol without a query must be an error")
	}

	// locate asks the symbols first, then file names.
	var loc wire.Locate
	c.ok("find/locate", map[string]any{"query": "where is NewClient"}, &loc)
	if len(loc.Results) == 0 || loc.Results[0].Path != "pkg/api/client.go" || loc.Results[0].Via != "symbol" ||
		strings.Join(loc.Strategies, ",") != "symbol,file" || loc.Results[0].Range == nil || loc.Results[0].Range.Start.Line != 2 {
		t.Errorf("locate NewClient: %+v", loc)
	}
	if r := c.call("find/locate", map[string]any{"query": "x", "minConfidence": 2}); r.Error == nil {
		t.Error("minConfidence 2 must be refused")
	}

	var st struct {
		Symbols      int  `json:"symbols"`
		SymbolsReady bool `json:"symbolsReady"`
	}
	c.ok("find/status", map[string]any{}, &st)
	if st.Symbols != 9 || !st.SymbolsReady {
		t.Errorf("status: %+v", st)
	}

	// find/files finds a file through the class it defines.
	var files wire.Files
	c.ok("find/files", map[string]any{"query": "Socket", "impl": true}, &files)
	if len(files.Matches) == 0 || files.Matches[0].Path != "src/net/socket.cc" {
		t.Errorf("find Socket impl: %+v", files.Matches)
	}

	// documentSymbol, hierarchical, from disk.
	header := fileURI(filepath.Join(dir, "include/net/socket.h"))
	var outline []wire.DocumentSymbol
	c.ok("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": header}}, &outline)
	if len(outline) != 1 || outline[0].Name != "net" || len(outline[0].Children) != 1 || outline[0].Children[0].Name != "Socket" ||
		len(outline[0].Children[0].Children) != 1 || outline[0].Children[0].Children[0].Name != "connect" {
		b, _ := json.Marshal(outline)
		t.Errorf("outline: %s", b)
	}
	// Outside the roots: refused, not read.
	if r := c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": "file:///etc/passwd"}}); r.Error == nil {
		t.Error("documentSymbol outside the roots must be refused")
	}

	outside := filepath.Join(t.TempDir(), "secret.py")
	os.WriteFile(outside, []byte("def secret(): pass\n"), 0o644)
	link := filepath.Join(dir, "src", "link.py")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	if r := c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": fileURI(link)}}); r.Error == nil {
		t.Error("documentSymbol through a symlink out of the roots must be refused")
	}

	// Unsaved edits reach the outline at once and workspace/symbol shortly.
	goFile := filepath.Join(dir, "src/api/client.go")
	uri := fileURI(goFile)
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "go", "version": 1, "text": string(mustRead(t, goFile))}})
	edited := "package api\n\ntype Client struct{}\n\nfunc (c *Client) Do() error { return nil }\n\nfunc UnsavedHelper() {}\n"
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2}, "contentChanges": []any{map[string]any{"text": edited}}})
	c.ok("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}}, &outline)
	if len(outline) != 3 || outline[2].Name != "UnsavedHelper" {
		t.Errorf("outline of the edited document: %+v", outline)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		c.ok("workspace/symbol", map[string]any{"query": "UnsavedHelper"}, &syms)
		if len(syms) == 1 && syms[0].Path == "src/api/client.go" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("unsaved symbol never searchable: %+v", syms)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Closing without saving drops it again.
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
	deadline = time.Now().Add(5 * time.Second)
	for {
		c.ok("workspace/symbol", map[string]any{"query": "UnsavedHelper", "limit": 5}, &syms)
		if len(syms) == 0 || !strings.EqualFold(syms[0].Name, "UnsavedHelper") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("closed document's unsaved symbol stays: %+v", syms)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
