package hook

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// fileTrail is a session's trail kept in a file of its own, a path a
// line, appended as the calls come: one write on the path that exists
// (the hook's fast path), read only when a path names nothing.
type fileTrail struct{ path string }

// trailTail: how much of a trail's end is read (the recent files are
// the ones that count); trailAge: trails of sessions older than this are
// removed when a new session's trail begins.
const (
	trailTail = 64 << 10
	trailAge  = 7 * 24 * time.Hour
)

// sessionID is what a harness's session id may be to name a file.
var sessionID = regexp.MustCompile(`^[A-Za-z0-9_-]{1,128}$`)

// OpenTrail is the trail of session id under dir (nil when either is
// unusable: no trail, nothing fails).
func OpenTrail(dir, id string) Trail {
	if dir == "" || !sessionID.MatchString(id) {
		return nil
	}
	return fileTrail{path: filepath.Join(dir, "trail-"+id)}
}

func (t fileTrail) Add(abs string) {
	if strings.ContainsAny(abs, "\n\x00") {
		return
	}
	if _, err := os.Stat(t.path); err != nil { // a session's first call
		os.MkdirAll(filepath.Dir(t.path), 0o700)
		pruneTrails(filepath.Dir(t.path))
	}
	f, err := os.OpenFile(t.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	f.WriteString(abs + "\n")
	f.Close()
}

func (t fileTrail) Files() []string {
	var out []string
	for _, l := range strings.Split(string(readTail(t.path, trailTail)), "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

// pruneTrails removes the trails of sessions long over.
func pruneTrails(dir string) {
	old, _ := filepath.Glob(filepath.Join(dir, "trail-*"))
	for _, p := range old {
		if st, err := os.Stat(p); err == nil && time.Since(st.ModTime()) > trailAge {
			os.Remove(p)
		}
	}
}
