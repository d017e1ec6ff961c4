package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"wayfind/wire"
)

// mcpClient drives `wayfind mcp` as an agent's client does: newline-
// delimited JSON-RPC over the child's stdin and stdout.
type mcpClient struct {
	t     *testing.T
	cmd   *exec.Cmd
	in    io.WriteCloser
	out   *bufio.Scanner
	roots []string // answered to roots/list
	id    int
}

func startMCP(t *testing.T, args []string, roots []string) *mcpClient {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"mcp", "--quiet"}, args...)...)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &mcpClient{t: t, cmd: cmd, in: in, out: bufio.NewScanner(out), roots: roots}
	c.out.Buffer(make([]byte, 1<<20), 1<<24)
	t.Cleanup(func() { in.Close(); cmd.Process.Kill(); cmd.Wait() })
	caps := map[string]any{}
	if roots != nil {
		caps["roots"] = map[string]any{"listChanged": true}
	}
	var init struct {
		ServerInfo struct{ Name string } `json:"serverInfo"`
	}
	c.call("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": caps,
		"clientInfo": map[string]any{"name": "test", "version": "1"}}, &init)
	if init.ServerInfo.Name != "wayfind" {
		t.Fatalf("initialize: %+v", init)
	}
	c.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized", "params": map[string]any{}})
	return c
}

func (c *mcpClient) send(m any) {
	b, _ := json.Marshal(m)
	if _, err := c.in.Write(append(b, '\n')); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

// call sends a request and returns its result, answering the server's own
// requests (roots/list) meanwhile.
func (c *mcpClient) call(method string, params any, result any) *struct {
	Code    int
	Message string
} {
	c.id++
	c.send(map[string]any{"jsonrpc": "2.0", "id": c.id, "method": method, "params": params})
	for c.out.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Code    int
				Message string
			} `json:"error"`
		}
		if err := json.Unmarshal(c.out.Bytes(), &m); err != nil {
			c.t.Fatalf("server sent invalid JSON: %s", c.out.Bytes())
		}
		switch {
		case m.Method == "roots/list" && len(m.ID) > 0:
			var rs []map[string]string
			for _, r := range c.roots {
				rs = append(rs, map[string]string{"uri": wire.FileURI(r), "name": filepath.Base(r)})
			}
			c.send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{"roots": rs}})
		case m.Method != "":
			// a notification
		case string(m.ID) == strings.TrimSpace(string(mustJSON(c.id))):
			if m.Error != nil {
				return (*struct {
					Code    int
					Message string
				})(m.Error)
			}
			if result != nil {
				if err := json.Unmarshal(m.Result, result); err != nil {
					c.t.Fatalf("%s result: %v: %s", method, err, m.Result)
				}
			}
			return nil
		}
	}
	c.t.Fatalf("%s: no answer (%v)", method, c.out.Err())
	return nil
}

func mustJSON(v any) []byte { b, _ := json.Marshal(v); return b }

type toolResult struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	IsError bool `json:"isError"`
}

// tool calls a tool; v receives the JSON of its text content.
func (c *mcpClient) tool(name string, args map[string]any, v any) toolResult {
	var r toolResult
	if e := c.call("tools/call", map[string]any{"name": name, "arguments": args}, &r); e != nil {
		c.t.Fatalf("%s: protocol error %+v (tool failures must be isError results)", name, e)
	}
	if len(r.Content) != 1 || r.Content[0].Type != "text" {
		c.t.Fatalf("%s: content %+v", name, r.Content)
	}
	if v != nil && !r.IsError {
		if err := json.Unmarshal([]byte(r.Content[0].Text), v); err != nil {
			c.t.Fatalf("%s: %v: %s", name, err, r.Content[0].Text)
		}
	}
	return r
}

func TestMCP(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "locate"))
	c := startMCP(t, []string{"--root", root}, nil)

	var list struct {
		Tools []struct {
			Name        string         `json:"name"`
			Title       string         `json:"title"`
			Description string         `json:"description"`
			InputSchema map[string]any `json:"inputSchema"`
			Annotations struct {
				ReadOnlyHint  bool  `json:"readOnlyHint"`
				OpenWorldHint *bool `json:"openWorldHint"`
			} `json:"annotations"`
		} `json:"tools"`
	}
	c.call("tools/list", map[string]any{}, &list)
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
		if !strings.Contains(tl.Description, "Use ") || tl.InputSchema["type"] != "object" || tl.Title == "" {
			t.Errorf("%s: description %q, title %q, schema %v", tl.Name, tl.Description, tl.Title, tl.InputSchema)
		}
		// strict clients refuse type arrays ("type":["null","array"])
		if props, ok := tl.InputSchema["properties"].(map[string]any); ok {
			for name, p := range props {
				if _, isString := p.(map[string]any)["type"].(string); !isString {
					t.Errorf("%s.%s: type %v is not one type", tl.Name, name, p.(map[string]any)["type"])
				}
			}
		}
		if ro := tl.Annotations.ReadOnlyHint; ro != (tl.Name != "reindex_paths") || tl.Annotations.OpenWorldHint == nil || *tl.Annotations.OpenWorldHint {
			t.Errorf("%s: annotations %+v", tl.Name, tl.Annotations)
		}
	}
	if strings.Join(names, " ") != "find_files locate path_resolve read_resolved reindex_paths roots_list workspace_symbols" {
		t.Errorf("tools: %v", names)
	}

	// Frugal answers: the root once, root-relative paths, 1-based lines.
	type hit struct {
		Path      string
		Line, Col int
		Via, Why  string
	}
	var res struct {
		Root     string
		Resolved *hit
		Others   []hit
	}
	// A typo: nothing resolved from names alone, the file first among
	// the others, at its line.
	c.tool("path_resolve", map[string]any{"path": "src/comand_router.cpp:3"}, &res)
	if res.Root != root || res.Resolved != nil || len(res.Others) == 0 || res.Others[0].Path != "src/command_router.cpp" || res.Others[0].Line != 3 {
		t.Errorf("path_resolve: %+v", res)
	}
	res.Resolved = nil
	c.tool("path_resolve", map[string]any{"path": "src/command_router.cpp:3"}, &res)
	if res.Resolved == nil || res.Resolved.Path != "src/command_router.cpp" || res.Resolved.Line != 3 {
		t.Errorf("path_resolve, exact: %+v", res)
	}
	var files struct {
		Root    string
		Matches []hit
	}
	r := c.tool("find_files", map[string]any{"query": "replay service", "limit": 2}, &files)
	if len(files.Matches) != 2 || files.Matches[0].Path != "src/replay_service.cpp" || strings.Contains(r.Content[0].Text, "file://") {
		t.Errorf("find_files: %s", r.Content[0].Text)
	}
	var loc struct{ Results []hit }
	c.tool("locate", map[string]any{"query": "where is Socket implemented"}, &loc)
	if len(loc.Results) == 0 || loc.Results[0].Path != "src/net/socket_posix.cc" || loc.Results[0].Via != "symbol" || loc.Results[0].Line != 4 {
		t.Errorf("locate: %+v", loc)
	}
	// An agent quoting text it saw: the phrase, as written, with its line.
	var phrase struct{ Results []hit }
	c.tool("locate", map[string]any{"query": `where is "re-sends recorded commands" handled`}, &phrase)
	if len(phrase.Results) != 1 || phrase.Results[0].Path != "include/replay_service.h" || phrase.Results[0].Via != "content" || phrase.Results[0].Line != 4 {
		t.Errorf("locate a phrase: %+v", phrase)
	}
	var syms struct {
		Symbols []struct {
			Name, Kind, Path string
			Line             int
		}
	}
	c.tool("workspace_symbols", map[string]any{"query": "CoRo", "limit": 1}, &syms)
	if len(syms.Symbols) != 1 || syms.Symbols[0].Name != "CommandRouter" || syms.Symbols[0].Kind != "class" || syms.Symbols[0].Line == 0 {
		t.Errorf("workspace_symbols: %+v", syms)
	}
	var read struct {
		Path, Requested, Text string
		Truncated             bool
		Size                  int
	}
	// A typo is not read: the error names the file to read instead.
	if r := c.tool("read_resolved", map[string]any{"path": "include/sesion.h"}, nil); !r.IsError || !strings.Contains(r.Content[0].Text, "include/session.h") {
		t.Errorf("read_resolved of a typo: %+v", r)
	}
	c.tool("read_resolved", map[string]any{"path": "./include/session.h", "maxBytes": 12}, &read)
	if read.Path != "include/session.h" || read.Requested != "./include/session.h" || read.Text != "#pragma once" || !read.Truncated || read.Size != 83 {
		t.Errorf("read_resolved: %+v", read)
	}
	// What the agent was given is its history: an empty query lists it,
	// the file read last first.
	c.tool("find_files", map[string]any{"query": ""}, &files)
	if len(files.Matches) != 2 || files.Matches[0].Path != "include/session.h" || files.Matches[1].Path != "src/command_router.cpp" {
		t.Errorf("find_files with no query (recent): %+v", files.Matches)
	}
	var st wire.Status
	c.tool("roots_list", map[string]any{}, &st)
	if len(st.Roots) != 1 || st.Roots[0] != wire.FileURI(root) || st.Files != 13 {
		t.Errorf("roots_list: %+v", st)
	}
	c.tool("reindex_paths", map[string]any{}, &st)
	if !st.Ready || !st.SymbolsReady || st.Symbols == 0 {
		t.Errorf("reindex_paths: %+v", st)
	}

	// Bad arguments are tool errors, and the server reads on.
	bad := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"path_resolve", map[string]any{}, "path"},
		{"find_files", map[string]any{"query": 5}, "string"},
		{"locate", map[string]any{"query": "where is the"}, "names nothing"},
		{"read_resolved", map[string]any{"path": "/etc/passwd"}, "no file in the workspace"},
		{"read_resolved", map[string]any{"path": "../../cmd/wayfind/output.go"}, "no file in the workspace"}, // exists, outside the root
		{"read_resolved", map[string]any{"path": "include/session.h", "maxBytes": -1}, "maxBytes"},
		{"locate", map[string]any{"query": "x", "minConfidence": 3}, "minConfidence"},
	}
	for _, b := range bad {
		r := c.tool(b.tool, b.args, nil)
		if !r.IsError || !strings.Contains(r.Content[0].Text, b.want) {
			t.Errorf("%s %v: %+v", b.tool, b.args, r)
		}
	}
	// Nothing typed is nothing to rank, for every front end alike (the
	// request layer's one rule): an empty list, not an error.
	if r := c.tool("workspace_symbols", map[string]any{"query": ""}, nil); r.IsError || !strings.Contains(r.Content[0].Text, `"symbols":[]`) {
		t.Errorf("workspace_symbols with no query: %+v", r)
	}
	if e := c.call("tools/call", map[string]any{"name": "no_such_tool", "arguments": map[string]any{}}, nil); e == nil {
		t.Error("an unknown tool must be an error")
	}
	c.tool("roots_list", map[string]any{}, &st) // still serving

	// The server exits when its client goes away.
	c.in.Close()
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("exit: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Error("the server did not exit when its input closed")
	}
}

// awaitRoots waits until the server searches root alone (its status
// says so): the client's roots, asked for after initialized.
func (c *mcpClient) awaitRoots(root string) {
	c.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var st wire.Status
		c.tool("roots_list", map[string]any{}, &st)
		if len(st.Roots) == 1 && st.Roots[0] == wire.FileURI(root) {
			return
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("client roots never used: %+v", st)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestMCPClientRoots: without --root, the client's roots are searched.
func TestMCPClientRoots(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "locate"))
	c := startMCP(t, nil, []string{root})
	c.awaitRoots(root)
	var res wire.Resolve
	c.tool("path_resolve", map[string]any{"path": "include/session.h:2"}, &res)
	if res.Resolved == nil || res.Resolved.Path != "include/session.h" {
		t.Errorf("path_resolve under the client's root: %+v", res)
	}
}

// TestMCPCodexSandboxCwd: without --root and with a client that names no
// roots (Codex CLI), the directory Codex says its session works in — in
// each tool call's _meta, to a server that declares the capability — is
// searched, from the call that says it; a client's own roots come first.
func TestMCPCodexSandboxCwd(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "locate"))
	other, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "symbols"))
	meta := func(dir string) map[string]any {
		return map[string]any{"codex/sandbox-state-meta": map[string]any{"sandboxCwd": wire.FileURI(dir)}}
	}
	type answer struct {
		Root     string
		Resolved *struct{ Path string }
	}
	resolve := func(c *mcpClient, dir string) answer {
		var r toolResult
		if e := c.call("tools/call", map[string]any{"name": "path_resolve", "arguments": map[string]any{"path": "include/session.h:2"}, "_meta": meta(dir)}, &r); e != nil || r.IsError || len(r.Content) != 1 {
			t.Fatalf("path_resolve: %+v %+v", e, r)
		}
		var res answer
		if err := json.Unmarshal([]byte(r.Content[0].Text), &res); err != nil {
			t.Fatal(err)
		}
		return res
	}
	c := startMCP(t, nil, nil)
	if res := resolve(c, root); res.Resolved == nil || res.Resolved.Path != "include/session.h" || res.Root != root {
		t.Errorf("under Codex's directory: %+v", res)
	}
	// A client that names its roots: Codex's meta does not move them.
	c2 := startMCP(t, nil, []string{root})
	c2.awaitRoots(root)
	if res := resolve(c2, other); res.Root != root {
		t.Errorf("the client's roots, with Codex's meta beside: searched %s", res.Root)
	}
}

// TestMCPWeighsTheAgentsReads: the files an agent reads through its own
// tools (the hook sees each call) are its visits for the MCP server
// beside it and for the CLI: of a name two services share, the one
// where the agent has been reading comes first — at the next question,
// with nothing passed by the agent.
func TestMCPWeighsTheAgentsReads(t *testing.T) {
	repo := newAgentRepo(t)
	c := startMCP(t, []string{"--root", repo.dir}, nil)
	first := func() string {
		var files struct{ Matches []struct{ Path string } }
		c.tool("find_files", map[string]any{"query": "config.go"}, &files)
		if len(files.Matches) != 2 {
			t.Fatalf("find_files config.go: %+v", files.Matches)
		}
		return files.Matches[0].Path
	}
	if got := first(); got != "services/cart/config.go" {
		t.Fatalf("before any read: %s first", got)
	}
	for _, p := range []string{"README.md", "services/ship/handler.go"} {
		ev, _ := json.Marshal(map[string]any{"session_id": "reads", "cwd": repo.dir, "hook_event_name": "PreToolUse",
			"tool_name": "Read", "tool_input": map[string]any{"file_path": filepath.Join(repo.dir, p)}})
		hook := exec.Command(binary, "hook")
		hook.Stdin = bytes.NewReader(ev)
		if out, err := hook.CombinedOutput(); err != nil || len(out) > 0 {
			t.Fatalf("hook: %v %q (an existing file: no answer)", err, out)
		}
	}
	if got := first(); got != "services/ship/config.go" {
		t.Errorf("after the agent read the shipping handler: %s first", got)
	}
	// The agent's recent files are its reads, the latest first.
	var recent struct{ Matches []struct{ Path string } }
	c.tool("find_files", map[string]any{"query": ""}, &recent)
	if len(recent.Matches) != 2 || recent.Matches[0].Path != "services/ship/handler.go" || recent.Matches[1].Path != "README.md" {
		t.Errorf("find_files with no query after the agent's reads: %+v", recent.Matches)
	}
	cli, err := exec.Command(binary, "find", "--root", repo.dir, "--format", "text", "config.go").Output()
	if ship, cart := strings.Index(string(cli), "services/ship/config.go"), strings.Index(string(cli), "services/cart/config.go"); err != nil || ship < 0 || ship > cart {
		t.Errorf("wayfind find config.go: %v\n%s", err, cli)
	}
}
