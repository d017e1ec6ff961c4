package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// lspServer is `wayfind lsp` driven as an editor drives it: framed JSON-RPC
// over the child's stdin and stdout, one request at a time (round trips are
// what is measured), server requests answered with null, notifications
// read and dropped.
type lspServer struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
	id  int
}

func startLSP(bin string) (*lspServer, error) {
	cmd := exec.Command(bin, "lsp")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = io.Discard // the per-request metrics lines
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &lspServer{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<16)}, nil
}

func (s *lspServer) send(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(s.in, "Content-Length: %d\r\n\r\n%s", len(b), b)
	return err
}

func (s *lspServer) notify(method string, params any) error {
	return s.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// call sends a request and reads until its reply.
func (s *lspServer) call(method string, params any, result any) error {
	s.id++
	id := s.id
	if err := s.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		return err
	}
	for {
		body, err := s.read()
		if err != nil {
			return err
		}
		var m struct {
			ID     *json.RawMessage `json:"id"`
			Method string           `json:"method"`
			Result json.RawMessage  `json:"result"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(body, &m); err != nil {
			return err
		}
		switch {
		case m.Method != "" && m.ID != nil:
			if err := s.send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": nil}); err != nil {
				return err
			}
		case m.Method != "":
		case m.ID != nil && string(*m.ID) == strconv.Itoa(id):
			if m.Error != nil {
				return fmt.Errorf("%s: %s", method, m.Error.Message)
			}
			if result == nil {
				return nil
			}
			return json.Unmarshal(m.Result, result)
		}
	}
}

func (s *lspServer) read() ([]byte, error) {
	n := -1
	for {
		line, err := s.out.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			n, _ = strconv.Atoi(v)
		}
	}
	body := make([]byte, n)
	_, err := io.ReadFull(s.out, body)
	return body, err
}

// rssOf reads a process's resident set in MB.
func rssOf(pid int) float64 {
	return vmRSS(fmt.Sprintf("/proc/%d/status", pid))
}

func (s *lspServer) stop() {
	_ = s.call("shutdown", nil, nil)
	_ = s.notify("exit", nil)
	_ = s.in.Close()
	_ = s.cmd.Wait()
}

// lspCorpus indexes root through the protocol and runs its cases as
// find/resolvePath and find/files requests.
func lspCorpus(bin, root string, cases []benchCase, listing string, withFzf bool) (outs []outcome, readyMs, rss float64, err error) {
	s, err := startLSP(bin)
	if err != nil {
		return nil, 0, 0, err
	}
	defer s.stop()
	uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(root)}).String()
	if err := s.call("initialize", map[string]any{"processId": os.Getpid(), "rootUri": uri,
		"capabilities": map[string]any{}}, nil); err != nil {
		return nil, 0, 0, err
	}
	start := time.Now()
	if err := s.notify("initialized", map[string]any{}); err != nil {
		return nil, 0, 0, err
	}
	for {
		var st struct {
			Ready bool `json:"ready"`
		}
		if err := s.call("find/status", map[string]any{}, &st); err != nil {
			return nil, 0, 0, err
		}
		if st.Ready {
			break
		}
		time.Sleep(2 * time.Millisecond)
	}
	readyMs = float64(time.Since(start).Microseconds()) / 1000
	rss = rssOf(s.cmd.Process.Pid)
	for _, c := range cases {
		o := outcome{c: c}
		want := ""
		if c.Expected != nil {
			want = *c.Expected
		}
		t0 := time.Now()
		if c.Kind == "resolve" {
			var res struct {
				Resolved *struct {
					Path string `json:"path"`
				} `json:"resolved"`
				Candidates []struct {
					Path string `json:"path"`
				} `json:"candidates"`
			}
			history := c.History
			if history == nil {
				history = []string{}
			}
			err = s.call("find/resolvePath", map[string]any{"path": c.Query, "history": history, "limit": 5}, &res)
			o.elapsed = time.Since(t0)
			if res.Resolved != nil {
				o.got = res.Resolved.Path
			}
			o.top1 = err == nil && o.got == want
			o.wrong = res.Resolved != nil && o.got != want
			for _, cand := range res.Candidates {
				o.at5 = o.at5 || cand.Path == want
			}
			if want == "" {
				o.at5 = o.top1
			}
		} else {
			var res struct {
				Matches []struct {
					Path string `json:"path"`
				} `json:"matches"`
			}
			err = s.call("find/files", map[string]any{"query": c.Query, "limit": 5}, &res)
			o.elapsed = time.Since(t0)
			for i, m := range res.Matches {
				if i == 0 {
					o.got = m.Path
				}
				o.at5 = o.at5 || m.Path == want
			}
			o.top1 = err == nil && o.got == want
		}
		if err != nil {
			o.got = "error: " + err.Error()
			err = nil
		}
		if withFzf {
			t1 := time.Now()
			o.fzfTop1 = fzfTop1(listing, c)
			o.fzfElapsed = time.Since(t1)
		}
		outs = append(outs, o)
	}
	return outs, readyMs, rss, nil
}
