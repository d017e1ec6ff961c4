// Package hostiletest builds a tree an attacker, a container image or a
// careless fixture could leave in a project — links to / and to .., a
// link out to a directory of secrets, a FIFO, names with line breaks —
// and judges a front end's answer over it: nothing outside the root is
// named or returned (by its real path), and no byte of a file outside
// it appears. The hook's, the MCP server's, the CLI's and the LSP
// server's tests all drive their front end through it.
package hostiletest

import (
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Tree is a built hostile tree.
type Tree struct {
	Root    string // the project: a git repository
	Outside string // a directory beside it, holding a secret
	Secret  string // the secret's text: no answer may hold it
}

// Build makes the tree under a temporary directory of t's.
func Build(t testing.TB) Tree {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tr := Tree{Root: filepath.Join(base, "proj"), Outside: filepath.Join(base, "outside"), Secret: "SECRET-wayfind-hostile-7f3a"}
	files := map[string]string{
		"main.go":                  "package main\n",
		"pkg/moved/readme.txt":     "read me\n",
		"docs/guide.md":            "[x](../main.go)\n",
		"src/app/handler.go":       "package app\n",
		"../outside/secret/id_rsa": tr.Secret + "\n",
		"../outside/main.go":       tr.Secret + "\n",
		"../outside/src/app/x.go":  tr.Secret + "\n",
	}
	for p, text := range files {
		full := filepath.Join(tr.Root, filepath.FromSlash(p))
		must(t, os.MkdirAll(filepath.Dir(full), 0o755))
		must(t, os.WriteFile(full, []byte(text), 0o644))
	}
	links := map[string]string{
		"rootfs":      "/",
		"up":          "..",
		"linkout":     tr.Outside,
		"deep/a/b":    "../../linkout",
		"alias.go":    "main.go",               // inside, to inside: works
		"secret.go":   tr.Outside + "/main.go", // a file link out
		"dangling.go": "nowhere.go",
	}
	for p, target := range links {
		full := filepath.Join(tr.Root, filepath.FromSlash(p))
		must(t, os.MkdirAll(filepath.Dir(full), 0o755))
		must(t, os.Symlink(target, full))
	}
	must(t, syscall.Mkfifo(filepath.Join(tr.Root, "pipe.txt"), 0o644))
	must(t, os.WriteFile(filepath.Join(tr.Root, "new\nline.go"), []byte("x\n"), 0o644))
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", tr.Root, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", "main.go", "pkg", "docs", "src", "rootfs", "up", "linkout", "deep", "alias.go", "secret.go")
	git("commit", "-qm", "start")
	return tr
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// Paths are the paths an attacker, or an agent in such a tree, asks for:
// each through a link out, outside the roots, or not a path at all.
func (tr Tree) Paths() []string {
	r := tr.Root
	return []string{
		"rootfs/etc/passwd", "rootfs/etc/passwd:1", "rootfs/etc/passwd#L1", "rootfs/etc/shadow:1", "rootfs/etc/passwdd",
		"file://" + r + "/rootfs/etc/passwd:1", r + "/rootfs/etc/hostname", r + "/rootfs/etc/hostnam",
		"linkout/secret/id_rsa", "linkout/secret/id_rsaa", "deep/a/b/secret/id_rsa", "deep/a/b/main.go:1",
		"up/outside/secret/id_rsa", "up/outside/main.go", r + "/up/outside/secret/id_rsaa",
		tr.Outside + "/secret/id_rsa", tr.Outside + "/main.go", tr.Outside + "/src/app/x.go", "/tmp/main.go", "/var/tmp/readme.txt",
		"secret.go", "secret.go:1", "pipe.txt", "dangling.go", "new\nline.go", "main.go\n/etc/passwd", "/dev/zero", "/proc/self/environ",
		"rootfs/proc/self/environ", "../outside/secret/id_rsa", "../../etc/passwd", strings.Repeat("a/", 3000) + "x.go",
	}
}

// Check judges one answer (JSON) a front end gave for query: every path
// or URI it names is inside the root by its real path, no text of it
// names the outside directory unless the query did, and none of the
// secret's bytes, nor of /etc/passwd's, are in it.
func (tr Tree) Check(t testing.TB, frontEnd, query string, answer []byte) {
	t.Helper()
	s := string(answer)
	for _, bad := range []string{tr.Secret, "root:x:0:0"} {
		if strings.Contains(s, bad) {
			t.Errorf("%s, %q: the answer holds bytes from outside the root: %s", frontEnd, query, clip(s))
		}
	}
	if !strings.Contains(query, tr.Outside) && !strings.Contains(query, "outside") && strings.Contains(s, tr.Outside) {
		t.Errorf("%s, %q: the answer names the outside directory: %s", frontEnd, query, clip(s))
	}
	var v any
	if json.Unmarshal(answer, &v) != nil {
		return // not JSON (a CLI's text): the byte checks above stand
	}
	tr.walk(t, frontEnd, query, "", v)
}

// pathKeys are the fields of every front end's answers that hold a path
// or a URI the answer gives (not the query's echo).
var pathKeys = map[string]bool{"uri": true, "path": true, "file_path": true, "notebook_path": true, "targetUri": true}

func (tr Tree) walk(t testing.TB, frontEnd, query, key string, v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if k == "query" || k == "requested" || k == "moved" || k == "gone" {
				continue // the question's echo, and the history's record of an old path
			}
			tr.walk(t, frontEnd, query, k, e)
		}
	case []any:
		for _, e := range x {
			tr.walk(t, frontEnd, query, key, e)
		}
	case string:
		if !pathKeys[key] || x == "" {
			return
		}
		p := x
		if strings.HasPrefix(p, "file://") {
			if u, err := url.Parse(p); err == nil {
				p = u.Path
			}
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(tr.Root, filepath.FromSlash(p))
		}
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			real = filepath.Clean(p) // not there: judged as written
		}
		if real != tr.Root && !strings.HasPrefix(real, tr.Root+string(filepath.Separator)) {
			t.Errorf("%s, %q: %s %q is outside the root (really %s)", frontEnd, query, key, x, real)
		}
	}
}

func clip(s string) string {
	if len(s) > 400 {
		return s[:400] + "…"
	}
	return s
}
