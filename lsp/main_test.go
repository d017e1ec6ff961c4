package lsp

import (
	"os"
	"testing"
)

// TestMain points WAYFIND_CACHE_DIR, where symbol caches live, at
// a directory of the test run's own (servers started as subprocesses
// inherit it).
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "wayfind-cache")
	if err != nil {
		panic(err)
	}
	os.Setenv("WAYFIND_CACHE_DIR", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
