package service

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"wayfind/rank"
	"wayfind/wire"
	"wayfind/workspace"
)

// TestSoughtDir: a search of a directory that is not there names the one
// directory below its nearest ancestor, named by the rest of its
// components, that holds a file named as sought; nothing when several or
// none do, when the seek names nothing in particular, when the directory
// is there, or when the one found leaves the roots by its real path.
func TestSoughtDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dubbo")
	outside := t.TempDir()
	roots := writeTree(t, dir,
		"common/src/main/ReflectUtils.java", "common/src/main/Other.java",
		"registry/nacos/src/main/Nacos.java", "registry/zk/src/main/Zk.java",
		"cluster/src/test/RouterTest.java", "README.md", "linked/src/Away.java")
	ix := workspace.Build(roots, workspace.Options{})
	// Since the walk, linked/src became a link out of the root.
	os.WriteFile(filepath.Join(outside, "Away.java"), []byte("x\n"), 0o644)
	os.RemoveAll(filepath.Join(dir, "linked", "src"))
	if err := os.Symlink(outside, filepath.Join(dir, "linked", "src")); err != nil {
		t.Fatal(err)
	}
	svc := New(&fakeWorkspace{eng: rank.New(ix)})
	root := roots[0]
	for _, c := range []struct {
		name, dir, seek string
		fold            bool
		want            string
	}{
		{"the one holding it", root + "/src", "ReflectUtils.java", false, "common/src"},
		{"relative to the root", "src", "ReflectUtils.java", false, "common/src"},
		{"a glob", root + "/src", "Reflect*.java", false, "common/src"},
		{"-iname", root + "/src", "reflectutils.JAVA", true, "common/src"},
		{"-name is exact", root + "/src", "reflectutils.JAVA", false, ""},
		{"below the nearest ancestor", root + "/registry/src", "Nacos.java", false, "registry/nacos/src"},
		{"two components", root + "/src/test", "*Test.java", false, "cluster/src/test"},
		{"several hold it", root + "/src", "*.java", false, ""},
		{"none holds it", root + "/src", "Missing.java", false, ""},
		{"only wildcards", root + "/test", "*", false, ""},
		{"a path, not a name", root + "/src", "main/ReflectUtils.java", false, ""},
		{"the directory is there", root + "/common/src", "ReflectUtils.java", false, ""},
		{"outside the roots by its real path", root + "/src", "Away.java", false, ""},
		{"outside the roots as written", filepath.Dir(root) + "/src", "ReflectUtils.java", false, ""},
	} {
		m, err := svc.SoughtDir(context.Background(), c.dir, c.seek, c.fold)
		if got := readingTo(t, c.name, m, err); got != c.want {
			t.Errorf("%s: SoughtDir(%s, %s) = %q; want %q", c.name, c.dir, c.seek, got, c.want)
		}
	}
	for _, c := range []struct {
		name, dir string
		most      int
		want      []string
	}{
		// common/src holds two files, the others one: first; then the
		// Index order. linked/src leaves the roots by its real path.
		{"the most files first", root + "/src", 9, []string{"common/src", "cluster/src", "registry/nacos/src", "registry/zk/src"}},
		{"as many as asked", "src", 2, []string{"common/src", "cluster/src"}},
		{"below the nearest ancestor", root + "/registry/src", 9, []string{"registry/nacos/src", "registry/zk/src"}},
		{"the directory is there", root + "/common/src", 9, nil},
		{"none named so", root + "/lib", 9, nil},
	} {
		named, err := svc.NamedDirs(context.Background(), c.dir, c.most)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range named {
			got = append(got, d.Path)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: NamedDirs(%s) = %q; want %q", c.name, c.dir, got, c.want)
		}
	}
}

// readingTo is where a directory's reading (no history followed) goes,
// "" for none.
func readingTo(t *testing.T, name string, m *wire.DirMove, err error) string {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if m == nil {
		return ""
	}
	if m.Followed != 0 || m.Commit != nil {
		t.Errorf("%s: %+v; want no history", name, m)
	}
	return m.To
}
