package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCacheDirOf: what a cache-directory option means — the directory
// named (made when it is not there), the environment's when none is
// named, and none ("-") when asked so or when the directory cannot be
// made or written in, the latter said.
func TestCacheDirOf(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a-file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("WAYFIND_CACHE_DIR", filepath.Join(dir, "env", "cache"))
	for _, c := range []struct {
		name, opt, want string
		said            string // in the log; "" for nothing said
	}{
		{"none asked", "-", "-", ""},
		{"a directory named, made", filepath.Join(dir, "named", "cache"), filepath.Join(dir, "named", "cache"), ""},
		{"none named: the environment's, made", "", filepath.Join(dir, "env", "cache"), ""},
		{"a directory that cannot be made: none, said", filepath.Join(file, "cache"), "-", "cache directory not made"},
		// /proc: a directory there that no one, root included, writes in.
		{"a directory there but not written in: none, said", "/proc", "-", "cache directory /proc not written in"},
	} {
		var said []string
		got := CacheDirOf(c.opt, func(f string, a ...any) { said = append(said, fmt.Sprintf(f, a...)) })
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
		if log := strings.Join(said, "\n"); c.said == "" && log != "" || !strings.Contains(log, c.said) {
			t.Errorf("%s: said %q, want %q", c.name, log, c.said)
		}
		if c.want != "-" {
			if st, err := os.Stat(c.want); err != nil || !st.IsDir() {
				t.Errorf("%s: %s not made: %v", c.name, c.want, err)
			}
		}
	}
}
