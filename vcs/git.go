package vcs

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// ErrNoRepository: the root is in no git work tree with a commit (or git
// is not installed). Everything else works without a record.
var ErrNoRepository = errors.New("no git repository")

// git runs the git CLI in dir — the reference implementation of rename
// detection, present wherever a .git is. Configuration that would change
// what log prints is pinned; no lock is taken (an editor's git must never
// wait on us).
func git(ctx context.Context, dir string, args ...string) *exec.Cmd {
	base := []string{"-C", dir, "-c", "log.showSignature=false", "-c", "core.quotePath=false",
		"-c", "diff.renames=true", "-c", "log.follow=false"}
	cmd := exec.CommandContext(ctx, "git", append(base, args...)...)
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C", "GIT_TERMINAL_PROMPT=0")
	return cmd
}

// repoState is what rev-parse says of a root.
type repoState struct {
	head    string
	prefix  string
	shallow bool
}

func state(ctx context.Context, root, rev string) (repoState, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return repoState{}, ErrNoRepository
	}
	out, err := git(ctx, root, "rev-parse", "--show-prefix", "--is-shallow-repository", "--verify", rev+"^{commit}").Output()
	if err != nil {
		if ctx.Err() != nil {
			return repoState{}, ctx.Err()
		}
		return repoState{}, ErrNoRepository
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != 3 {
		return repoState{}, fmt.Errorf("git rev-parse: unexpected answer %q", out)
	}
	return repoState{prefix: lines[0], shallow: lines[1] == "true", head: lines[2]}, nil
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
	st, err := state(ctx, root, rev)
	if err != nil {
		return nil, err
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
		r.Prefix, r.Shallow = st.prefix, st.shallow
		return r
	}
	// A partial clone would fetch every blob rename detection compares:
	// only exact renames there (git compares object names, reads no blob).
	exactOnly := partialClone(ctx, root)
	r := fresh()
	if err := readLog(ctx, root, span, exactOnly, r.apply); err != nil {
		if ctx.Err() != nil || exactOnly {
			return nil, err
		}
		// A blob git cannot read (a damaged or partial object store)
		// stops similarity detection; exact renames need no blob.
		r, exactOnly = fresh(), true
		if err := readLog(ctx, root, span, true, r.apply); err != nil {
			return nil, err
		}
	}
	r.ExactRenames = exactOnly
	r.finish()
	r.Head = st.head // HEAD may be a merge, which the log leaves out
	return r, nil
}

// partialClone reports whether the repository fetches missing objects
// on demand (a clone with --filter).
func partialClone(ctx context.Context, root string) bool {
	out, _ := git(ctx, root, "config", "--get", "extensions.partialClone").Output()
	return strings.TrimSpace(string(out)) != ""
}

// ancestor reports whether commit a is an ancestor of b (false when a is
// gone: a rewritten history).
func ancestor(ctx context.Context, root, a, b string) bool {
	return git(ctx, root, "merge-base", "--is-ancestor", a, b).Run() == nil
}

// logFormat starts each commit with \x01, then hash, committer time and
// subject; -z ends it and every name-status field with NUL.
const logFormat = "--format=%x01%H %ct %s"

// readLog folds every commit of rev (oldest first, merges left out: a
// merge's renames are its parents') into fold.
func readLog(ctx context.Context, root, rev string, exactOnly bool, fold func(commitOps)) error {
	renames := "-M"
	if exactOnly {
		renames = "-M100%"
	}
	// git writes into a file, read once it is done: read through a pipe,
	// a commit at a time, the same log took twice as long (a wake-up of
	// both processes for every flush).
	tmp, err := os.CreateTemp("", "wayfind-log-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	cmd := git(ctx, root, "log", renames, "--name-status", "--no-merges", "-z", "--reverse", logFormat, rev, "--")
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = tmp, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("git log: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		return err
	}
	return parseLog(tmp, fold)
}

// parseLog reads `git log -z --name-status` output in logFormat.
func parseLog(r io.Reader, fold func(commitOps)) error {
	br := bufio.NewReaderSize(r, 1<<16)
	var cur *commitOps
	flush := func() {
		if cur != nil {
			fold(*cur)
			cur = nil
		}
	}
	field := func() (string, error) {
		b, err := br.ReadBytes(0)
		if err != nil {
			return "", err
		}
		return string(b[:len(b)-1]), nil
	}
	for {
		tok, err := field()
		if err == io.EOF {
			flush()
			return nil
		}
		if err != nil {
			return err
		}
		tok = strings.TrimLeft(tok, "\n")
		if tok == "" {
			continue
		}
		if tok[0] == '\x01' {
			flush()
			c, err := parseHeader(tok[1:])
			if err != nil {
				return err
			}
			cur = &commitOps{commit: c}
			continue
		}
		if cur == nil {
			return fmt.Errorf("git log: a change before any commit: %q", tok)
		}
		o := op{status: tok[0]}
		if o.new, err = field(); err != nil {
			return fmt.Errorf("git log: truncated entry: %v", err)
		}
		if o.status == 'R' || o.status == 'C' {
			o.old = o.new
			if o.new, err = field(); err != nil {
				return fmt.Errorf("git log: truncated rename: %v", err)
			}
		}
		cur.ops = append(cur.ops, o)
	}
}

func parseHeader(s string) (Commit, error) {
	hash, rest, ok := strings.Cut(s, " ")
	if !ok {
		return Commit{}, fmt.Errorf("git log: bad commit line %q", s)
	}
	ts, subject, _ := strings.Cut(rest, " ")
	t, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return Commit{}, fmt.Errorf("git log: bad commit time %q", s)
	}
	return Commit{Hash: hash, Time: t, Subject: subject}, nil
}
