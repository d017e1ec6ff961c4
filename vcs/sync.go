package vcs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gofrs/flock"

	"wayfind/workspace"
)

// One history cache for every process on a root — the servers, the CLI,
// the hook, the background reader: one reader at a time, under a lock
// file beside the cache (lockName, an flock the system drops with its
// holder, so a killed reader leaves no lock behind). A process that
// finds the lock held does not read the log beside its holder: it waits
// for it (Sync) and reads what it saved, or answers from what the cache
// holds now (Cached). The cache itself is written to a temporary file
// and renamed (Save): a killed writer leaves the last good copy.

const lockName = "vcs.lock"

// Sync is root's record brought up to date with its HEAD: prev (the
// caller's copy in memory, or nil to read the cache directory base —
// workspace.CacheDirOf; "-" keeps nothing on disk) updated by Build
// under the cache's lock, and written back when it changed. A reader
// already at work is waited for (as long as ctx allows) and what it
// saved read first. ErrNoRepository when root is in no git work tree.
func Sync(ctx context.Context, base, root string, prev *Record, logf func(string, ...any)) (*Record, error) {
	r, _, err := SyncRead(ctx, base, root, prev, logf)
	return r, err
}

// SyncRead is Sync, and whether this call read the log (false: the
// record was at HEAD already, or another process's read brought it
// there).
func SyncRead(ctx context.Context, base, root string, prev *Record, logf func(string, ...any)) (*Record, bool, error) {
	st, err := state(ctx, root, "HEAD")
	if err != nil {
		return nil, false, err
	}
	dir := cacheDir(base, st)
	if dir == "" {
		r, err := Build(ctx, root, prev)
		return r, err == nil && r != prev, err
	}
	if prev == nil {
		prev = loadLogged(dir, root, logf)
	}
	// A record follows one user's commits (Record.Author): another's
	// reads the log again.
	me := identity(ctx, root)
	if prev != nil && prev.Head == st.head && prev.Prefix == st.prefix && prev.Author == me {
		return prev, false, nil
	}
	unlock, err := workspace.LockFile(ctx, dir, lockName)
	if err != nil {
		return nil, false, err
	}
	defer unlock()
	if saved := loadLogged(dir, root, logf); saved != nil && (prev == nil || saved.Head != prev.Head) {
		prev = saved // what the reader before us saved (or left half-way)
	}
	if prev == nil || prev.Prefix != st.prefix || prev.Author != me || !ancestor(ctx, root, prev.Head, st.head) {
		// Rewritten history (an amend, a reset), another user, or none
		// yet: start from the last checkpoint that is still an ancestor
		// of HEAD, else from the start.
		prev = nil
		if cp := loadCheckpoint(dir, root, logf); cp != nil && cp.Prefix == st.prefix && cp.Author == me && ancestor(ctx, root, cp.Head, st.head) {
			prev = cp
		}
	}
	workspace.NoteRoot(base, st.shared)
	r, err := buildSaving(ctx, root, dir, st, prev, me, logf)
	if err != nil {
		return nil, false, err
	}
	return r, r != prev, nil
}

// The long read is resumable. A reader folds the log up to one
// first-parent commit after another (checkpointCommits apart, oldest
// first), saving the record after each: a reader killed half-way leaves
// the last one, which the next reader extends. The checkpoint nearest
// to HEAD but checkpointCommits back is kept apart as well (a second
// file): after an amend or a reset, the history read up to it is still
// HEAD's, and only what came after it is read again.
const (
	checkpointCommits = 5000
	checkpointName    = "vcs-checkpoint.gob"
)

// buildSaving brings prev (nil: none) to st's HEAD through the
// first-parent checkpoints between them, saving the record in dir after
// each, and the one checkpointCommits behind HEAD apart; the record
// follows user me's commits (identity, read once a sync).
func buildSaving(ctx context.Context, root, dir string, st repoState, prev *Record, me string, logf func(string, ...any)) (*Record, error) {
	span := st.head
	if prev != nil {
		span = prev.Head + ".." + st.head
	}
	out, err := git(ctx, root, "rev-list", "--first-parent", "--reverse", span).Output()
	if err != nil {
		return nil, err
	}
	line := strings.Fields(string(out))
	var stops []string
	for i := checkpointCommits; i < len(line); i += checkpointCommits {
		stops = append(stops, line[i-1])
	}
	if n := len(line) - checkpointCommits; n > 0 && (len(stops) == 0 || stops[len(stops)-1] != line[n-1]) {
		stops = append(stops, line[n-1]) // the one kept for a rewrite of what follows
	}
	r := prev
	for i, stop := range stops {
		next, err := buildAt(ctx, root, stop, r, me)
		if err != nil {
			return nil, err
		}
		r = next
		if err := Save(dir, r); err != nil {
			logf("history cache of %s not written: %v", root, err)
		}
		if i == len(stops)-1 {
			if err := saveAs(dir, checkpointName, r); err != nil {
				logf("history checkpoint of %s not written: %v", root, err)
			}
		}
	}
	next, err := buildAt(ctx, root, "HEAD", r, me)
	if err != nil {
		return nil, err
	}
	if next != r || r != prev {
		if err := Save(dir, next); err != nil {
			logf("history cache of %s not written: %v", root, err)
		}
	}
	return next, nil
}

func loadCheckpoint(dir, root string, logf func(string, ...any)) *Record {
	r, err := loadFrom(dir, checkpointName)
	if err != nil && !errors.Is(err, ErrNoCache) {
		logf("history checkpoint of %s unreadable: %v", root, err)
	}
	return r
}

// Cached is what the cache holds for root now, without reading the log:
// the saved record (nil: none), how many commits it is behind HEAD,
// counted up to limit (limit+1 meaning more; 0: at HEAD), and whether
// another process is reading the log now (holds the lock).
func Cached(ctx context.Context, base, root string, limit int, logf func(string, ...any)) (rec *Record, behind int, reading bool, err error) {
	st, err := state(ctx, root, "HEAD")
	if err != nil {
		return nil, 0, false, err
	}
	head := st.head
	if dir := cacheDir(base, st); dir != "" {
		if rec = loadLogged(dir, root, logf); rec != nil && rec.Prefix != st.prefix {
			rec = nil // another prefix's fold: not this root's
		}
		if rec != nil && rec.Head == head {
			if rec.Author != "" && rec.Author != identity(ctx, root) {
				// Saved for another user (a changed user.email): the
				// rest is this user's history too, the commits of their
				// own are not — until a Sync reads them.
				rec = rec.withoutAuthor()
			}
			return rec, 0, false, nil
		}
		reading = lockHeld(dir)
	}
	span := head
	if rec != nil && ancestor(ctx, root, rec.Head, head) {
		span = rec.Head + ".." + head
	}
	out, err := git(ctx, root, "rev-list", "--count", "--max-count="+strconv.Itoa(limit+1), span).Output()
	if err != nil {
		return rec, limit + 1, reading, nil
	}
	behind, _ = strconv.Atoi(strings.TrimSpace(string(out)))
	return rec, behind, reading, nil
}

// cacheDir is where the history of the repository at st lives under
// base: one directory for every work tree of it at that prefix (a new
// worktree finds the history its repository's other trees read), ""
// when caches are off.
func cacheDir(base string, st repoState) string {
	if workspace.CachesOff(base) {
		return ""
	}
	return workspace.RootCacheDir(base, st.shared)
}

func loadLogged(dir, root string, logf func(string, ...any)) *Record {
	r, err := Load(dir)
	if err != nil && !errors.Is(err, ErrNoCache) {
		logf("history cache of %s unreadable, rebuilding: %v", root, err)
	}
	return r
}

// TryLock takes the cache's lock of root at once, or reports that
// another process holds it (ok false).
func TryLock(base, root string) (unlock func(), ok bool) {
	st, err := state(context.Background(), root, "HEAD")
	if err != nil {
		return func() {}, true // no repository: nothing to read, nobody to wait for
	}
	dir := cacheDir(base, st)
	if dir == "" || os.MkdirAll(dir, 0o700) != nil {
		return func() {}, true
	}
	return workspace.TryLockFile(dir, lockName)
}

// lockHeld reports whether another process holds the cache's lock in dir.
func lockHeld(dir string) bool {
	l := flock.New(filepath.Join(dir, lockName))
	got, err := l.TryRLock()
	if err != nil || !got {
		return err == nil
	}
	l.Unlock()
	return false
}

// InRepository reports whether root lies in a git work tree, by the
// .git it or an ancestor holds (a directory, or a worktree's file):
// a stat or two, for a status that must answer at once.
func InRepository(root string) bool {
	for d := root; ; {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return false
		}
		d = parent
	}
}
