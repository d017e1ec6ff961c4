package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"wayfind/wire"
)

// TestHostileTree indexes a tree built to hurt — symlink loops, links out
// of the root, a huge file, a binary with a source extension, a
// non-UTF-8 name, 100k files in one directory, a 4,000-byte path, a file
// deleted between walk and parse — through the protocol: every answer
// stays inside the root and the server keeps answering.
func TestHostileTree(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds a 100k-file directory")
	}
	dir := t.TempDir()
	outside := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	write := func(rel string, data []byte) {
		p := filepath.Join(dir, rel)
		must(os.MkdirAll(filepath.Dir(p), 0o755))
		must(os.WriteFile(p, data, 0o644))
	}
	write("src/app.go", []byte("package app\n\nfunc Serve() {}\n"))
	os.WriteFile(filepath.Join(outside, "secret_token.py"), []byte("def leaked(): pass\n"), 0o644)
	os.MkdirAll(filepath.Join(outside, "secretdir"), 0o755)
	os.WriteFile(filepath.Join(outside, "secretdir", "hidden_file.py"), []byte("def leaked2(): pass\n"), 0o644)
	must(os.Symlink(dir, filepath.Join(dir, "src", "loop")))                                  // a loop back to the root
	must(os.Symlink(filepath.Join(dir, "src"), filepath.Join(dir, "src", "self")))            // a loop to itself
	must(os.Symlink(filepath.Join(outside, "secret_token.py"), filepath.Join(dir, "out.py"))) // a file link out
	must(os.Symlink(filepath.Join(outside, "secretdir"), filepath.Join(dir, "outdir")))       // a directory link out
	big := make([]byte, 50<<20)
	copy(big, "package big\n\nfunc Huge() {}\n")
	write("big/huge.go", big)
	write("bin/blob.go", []byte("package x\x00\x01\x02 func Binary() {}"))
	write("bad\xffname.go", []byte("package bad\n"))
	crowd := filepath.Join(dir, "crowd")
	must(os.MkdirAll(crowd, 0o755))
	for i := 0; i < 100_000; i++ {
		must(os.WriteFile(filepath.Join(crowd, fmt.Sprintf("f%06d.txt", i)), nil, 0o644))
	}
	long := dir
	for len(long) < 3900 {
		long = filepath.Join(long, strings.Repeat("d", 200))
	}
	must(os.MkdirAll(long, 0o755))
	longFile := filepath.Join(long, "deep_target.go")
	must(os.WriteFile(longFile, []byte("package deep\n\nfunc Deep() {}\n"), 0o644))
	t.Logf("longest path %d bytes", len(longFile))
	write("src/vanishing.go", []byte("package app\n\nfunc Vanish() {}\n"))

	c := startServer(t)
	c.initialize(nil, nil, dir)
	var st wire.Status
	c.ok("find/status", map[string]any{}, &st)
	os.Remove(filepath.Join(dir, "src", "vanishing.go")) // between the walk and the symbol pass
	root := mustEval(t, dir)

	checkInside := func(what string, v any) {
		t.Helper()
		b, _ := json.Marshal(v)
		if out := outsideRoot(b, root); len(out) > 0 {
			t.Errorf("%s returned %s, outside %s", what, out, root)
		}
		if strings.Contains(string(b), "secret") || strings.Contains(string(b), "hidden_file") || strings.Contains(string(b), "leaked") {
			t.Errorf("%s leaked the outside: %s", what, b)
		}
	}
	var files wire.Files
	for _, q := range []string{"secret token", "hidden_file", "app", "f099999", "deep target", "huge", "blob"} {
		c.ok("find/files", map[string]any{"query": q}, &files)
		checkInside("find "+q, files)
	}
	c.ok("find/files", map[string]any{"query": "f099999"}, &files)
	if len(files.Matches) == 0 || files.Matches[0].Path != "crowd/f099999.txt" {
		t.Errorf("the 100k-file directory: %+v", files.Matches)
	}
	c.ok("find/files", map[string]any{"query": "deep_target"}, &files)
	if len(files.Matches) == 0 || !strings.HasSuffix(files.Matches[0].Path, "/deep_target.go") {
		t.Errorf("the 4,000-byte path: %+v", files.Matches)
	}
	var res wire.Resolve
	for _, p := range []string{"out.py", "outdir/hidden_file.py", "src/loop/src/app.go", "src/self/self/app.go", filepath.Join(outside, "secret_token.py")} {
		c.ok("find/resolvePath", map[string]any{"path": p}, &res)
		checkInside("resolve "+p, res)
	}
	var syms []wire.SymbolInformation
	for _, q := range []string{"leaked", "Serve", "Huge", "Binary", "Vanish", "Deep"} {
		c.ok("workspace/symbol", map[string]any{"query": q}, &syms)
		checkInside("symbol "+q, syms)
		switch q {
		case "Serve", "Deep":
			if len(syms) == 0 {
				t.Errorf("symbol %s not found", q)
			}
		case "Huge", "Binary", "Vanish", "leaked":
			for _, s := range syms {
				if s.Name == q {
					t.Errorf("symbol %s indexed: %+v", q, s)
				}
			}
		}
	}
	var loc wire.Locate
	c.ok("find/locate", map[string]any{"query": "where is leaked implemented"}, &loc)
	checkInside("locate", loc.Results)
	c.ok("find/status", map[string]any{}, &st)
	if !st.Ready || st.Files < 100_000 {
		t.Errorf("status %+v", st)
	}
}

// TestRootDeletedWhileRunning: the root vanishes under a running server;
// it logs, keeps answering (with nothing), and exits cleanly.
func TestRootDeletedWhileRunning(t *testing.T) {
	dir := project(t)
	c := startServer(t)
	c.initialize(nil, nil, dir)
	var res wire.Resolve
	c.ok("find/resolvePath", map[string]any{"path": "src/auth/login.py"}, &res)
	if res.Resolved == nil {
		t.Fatalf("before: %+v", res)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		c.ok("find/resolvePath", map[string]any{"path": "src/auth/login.py"}, &res)
		if res.Resolved == nil && len(res.Candidates) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("deleted files still returned: %+v", res)
		}
		time.Sleep(50 * time.Millisecond)
	}
	var st wire.Status
	c.ok("find/status", map[string]any{}, &st)
	var syms []wire.SymbolInformation
	c.ok("workspace/symbol", map[string]any{"query": "check"}, &syms)
	if len(syms) != 0 {
		t.Errorf("symbols of deleted files: %+v", syms)
	}
}

func mustEval(t *testing.T, p string) string {
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
