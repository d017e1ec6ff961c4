package vcs

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"regexp"
	"strconv"
	"strings"
)

// Detection is how a record's renames were detected.
type Detection string

const (
	// Similarity: git's rename detection over every commit (-M), the
	// reference reading.
	Similarity Detection = "similarity"
	// Exact: renames that kept the content exactly, only (-M100%: git
	// compares object names and reads no blob) — every commit with a
	// rename to detect needed a blob the store lacks.
	Exact Detection = "exact"
	// Mixed: similarity wherever git could read the blobs a commit's
	// rename detection compares, exact renames in the commits that
	// needed a blob the store lacks.
	Mixed Detection = "mixed"
)

// Join is the detection of a history read in two parts (an update,
// several roots).
func (d Detection) Join(o Detection) Detection {
	switch {
	case d == "":
		return o
	case o == "" || d == o:
		return d
	}
	return Mixed
}

// logFormat starts each commit with \x01, then hash, committer time,
// the author's e-mail address and, after \x02, the subject; -z ends it
// and every name-status field with NUL.
const logFormat = "--format=%x01%H %ct %ae%x02%s"

// readHistory folds every commit of span (oldest first; merges left out:
// a merge's renames are its parents') into fold, renames detected by
// similarity wherever git can read what it compares. A store missing
// blobs (a mirror that dropped large files, a damaged store, a partial
// clone) stops `git log -M` at the first blob it cannot read, so there
// the commits are read in two sets (readSplit); a partial clone goes
// there at once, so that git never wants a blob it lacks.
func readHistory(ctx context.Context, root, span string, partial bool, fold func(commitOps)) (Detection, error) {
	if !partial {
		err := readLog(ctx, root, []string{"-M", span}, nil, fold)
		if err == nil || ctx.Err() != nil {
			return Similarity, err
		}
	}
	return readSplit(ctx, root, span, partial, fold)
}

// readSplit reads span's commits that need no missing blob with
// similarity detection; in the others git is given only the pairs it can
// read (readablePairs), then both are folded in the log's order. A
// commit needs a blob for rename detection when it both adds and deletes
// files: git compares the added with the deleted. Which blobs are
// missing is asked of the store (missingBlobs, which never fetches); a
// blob the similarity pass still fails on (named in git's error) joins
// them, and the pass is run again, at most maxSplitRetries times before
// every commit is read with exact renames.
func readSplit(ctx context.Context, root, span string, partial bool, fold func(commitOps)) (Detection, error) {
	commits, err := rawChanges(ctx, root, span)
	if err != nil {
		return "", err
	}
	var blobs []string
	for _, c := range commits {
		if c.adds && c.deletes {
			blobs = append(blobs, c.blobs...)
		}
	}
	missing, err := missingBlobs(ctx, root, blobs, partial)
	if err != nil {
		return "", err
	}
	allExact := false
	for try := 0; ; try++ {
		var similar, exact []string
		order := make(map[string]int, len(commits))
		paired := false // a commit with files to pair is read exactly
		for i, c := range commits {
			order[c.hash] = i
			pairs := c.adds && c.deletes
			if allExact || (pairs && c.needsAny(missing)) {
				exact = append(exact, c.hash)
				paired = paired || pairs
			} else {
				similar = append(similar, c.hash)
			}
		}
		a, err := logToFile(ctx, root, []string{"-M"}, similar)
		if err != nil {
			if ctx.Err() != nil || allExact {
				return "", err
			}
			if blob := unreadableBlob(err); blob != "" && !missing[blob] && try < maxSplitRetries {
				missing[blob] = true
			} else {
				allExact = true
			}
			continue
		}
		defer closeTemp(a)
		b, err := logToFile(ctx, root, []string{"-M100%"}, exact)
		if err != nil {
			return "", err
		}
		defer closeTemp(b)
		refine := func(c commitOps) (commitOps, error) {
			raw := commits[order[c.commit.Hash]]
			if allExact || !raw.adds || !raw.deletes {
				return c, nil
			}
			return readablePairs(ctx, root, c, raw.unreadable(missing), partial)
		}
		if err := mergeLogs(a, b, order, refine, fold); err != nil {
			return "", err
		}
		switch {
		case !paired:
			return Similarity, nil
		case len(similar) == 0:
			return Exact, nil
		}
		return Mixed, nil
	}
}

// maxSplitRetries bounds the similarity passes readSplit runs, each
// after learning of one more blob the store lacks.
const maxSplitRetries = 16

// rawCommit is what a commit changes, as the raw diff names it without
// reading a blob: whether it adds and deletes files, and the blobs of
// those it adds and deletes.
type rawCommit struct {
	hash          string
	adds, deletes bool
	blobs         []string
	paths         []string // the path of each of blobs
}

func (c *rawCommit) needsAny(missing map[string]bool) bool {
	for _, b := range c.blobs {
		if missing[b] {
			return true
		}
	}
	return false
}

// unreadable lists the paths the commit adds or deletes whose blob is
// missing.
func (c *rawCommit) unreadable(missing map[string]bool) []string {
	var out []string
	for i, b := range c.blobs {
		if missing[b] {
			out = append(out, c.paths[i])
		}
	}
	return out
}

// rawChanges lists span's commits, oldest first, merges left out.
func rawChanges(ctx context.Context, root, span string) ([]rawCommit, error) {
	out, err := gitOutput(ctx, root, "log", "--raw", "--no-renames", "--no-abbrev", "--no-merges", "-z", "--reverse", "--format=%x01%H", span, "--")
	if err != nil {
		return nil, err
	}
	var commits []rawCommit
	fields := bytes.Split(out, []byte{0})
	for i := 0; i < len(fields); i++ {
		f := bytes.TrimLeft(fields[i], "\n")
		switch {
		case len(f) > 0 && f[0] == '\x01':
			commits = append(commits, rawCommit{hash: string(f[1:])})
		case len(f) > 0 && f[0] == ':' && len(commits) > 0:
			// :mode mode old new status, then the path in the next field.
			parts := strings.Fields(string(f[1:]))
			i++
			if len(parts) < 5 || i >= len(fields) {
				continue
			}
			c := &commits[len(commits)-1]
			switch parts[4][0] {
			case 'A':
				c.adds = true
				c.blobs, c.paths = append(c.blobs, parts[3]), append(c.paths, string(fields[i]))
			case 'D':
				c.deletes = true
				c.blobs, c.paths = append(c.blobs, parts[2]), append(c.paths, string(fields[i]))
			}
		}
	}
	return commits, nil
}

// missingBlobs says which of blobs the object store lacks. A partial
// clone would fetch an object it is asked about from its promisor
// remote, so there the store's own objects are listed instead.
func missingBlobs(ctx context.Context, root string, blobs []string, partial bool) (map[string]bool, error) {
	missing := map[string]bool{}
	if len(blobs) == 0 {
		return missing, nil
	}
	if partial {
		out, err := gitOutput(ctx, root, "cat-file", "--batch-all-objects", "--batch-check=%(objecttype) %(objectname)")
		if err != nil {
			return nil, err
		}
		have := map[string]bool{}
		for _, l := range strings.Split(string(out), "\n") {
			if name, ok := strings.CutPrefix(l, "blob "); ok {
				have[name] = true
			}
		}
		for _, b := range blobs {
			if !have[b] {
				missing[b] = true
			}
		}
		return missing, nil
	}
	cmd := git(ctx, root, "cat-file", "--batch-check=%(objectname)")
	cmd.Stdin = strings.NewReader(strings.Join(blobs, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	for _, l := range strings.Split(string(out), "\n") {
		if name, ok := strings.CutSuffix(l, " missing"); ok {
			missing[name] = true
		}
	}
	return missing, nil
}

var unreadableRE = regexp.MustCompile(`unable to read ([0-9a-f]{40,64})`)

// unreadableBlob is the object git's error says it could not read, or "".
func unreadableBlob(err error) string {
	if m := unreadableRE.FindStringSubmatch(err.Error()); m != nil {
		return m[1]
	}
	return ""
}

// readLog folds the log git prints for args (a range, or with commits the
// given commits in the given order) into fold.
func readLog(ctx context.Context, root string, args, commits []string, fold func(commitOps)) error {
	f, err := logToFile(ctx, root, args, commits)
	if err != nil {
		return err
	}
	defer closeTemp(f)
	lr := newLogReader(f)
	for {
		c, ok, err := lr.next()
		if !ok || err != nil {
			return err
		}
		fold(c)
	}
}

// logToFile runs git log with args into a temporary file, rewound for
// reading: read through a pipe, a commit at a time, the same log took
// much longer (a wake-up of both processes for every flush). With
// commits (possibly none), exactly those are logged, in their order.
func logToFile(ctx context.Context, root string, args, commits []string) (*os.File, error) {
	tmp, err := os.CreateTemp("", "wayfind-log-*")
	if err != nil {
		return nil, err
	}
	if commits != nil && len(commits) == 0 {
		return tmp, nil
	}
	full := append([]string{"log", "--name-status", "--no-merges", "-z", logFormat}, args...)
	if commits != nil {
		full = append(full, "--no-walk=unsorted", "--stdin")
	} else {
		full = append(full, "--reverse")
	}
	cmd := git(ctx, root, append(full, "--")...)
	if commits != nil {
		cmd.Stdin = strings.NewReader(strings.Join(commits, "\n") + "\n")
	}
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = tmp, &stderr
	if err := cmd.Run(); err != nil {
		closeTemp(tmp)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("git log: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		closeTemp(tmp)
		return nil, err
	}
	return tmp, nil
}

func closeTemp(f *os.File) {
	f.Close()
	os.Remove(f.Name())
}

// mergeLogs folds the commits of two logs, each in order, in the order
// order gives their hashes; each of b's through refine first.
func mergeLogs(a, b io.Reader, order map[string]int, refine func(commitOps) (commitOps, error), fold func(commitOps)) error {
	ra, rb := newLogReader(a), newLogReader(b)
	ca, okA, err := ra.next()
	if err != nil {
		return err
	}
	cb, okB, err := rb.next()
	if err != nil {
		return err
	}
	for okA || okB {
		if okA && (!okB || order[ca.commit.Hash] < order[cb.commit.Hash]) {
			fold(ca)
			if ca, okA, err = ra.next(); err != nil {
				return err
			}
			continue
		}
		r, err := refine(cb)
		if err != nil {
			return err
		}
		fold(r)
		if cb, okB, err = rb.next(); err != nil {
			return err
		}
	}
	return nil
}

// readablePairs is commit c (read with exact renames only) with the
// renames git finds by similarity among the files it can read: the diff
// against its parent with the unreadable paths left out, those paths
// kept as the exact reading has them. A delete that no rename pairs is
// unsure when something in the commit could not be compared: its file
// may have been renamed to, or from, a blob the store lacks. Where a
// store lacks a few blobs (a mirror without its largest files) the
// deletes git could not compare are paired by name (pairByName); in a
// partial clone, which lacks every blob of the past, a name is all there
// would be to pair on in every commit — and a commit that replaces one
// tree with another (an example rewritten) shares many names between
// files git, given the blobs, calls deleted — so there they stay unsure
// deletes: their kin (the add of the same name) is still named.
func readablePairs(ctx context.Context, root string, c commitOps, unreadable []string, partial bool) (commitOps, error) {
	skip := make(map[string]bool, len(unreadable))
	args := []string{"diff-tree", "-r", "-M", "--root", "--name-status", "-z", "--no-commit-id", c.commit.Hash, "--", ":(top)"}
	for _, p := range unreadable {
		skip[p] = true
		args = append(args, ":(top,exclude,literal)"+p)
	}
	out, err := gitOutput(ctx, root, args...)
	if err != nil {
		if ctx.Err() != nil {
			return commitOps{}, err
		}
		return c, nil // the exact reading stands
	}
	lr := newLogReader(bytes.NewReader(append([]byte("\x01"+c.commit.Hash+" 0 \x00"), out...)))
	sim, _, err := lr.next()
	if err != nil {
		return c, nil
	}
	ops := sim.ops
	for _, o := range c.ops {
		if skip[o.new] || (o.old != "" && skip[o.old]) {
			ops = append(ops, o)
		}
	}
	if partial {
		c.ops = unsureDeletes(ops)
	} else {
		c.ops = pairByName(ops, skip)
	}
	return c, nil
}

// unsureDeletes is ops with every delete unsure: a commit git could not
// compare whole, none of its deletes paired by name.
func unsureDeletes(ops []op) []op {
	for i := range ops {
		if ops[i].status == 'D' {
			ops[i].unsure = true
		}
	}
	return ops
}

// pairByName pairs, among a commit's deletes that git could not compare
// (unsure: the commit has a file whose blob is missing, unreadable), each
// with the one file the commit adds under the same name elsewhere: a move,
// as a person reading the commit would take it. A delete still unpaired
// then takes the one add left whose name keeps its stem (or whose stem
// its name keeps: cascade.py → test_cascade.py, latexmkjarc →
// latexmkjarc.jinja), when one of the two is a file git could not read
// and neither has another such partner: a rename git would have compared,
// had it the blob. Deletes left unpaired are unsure.
func pairByName(ops []op, unreadable map[string]bool) []op {
	if len(unreadable) == 0 {
		return ops
	}
	added := map[string][]int{} // base name → the adds of that name
	for i, o := range ops {
		if o.status == 'A' {
			added[path.Base(o.new)] = append(added[path.Base(o.new)], i)
		}
	}
	taken := map[int]bool{}   // adds paired
	pairedTo := map[int]int{} // delete → the add it was paired with
	for i, o := range ops {
		if o.status != 'D' {
			continue
		}
		if as := added[path.Base(o.new)]; len(as) == 1 && !taken[as[0]] {
			taken[as[0]] = true
			pairedTo[i] = as[0]
		}
	}
	// related[d] lists the adds left whose name is kin to delete d's.
	related := map[int][]int{}
	kin := map[int]int{} // add → how many deletes left are kin to it
	for i, o := range ops {
		if o.status != 'D' {
			continue
		}
		if _, ok := pairedTo[i]; ok {
			continue
		}
		for j, a := range ops {
			if a.status == 'A' && !taken[j] && (unreadable[o.new] || unreadable[a.new]) && kinNames(path.Base(o.new), path.Base(a.new)) {
				related[i] = append(related[i], j)
				kin[j]++
			}
		}
	}
	for d, as := range related {
		if len(as) == 1 && kin[as[0]] == 1 {
			taken[as[0]] = true
			pairedTo[d] = as[0]
		}
	}
	out := ops[:0:0]
	for i, o := range ops {
		switch {
		case o.status == 'D':
			if j, ok := pairedTo[i]; ok {
				out = append(out, op{status: 'R', old: o.new, new: ops[j].new})
			} else {
				o.unsure = true
				out = append(out, o)
			}
		case !taken[i]:
			out = append(out, o)
		}
	}
	return out
}

// minKinStem: the shortest stem kinNames counts as kept in another name;
// shorter ones (a, io, db) are parts of too many names to say anything.
const minKinStem = 4

// kinNames reports whether base names a and b, different, name one file
// renamed: the stem of one (its name without the last extension) is
// within the other's.
func kinNames(a, b string) bool {
	if a == b {
		return false
	}
	sa, sb := strings.TrimSuffix(a, path.Ext(a)), strings.TrimSuffix(b, path.Ext(b))
	if len(sa) > len(sb) {
		a, b, sa, sb = b, a, sb, sa
	}
	if len(sa) < minKinStem {
		return false
	}
	return strings.Contains(sb, sa)
}

// gitOutput runs git and returns its standard output; an error carries
// what git said.
func gitOutput(ctx context.Context, root string, args ...string) ([]byte, error) {
	cmd := git(ctx, root, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("git %s: %v: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// logReader reads `git log -z --name-status` output in logFormat, a
// commit at a time.
type logReader struct {
	br   *bufio.Reader
	head string // the next commit's header, read ahead
	done bool
}

func newLogReader(r io.Reader) *logReader {
	return &logReader{br: bufio.NewReaderSize(r, 1<<16)}
}

func (lr *logReader) field() (string, error) {
	b, err := lr.br.ReadBytes(0)
	if err != nil {
		if err == io.EOF && len(bytes.TrimSpace(b)) > 0 {
			return "", errors.New("git log: output ends inside a field")
		}
		return "", err
	}
	return strings.TrimLeft(string(b[:len(b)-1]), "\n"), nil
}

// next is the next commit; ok is false at the end.
func (lr *logReader) next() (commitOps, bool, error) {
	for lr.head == "" && !lr.done {
		tok, err := lr.field()
		if err == io.EOF {
			lr.done = true
			break
		}
		if err != nil {
			return commitOps{}, false, err
		}
		if tok == "" {
			continue
		}
		if tok[0] != '\x01' {
			return commitOps{}, false, fmt.Errorf("git log: a change before any commit: %q", tok)
		}
		lr.head = tok[1:]
	}
	if lr.head == "" {
		return commitOps{}, false, nil
	}
	c, author, err := parseHeader(lr.head)
	lr.head = ""
	if err != nil {
		return commitOps{}, false, err
	}
	cur := commitOps{commit: c, author: author}
	for {
		tok, err := lr.field()
		if err == io.EOF {
			lr.done = true
			return cur, true, nil
		}
		if err != nil {
			return commitOps{}, false, err
		}
		if tok == "" {
			continue
		}
		if tok[0] == '\x01' {
			lr.head = tok[1:]
			return cur, true, nil
		}
		o := op{status: tok[0]}
		if len(tok) > 1 {
			o.similarity, _ = strconv.Atoi(tok[1:])
		}
		if o.new, err = lr.field(); err != nil {
			return commitOps{}, false, fmt.Errorf("git log: truncated entry: %v", err)
		}
		if o.status == 'R' || o.status == 'C' {
			o.old = o.new
			if o.new, err = lr.field(); err != nil {
				return commitOps{}, false, fmt.Errorf("git log: truncated rename: %v", err)
			}
		}
		cur.ops = append(cur.ops, o)
	}
}

// parseHeader reads a commit's line in logFormat: the commit, and its
// author's e-mail address.
func parseHeader(s string) (Commit, string, error) {
	hash, rest, ok := strings.Cut(s, " ")
	if !ok {
		return Commit{}, "", fmt.Errorf("git log: bad commit line %q", s)
	}
	ts, rest, _ := strings.Cut(rest, " ")
	t, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return Commit{}, "", fmt.Errorf("git log: bad commit time %q", s)
	}
	author, subject, _ := strings.Cut(rest, "\x02")
	return Commit{Hash: hash, Time: t, Subject: subject}, author, nil
}
