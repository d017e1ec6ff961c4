//go:build unix

package daemon

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A socket in a directory others may enter is not trusted.
func TestSocketInAnOpenDirectoryIsNotTrusted(t *testing.T) {
	sock, _ := serve(t, &fakeWorkspace{}, Options{Roots: []string{"/r"}, Build: "b"})
	if err := os.Chmod(filepath.Dir(sock), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Dial(sock, []string{"/r"}, "b"); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("err = %v, want ErrUnavailable", err)
	}
}
