package pathlit

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"wayfind/rank"
	"wayfind/workspace"
)

func judgeTree(t *testing.T) (*rank.Engine, string) {
	t.Helper()
	dir := t.TempDir()
	for _, p := range []string{"src/auth/login.py", "src/auth/middleware.py", "src/util/helpers.ts", "src/app.ts",
		"include/net/socket.h", "src/net/socket.cc", "build/out.txt"} {
		full := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, nil, 0o644)
	}
	// An ignored link leading out of the root: no file inside the roots.
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "midleware.py"), nil, 0o644)
	if err := os.Symlink(filepath.Join(outside, "midleware.py"), filepath.Join(dir, "src", "auth", "midleware.py")); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("build/\nsrc/auth/midleware.py\n"), 0o644)
	roots, err := workspace.CleanRoots([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	return rank.New(workspace.Build(roots, workspace.Options{})), roots[0]
}

// TestJudge: each rule of Judge, as a document would hold the literal.
func TestJudge(t *testing.T) {
	eng, root := judgeTree(t)
	doc := func(p string) string { return filepath.Join(root, filepath.FromSlash(p)) }
	cases := []struct {
		rule, doc, lit string
		ok, broken     bool
		target, fix    string
	}{
		{"exact is a link", "src/app.ts", "src/auth/login.py", true, false, "src/auth/login.py", ""},
		{"a module path is a link", "src/app.ts", "./util/helpers", true, false, "src/util/helpers.ts", ""},
		{"an include tail is a link", "src/net/socket.cc", "net/socket.h", true, false, "include/net/socket.h", ""},
		{"a typo is broken, fixed root-relative", "src/app.ts", "src/auth/midleware.py", true, true, "src/auth/middleware.py", "src/auth/middleware.py"},
		{"a relative typo is fixed relative", "src/auth/login.py", "./midleware.py", true, true, "src/auth/middleware.py", "./middleware.py"},
		{"the line suffix is kept", "src/app.ts", "src/auth/midleware.py:12", true, true, "src/auth/middleware.py", "src/auth/middleware.py:12"},
		{"an ignored file that exists is neither", "src/app.ts", "build/out.txt", false, false, "", ""},
		{"a link out of the root is no file there: broken", "src/app.ts", "src/auth/midleware.py", true, true, "src/auth/middleware.py", "src/auth/middleware.py"},
		{"nothing confident is nothing", "src/app.ts", "quantum/flux.py", false, false, "", ""},
	}
	for _, c := range cases {
		res, err := eng.Resolve(context.Background(), rank.ResolveRequest{Path: c.lit, From: doc(c.doc), History: []rank.Visit{}, Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		ref, ok := Judge(eng.Index(), res, doc(c.doc), Literal{Text: c.lit, Start: 0, End: len(c.lit)})
		if ok != c.ok {
			t.Errorf("%s: %q ok = %v, want %v (%+v)", c.rule, c.lit, ok, c.ok, ref)
			continue
		}
		if !ok {
			continue
		}
		if got := ref.Target.Path; got != c.target || ref.Broken != c.broken || ref.Fix != c.fix {
			t.Errorf("%s: %q → %s broken=%v fix=%q; want %s broken=%v fix=%q", c.rule, c.lit, got, ref.Broken, ref.Fix, c.target, c.broken, c.fix)
		}
	}
}

func TestRewrite(t *testing.T) {
	root := filepath.FromSlash("/w")
	cases := []struct{ lit, bare, doc, want string }{
		{"src/a.go:3", "src/a.go", "/w/x/y.md", "pkg/b.go:3"},
		{"./a.go", "./a.go", "/w/pkg/c.go", "./b.go"},
		{"../a.go", "../a.go", "/w/x/c.go", "../pkg/b.go"},
		{"/old/a.go", "/old/a.go", "/w/x/c.go", "/w/pkg/b.go"},
		{`src\a.go`, `src\a.go`, "/w/x/c.go", `pkg\b.go`},
	}
	for _, c := range cases {
		if got := Rewrite(c.lit, c.bare, filepath.FromSlash(c.doc), root, "pkg/b.go"); got != c.want {
			t.Errorf("Rewrite(%q) = %q, want %q", c.lit, got, c.want)
		}
	}
}
