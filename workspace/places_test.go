package workspace

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestBeside(t *testing.T) {
	cases := []struct {
		from string
		up   int
		p    string
		want string
		ok   bool
	}{
		{"a/b/c.go", 0, "d.go", "a/b/d.go", true},
		{"a/b/c.go", 1, "d.go", "a/d.go", true},
		{"a/b/c.go", 2, "d.go", "d.go", true},
		{"a/b/c.go", 3, "d.go", "", false}, // out of the root
		{"c.go", 0, "x/d.go", "x/d.go", true},
		{"c.go", 1, "d.go", "", false},
	}
	for _, c := range cases {
		got, ok := Beside(c.from, c.up, c.p)
		if got != c.want || ok != c.ok {
			t.Errorf("Beside(%q, %d, %q) = %q, %v; want %q, %v", c.from, c.up, c.p, got, ok, c.want, c.ok)
		}
	}
}

func TestPlaces(t *testing.T) {
	ix := &Index{Roots: []string{"/ws/one", "/ws/two"}}
	cases := []struct {
		name     string
		w        Written
		fromRoot int
		fromRel  string
		fromOK   bool
		want     []Place
	}{
		{"absolute inside a root", Written{Path: "/ws/two/x/y.go", Absolute: true}, 0, "", false, []Place{{1, "x/y.go"}}},
		{"absolute outside every root", Written{Path: "/etc/passwd", Absolute: true}, 0, "", false, nil},
		{"another machine's drive", Written{Absolute: true}, 0, "", false, nil},
		{"relative, beside the referring file, then the roots", Written{Path: "y.go", Relative: true}, 1, "a/b.go", true,
			[]Place{{1, "a/y.go"}, {0, "y.go"}, {1, "y.go"}}},
		{"climbing, only beside", Written{Path: "y.go", Up: 1, Relative: true}, 1, "a/b.go", true, []Place{{1, "y.go"}}},
		{"climbing out of the root: nowhere", Written{Path: "y.go", Up: 2, Relative: true}, 1, "a/b.go", true, nil},
		{"not relative: the roots only", Written{Path: "y.go"}, 1, "a/b.go", true, []Place{{0, "y.go"}, {1, "y.go"}}},
		{"relative without a referring file: the roots", Written{Path: "y.go", Relative: true}, 0, "", false, []Place{{0, "y.go"}, {1, "y.go"}}},
	}
	for _, c := range cases {
		got := ix.Places(c.w, c.fromRoot, c.fromRel, c.fromOK)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// FileAt: a regular file inside its root, links followed only while they
// stay in the same root.
func TestFileAt(t *testing.T) {
	dir := t.TempDir()
	root, other := filepath.Join(dir, "root"), filepath.Join(dir, "other")
	for _, d := range []string{filepath.Join(root, "sub"), other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p string) {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "sub", "real.go"))
	write(filepath.Join(other, "secret.go"))
	link := func(target, at string) {
		if err := os.Symlink(target, filepath.Join(root, at)); err != nil {
			t.Fatal(err)
		}
	}
	link(filepath.Join(root, "sub", "real.go"), "inside.go")
	link(filepath.Join(other, "secret.go"), "outside.go")
	link(other, "outdir")
	ix := &Index{Roots: []string{root, other}}
	cases := []struct {
		rel  string
		want bool
	}{
		{"sub/real.go", true},
		{"inside.go", true},
		{"outside.go", false},       // a link into another root is not this root's file
		{"outdir/secret.go", false}, // nor is a file reached through a linked directory
		{"sub", false},              // a directory
		{"missing.go", false},
	}
	for _, c := range cases {
		if got := ix.FileAt(0, c.rel); got != c.want {
			t.Errorf("FileAt(%q) = %v, want %v", c.rel, got, c.want)
		}
	}
}
