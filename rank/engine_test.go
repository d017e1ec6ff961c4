package rank

import (
	"math/rand/v2"
	"path"
	"slices"
	"strings"
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
	var ixFiles []workspace.File
	for _, f := range files {
		ixFiles = append(ixFiles, workspace.File{Path: f})
	}
	ix := workspace.NewIndex([]string{"/ws"}, ixFiles)
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
	for i, f := range ix.Files() {
		if id, ok := e.fileID(f.Root, f.Path); !ok || int(id) != i {
			t.Errorf("fileID(%q) = %d, %v; want %d", f.Path, id, ok, i)
		}
	}
	if _, ok := e.fileID(0, "nothing.go"); ok {
		t.Error("fileID found a file that is not there")
	}
}

// TestNameFromTheRecord: a file's name and extension read from its
// record (baseName, writtenExt) are those of its path, whatever the
// name: upper case, several dots, none, a leading dot, not ASCII,
// punctuation; from an engine updated for files added as from one built
// (a segment keeps the records as they are: segment_test.go).
func TestNameFromTheRecord(t *testing.T) {
	files := []string{"README.md", "b/ReadMe.MD", "Makefile", ".gitignore", "c/.env.local", "types.d.ts",
		"x/archive.tar.gz", "Ärger.Gö", "y/name.with-dash", "z/trailing.", "deep/er/still/main.go", "a.b_c"}
	// Among more files: Updated builds on an engine for a few changes.
	tree := genTree(rand.New(rand.NewPCG(1, 2)), 200)
	for _, f := range files {
		tree = append(tree, workspace.File{Path: f})
	}
	ix := workspace.NewIndex([]string{"/ws"}, tree)
	built := New(ix)
	more := changedIndex(ix, []workspace.File{{Path: "new/Added.JS"}, {Path: "new/plain.rs"}}, []workspace.File{{Path: "Makefile"}})
	updated := built.Updated(more)
	if updated == nil {
		t.Fatal("not updated")
	}
	for what, e := range map[string]*Engine{"built": built, "updated": updated} {
		for _, f := range e.ix.Files() {
			id, _ := e.fileID(f.Root, f.Path)
			base := path.Base(f.Path)
			_, ext := splitExt(base)
			if got := e.baseName(id); got != base {
				t.Errorf("%s: baseName(%q) = %q", what, f.Path, got)
			}
			if got := e.writtenExt(id); got != ext {
				t.Errorf("%s: writtenExt(%q) = %q, want %q", what, f.Path, got, ext)
			}
		}
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
	var ixFiles []workspace.File
	for _, f := range []workspace.File{{Root: 0, Path: "src/net/http/server.go"}, {Root: 1, Path: "lib/util-x/y.go"}, {Root: 1, Path: "top.go"}} {
		ixFiles = append(ixFiles, f)
	}
	ix := workspace.NewIndex([]string{"/a", "/b"}, ixFiles)
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

// pathOf fills the caller's buffer when it is long enough and a new array
// when not (a directory deeper than pathBuf holds), the same path either
// way; and with a buffer, scoring a candidate allocates nothing for it.
func TestPathOfBuffer(t *testing.T) {
	deep := strings.Repeat("Dir/", len(pathBuf{})) + "x.go"
	var ixFiles []workspace.File
	for _, f := range []string{"a/b_c/x.go", deep, "top.go"} {
		ixFiles = append(ixFiles, workspace.File{Path: f})
	}
	ix := workspace.NewIndex([]string{"/ws"}, ixFiles)
	e := New(ix)
	for id := range ix.Files() {
		d := e.files[id].dir
		var buf pathBuf
		got, alone := e.pathOf(d, buf[:]), e.pathOf(d, nil)
		dir := ix.Files()[id].Path[:max(strings.LastIndexByte(ix.Files()[id].Path, '/'), 0)]
		if want := strings.Split(dir, "/"); dir == "" && len(got.comps) != 0 || dir != "" && !slices.Equal(got.comps, want) {
			t.Errorf("%s: comps %q, want %q", ix.Files()[id].Path, got.comps, want)
		}
		if !slices.Equal(got.comps, alone.comps) || !slices.Equal(got.sq, alone.sq) {
			t.Errorf("%s: %q %q with a buffer, %q %q without", ix.Files()[id].Path, got.comps, got.sq, alone.comps, alone.sq)
		}
		if fits := 2*len(got.comps) <= len(buf); fits != (len(got.comps) > 0 && &got.comps[0] == &buf[0] || len(got.comps) == 0) {
			t.Errorf("%s: %d directories, in the buffer %v", ix.Files()[id].Path, len(got.comps), !fits)
		}
	}
	q, err := ParseFind("b/x")
	if err != nil || len(q.Dirs) == 0 {
		t.Fatalf("ParseFind: %+v, %v", q, err)
	}
	id := int32(ix.Lookup(0, "a/b_c/x.go"))
	if n := testing.AllocsPerRun(100, func() { e.scoreFile(&q, id, nameMatch{score: 1}, false, nil, &extMemo{}) }); n != 0 {
		t.Errorf("scoreFile allocates %.0f times", n)
	}
}
