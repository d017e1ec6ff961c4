package workspace

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"testing"
)

// TestDirsHolding: the directories named by their last components below
// a directory, those holding a file whose name is sought, at any depth,
// in the Index order, as many as asked for.
func TestDirsHolding(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{
		"common/src/main/ReflectUtils.java", "common/src/main/Other.java",
		"registry/nacos/src/main/Nacos.java", "registry/zk/src/main/Zk.java",
		"cluster/src/test/unit/RouterTest.java", "docs/src.md", "lib/xsrc/Odd.java",
	} {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ix := Build([]string{root}, Options{})
	glob := func(pattern string) func(string) bool {
		return func(name string) bool { ok, _ := path.Match(pattern, name); return ok }
	}
	for _, c := range []struct {
		name, under, tail, seek string
		most                    int
		want                    []string
	}{
		{"the one holding the name", "", "src", "ReflectUtils.java", 2, []string{"common/src"}},
		{"several hold it", "", "src", "*.java", 2, []string{"cluster/src", "common/src"}},
		{"as many as asked", "", "src", "*.java", 1, []string{"cluster/src"}},
		{"every one", "", "src", "*.java", 9, []string{"cluster/src", "common/src", "registry/nacos/src", "registry/zk/src"}},
		{"below a directory", "registry", "src", "*.java", 9, []string{"registry/nacos/src", "registry/zk/src"}},
		{"two components", "", "src/test", "*.java", 9, []string{"cluster/src/test"}},
		{"none holds it", "", "src", "Missing.java", 9, nil},
		{"a component's end is not its name", "", "src", "Odd.java", 9, nil},
		{"nothing named", "", "", "*.java", 9, nil},
	} {
		got := ix.DirsHolding(0, c.under, c.tail, glob(c.seek), c.most)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %q", c.name, got)
		}
	}
	for _, c := range []struct {
		under, tail string
		want        []DirCount
	}{
		{"", "src", []DirCount{{"cluster/src", 1}, {"common/src", 2}, {"registry/nacos/src", 1}, {"registry/zk/src", 1}}},
		{"registry", "src", []DirCount{{"registry/nacos/src", 1}, {"registry/zk/src", 1}}},
		{"", "src/main", []DirCount{{"common/src/main", 2}, {"registry/nacos/src/main", 1}, {"registry/zk/src/main", 1}}},
		{"", "nothing", nil},
	} {
		if got := ix.DirsNamed(0, c.under, c.tail); !slices.Equal(got, c.want) {
			t.Errorf("DirsNamed(%q, %q) = %v, want %v", c.under, c.tail, got, c.want)
		}
	}
	// An index a change made (a delta over its base) counts alike.
	if err := os.WriteFile(filepath.Join(root, "common/src/main/New.java"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	next, _ := Update(ix, Options{}, []string{filepath.Join(root, "common/src/main/New.java")})
	if got := next.DirsNamed(0, "", "src"); len(got) != 4 || got[1] != (DirCount{"common/src", 3}) {
		t.Errorf("after a change: %v", got)
	}
}
