package rank

import (
	"slices"
	"testing"
	"unsafe"

	"wayfind/workspace"
)

// named finds a lower-cased base name through its stem, without a map of
// every name; capitals squash keeps (non-ASCII) go through otherCase, and
// no file is listed twice.
func TestNamed(t *testing.T) {
	files := []string{"README.md", "a/readme.md", "b/ReadMe.MD", "readme.txt", "Ärger.go", "ärger.go",
		"x/foo.Ä", "x/Foo.ä", ".gitignore", "c/.GitIgnore", "ÉCOLE.rs"}
	ix := &workspace.Index{Roots: []string{"/ws"}}
	for _, f := range files {
		ix.Files = append(ix.Files, workspace.File{Path: f})
	}
	workspace.SortFiles(ix.Files)
	e := New(ix)
	for _, c := range []struct {
		lb   string
		want []string
	}{
		{"readme.md", []string{"README.md", "a/readme.md", "b/ReadMe.MD"}},
		{"readme.txt", []string{"readme.txt"}},
		{"ärger.go", []string{"Ärger.go", "ärger.go"}},
		{"foo.ä", []string{"x/Foo.ä", "x/foo.Ä"}},
		{".gitignore", []string{".gitignore", "c/.GitIgnore"}},
		{"école.rs", []string{"ÉCOLE.rs"}},
		{"readme", nil},
		{"nothing.go", nil},
	} {
		var got []string
		for _, id := range e.named(c.lb) {
			got = append(got, e.filePath(id))
		}
		slices.Sort(got)
		want := slices.Sorted(slices.Values(c.want))
		if !slices.Equal(got, want) {
			t.Errorf("named(%q) = %q, want %q", c.lb, got, want)
		}
	}
	for i, f := range ix.Files {
		if id, ok := e.fileID(f.Root, f.Path); !ok || int(id) != i {
			t.Errorf("fileID(%q) = %d, %v; want %d", f.Path, id, ok, i)
		}
	}
	if _, ok := e.fileID(0, "nothing.go"); ok {
		t.Error("fileID found a file that is not there")
	}
}

// TestFileInfoSize: a file's record in the engine is 40 bytes (its path
// is the index's, filePath) — a million of them are 40 MB, so growing it
// by a field is a decision, not an accident.
func TestFileInfoSize(t *testing.T) {
	if n := unsafe.Sizeof(fileInfo{}); n > 40 {
		t.Errorf("fileInfo is %d bytes, want at most 40", n)
	}
}

// TestDirExists: a directory exists when some root holds a file below it
// (not merely a name that starts like it).
func TestDirExists(t *testing.T) {
	ix := &workspace.Index{Roots: []string{"/a", "/b"}}
	for _, f := range []workspace.File{{Root: 0, Path: "src/net/http/server.go"}, {Root: 1, Path: "lib/util-x/y.go"}, {Root: 1, Path: "top.go"}} {
		ix.Files = append(ix.Files, f)
	}
	workspace.SortFiles(ix.Files)
	e := New(ix)
	for _, c := range []struct {
		dir  string
		want bool
	}{
		{"", true}, {"src", true}, {"src/net", true}, {"src/net/http", true}, {"lib/util-x", true},
		{"src/ne", false}, {"lib/util", false}, {"src/net/http/server.go", false}, {"top.go", false}, {"nope", false},
	} {
		if got := e.dirExists(splitDirs(c.dir)); got != c.want {
			t.Errorf("dirExists(%q) = %v, want %v", c.dir, got, c.want)
		}
	}
}
