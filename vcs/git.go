package vcs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ErrNoRepository: the root is in no git work tree with a commit (or git
// is not installed). Everything else works without a record.
var ErrNoRepository = errors.New("no git repository")

// NotOwnedError: git refuses the repository as another user's (its
// safe.directory check: a repository someone else owns could run their
// configuration's commands as you; a container's user and a mounted
// checkout's owner differ). It is ErrNoRepository as well — nothing is
// read, and the refusal is not ours to lift — and a front end says why,
// with Remedy. Dir is the directory git names when it is the root or
// inside it, "" when it lies above the root (nothing outside the roots
// is named).
type NotOwnedError struct{ Dir string }

func (e *NotOwnedError) Error() string {
	if e.Dir == "" {
		return "git refuses to read the repository this root is in: it is owned by another user"
	}
	return "git refuses to read the repository at " + e.Dir + ": it is owned by another user"
}

func (e *NotOwnedError) Is(target error) bool { return target == ErrNoRepository }

// Remedy is how the user lets git read it.
func (e *NotOwnedError) Remedy() string {
	if e.Dir == "" {
		return "git config --global --add safe.directory with the repository's top directory allows it"
	}
	return "git config --global --add safe.directory " + e.Dir + " allows it"
}

// notOwned is git's refusal in its standard error, as a NotOwnedError
// (git says: detected dubious ownership in repository at 'DIR'); nil
// for any other failure.
func notOwned(stderr []byte, root string) error {
	_, said, ok := bytes.Cut(stderr, []byte("dubious ownership in repository at '"))
	if !ok {
		return nil
	}
	dir, _, _ := bytes.Cut(said, []byte("'"))
	if rel, err := filepath.Rel(root, string(dir)); err != nil || !filepath.IsLocal(rel) && rel != "." {
		return &NotOwnedError{} // above the root, or not said
	}
	return &NotOwnedError{Dir: string(dir)}
}

// git runs the git CLI in dir — the reference implementation of rename
// detection, present wherever a .git is. Configuration that would change
// what log prints is pinned; no lock is taken (an editor's git must never
// wait on us); and no transport is allowed, so that a partial clone never
// fetches a missing object from its remote on our behalf (a blob it lacks
// is then an unreadable one, GIT_NO_LAZY_FETCH says the same to a git
// that knows it).
func git(ctx context.Context, dir string, args ...string) *exec.Cmd {
	base := []string{"-C", dir, "-c", "log.showSignature=false", "-c", "core.quotePath=false",
		"-c", "diff.renames=true", "-c", "log.follow=false", "-c", "protocol.allow=never"}
	cmd := exec.CommandContext(ctx, "git", append(base, args...)...)
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C", "GIT_TERMINAL_PROMPT=0", "GIT_NO_LAZY_FETCH=1")
	return cmd
}

// repoState is what rev-parse says of a root.
type repoState struct {
	head    string
	prefix  string
	shallow bool
	// shared is the path whose cache directory holds the history of
	// every work tree of the repository at this prefix: the main work
	// tree's (the common git directory's parent) joined with the prefix;
	// the root itself for a bare or an unusual layout.
	shared string
}

func state(ctx context.Context, root, rev string) (repoState, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return repoState{}, ErrNoRepository
	}
	out, err := git(ctx, root, "rev-parse", "--path-format=absolute", "--git-common-dir", "--show-prefix", "--is-shallow-repository", "--verify", rev+"^{commit}").Output()
	if err != nil {
		if ctx.Err() != nil {
			return repoState{}, ctx.Err()
		}
		if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
			if no := notOwned(ee.Stderr, root); no != nil {
				return repoState{}, no
			}
		}
		return repoState{}, ErrNoRepository
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != 4 {
		return repoState{}, fmt.Errorf("git rev-parse: unexpected answer %q", out)
	}
	st := repoState{prefix: lines[1], shallow: lines[2] == "true", head: lines[3], shared: root}
	if common := filepath.Clean(lines[0]); filepath.Base(common) == ".git" {
		top := filepath.Dir(common)
		if real, err := filepath.EvalSymlinks(top); err == nil {
			top = real
		}
		st.shared = filepath.Join(top, filepath.FromSlash(strings.TrimSuffix(lines[1], "/")))
	}
	return st, nil
}

// Head is the root's HEAD commit, or ErrNoRepository.
func Head(ctx context.Context, root string) (string, error) {
	st, err := state(ctx, root, "HEAD")
	return st.head, err
}

// Build brings prev (nil: none) up to the root's HEAD: unchanged when HEAD
// is the commit prev read last; the new commits folded in when prev's head
// is an ancestor of HEAD (a pull costs what the pull brought); from the
// start when history was rewritten (a rebase, another clone) or prev is
// nil. prev itself is never changed.
func Build(ctx context.Context, root string, prev *Record) (*Record, error) {
	return BuildAt(ctx, root, "HEAD", prev)
}

// BuildAt is Build as of revision rev (a benchmark's older checkout).
func BuildAt(ctx context.Context, root, rev string, prev *Record) (*Record, error) {
	return buildAt(ctx, root, rev, prev, identity(ctx, root))
}

// buildAt is BuildAt following the commits of user me (identity).
func buildAt(ctx context.Context, root, rev string, prev *Record, me string) (*Record, error) {
	st, err := state(ctx, root, rev)
	if err != nil {
		return nil, err
	}
	// The user's commits are read as the log is: another user (a changed
	// user.email) needs the whole log read again.
	if prev != nil && prev.Author != me {
		prev = nil
	}
	if prev != nil && prev.Head == st.head && prev.Prefix == st.prefix {
		return prev, nil
	}
	from := ""
	if prev != nil && prev.Prefix == st.prefix && prev.Head != "" && ancestor(ctx, root, prev.Head, st.head) {
		from = prev.Head
	}
	span := st.head
	if from != "" {
		span = from + ".." + st.head
	}
	// fresh is the record the log is folded into: a copy of prev to
	// bring up to date, or an empty one.
	fresh := func() *Record {
		r := newRecord()
		if from != "" {
			r = prev.clone()
		}
		r.Prefix, r.Shallow, r.Author = st.prefix, st.shallow, me
		return r
	}
	line, err := readLine(ctx, root, span)
	if err != nil {
		return nil, err
	}
	r := fresh()
	r.line = line
	det, err := readHistory(ctx, root, span, partialClone(ctx, root), r.apply)
	if err != nil {
		return nil, err
	}
	line.settle(r)
	r.line = nil
	r.Detection = det
	if from != "" {
		r.Detection = prev.Detection.Join(det)
	}
	r.finish()
	r.Head = st.head // HEAD may be a merge, which the log leaves out
	return r, nil
}

// identity is the e-mail address git would write as the author of the
// root's next commit (its environment, then its configuration), "" when
// it knows none.
func identity(ctx context.Context, root string) string {
	out, err := git(ctx, root, "var", "GIT_AUTHOR_IDENT").Output()
	if err != nil {
		return ""
	}
	s := string(out)
	i, j := strings.LastIndexByte(s, '<'), strings.LastIndexByte(s, '>')
	if i < 0 || j < i {
		return ""
	}
	return s[i+1 : j]
}

// partialClone reports whether the repository may fetch missing objects
// on demand: a clone with --filter marks its remote a promisor (older
// gits set extensions.partialClone instead).
func partialClone(ctx context.Context, root string) bool {
	out, _ := git(ctx, root, "config", "--get-regexp", `^(extensions\.partialclone|remote\..*\.promisor)$`).Output()
	for _, l := range strings.Split(string(out), "\n") {
		key, val, _ := strings.Cut(l, " ")
		if strings.HasSuffix(key, ".promisor") && val != "true" {
			continue
		}
		if key != "" {
			return true
		}
	}
	return false
}

// ancestor reports whether commit a is an ancestor of b (false when a is
// gone: a rewritten history).
func ancestor(ctx context.Context, root, a, b string) bool {
	return git(ctx, root, "merge-base", "--is-ancestor", a, b).Run() == nil
}
