package main

// Replaying a recorded history into a git repository, so that the
// stale-path benchmark runs from a clone with no network: each log in
// testdata/bench/history-logs (`git log -M --name-status --no-merges
// --format='@%H %at %author'`, newest first) becomes a linear repository
// through `git fast-import`, whose own `git log -M` finds the renames the
// original recorded. Every file is a lineage with text of its own: an
// edit changes one line, a rename carries the text to the new path (git
// sees a rename of high similarity), an add starts a new text (no false
// renames). Merges are not in the log; an edit the log shows on a path
// that is already gone (a branch begun before a move) is left out, as the
// merge that carried it to the new path would have done.

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

type replayCommit struct {
	hash, time, author string
	ops                [][]string // status, path[, path]
}

// readReplayLog reads a log, oldest commit first.
func readReplayLog(p string) ([]replayCommit, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(p, ".gz") {
		gz, err := gzip.NewReader(f)
		if err != nil {
			return nil, err
		}
		r = gz
	}
	var out []replayCommit
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "@"):
			f := strings.Fields(line[1:])
			if len(f) < 2 {
				return nil, fmt.Errorf("%s: bad commit line %q", p, line)
			}
			c := replayCommit{hash: f[0], time: f[1], author: "anon"}
			if len(f) > 2 {
				c.author = f[2]
			}
			out = append(out, c)
		case line == "":
		default:
			if len(out) == 0 {
				return nil, fmt.Errorf("%s: a change before any commit", p)
			}
			parts := strings.Split(line, "\t")
			out[len(out)-1].ops = append(out[len(out)-1].ops, parts)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, nil
}

// treeBefore is the tree before the log's first commit, walked back from
// head (the HEAD listing): a log that begins mid-history (a shallow or
// cut log) still ends at the listing's tree, and files never touched in
// it are there from the start.
func treeBefore(head []string, commits []replayCommit) []string {
	tree := make(map[string]bool, len(head))
	for _, p := range head {
		tree[p] = true
	}
	for i := len(commits) - 1; i >= 0; i-- {
		ops := commits[i].ops
		for j := len(ops) - 1; j >= 0; j-- {
			op := ops[j]
			switch st := op[0]; {
			case len(op) < 2:
			case st == "A":
				delete(tree, op[1])
			case st == "D" || st == "M" || st == "T":
				tree[op[1]] = true
			case len(op) >= 3 && st[0] == 'R':
				delete(tree, op[2])
				tree[op[1]] = true
			case len(op) >= 3 && st[0] == 'C':
				delete(tree, op[2])
			}
		}
	}
	out := make([]string, 0, len(tree))
	for p := range tree {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// replayRepo makes (once; a marker holds the log's size) a checkout at
// dir replaying log over the tree that listing (the HEAD listing) had
// before it.
func replayRepo(log, dir string, listing []string) error {
	st, err := os.Stat(log)
	if err != nil {
		return err
	}
	marker := dir + ".replayed"
	stamp := fmt.Sprint(st.Size(), len(listing))
	if b, err := os.ReadFile(marker); err == nil && string(b) == stamp {
		return nil
	}
	commits, err := readReplayLog(log)
	if err != nil {
		return err
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if out, err := exec.Command("git", "init", "-q", "-b", "main", dir).CombinedOutput(); err != nil {
		return fmt.Errorf("git init: %v: %s", err, out)
	}
	fi := exec.Command("git", "-C", dir, "fast-import", "--quiet")
	in, err := fi.StdinPipe()
	if err != nil {
		return err
	}
	var stderr bytes.Buffer
	fi.Stderr = &stderr
	if err := fi.Start(); err != nil {
		return err
	}
	w := bufio.NewWriterSize(in, 1<<20)
	writeReplay(w, treeBefore(listing, commits), commits)
	if err := w.Flush(); err != nil {
		return err
	}
	in.Close()
	if err := fi.Wait(); err != nil {
		return fmt.Errorf("git fast-import: %v: %s", err, stderr.String())
	}
	if out, err := exec.Command("git", "-C", dir, "checkout", "-q", "-f", "main").CombinedOutput(); err != nil {
		return fmt.Errorf("git checkout: %v: %s", err, out)
	}
	return os.WriteFile(marker, []byte(stamp), 0o644)
}

// lineageText is a file's text: its own lines, one of them changed per
// edit so that renames stay similar.
type lineageText struct {
	id    int
	lines [12]string
	edits int
}

func (t *lineageText) bytes() []byte {
	var b bytes.Buffer
	for _, l := range t.lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

func newLineage(id int) *lineageText {
	t := &lineageText{id: id}
	for i := range t.lines {
		t.lines[i] = fmt.Sprintf("file %d line %d %x", id, i, uint32(id*2654435761+i*40503))
	}
	return t
}

func (t *lineageText) edit() {
	t.edits++
	t.lines[t.edits%len(t.lines)] = fmt.Sprintf("file %d edit %d", t.id, t.edits)
}

// writeReplay writes the fast-import stream: one commit per logged
// commit, each file's whole text inline.
func writeReplay(w *bufio.Writer, initial []string, commits []replayCommit) {
	live := map[string]*lineageText{}
	gone := map[string]bool{}
	next := 0
	born := func(p string) *lineageText {
		next++
		t := newLineage(next)
		live[p] = t
		delete(gone, p)
		return t
	}
	data := func(b []byte) {
		fmt.Fprintf(w, "data %d\n", len(b))
		w.Write(b)
		w.WriteByte('\n')
	}
	put := func(p string, t *lineageText) {
		fmt.Fprintf(w, "M 100644 inline %s\n", p)
		data(t.bytes())
	}
	if len(initial) > 0 && len(commits) > 0 {
		fmt.Fprintf(w, "commit refs/heads/main\ncommitter %s <%s@example.invalid> %s +0000\n", "anon", "anon", commits[0].time)
		data([]byte("replayed: the tree before the log"))
		for _, p := range initial {
			put(p, born(p))
		}
		w.WriteByte('\n')
	}
	for _, c := range commits {
		fmt.Fprintf(w, "commit refs/heads/main\ncommitter %s <%s@example.invalid> %s +0000\n", c.author, c.author, c.time)
		data([]byte("replayed " + c.hash))
		for _, op := range c.ops {
			st := op[0]
			switch {
			case st == "A" || st == "M" || st == "T":
				if len(op) < 2 {
					continue
				}
				p := op[1]
				t, ok := live[p]
				switch {
				case ok:
					t.edit()
				case st != "A" && gone[p]:
					continue // an edit of a path already left (see above)
				default:
					t = born(p)
				}
				put(p, t)
			case st == "D":
				if len(op) < 2 {
					continue
				}
				if _, ok := live[op[1]]; ok {
					fmt.Fprintf(w, "D %s\n", op[1])
					delete(live, op[1])
					gone[op[1]] = true
				}
			case strings.HasPrefix(st, "R") || strings.HasPrefix(st, "C"):
				if len(op) < 3 {
					continue
				}
				old, nw := op[1], op[2]
				t, ok := live[old]
				if !ok {
					if gone[old] {
						t = born(nw)
						put(nw, t)
						continue
					}
					t = born(old)
				}
				if st[0] == 'C' {
					cp := *t
					next++
					cp.id = next
					cp.edit()
					live[nw] = &cp
					put(nw, &cp)
					continue
				}
				fmt.Fprintf(w, "D %s\n", old)
				delete(live, old)
				gone[old] = true
				if st != "R100" {
					t.edit()
				}
				live[nw] = t
				delete(gone, nw)
				put(nw, t)
			}
		}
		w.WriteByte('\n')
	}
}

// replayAll replays every corpus's log under work/replay and returns that
// directory (the -repos of staleBench).
func replayAll(logs, corpora, work string, names []string) string {
	dir := filepath.Join(work, "replay")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fatal(err)
	}
	for _, name := range names {
		log := filepath.Join(logs, name+".log.gz")
		if _, err := os.Stat(log); err != nil {
			continue
		}
		repo := filepath.Join(dir, strings.Replace(strings.TrimPrefix(name, "hist__"), "__", "+", 1))
		fmt.Fprintf(os.Stderr, "replaying %s\n", log)
		listing, err := readCorpus(filepath.Join(corpora, name))
		if err != nil {
			fatal(err)
		}
		if err := replayRepo(log, repo, listing); err != nil {
			fatal(fmt.Errorf("%s: %w", name, err))
		}
	}
	return dir
}
