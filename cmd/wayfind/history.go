package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"wayfind/vcs"
	"wayfind/workspace"
)

// runHistory is `wayfind history [--root DIR]...`: the roots' repository
// histories read into the shared cache under its lock (vcs.Sync) — what a
// one-shot process that found the history not ready starts in the
// background (startHistoryRead). A root whose history another process is
// reading is left to it. One line a root in history.log in the cache
// directory, and on stdout.
func runHistory(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	clean, ok := backgroundRoots("history", args, stderr, false)
	if !ok {
		return exitInput
	}
	cache := workspace.CacheDirOf("", nil)
	if workspace.CachesOff(cache) {
		fmt.Fprintln(stderr, "wayfind history: caches are off (WAYFIND_CACHE_DIR=-, no user cache directory, or one that cannot be made or written in): there is nowhere to keep the history")
		return exitInput
	}
	log := &cacheLog{dir: cache, name: "history.log"}
	defer log.Close()
	say := lineSayer(stdout, log)
	for _, root := range clean {
		unlock, ok := vcs.TryLock(cache, root)
		if !ok {
			say("%s: another process is reading its history", root)
			continue
		}
		unlock() // Sync takes it again, waiting for any reader that came in between
		start := time.Now()
		rec, read, err := vcs.SyncRead(ctx, cache, root, nil, log.printf)
		switch {
		case errors.Is(err, vcs.ErrNoRepository):
			say("%s: not in a git repository", root)
		case err != nil:
			say("%s: history not read: %v", root, err)
		case !read:
			say("%s: history already in the cache, head %.12s", root, rec.Head)
		default:
			say("%s: history read: %d commits, %d renames, head %.12s (%.1f s)", root, rec.Commits, rec.Renames, rec.Head, time.Since(start).Seconds())
		}
	}
	return exitFound
}

// backgroundRoots are the roots a background command (`wayfind
// history`, `wayfind daemon`) was given with --root, cleaned; with none
// given, the project the current directory is in, unless they are
// required. ok is false after the command's help or the error is said
// on stderr.
func backgroundRoots(name string, args []string, stderr io.Writer, required bool) ([]string, bool) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {} // the help below says it all
	var roots listFlag
	fs.Var(&roots, "root", "")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 || required && len(roots) == 0 {
		fmt.Fprint(stderr, helpOf[name])
		return nil, false
	}
	if len(roots) == 0 {
		cwd, err := os.Getwd()
		if err != nil {
			fmt.Fprintf(stderr, "wayfind %s: %v\n", name, err)
			return nil, false
		}
		roots = listFlag{workspace.ProjectOf(cwd)}
	}
	clean, err := workspace.CleanRoots(roots)
	if err != nil {
		fmt.Fprintf(stderr, "wayfind %s: %v\n", name, err)
		return nil, false
	}
	return clean, true
}

// lineSayer says a background command's line on stdout and in its log.
func lineSayer(stdout io.Writer, log *cacheLog) func(format string, a ...any) {
	return func(format string, a ...any) {
		line := fmt.Sprintf(format, a...)
		fmt.Fprintln(stdout, line)
		log.printf("%s", line)
	}
}

// startHistoryRead starts `wayfind history` for root in the background
// (startDetached): its work is saved for the next call.
func startHistoryRead(root string) error { return startDetached("history", "--root", root) }

// startDetached starts this binary with args in the background, detached
// from this process (its own session, no terminal, no pipes): it
// outlives a hook the harness kills at its timeout, and the harness
// waits for no output of it.
func startDetached(args ...string) error {
	bin, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = filepath.Dir(bin)
	detach(cmd)
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}
