package rank

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// TestRoles runs testdata/rank/roles.txt through roleOf, and the
// predicates built on it.
func TestRoles(t *testing.T) {
	f, err := os.Open("../testdata/rank/roles.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		path, want, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("malformed line %q", line)
		}
		n++
		got := roleOf(path)
		if got.String() != want {
			t.Errorf("roleOf(%q) = %s, want %s", path, got, want)
		}
		if aux := isAuxiliary(path); aux != (want == "test" || want == "fixture" || want == "generated") {
			t.Errorf("isAuxiliary(%q) = %v", path, aux)
		}
		if test := isTestPath(path); test != (want == "test" || want == "fixture") {
			t.Errorf("isTestPath(%q) = %v", path, test)
		}
	}
	if n < 30 {
		t.Fatalf("only %d cases read", n)
	}
}
