package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os/exec"
	"sort"
)

// mcpBench measures what an agent reads: for each corpus, the bytes of a
// find_files answer (top 10, through `wayfind mcp` over stdio, the whole
// JSON-RPC line) for every public find case, against a plain listing of
// the same tree (every path and a newline, what `git ls-files` prints).
func mcpBench(bin, corpora, work string, names []string, byCorpus map[string][]benchCase) {
	fmt.Println("## MCP: bytes an agent receives")
	fmt.Println()
	fmt.Println("| corpus | files | plain listing bytes | find_files top 10, median bytes | p90 bytes | listing / median |")
	fmt.Println("|---|---:|---:|---:|---:|---:|")
	for _, name := range names {
		paths, root := corpusTree(corpora, work, name)
		listing := 0
		for _, p := range paths {
			listing += len(p) + 1
		}
		cmd := exec.Command(bin, "mcp", "--quiet", "--root", root)
		in, _ := cmd.StdinPipe()
		out, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			fatal(err)
		}
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<26)
		id := 0
		call := func(method string, params any) int {
			id++
			b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
			in.Write(append(b, '\n'))
			for sc.Scan() {
				var m struct {
					ID int `json:"id"`
				}
				if json.Unmarshal(sc.Bytes(), &m) == nil && m.ID == id {
					return len(sc.Bytes())
				}
			}
			fatal(fmt.Errorf("mcp: no answer to %s", method))
			return 0
		}
		call("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "bench", "version": "1"}})
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized", "params": map[string]any{}})
		in.Write(append(b, '\n'))
		var sizes []int
		for _, c := range byCorpus[name] {
			if c.Kind != "find" {
				continue
			}
			sizes = append(sizes, call("tools/call", map[string]any{"name": "find_files", "arguments": map[string]any{"query": c.Query, "limit": 10}}))
		}
		in.Close()
		cmd.Wait()
		if len(sizes) == 0 {
			continue
		}
		sort.Ints(sizes)
		med := sizes[len(sizes)/2]
		fmt.Printf("| %s | %d | %d | %d | %d | %.0f× |\n", name, len(paths), listing, med, sizes[len(sizes)*9/10], float64(listing)/float64(med))
	}
	fmt.Println()
}
