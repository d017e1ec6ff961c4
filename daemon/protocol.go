// Package daemon keeps one workspace open for the one-shot processes
// that ask about it — an agent's hook above all, which is started for
// every tool call. A one-shot process opens its roots from the saved
// base and checks it against the tree by a stat of every directory; on
// a tree of a quarter of a million directories that check alone is most
// of a second, where a process that keeps the workspace open and a
// watcher on it answers in milliseconds, as fresh. The daemon is that
// process: a session (package session) over the roots, asked through
// the request layer over a Unix socket in the roots' cache directory.
// As gopls' remote mode does for editors, one daemon serves every
// process that asks; it goes when nobody has asked for a while.
//
// A daemon answers only what it can answer as fresh as the asker's own
// check would: when its watcher does not hold every directory of the
// roots (the kernel's watch limit ran out, and it polls), or it is
// still opening them, it says so (Reply.Unavailable) and the asker
// answers itself.
package daemon

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"wayfind/service"
	"wayfind/wire"
	"wayfind/workspace"
)

// Request is one question, one JSON line on the socket.
type Request struct {
	// Roots are the asker's roots; a daemon of other roots does not
	// answer.
	Roots []string
	// Build is the asking binary's identity (Build): a daemon of
	// another build does not answer, its answers being another
	// version's.
	Build  string
	Method string // MethodResolve, MethodMovedDir, MethodSoughtDir or MethodNamedDirs
	// Resolve is MethodResolve's question, Dir MethodMovedDir's and,
	// with Seek and Fold, MethodSoughtDir's, with Most MethodNamedDirs'.
	Resolve *service.ResolveParams `json:",omitempty"`
	Dir     string                 `json:",omitempty"`
	Seek    string                 `json:",omitempty"`
	Fold    bool                   `json:",omitempty"`
	Most    int                    `json:",omitempty"`
}

// Request methods: the request layer's calls of the same names.
const (
	MethodResolve   = "resolve"
	MethodMovedDir  = "movedDir"
	MethodSoughtDir = "soughtDir"
	MethodNamedDirs = "namedDirs"
)

// Reply is the answer to one Request, one JSON line.
type Reply struct {
	// Unavailable says why the daemon does not answer (the asker
	// answers itself); "" when it did.
	Unavailable string `json:",omitempty"`
	// Error is the request layer's error, as a message.
	Error   string          `json:",omitempty"`
	Resolve *wire.Resolve   `json:",omitempty"`
	Code    int             `json:",omitempty"`
	DirMove *wire.DirMove   `json:",omitempty"`
	Named   []wire.NamedDir `json:",omitempty"`
	// Note is what the asker should know of how the answer was made
	// (the history still being read), "" mostly.
	Note string `json:",omitempty"`
}

// SocketPath is where the daemon of roots listens: in the first root's
// cache directory under cacheDir, which only its owner can enter. ok is
// false when there is no cache directory, or the path is too long for a
// Unix socket's address.
func SocketPath(cacheDir string, roots []string) (string, bool) {
	if workspace.CachesOff(cacheDir) || len(roots) == 0 {
		return "", false
	}
	p := filepath.Join(workspace.RootCacheDir(cacheDir, roots[0]), socketName)
	return p, len(p) < maxSocketPath
}

const socketName = "daemon.sock"

// maxSocketPath: a Unix socket's address holds a path shorter than this
// (sockaddr_un's sun_path is 108 bytes on Linux, 104 on the BSDs and
// macOS; the smaller, less the terminating NUL).
const maxSocketPath = 104

// Build is the running binary's identity: its path, size and time. A
// binary replaced (an upgrade, a rebuild) is another build, and a
// daemon of the old one neither answers for it nor stays.
func Build() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	return BuildOf(exe)
}

// BuildOf is the identity of the binary at exe (Build).
func BuildOf(exe string) (string, error) {
	st, err := os.Stat(exe)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s %d %d", exe, st.Size(), st.ModTime().UnixNano()), nil
}

// FreshWait bounds how long a daemon waits to be fresh for an answer
// (its first index, the changes its watcher saw applied) before it lets
// the asker answer itself: a hook asking must have the time left to.
const FreshWait = 2 * time.Second

// ErrUnavailable is a daemon's "ask elsewhere" (Reply.Unavailable), and
// every failure to reach one: the asker answers itself.
var ErrUnavailable = errors.New("no daemon answers")
