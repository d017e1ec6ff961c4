package lsp

import (
	"os"
	"testing"
	"time"

	"wayfind/segment"
)

// TestMain points WAYFIND_CACHE_DIR, where symbol caches live, at
// a directory of the test run's own (servers started as subprocesses
// inherit it), and has every mapped file the servers let go fault when
// read (segment.Poison): a string read from a base after nothing held
// it ends the tests.
func TestMain(m *testing.M) {
	segment.Poison(20 * time.Millisecond)
	dir, err := os.MkdirTemp("", "wayfind-cache")
	if err != nil {
		panic(err)
	}
	os.Setenv("WAYFIND_CACHE_DIR", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
