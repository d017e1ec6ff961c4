package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// lspServer is `wayfind lsp` driven as an editor drives it: framed JSON-RPC
// over the child's stdin and stdout (go.lsp.dev/jsonrpc2 as the client),
// one request at a time, since round trips are what is measured. Server
// requests are answered with null; notifications are dropped.
type lspServer struct {
	cmd  *exec.Cmd
	conn jsonrpc2.Conn
	// lifePeakMB is the server's resident peak over its whole life, its
	// exit included, once stop has waited for it: the larger of the
	// kernel's maximum resident set of the child and what sampling its
	// resident set every rssSample saw (the kernel's high-water mark is
	// not raised by pages dropped with madvise before it looks).
	lifePeakMB float64
	sampled    chan sampledPeak // the sampler's maximum, once the child is gone
}

// sampledPeak is the largest resident set sampling saw, when, and what
// it was made of: anonymous memory (heaps) and mapped files, and which
// files (mappedFiles, read when a peak past peakDetailMB is first seen
// and again each peakDetailStep above the last read: smaps is slow to
// read at every sample).
type sampledPeak struct {
	mb, anonMB, fileMB float64
	files              string
	at                 time.Time
}

// peakDetailMB and peakDetailStep: when the sampler reads which mapped
// files a peak holds — near the bound issue 53 sets on a server's resident set, and not at
// every megabyte of a climb.
const (
	peakDetailMB   = 400
	peakDetailStep = 5
)

// rssSample is how often a server's resident set is sampled for its
// peak: shorter than any phase that raises it.
const rssSample = 10 * time.Millisecond

// samplePeak samples pid's resident set until it is gone, then sends the
// largest seen.
func samplePeak(pid int, out chan<- sampledPeak) {
	status := fmt.Sprintf("/proc/%d/status", pid)
	var peak sampledPeak
	detailed := 0.0 // the peak whose files were last read
	for {
		b, _ := os.ReadFile(status)
		rss := statusField(b, "VmRSS:")
		if rss == 0 {
			out <- peak
			return
		}
		if rss > peak.mb {
			files := peak.files
			if rss >= peakDetailMB && rss >= detailed+peakDetailStep {
				files, detailed = mappedFiles(pid), rss
			}
			peak = sampledPeak{rss, statusField(b, "RssAnon:"), statusField(b, "RssFile:"), files, time.Now()}
		}
		time.Sleep(rssSample)
	}
}

// childPipes joins the child's stdout and stdin into one stream.
type childPipes struct {
	io.Reader
	io.WriteCloser
}

func startLSP(bin string) (*lspServer, error) { return startLSPArgs(bin, "lsp") }

// startLSPArgs starts any language server on stdio (argv: the command).
func startLSPArgs(argv ...string) (*lspServer, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = io.Discard // the per-request metrics lines
	var logTo io.Writer = io.Discard
	if log := os.Getenv("WAYFIND_BENCH_SERVER_LOG"); log != "" {
		// The servers' logs (window/logMessage, stderr), appended to one
		// file with the time, to see what a figure was made of.
		f, err := os.OpenFile(log, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return nil, err
		}
		cmd.Stderr, logTo = f, f
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(childPipes{out, in}))
	conn.Go(context.Background(), func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		if req.Method() == "window/logMessage" {
			fmt.Fprintf(logTo, "%s %s\n", time.Now().Format("15:04:05.000"), req.Params())
		}
		return reply(ctx, nil, nil)
	})
	s := &lspServer{cmd: cmd, conn: conn, sampled: make(chan sampledPeak, 1)}
	go samplePeak(cmd.Process.Pid, s.sampled)
	return s, nil
}

func (s *lspServer) notify(method string, params any) error {
	return s.conn.Notify(context.Background(), method, params)
}

func (s *lspServer) call(method string, params any, result any) error {
	_, err := s.conn.Call(context.Background(), method, params, result)
	return err
}

// rssOf reads a process's resident set in MB.
func rssOf(pid int) float64 {
	return vmRSS(fmt.Sprintf("/proc/%d/status", pid))
}

func (s *lspServer) stop() {
	_ = s.call("shutdown", nil, nil)
	_ = s.notify("exit", nil)
	_ = s.conn.Close()
	_ = s.cmd.Wait()
	peak := <-s.sampled
	s.lifePeakMB = peak.mb
	if ru, ok := s.cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		s.lifePeakMB = max(s.lifePeakMB, float64(ru.Maxrss)/1024) // kilobytes on Linux
	}
	// When, to be found in the server's log (WAYFIND_BENCH_SERVER_LOG).
	fmt.Fprintf(os.Stderr, "server %d: resident peak %.0f MB (sampled at %s: anonymous %.0f, mapped files %.0f; %s), %.0f MB over its life\n",
		s.cmd.Process.Pid, peak.mb, peak.at.Format("15:04:05.000"), peak.anonMB, peak.fileMB, peak.files, s.lifePeakMB)
}

// lspCorpus indexes root through the protocol and runs its cases as
// find/resolvePath and find/files requests.
// lspCorpus asks cases of a server started on root; settled, once its
// passes have finished, then its memory and reported renames, then after
// (when set) with the server.
func lspCorpus(bin, root string, cases []benchCase, listing string, withFzf, settle bool, after func(*lspServer) error) (outs []outcome, readyMs, rss float64, err error) {
	s, err := startLSP(bin)
	if err != nil {
		return nil, 0, 0, err
	}
	defer s.stop()
	readyMs, rss, err = s.open(root, settle)
	if err != nil {
		return nil, 0, 0, err
	}
	ready := time.Now()
	for _, c := range cases {
		o := outcome{c: c, asked: time.Since(ready)}
		want := ""
		if c.Expected != nil {
			want = *c.Expected
		}
		t0, faults0 := time.Now(), pageFaults(s.cmd.Process.Pid)
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
			o.elapsed, o.faults = time.Since(t0), pageFaults(s.cmd.Process.Pid)-faults0
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
			o.elapsed, o.faults = time.Since(t0), pageFaults(s.cmd.Process.Pid)-faults0
			for i, m := range res.Matches {
				if i == 0 {
					o.got = m.Path
				}
				o.at5 = o.at5 || m.Path == want
			}
			o.top1 = err == nil && o.got == want
			if want == "" { // a no-match case: passed when nothing is listed
				o.at5 = o.top1
			}
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
	if settle {
		// Memory in use, not only at rest: the questions' garbage stays
		// until the collector's next cycle, at twice the heap it kept.
		status := fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid)
		fmt.Fprintf(os.Stderr, "%s: after %d questions: RSS %.0f MB (anonymous %.0f, mapped files %.0f: %s), peak %.0f MB\n", root, len(cases),
			vmField(status, "VmRSS:"), vmField(status, "RssAnon:"), vmField(status, "RssFile:"), mappedFiles(s.cmd.Process.Pid), vmField(status, "VmHWM:"))
		// And once the server has been idle past its pages' release
		// (session's mappedIdle, 10 s).
		time.Sleep(idleAfterQuestions)
		fmt.Fprintf(os.Stderr, "%s: %.0f s idle after them: RSS %.0f MB (anonymous %.0f, mapped files %.0f)\n", root, idleAfterQuestions.Seconds(),
			vmField(status, "VmRSS:"), vmField(status, "RssAnon:"), vmField(status, "RssFile:"))
		if err := reportedRenames(s, root, cases); err != nil {
			return nil, 0, 0, err
		}
		fmt.Fprintf(os.Stderr, "%s: after the renames: RSS %.0f MB (anonymous %.0f)\n", root, vmField(status, "VmRSS:"), vmField(status, "RssAnon:"))
		time.Sleep(idleAfterChanges)
		fmt.Fprintf(os.Stderr, "%s: %.0f s idle after them: RSS %.0f MB (anonymous %.0f)\n", root, idleAfterChanges.Seconds(), vmField(status, "VmRSS:"), vmField(status, "RssAnon:"))
	}
	if after != nil {
		if err := after(s); err != nil {
			return nil, 0, 0, err
		}
	}
	return outs, readyMs, rss, nil
}

// reportedRenames renames a few of the files the cases expect, as an
// editor would (reported by didChangeWatchedFiles), asks for each by its
// new name at once, then puts it back and asks for it by its old one:
// how long a reported change takes to reach the first answer, and
// whether it does.
func reportedRenames(s *lspServer, root string, cases []benchCase) error {
	var took []time.Duration
	found, asked := 0, 0
	seen := map[string]bool{}
	for _, c := range cases {
		if c.Expected == nil || seen[*c.Expected] || len(seen) == renamesAsked {
			continue
		}
		rel := *c.Expected
		if st, err := os.Stat(filepath.Join(root, rel)); err != nil || !st.Mode().IsRegular() {
			continue // a find case's expected file, in some team's copy (scaleCases)
		}
		seen[rel] = true
		dir, base := path.Split(rel)
		renamed := dir + "renamed" + base
		for _, step := range [][2]string{{rel, renamed}, {renamed, rel}} {
			from, to := filepath.Join(root, step[0]), filepath.Join(root, step[1])
			if err := os.Rename(from, to); err != nil {
				return err
			}
			t0 := time.Now()
			if err := s.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []map[string]any{
				{"uri": (&url.URL{Scheme: "file", Path: from}).String(), "type": 3},
				{"uri": (&url.URL{Scheme: "file", Path: to}).String(), "type": 1}}}); err != nil {
				return err
			}
			var res struct {
				Matches []struct {
					Path string `json:"path"`
				} `json:"matches"`
			}
			// The whole path: a name alone is shared by every team's copy,
			// and by thousands of files for some (package-info.java).
			if err := s.call("find/files", map[string]any{"query": step[1], "limit": 10}, &res); err != nil {
				return err
			}
			took = append(took, time.Since(t0))
			asked++
			for _, m := range res.Matches {
				if m.Path == step[1] {
					found++
					break
				}
			}
		}
	}
	fmt.Fprintf(os.Stderr, "%s: %d renames reported and asked for at once: found %d; the first answer after the report p50 %s, slowest %s ms\n",
		root, asked, found, ms(quantile(took, 0.5)), ms(quantile(took, 1)))
	return nil
}

// idleAfterChanges is past the server's seal of what changes left on
// its heap (session's sealApplied, after mappedIdle, a second or two at a
// million files).
const idleAfterChanges = 2 * idleAfterQuestions

// renamesAsked is how many files reportedRenames renames (and back).
const renamesAsked = 5

// idleAfterQuestions is past the server's release of its mapped pages
// and garbage (session's mappedIdle, checked every quarter of it, then a
// forced collection of up to a second at a million files): at 13 s, two
// runs of four at a million files measured before the release was done.
const idleAfterQuestions = 16 * time.Second

// open initializes the server on root and waits until its file index is
// ready (readyMs after `initialized`, with the server's resident set then),
// and with settle until the symbol and content passes that follow it have
// finished too (at most three minutes: a cold symbol pass over a large real tree takes half a minute).
func (s *lspServer) open(root string, settle bool) (readyMs, rss float64, err error) {
	uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(root)}).String()
	if err := s.call("initialize", map[string]any{"processId": os.Getpid(), "rootUri": uri,
		"capabilities": map[string]any{}}, nil); err != nil {
		return 0, 0, err
	}
	start := time.Now()
	if err := s.notify("initialized", map[string]any{}); err != nil {
		return 0, 0, err
	}
	for {
		var st struct {
			Ready bool `json:"ready"`
		}
		if err := s.call("find/status", map[string]any{}, &st); err != nil {
			return 0, 0, err
		}
		if st.Ready {
			break
		}
		time.Sleep(2 * time.Millisecond)
	}
	readyMs = float64(time.Since(start).Microseconds()) / 1000
	rss = rssOf(s.cmd.Process.Pid)
	if settle {
		// Steady state: the symbol and content passes that follow the file
		// index have finished.
		for t0 := time.Now(); time.Since(t0) < 3*time.Minute; time.Sleep(50 * time.Millisecond) {
			var st struct {
				SymbolsReady bool `json:"symbolsReady"`
				ContentReady bool `json:"contentReady"`
			}
			if err := s.call("find/status", map[string]any{}, &st); err != nil {
				return 0, 0, err
			}
			if st.SymbolsReady && st.ContentReady {
				break
			}
		}
		status := fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid)
		fmt.Fprintf(os.Stderr, "%s: settled %.1f s after initialized: RSS %.0f MB (anonymous %.0f, mapped files %.0f), peak %.0f MB\n", root,
			time.Since(start).Seconds(), vmField(status, "VmRSS:"), vmField(status, "RssAnon:"), vmField(status, "RssFile:"), vmField(status, "VmHWM:"))
	}
	return readyMs, rss, nil
}

// settleBench opens a real tree — its files' text read, parsed and
// indexed, which the benchmarks' trees of empty files never are — with a
// fresh cache, and prints when it was ready and settled and what the
// server then holds: anonymous memory (heaps, Go's and C's) apart from the
// mapped binary.
func settleBench(bin, root string) {
	cache, err := os.MkdirTemp("", "wayfind-settle-")
	if err != nil {
		fatal(err)
	}
	defer os.RemoveAll(cache)
	os.Setenv("WAYFIND_CACHE_DIR", cache)
	s, err := startLSP(bin)
	if err != nil {
		fatal(err)
	}
	defer s.stop()
	start := time.Now()
	readyMs, rss, err := s.open(root, true)
	if err != nil {
		fatal(err)
	}
	status := fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid)
	fmt.Printf("| tree | ready s | RSS MB at ready | settled s | settled RSS MB | anonymous MB | mapped files MB | peak MB |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
	fmt.Printf("| %s | %.2f | %.0f | %.1f | %.0f | %.0f | %.0f | %.0f |\n", filepath.Base(root), readyMs/1000, rss, time.Since(start).Seconds(),
		vmField(status, "VmRSS:"), vmField(status, "RssAnon:"), vmField(status, "RssFile:"), vmField(status, "VmHWM:"))
	if os.Getenv("WAYFIND_MEMPROFILE") != "" {
		// The server writes its heap's profile there on this signal.
		s.cmd.Process.Signal(syscall.SIGUSR1)
		time.Sleep(3 * time.Second)
	}
}

// pageFaults is process pid's page faults so far, minor and major
// (/proc/PID/stat's tenth and twelfth fields); 0 where it cannot be read.
func pageFaults(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The command name, in parentheses, may hold spaces: fields count
	// from after it.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 10 {
		return 0
	}
	minor, _ := strconv.ParseInt(string(f[7]), 10, 64)
	major, _ := strconv.ParseInt(string(f[9]), 10, 64)
	return minor + major
}
