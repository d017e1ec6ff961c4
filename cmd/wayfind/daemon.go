package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"wayfind/daemon"
	"wayfind/service"
	"wayfind/session"
	"wayfind/wire"
	"wayfind/workspace"
)

// runDaemon is `wayfind daemon --root DIR`: the roots kept open for the
// one-shot processes that ask about them (package daemon), until nobody
// has asked for daemonIdle. The hook starts it when the roots it opened
// itself are a large tree (daemonDue, startDaemon); a second daemon of
// the same roots leaves at once. A tree past the kernel's watch limit is
// watched in part, the rest polled, and each answer waits on a stat of
// the directories no watch holds (daemonWorkspace.Fresh).
func runDaemon(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	clean, ok := backgroundRoots("daemon", args, stderr, true)
	if !ok {
		return exitInput
	}
	cache := workspace.CacheDirOf("", nil)
	sock, ok := daemon.SocketPath(cache, clean)
	if !ok {
		fmt.Fprintf(stderr, "wayfind daemon: no place for a socket (cache directory %q)\n", cache)
		return exitInput
	}
	log := &cacheLog{dir: cache, name: "daemon.log"}
	defer log.Close()
	say := lineSayer(stdout, log)
	unlock, ok := workspace.TryLockFile(filepath.Dir(sock), daemonLock)
	if !ok {
		say("%s: a daemon is running", clean[0])
		return exitFound
	}
	defer unlock()
	build, err := daemon.Build()
	if err != nil {
		say("%s: no daemon: %v", clean[0], err)
		return exitFound
	}
	ln, err := daemon.Listen(sock)
	if err != nil {
		say("%s: no daemon: %v", clean[0], err)
		return exitFound
	}
	serverProcs()
	sess := session.New(session.Options{Watch: true, WatchInPart: true, NoSymbols: true, NoContent: true, Logf: log.printf})
	defer sess.Close()
	sess.SetRoots(clean)
	say("%s: answering on %s", clean[0], sock)
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	listening, _ := os.Stat(sock)
	outdated := func() bool { b, err := daemon.Build(); return err != nil || b != build }
	go func() {
		for ctx.Err() == nil {
			// Nobody can reach a daemon whose socket is gone (its cache
			// removed, or pruned); and one whose binary is gone or
			// replaced (an uninstall, an upgrade) answers for no build
			// that asks.
			if st, err := os.Stat(sock); err != nil || listening == nil || !os.SameFile(st, listening) {
				log.printf("%s: leaving: its socket is gone", clean[0])
				stop()
				return
			}
			if outdated() {
				log.printf("%s: leaving: its binary is gone or replaced", clean[0])
				stop()
				return
			}
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
		}
	}()
	err = daemon.Serve(ctx, ln, daemonWorkspace{sess: sess, Service: service.New(sess)}, daemon.Options{
		Roots: clean, Build: build, Idle: daemonIdle, Logf: log.printf,
		Outdated: outdated,
	})
	if err != nil {
		log.printf("%s: %v", clean[0], err)
	}
	return exitFound
}

// daemonLock is the daemon's lock, beside its socket.
const daemonLock = "daemon.lock"

// daemonIdle: a daemon leaves once nobody has asked for this long — an
// agent's pause between calls (the model thinking, a person reading)
// is minutes, and past it the memory a large tree's session holds is
// given back; the next hook opens the roots itself and starts it again.
const daemonIdle = 15 * time.Minute

// daemonDirs: a hook that opened a tree of this many directories itself
// starts a daemon for the next calls. Its own look at the tree is a stat
// of every directory (workspace.DirTimes), and from this many that alone
// passes a tenth of a second — what an agent's call may wait on its hook
// unnoticed ("Scale" in docs/BENCHMARKS.md has the cost of a stat); under
// it, a daemon's memory would buy nothing. A count, not the open's time:
// the same tree gets the same decision on a loaded machine.
const daemonDirs = 50_000

// daemonWorkspace is the daemon's request layer over its session.
type daemonWorkspace struct {
	sess *session.Session
	*service.Service
}

func (w daemonWorkspace) Fresh(ctx context.Context) error {
	st := w.sess.Status()
	switch {
	case !st.Ready:
		return errors.New("the daemon is opening the roots")
	case !st.Watching && !st.Polling:
		return errors.New("the daemon is setting up its watcher")
	}
	ctx, cancel := context.WithTimeout(ctx, daemon.FreshWait)
	defer cancel()
	return unavailable(w.sess.Fresh(ctx))
}

// Resolve, MovedDir, SoughtDir and NamedDirs are the request layer's, the session's own
// failures (closing, not ready) the daemon's: the asker answers itself.
func (w daemonWorkspace) Resolve(ctx context.Context, p service.ResolveParams) (wire.Resolve, int, error) {
	res, code, err := w.Service.Resolve(ctx, p)
	return res, code, unavailable(err)
}

func (w daemonWorkspace) MovedDir(ctx context.Context, dir string) (*wire.DirMove, error) {
	mv, err := w.Service.MovedDir(ctx, dir)
	return mv, unavailable(err)
}

func (w daemonWorkspace) SoughtDir(ctx context.Context, dir, seek string, fold bool) (*wire.DirMove, error) {
	mv, err := w.Service.SoughtDir(ctx, dir, seek, fold)
	return mv, unavailable(err)
}

func (w daemonWorkspace) NamedDirs(ctx context.Context, dir string, most int) ([]wire.NamedDir, error) {
	named, err := w.Service.NamedDirs(ctx, dir, most)
	return named, unavailable(err)
}

// unavailable is err, as the daemon's failure (daemon.ErrUnavailable)
// when it is the session's own rather than the question's.
func unavailable(err error) error {
	if errors.Is(err, session.ErrClosed) || errors.Is(err, session.ErrNotReady) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return fmt.Errorf("%w: %v", daemon.ErrUnavailable, err)
	}
	return err
}

// Note: an answer made before the repository's history was read says so.
func (w daemonWorkspace) Note() string {
	if st := w.sess.Status(); st.VCS != nil && !st.VCS.Ready {
		return pendingNote(nil)
	}
	return ""
}

// startDaemon starts `wayfind daemon` for roots in the background
// (startDetached).
func startDaemon(roots []string) error {
	args := []string{"daemon"}
	for _, r := range roots {
		args = append(args, "--root", r)
	}
	return startDetached(args...)
}

// daemonDue reports whether a hook that opened its roots itself — dirs
// directories, under a watch limit of limit (workspace.WatchLimit) —
// starts a daemon for the next calls: the tree is large (daemonDirs);
// the limit is known (a system whose watcher needs a descriptor a file
// is not one to watch a large tree with); and no daemon was listening
// (one that was is opening, or not fresh yet: another would leave at
// once). A tree past the limit is watched in part (workspace.Watcher),
// and the daemon stats only the rest for an answer, where the hook
// would stat every directory and load the index besides.
func daemonDue(dirs, limit int, dialed bool) bool {
	return dirs >= daemonDirs && limit > 0 && !dialed
}
