//go:build soak

package lsp

// The soak test (make soak): one `wayfind lsp` process on a generated
// 20k-file tree, 8 goroutines of mixed requests and cancellations, and a
// goroutine creating, renaming, editing and deleting files at 50 ops/s,
// for SOAK_DURATION (default 5m). It checks that only cancellations fail,
// created files are found within 1 s, deleted ones are not returned after
// 1 s, and goroutines, heap and RSS come back after the load.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"wayfind/wire"
)

// rpc is a minimal concurrent JSON-RPC client over the server's pipes.
type rpc struct {
	mu      sync.Mutex
	in      io.Writer
	nextID  int64
	waiting map[int64]chan json.RawMessage
}

func (r *rpc) write(v any) {
	b, _ := json.Marshal(v)
	r.mu.Lock()
	fmt.Fprintf(r.in, "Content-Length: %d\r\n\r\n%s", len(b), b)
	r.mu.Unlock()
}

func (r *rpc) readLoop(out io.Reader) {
	br := bufio.NewReaderSize(out, 1<<20)
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return
		}
		var n int
		if _, err := fmt.Sscanf(line, "Content-Length: %d", &n); err != nil {
			continue
		}
		br.ReadString('\n')
		body := make([]byte, n)
		if _, err := io.ReadFull(br, body); err != nil {
			return
		}
		var m struct {
			ID     *int64 `json:"id"`
			Method string `json:"method"`
		}
		json.Unmarshal(body, &m)
		if m.Method != "" {
			if m.ID != nil { // a request of the server's: answer null
				r.write(map[string]any{"jsonrpc": "2.0", "id": *m.ID, "result": nil})
			}
			continue
		}
		if m.ID != nil {
			r.mu.Lock()
			ch := r.waiting[*m.ID]
			delete(r.waiting, *m.ID)
			r.mu.Unlock()
			if ch != nil {
				ch <- body
			}
		}
	}
}

type reply struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// call sends a request; with cancelAfter > 0 it also cancels it then.
func (r *rpc) call(method string, params any, cancelAfter time.Duration) reply {
	id := atomic.AddInt64(&r.nextID, 1)
	ch := make(chan json.RawMessage, 1)
	r.mu.Lock()
	r.waiting[id] = ch
	r.mu.Unlock()
	r.write(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if cancelAfter > 0 {
		time.AfterFunc(cancelAfter, func() {
			r.write(map[string]any{"jsonrpc": "2.0", "method": "$/cancelRequest", "params": map[string]any{"id": id}})
		})
	}
	select {
	case body := <-ch:
		var rep reply
		json.Unmarshal(body, &rep)
		return rep
	case <-time.After(30 * time.Second):
		return reply{Error: &struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		}{-1, "no answer in 30 s"}}
	}
}

type soakStatus struct {
	wire.Status
	Runtime struct {
		Goroutines int     `json:"goroutines"`
		HeapMB     float64 `json:"heapMB"`
		SysMB      float64 `json:"sysMB"`
		RetainedMB float64 `json:"retainedMB"`
		StackMB    float64 `json:"stackMB"`
		InuseMB    float64 `json:"inuseMB"`
		GCMB       float64 `json:"gcMB"`
		SpanMB     float64 `json:"spanMB"`
		OtherMB    float64 `json:"otherMB"`
	} `json:"runtime"`
}

func TestSoak(t *testing.T) {
	duration := 5 * time.Minute
	if d, err := time.ParseDuration(os.Getenv("SOAK_DURATION")); err == nil {
		duration = d
	}
	dir := t.TempDir()
	exts := []string{".go", ".py", ".ts", ".java", ".txt"}
	var paths []string
	for d := 0; d < 200; d++ {
		sub := filepath.Join(dir, fmt.Sprintf("pkg%03d", d), fmt.Sprintf("mod%02d", d%17))
		os.MkdirAll(sub, 0o755)
		for f := 0; f < 100; f++ {
			name := fmt.Sprintf("file_%03d_%03d%s", d, f, exts[f%len(exts)])
			os.WriteFile(filepath.Join(sub, name), []byte(fmt.Sprintf("// %s\nfunction handler%d_%d() {}\nclass Widget%d%d {}\n", name, d, f, d, f)), 0o644)
			rel, _ := filepath.Rel(dir, filepath.Join(sub, name))
			paths = append(paths, filepath.ToSlash(rel))
		}
	}
	bin := buildBinary(t)
	cmd := exec.Command(bin, "lsp")
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	errLog, _ := os.Create(filepath.Join(t.TempDir(), "server.err"))
	cmd.Stderr = errLog
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	c := &rpc{in: in, waiting: map[int64]chan json.RawMessage{}}
	go c.readLoop(out)
	if r := c.call("initialize", map[string]any{"processId": os.Getpid(), "rootUri": wire.FileURI(dir), "capabilities": map[string]any{}}, 0); r.Error != nil {
		t.Fatal(r.Error.Message)
	}
	c.write(map[string]any{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}})
	status := func(gc bool) soakStatus {
		var st soakStatus
		r := c.call("find/status", map[string]any{"runtime": true, "gc": gc}, 0)
		json.Unmarshal(r.Result, &st)
		return st
	}
	for st := status(false); !st.Ready || !st.SymbolsReady || st.ContentFiles == 0; st = status(false) {
		time.Sleep(100 * time.Millisecond)
	}
	c.call("workspace/symbol", map[string]any{"query": "Widget1"}, 0) // waits for the symbol pass
	// Warm up with the same kinds of request, so that the baseline is the
	// steady state (pools and scratch space sized), not the first moment.
	for i := 0; i < 300; i++ {
		p := paths[(i*7919)%len(paths)]
		c.call("find/resolvePath", map[string]any{"path": p[1:], "history": []string{}}, 0)
		c.call("find/files", map[string]any{"query": filepath.Base(p)[2:], "limit": 10}, 0)
		c.call("workspace/symbol", map[string]any{"query": fmt.Sprintf("Widget%d", i)}, 0)
		c.call("find/locate", map[string]any{"query": fmt.Sprintf("where is handler%d_%d", i%200, i%100)}, 0)
	}
	time.Sleep(2 * time.Second)
	base := status(true)
	baseRSS := processRSS(cmd.Process.Pid)
	t.Logf("baseline: %d files, %d symbols, %d goroutines, heap %.1f MB, RSS %.0f MB", base.Files, base.Symbols, base.Runtime.Goroutines, base.Runtime.HeapMB, baseRSS)

	// The churn: what exists, and when each path was created or deleted.
	var fsMu sync.Mutex
	live := map[string]bool{}
	for _, p := range paths {
		live[p] = true
	}
	deletedAt := map[string]time.Time{}
	var events, created, checkedCreated, lateCreated, staleReturned, requests, cancelled, errorsSeen atomic.Int64
	var maxDetect atomic.Int64
	var stop chan struct{}
	var wg sync.WaitGroup
	churnN := 0
	load := func(d time.Duration) {
		stop = make(chan struct{})
		wg.Add(1)
		go func() { // 50 file operations a second
			defer wg.Done()
			rng := rand.New(rand.NewSource(int64(churnN) + 1))
			tick := time.NewTicker(20 * time.Millisecond)
			defer tick.Stop()
			n := churnN
			defer func() { churnN = n }()
			for {
				select {
				case <-stop:
					return
				case <-tick.C:
				}
				n++
				fsMu.Lock()
				var some string
				for p := range live { // a random live file (map order)
					some = p
					break
				}
				fsMu.Unlock()
				switch rng.Intn(4) {
				case 0: // create
					p := fmt.Sprintf("churn/c%03d/new_file_%06d.go", n%50, n)
					os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
					os.WriteFile(filepath.Join(dir, p), []byte(fmt.Sprintf("package churn\n\nfunc Fresh%d() {}\n", n)), 0o644)
					fsMu.Lock()
					live[p] = true
					delete(deletedAt, p)
					fsMu.Unlock()
					created.Add(1)
					wg.Add(1)
					go func(p string, at time.Time) { // found within 1 s?
						defer wg.Done()
						time.Sleep(time.Second - time.Since(at))
						r := c.call("find/resolvePath", map[string]any{"path": p}, 0)
						var res wire.Resolve
						json.Unmarshal(r.Result, &res)
						checkedCreated.Add(1)
						fsMu.Lock()
						still := live[p]
						fsMu.Unlock()
						if still && (!res.Exact || res.Resolved == nil) {
							lateCreated.Add(1)
							for waited := time.Second; waited < 10*time.Second; waited += 100 * time.Millisecond {
								time.Sleep(100 * time.Millisecond)
								r = c.call("find/resolvePath", map[string]any{"path": p}, 0)
								json.Unmarshal(r.Result, &res)
								if res.Exact {
									if int64(waited) > maxDetect.Load() {
										maxDetect.Store(int64(waited))
									}
									break
								}
							}
						}
					}(p, time.Now())
				case 1: // delete
					if some == "" {
						continue
					}
					os.Remove(filepath.Join(dir, some))
					fsMu.Lock()
					delete(live, some)
					deletedAt[some] = time.Now()
					fsMu.Unlock()
				case 2: // rename
					if some == "" {
						continue
					}
					to := strings.TrimSuffix(some, filepath.Ext(some)) + fmt.Sprintf("_r%d", n) + filepath.Ext(some)
					if os.Rename(filepath.Join(dir, some), filepath.Join(dir, to)) == nil {
						fsMu.Lock()
						delete(live, some)
						deletedAt[some] = time.Now()
						live[to] = true
						fsMu.Unlock()
					}
				case 3: // edit
					if some == "" {
						continue
					}
					f, err := os.OpenFile(filepath.Join(dir, some), os.O_APPEND|os.O_WRONLY, 0)
					if err == nil {
						fmt.Fprintf(f, "// edit %d\n", n)
						f.Close()
					}
				}
				events.Add(1)
			}
		}()
		// stale reports whether a returned path was deleted over 1 s before
		// the request was sent (and has not come back).
		stale := func(sent time.Time, body json.RawMessage) {
			var v struct {
				Resolved   *wire.Candidate  `json:"resolved"`
				Candidates []wire.Candidate `json:"candidates"`
				Matches    []wire.Match     `json:"matches"`
			}
			json.Unmarshal(body, &v)
			var got []string
			if v.Resolved != nil {
				got = append(got, v.Resolved.Path)
			}
			for _, c := range v.Candidates {
				got = append(got, c.Path)
			}
			for _, m := range v.Matches {
				got = append(got, m.Path)
			}
			fsMu.Lock()
			defer fsMu.Unlock()
			for _, p := range got {
				if at, gone := deletedAt[p]; gone && !live[p] && sent.Sub(at) > time.Second {
					staleReturned.Add(1)
					t.Logf("deleted %s (%.1f s before) returned", p, sent.Sub(at).Seconds())
				}
			}
		}
		for w := 0; w < 8; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				rng := rand.New(rand.NewSource(int64(w) + 100))
				for {
					select {
					case <-stop:
						return
					default:
					}
					p := paths[rng.Intn(len(paths))]
					typo := p[:len(p)/2] + p[len(p)/2+1:]
					var method string
					var params any
					switch rng.Intn(5) {
					case 0:
						method, params = "find/resolvePath", map[string]any{"path": typo, "history": []string{}}
					case 1:
						method, params = "find/files", map[string]any{"query": filepath.Base(typo), "limit": 10}
					case 2:
						method, params = "workspace/symbol", map[string]any{"query": fmt.Sprintf("Widget%d", rng.Intn(2000))}
					case 3:
						method, params = "find/locate", map[string]any{"query": fmt.Sprintf("where is handler%d_%d", rng.Intn(200), rng.Intn(100))}
					case 4:
						method, params = "find/files", map[string]any{"query": "new file " + strconv.Itoa(rng.Intn(1000)), "limit": 20}
					}
					cancelAfter := time.Duration(0)
					if rng.Intn(10) == 0 {
						cancelAfter = time.Duration(rng.Intn(3)) * time.Millisecond
					}
					sent := time.Now()
					r := c.call(method, params, cancelAfter)
					requests.Add(1)
					switch {
					case r.Error != nil && r.Error.Code == -32800:
						cancelled.Add(1)
					case r.Error != nil:
						errorsSeen.Add(1)
						t.Logf("%s: error %d %s", method, r.Error.Code, r.Error.Message)
					default:
						stale(sent, r.Result)
					}
				}
			}(w)
		}
		time.Sleep(d)
		close(stop)
		wg.Wait()
		time.Sleep(5 * time.Second) // let the last changes settle
	}

	// A warm-up under the same load first: memory is judged from the
	// steady state it reaches (the largest index rebuilds, pools and
	// runtime metadata sized), so that growth after it means a leak.
	cold := status(true)
	coldRSS := processRSS(cmd.Process.Pid)
	load(duration / 5)
	warm := status(true)
	warmRSS := processRSS(cmd.Process.Pid)
	t.Logf("after a %s warm-up: RSS %.0f MB (cold %.0f), heap %.1f MB (cold %.1f)", duration/5, warmRSS, coldRSS, warm.Runtime.HeapMB, cold.Runtime.HeapMB)
	base, baseRSS = warm, warmRSS
	for _, n := range []*atomic.Int64{&events, &created, &checkedCreated, &lateCreated, &staleReturned, &requests, &cancelled, &errorsSeen} {
		n.Store(0)
	}
	load(duration)
	after := status(true)
	afterRSS := processRSS(cmd.Process.Pid)
	t.Logf("%s: %d requests (%d cancelled, %d errors), %d file events (%d creations, %d checked, %d later than 1 s, slowest %.1f s), %d deleted files returned after 1 s",
		duration, requests.Load(), cancelled.Load(), errorsSeen.Load(), events.Load(), created.Load(), checkedCreated.Load(), lateCreated.Load(),
		time.Duration(maxDetect.Load()).Seconds(), staleReturned.Load())
	t.Logf("after: %d files, %d goroutines (baseline %d), heap %.1f MB (baseline %.1f), RSS %.0f MB (baseline %.0f, %+.1f%%); Go runtime from the OS %.1f MB (baseline %.1f), stacks %.1f (%.1f)",
		after.Files, after.Runtime.Goroutines, base.Runtime.Goroutines, after.Runtime.HeapMB, base.Runtime.HeapMB, afterRSS, baseRSS, 100*(afterRSS-baseRSS)/baseRSS,
		after.Runtime.SysMB, base.Runtime.SysMB, after.Runtime.StackMB, base.Runtime.StackMB)
	t.Logf("runtime before → after, MB: heap in use %.1f → %.1f, GC metadata %.1f → %.1f, spans %.1f → %.1f, other %.1f → %.1f",
		base.Runtime.InuseMB, after.Runtime.InuseMB, base.Runtime.GCMB, after.Runtime.GCMB, base.Runtime.SpanMB, after.Runtime.SpanMB, base.Runtime.OtherMB, after.Runtime.OtherMB)
	if errorsSeen.Load() > 0 {
		t.Errorf("%d error responses other than cancellations", errorsSeen.Load())
	}
	if lateCreated.Load() > 0 {
		t.Errorf("%d created files not found within 1 s", lateCreated.Load())
	}
	if staleReturned.Load() > 0 {
		t.Errorf("%d deleted files returned after 1 s", staleReturned.Load())
	}
	within := func(a, b float64) bool { return a <= b*1.10+1 } // +1: a goroutine or a MB of noise
	if !within(float64(after.Runtime.Goroutines), float64(base.Runtime.Goroutines)) {
		t.Errorf("goroutines %d after, %d before", after.Runtime.Goroutines, base.Runtime.Goroutines)
	}
	if !within(after.Runtime.HeapMB, base.Runtime.HeapMB) {
		t.Errorf("heap %.1f MB after, %.1f MB before", after.Runtime.HeapMB, base.Runtime.HeapMB)
	}
	if afterRSS > baseRSS*1.10 {
		t.Errorf("RSS grew %.0f → %.0f MB", baseRSS, afterRSS)
	}
	_ = sort.Strings
}
