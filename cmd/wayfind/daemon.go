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
// the same roots leaves at once. It leaves too when it cannot watch the
// roots after all (the kernel's watch limit), saying so in daemon.off
// beside its socket so that hooks do not start it again for a while
// (daemonOffFor).
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
	sess := session.New(session.Options{Watch: true, NoSymbols: true, NoContent: true, Logf: log.printf})
	defer sess.Close()
	sess.SetRoots(clean)
	say("%s: answering on %s", clean[0], sock)
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	listening, _ := os.Stat(sock)
	outdated := func() bool { b, err := daemon.Build(); return err != nil || b != build }
	go func() {
		for ctx.Err() == nil {
			// A daemon that polls answers nobody (daemonWorkspace.Fresh):
			// it leaves, and says why for the hooks.
			if sess.Status().Polling {
				why := "the roots cannot be watched (the kernel's watch limit: fs.inotify.max_user_watches)"
				_ = os.WriteFile(filepath.Join(filepath.Dir(sock), daemonOff), []byte(why+"\n"), 0o600)
				log.printf("%s: leaving: %s", clean[0], why)
				stop()
				return
			}
			// Nor can anybody reach a daemon whose socket is gone (its
			// cache removed, or pruned); and one whose binary is gone or
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

// The daemon's lock and its note that it cannot watch, beside its
// socket.
const (
	daemonLock = "daemon.lock"
	daemonOff  = "daemon.off"
)

// daemonIdle: a daemon leaves once nobody has asked for this long — an
// agent's pause between calls (the model thinking, a person reading)
// is minutes, and past it the memory a large tree's session holds is
// given back; the next hook opens the roots itself and starts it again.
const daemonIdle = 15 * time.Minute

// daemonOffFor: how long a daemon's "cannot watch" keeps hooks from
// starting another — the watch limit is the system's, raised by hand
// if ever: an hour of one-shot answers after it is raised.
const daemonOffFor = time.Hour

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
	case st.Polling:
		return errors.New("the daemon polls the roots: it may not have seen the latest changes")
	case !st.Ready:
		return errors.New("the daemon is opening the roots")
	case !st.Watching:
		return errors.New("the daemon is setting up its watcher")
	}
	ctx, cancel := context.WithTimeout(ctx, daemon.FreshWait)
	defer cancel()
	return unavailable(w.sess.CaughtUp(ctx))
}

// Resolve and MovedDir are the request layer's, the session's own
// failures (closing, not ready) the daemon's: the asker answers itself.
func (w daemonWorkspace) Resolve(ctx context.Context, p service.ResolveParams) (wire.Resolve, int, error) {
	res, code, err := w.Service.Resolve(ctx, p)
	return res, code, unavailable(err)
}

func (w daemonWorkspace) MovedDir(ctx context.Context, dir string) (*wire.DirMove, error) {
	mv, err := w.Service.MovedDir(ctx, dir)
	return mv, unavailable(err)
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
// starts a daemon (listening at sock) for the next calls: the tree is
// large (daemonDirs); the limit is known and the tree takes at most
// half of it (a daemon answers only while it watches every directory,
// and the user's editors and tools hold watches of their own: one that
// could not would walk the tree, then leave); no daemon was listening
// (one that was is opening, or not fresh yet: another would leave at
// once); and none said lately that it cannot watch the roots
// (daemonOffFor).
func daemonDue(dirs, limit int, dialed bool, sock string) bool {
	if dirs < daemonDirs || limit <= 0 || 2*dirs > limit || dialed {
		return false
	}
	st, err := os.Stat(filepath.Join(filepath.Dir(sock), daemonOff))
	return err != nil || time.Since(st.ModTime()) >= daemonOffFor
}
