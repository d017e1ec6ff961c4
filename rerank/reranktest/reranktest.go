// Package reranktest finds ONNX Runtime for the tests that need it.
package reranktest

import (
	"os"
	"path/filepath"
	"testing"
)

// Lib returns the library `make ort` put in third_party/onnxruntime/ of
// the repository the test runs in. Without it the test cannot run: it
// fails under CI=true (make test fetches the library first) and is
// skipped, saying why, elsewhere.
func Lib(t testing.TB) string {
	t.Helper()
	dir, _ := os.Getwd()
	for {
		lib := filepath.Join(dir, "third_party", "onnxruntime", "libonnxruntime.so.1")
		if _, err := os.Stat(lib); err == nil {
			return lib
		}
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break // the repository's root, without the library
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("ONNX Runtime missing: run `make ort`")
	}
	t.Skip("ONNX Runtime missing: run `make ort` to run this test")
	return ""
}
