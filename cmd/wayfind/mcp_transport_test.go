package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
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
