package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"sort"
	"strings"
)

// mcpBench measures what an agent reads: for each corpus, the bytes of a
// find_files answer (top 10, through `wayfind mcp` over stdio, the text an
// agent reads) for every public find case, against a plain listing of
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
		sess := startMCP(bin, root)
		var sizes []int
		for _, c := range byCorpus[name] {
			if c.Kind != "find" {
				continue
			}
			sizes = append(sizes, len(toolText(sess.call("tools/call", map[string]any{"name": "find_files", "arguments": map[string]any{"query": c.Query, "limit": 10}}))))
		}
		sess.close()
		if len(sizes) == 0 {
			continue
		}
		sort.Ints(sizes)
		med := sizes[len(sizes)/2]
		fmt.Printf("| %s | %d | %d | %d | %d | %.0f× |\n", name, len(paths), listing, med, sizes[len(sizes)*9/10], float64(listing)/float64(med))
	}
	fmt.Println()
}

// mcpToolsBench measures every query tool on a real tree (Go's source
// tree in `make bench-mcp`) beside the shell command an agent would run
// instead, both as bytes the agent reads.
func mcpToolsBench(bin, tree string) {
	type probe struct {
		tool string
		args map[string]any
		peer []string // argv of the shell equivalent
	}
	q := func(s string) map[string]any { return map[string]any{"query": s} }
	p := func(s string) map[string]any { return map[string]any{"path": s} }
	probes := []probe{
		{"find_files", q("nethttpserver"), []string{"find", tree, "-path", "*net/http/server*"}},
		{"find_files", q("tls handshake client"), []string{"find", tree, "-path", "*tls/handshake_client*"}},
		{"find_files", q("jsondecoder"), []string{"find", tree, "-path", "*json/decode*"}},
		{"find_files", q("osexec"), []string{"find", tree, "-path", "*os/exec*"}},
		{"find_files", q("syncmutex"), []string{"find", tree, "-path", "*sync/mutex*"}},
		{"path_resolve", p("net/http/sever.go:120"), []string{"find", tree, "-name", "sever.go"}},
		{"path_resolve", p("encoding/json/decoder.go"), []string{"find", tree, "-name", "decoder.go"}},
		{"path_resolve", p("src/os/exec.go"), []string{"find", tree, "-name", "exec.go"}},
		{"path_resolve", p("/home/u/go/src/bufio/scan.go"), []string{"find", tree, "-name", "scan.go"}},
		{"locate", q("where is ServeMux implemented"), []string{"grep", "-rl", "ServeMux", tree}},
		{"locate", q("where is Reader defined"), []string{"grep", "-rlw", "Reader", tree}},
		{"locate", q("read file"), []string{"grep", "-rliE", "read[ _-]?file", tree}},
		{"workspace_symbols", q("ServeMux"), []string{"grep", "-rn", "type ServeMux\\|func (mux \\*ServeMux)", tree}},
		{"workspace_symbols", q("NewReader"), []string{"grep", "-rn", "func NewReader", tree}},
		{"workspace_symbols", q("Server.Serve"), []string{"grep", "-rn", "func (srv \\*Server) Serve", tree}},
	}
	sess := startMCP(bin, tree)
	fmt.Printf("## MCP tools on %s: answer text bytes beside the shell command's output\n\n", tree)
	fmt.Println("| tool | arguments | wayfind bytes | shell command | its bytes |")
	fmt.Println("|---|---|---:|---|---:|")
	for _, pr := range probes {
		n := len(toolText(sess.call("tools/call", map[string]any{"name": pr.tool, "arguments": pr.args})))
		peer, _ := exec.Command(pr.peer[0], pr.peer[1:]...).Output()
		args, _ := json.Marshal(pr.args)
		fmt.Printf("| %s | `%s` | %d | `%s` | %d |\n", pr.tool, args, n, strings.Join(pr.peer[:1], " ")+" "+strings.Join(pr.peer[2:], " "), len(peer))
	}
	sess.close()
	fmt.Println()
}

// mcpSession is `wayfind mcp` on root driven over stdio, initialized:
// call sends one request and returns its answer line.
type mcpSession struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	sc  *bufio.Scanner
	id  int
}

func startMCP(bin, root string) *mcpSession {
	cmd := exec.Command(bin, "mcp", "--quiet", "--root", root)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		fatal(err)
	}
	s := &mcpSession{cmd: cmd, in: in, sc: bufio.NewScanner(out)}
	s.sc.Buffer(make([]byte, 1<<20), 1<<26)
	s.call("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "bench", "version": "1"}})
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized", "params": map[string]any{}})
	in.Write(append(b, '\n'))
	return s
}

func (s *mcpSession) call(method string, params any) []byte {
	s.id++
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": s.id, "method": method, "params": params})
	s.in.Write(append(b, '\n'))
	for s.sc.Scan() {
		var m struct {
			ID int `json:"id"`
		}
		if json.Unmarshal(s.sc.Bytes(), &m) == nil && m.ID == s.id {
			return append([]byte(nil), s.sc.Bytes()...)
		}
	}
	fatal(fmt.Errorf("mcp: no answer to %s", method))
	return nil
}

func (s *mcpSession) close() {
	s.in.Close()
	s.cmd.Wait()
}

// toolText is the text content of a tools/call answer line.
func toolText(line []byte) string {
	var m struct {
		Result struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
	}
	if json.Unmarshal(line, &m) == nil && len(m.Result.Content) > 0 {
		return m.Result.Content[0].Text
	}
	return string(line)
}
