package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// symbolTree is a tree with enough symbols that indexing takes seconds:
// Go's own source, indexed in place (only read).
func symbolTree(t *testing.T) string {
	return filepath.Join(runtime.GOROOT(), "src")
}

type indexOut struct {
	Result struct {
		Parseable, Parsed, FromCache, Symbols int
	} `json:"result"`
}

func runIndex(t *testing.T, root, cache string) (indexOut, error) {
	cmd := exec.Command(binary, "index", "--quiet", "--format", "json", "--root", root)
	cmd.Env = append(os.Environ(), "WAYFIND_CACHE_DIR="+cache)
	b, err := cmd.Output()
	var out indexOut
	if err == nil {
		err = json.Unmarshal(b, &out)
	}
	return out, err
}

// TestCacheSurvivesKill9: `wayfind index` killed with SIGKILL at many
// points of its run (parsing, writing the cache), then run again: it never
// crashes, and the symbols it then serves are exactly a clean run's.
func TestCacheSurvivesKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	root := symbolTree(t)
	clean, err := runIndex(t, root, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	start := time.Now()
	if _, err := runIndex(t, root, t.TempDir()); err != nil {
		t.Fatal(err)
	}
	full := time.Since(start)
	kills := 0
	leftCache := 0
	const points = 6
	for i := 1; i <= points; i++ {
		os.RemoveAll(cache) // a cold run each time, so the write is in every run
		cmd := exec.Command(binary, "index", "--quiet", "--format", "json", "--root", root)
		cmd.Env = append(os.Environ(), "WAYFIND_CACHE_DIR="+cache)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// The last points fall in the final tenth of the run: the cache write.
		at := full * time.Duration(i) / points
		if i > points/2 {
			at = full*9/10 + full*time.Duration(i-points/2)/time.Duration(10*(points-points/2))
		}
		time.Sleep(at)
		if cmd.Process.Signal(syscall.SIGKILL) == nil {
			kills++
		}
		cmd.Wait()
		if m, _ := filepath.Glob(filepath.Join(cache, "*", "symbols.db")); len(m) > 0 {
			leftCache++
		}
		after, err := runIndex(t, root, cache)
		if err != nil {
			t.Fatalf("kill %d: the next run failed: %v", i, err)
		}
		if after.Result.Symbols != clean.Result.Symbols || after.Result.Parseable != clean.Result.Parseable {
			t.Fatalf("kill %d: %+v, want %+v", i, after.Result, clean.Result)
		}
		again, err := runIndex(t, root, cache)
		if err != nil || again.Result.Parsed != 0 || again.Result.Symbols != clean.Result.Symbols {
			t.Fatalf("kill %d: the cache was not rebuilt: %+v %v", i, again.Result, err)
		}
	}
	t.Logf("%d kills over a %.1f s run (%d left a cache file behind); %d symbols every time after", kills, full.Seconds(), leftCache, clean.Result.Symbols)
}

// TestTwoProcessesOneCache: processes indexing one root at once take
// turns on the cache; all succeed and the cache is whole afterwards.
func TestTwoProcessesOneCache(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	root := symbolTree(t)
	cache := t.TempDir()
	var wg sync.WaitGroup
	results := make([]indexOut, 3)
	errs := make([]error, 3)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = runIndex(t, root, cache)
		}()
	}
	wg.Wait()
	for i := range results {
		if errs[i] != nil || results[i].Result.Symbols != results[0].Result.Symbols {
			t.Fatalf("process %d: %+v %v", i, results[i].Result, errs[i])
		}
	}
	after, err := runIndex(t, root, cache)
	if err != nil || after.Result.Parsed != 0 || after.Result.Symbols != results[0].Result.Symbols {
		t.Fatalf("after three at once: %+v %v", after.Result, err)
	}
}

// TestOrphanedServerExits: a server whose client process dies exits
// within 5 s — whether it learns so from the processId the client gave
// (its stdin still open) or from its stdin closing with the parent.
func TestOrphanedServerExits(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n"), 0o644)

	// The processId way: the "client" is a sleep process; stdin stays ours.
	parent := exec.Command("sleep", "60")
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	srv := exec.Command(binary, "lsp")
	stdin, _ := srv.StdinPipe()
	stdout, _ := srv.StdoutPipe()
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		buf := make([]byte, 4096)
		for {
			if _, err := stdout.Read(buf); err != nil {
				return
			}
		}
	}()
	init := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":%d,"rootUri":"file://%s","capabilities":{}}}`, parent.Process.Pid, dir)
	fmt.Fprintf(stdin, "Content-Length: %d\r\n\r\n%s", len(init), init)
	time.Sleep(500 * time.Millisecond)
	parent.Process.Kill()
	parent.Wait()
	killed := time.Now()
	done := make(chan error, 1)
	go func() { done <- srv.Wait() }()
	select {
	case <-done:
		t.Logf("exited %.1f s after its client died (processId)", time.Since(killed).Seconds())
	case <-time.After(5 * time.Second):
		srv.Process.Kill()
		t.Fatal("the server outlived its client by 5 s")
	}

	// The stdin way: a shell starts the server with its own stdin and dies.
	sh := exec.Command("sh", "-c", fmt.Sprintf("sleep 30 | %s lsp >/dev/null 2>&1 & echo $!; sleep 1", binary))
	sh.Stderr = os.Stderr
	b, err := sh.Output()
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b))) // $! is the server, the pipeline's last command
	if err != nil {
		t.Fatalf("pid %q: %v", b, err)
	}
	// The pipeline's writer (sleep 30) holds the server's stdin; kill it.
	exec.Command("pkill", "-x", "-f", "sleep 30").Run()
	closed := time.Now()
	for syscall.Kill(pid, 0) == nil {
		if time.Since(closed) > 5*time.Second {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatal("the server outlived its input by 5 s")
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("exited %.1f s after its input closed", time.Since(closed).Seconds())
}

// TestUnreadableDirectory: a directory the user cannot read is passed
// over with a log line; the rest of the tree is searched. Root reads
// through permissions, so as root the walk runs as nobody.
func TestUnreadableDirectory(t *testing.T) {
	base, err := os.MkdirTemp("", "wayfind-perm")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(base)
	os.Chmod(base, 0o755)
	bin := filepath.Join(base, "wayfind")
	data, err := os.ReadFile(binary)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(bin, data, 0o755)
	tree := filepath.Join(base, "tree")
	for _, d := range []string{"open/sub", "locked/inner"} {
		os.MkdirAll(filepath.Join(tree, d), 0o755)
	}
	os.WriteFile(filepath.Join(tree, "open", "sub", "visible_file.go"), []byte("package x\n"), 0o644)
	os.WriteFile(filepath.Join(tree, "locked", "inner", "hidden_file.go"), []byte("package x\n"), 0o644)
	os.Chmod(filepath.Join(tree, "locked"), 0o000)
	defer os.Chmod(filepath.Join(tree, "locked"), 0o755)

	cmd := exec.Command(bin, "find", "--root", tree, "--format", "json", "--verbose", "file")
	cmd.Env = append(os.Environ(), "WAYFIND_CACHE_DIR="+filepath.Join(base, "cache"))
	if os.Getuid() == 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("find: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(string(out), "open/sub/visible_file.go") || strings.Contains(string(out), "hidden_file") {
		t.Errorf("output: %s", out)
	}
	if !strings.Contains(stderr.String(), "locked") {
		t.Errorf("no log line (with --verbose) for the unreadable directory: %q", stderr.String())
	}
}

// TestClientClosesFirst: a client that sends exit and closes both pipes
// at once (as an editor or the scale bench does) leaves a server that
// still closes its session — it exits 0, neither killed by SIGPIPE at
// its next write nor crashed by jsonrpc2's failing the connection with
// two kinds of error — and writes the base its walk owed for the next
// start.
func TestClientClosesFirst(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	for i := range 50 {
		os.MkdirAll(filepath.Join(dir, "src"), 0o755)
		os.WriteFile(filepath.Join(dir, "src", fmt.Sprintf("f%d.go", i)), []byte("package src\n"), 0o644)
	}
	srv := exec.Command(binary, "lsp")
	srv.Env = append(os.Environ(), "WAYFIND_CACHE_DIR="+cache)
	stdin, _ := srv.StdinPipe()
	stdout, _ := srv.StdoutPipe()
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	send := func(msg string) { fmt.Fprintf(stdin, "Content-Length: %d\r\n\r\n%s", len(msg), msg) }
	send(fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":"file://%s","capabilities":{}}}`, dir))
	send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	// Answered once the tree is indexed: a resolve waits for the index.
	send(`{"jsonrpc":"2.0","id":2,"method":"find/resolvePath","params":{"path":"src/f1.go"}}`)
	r := bufio.NewReader(stdout)
	for answered := false; !answered; {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("no answer to the resolve: %v", err)
		}
		answered = strings.Contains(line, `"id":2`)
	}
	send(`{"jsonrpc":"2.0","id":3,"method":"shutdown"}`)
	send(`{"jsonrpc":"2.0","method":"exit"}`)
	stdout.Close()
	stdin.Close()
	done := make(chan error, 1)
	go func() { done <- srv.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the server ended with %v, want exit 0", err)
		}
	case <-time.After(10 * time.Second):
		srv.Process.Kill()
		t.Fatal("the server did not exit")
	}
	if ents, _ := filepath.Glob(filepath.Join(cache, "*", "engine.seg")); len(ents) == 0 {
		t.Error("no base written for the next start")
	}
}
