package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The MCP server reads raw lines as an agent's client might send them,
// good and bad: every request gets an answer, the server outlives bad input,
// and when the input ends it answers what it read, then exits 0.
func TestMCPTransportSurvivesBadInput(t *testing.T) {
	root := tree(t)
	var in bytes.Buffer
	line := func(s string) { in.WriteString(s + "\n") }
	line(`{"jsonrpc":"2.0","id":"early","method":"tools/list"}`) // before initialize
	line(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	line(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	line(`this is not json`)
	line(`[{"jsonrpc":"2.0","id":"batched","method":"ping"}]`)
	line(`{"jsonrpc":"1.0","id":"old","method":"ping"}`)
	line(`{"jsonrpc":"2.0","id":"big","method":"ping","params":{"pad":"` + strings.Repeat("x", 10<<20) + `"}}`)
	const n = 1000
	for i := 1; i <= n; i++ {
		line(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"find_files","arguments":{"query":"login"}}}`, i))
	}
	cmd := exec.Command(binary, "mcp", "--root", root, "--quiet")
	cmd.Stdin = &in
	var out bytes.Buffer
	cmd.Stdout = &out
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("wayfind mcp exited with %v after %s", err, time.Since(start))
	}
	answers := map[string]map[string]any{}
	sc := bufio.NewScanner(&out)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	nullErrors := []float64{}
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("an answer that is not JSON: %.200s", sc.Text())
		}
		if m["id"] == nil {
			if e, ok := m["error"].(map[string]any); ok {
				nullErrors = append(nullErrors, e["code"].(float64))
			}
			continue
		}
		answers[fmt.Sprint(m["id"])] = m
	}
	code := func(id string) float64 {
		if e, ok := answers[id]["error"].(map[string]any); ok {
			return e["code"].(float64)
		}
		return 0
	}
	if c := code("early"); c != -32002 {
		t.Errorf("a request before initialize: code %v, want -32002", c)
	}
	if c := code("old"); c != -32600 {
		t.Errorf(`"jsonrpc":"1.0": code %v, want -32600`, c)
	}
	if _, ok := answers["big"]["result"]; !ok {
		t.Errorf("the 10 MB request was not answered: %v", answers["big"])
	}
	if len(nullErrors) != 2 || nullErrors[0] != -32700 || nullErrors[1] != -32600 {
		t.Errorf("errors without an id (bad JSON, batch): %v, want [-32700 -32600]", nullErrors)
	}
	missing := 0
	for i := 1; i <= n; i++ {
		if _, ok := answers[fmt.Sprint(i)]["result"]; !ok {
			missing++
		}
	}
	if missing > 0 {
		t.Errorf("%d of %d pipelined requests unanswered at end of input", missing, n)
	}
}

// The MCP Inspector's CLI (the official tool, installed by make deps)
// lists the tools with --strict, which reports schemas strict clients
// cannot read.
func TestMCPInspectorStrict(t *testing.T) {
	dir, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "clients", "inspector"))
	cli := filepath.Join(dir, "node_modules", ".bin", "mcp-inspector")
	if _, err := os.Stat(cli); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the MCP Inspector is not installed; run `make deps`: %v", err)
		}
		t.Skipf("the MCP Inspector is not installed; run `make deps` to run this test: %v", err)
	}
	cmd := exec.Command(cli, "--cli", binary, "mcp", "--root", tree(t), "--quiet", "--strict", "--method", "tools/list")
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir()) // its catalog file stays out of the user's home
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("inspector --strict: %v\n%s\n%s", err, out, stderr.String())
	}
	var list struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	if err := json.Unmarshal(out, &list); err != nil || len(list.Tools) != 7 {
		t.Fatalf("tools/list through the inspector: %v %s", err, out)
	}
	for _, l := range strings.Split(stderr.String(), "\n") {
		if low := strings.ToLower(l); strings.HasPrefix(low, "warning:") || strings.Contains(low, "portab") {
			t.Errorf("inspector --strict: %s", l)
		}
	}
}
