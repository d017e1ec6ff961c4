package main

// Real sessions (issue 26's measurement): each commit of a real repository
// is the next step of its author's session (a bot's commits are no one's:
// left out). The files of the author's
// previous three commits are what they had open (most recent last); then
// the bare name of each file the commit edits, where 2–40 files of the
// tree share that name and the commit edits no other of them, is asked for — by find/files (top-1) and
// find/resolvePath (right, nothing, wrong). The engine indexes the tree
// of a commit before the sessions asked about, so that no future leaks
// in. Modes: no visits; the visits; the visits and the current file (the
// last visit, as current: nearness only, never read relative); and a
// one-line baseline, the copy
// nearest the last visit.

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"wayfind/history"
	"wayfind/rank"
	"wayfind/service"
	"wayfind/vcs"
	"wayfind/workspace"
)

type sessionCommit struct {
	hash   string
	author string
	edited []string // paths the commit modified (M)
	all    []string // every path it touched
}

// sessionQuestion is one question of a replayed session: the bare name
// of a file the commit edits, the file, and what its author had visited
// (the files of their previous commits, most recent last).
type sessionQuestion struct {
	name, want, last string
	visits           []string
	copies           []string // every file of the name in the tree
	// authored: the author's earlier commits in the window, each its
	// files, oldest first.
	authored [][]string
	author   string
	// commit: the asking commit's place in the window (0 the oldest)
	// and its hash.
	commit int
	hash   string
}

// sessionModes are how the engine is asked a session's question: with no
// visits; with the visits (the last focus standing for the current file,
// as the server asks when a client sends none); with the visits and the
// last visit as the current file.
var sessionModes = []string{"no visits", "with the visits", "with the visits and current"}

// replayed is a repository's session questions, over the tree of the
// commit before them (base).
type replayed struct {
	base      string
	files     []workspace.File
	commits   int
	questions []sessionQuestion
	// twoRight: questions left out because the commit edits several
	// files of the name; bots: commits left out because a bot made them.
	twoRight, bots int
}

// sessionQuestions replays the newest `window` commits of the repository
// in dir as sessions.
func sessionQuestions(dir string, window int) (*replayed, error) {
	base, commits, err := sessionLog(dir, window)
	if err != nil {
		return nil, err
	}
	tree, err := gitTree(dir, base)
	if err != nil {
		return nil, err
	}
	sort.Strings(tree)
	rp := &replayed{base: base, files: make([]workspace.File, len(tree)), commits: len(commits)}
	inTree := make(map[string]bool, len(tree))
	byBase := map[string][]string{}
	for i, p := range tree {
		rp.files[i] = workspace.File{Path: p}
		inTree[p] = true
		byBase[path.Base(p)] = append(byBase[path.Base(p)], p)
	}
	recent := map[string][][]string{} // author → their commits' files, oldest first
	for ci, c := range commits {
		if vcs.Bot(c.author) {
			rp.bots++
			continue // a bot's commits are no one's session
		}
		var visits []string
		prev := recent[c.author]
		for _, fs := range prev[max(0, len(prev)-3):] {
			for _, f := range fs {
				if inTree[f] {
					visits = append(visits, f)
				}
			}
		}
		recent[c.author] = append(prev, c.all)
		if len(visits) == 0 {
			continue
		}
		named := map[string]int{} // how many files of each name the commit edits
		for _, f := range c.edited {
			named[path.Base(f)]++
		}
		for _, f := range c.edited {
			copies := byBase[path.Base(f)]
			if !inTree[f] || len(copies) < 2 || len(copies) > 40 {
				continue
			}
			if named[path.Base(f)] > 1 {
				// The commit edits several files of this name (a version
				// bump in every Cargo.toml): the question has as many
				// right answers, none to judge one by.
				rp.twoRight++
				continue
			}
			rp.questions = append(rp.questions, sessionQuestion{name: path.Base(f), want: f, last: visits[len(visits)-1], visits: visits, copies: copies, authored: prev, author: c.author, commit: ci, hash: c.hash})
		}
	}
	return rp, nil
}

// sessionsBench runs the replay over each checkout (name=dir), asking
// about the last `window` commits with the tree as it was before them.
func sessionsBench(repos []string, window int, verbose bool) {
	modes := append(slices.Clone(sessionModes), "nearest to the last visit")
	total := make([]tally, len(modes))
	fmt.Println("| repository | base commit | sessions | questions | left out: the commit edits several files of the name |")
	fmt.Println("|---|---|---:|---:|---:|")
	per := map[string][]tally{}
	trust := newReliability()
	trust.verbose = verbose
	var names []string
	for _, spec := range repos {
		name, dir, _ := strings.Cut(spec, "=")
		rp, err := sessionQuestions(dir, window)
		if err != nil {
			fatal(err)
		}
		byBase := map[string][]string{}
		for _, f := range rp.files {
			byBase[path.Base(f.Path)] = append(byBase[path.Base(f.Path)], f.Path)
		}
		root := "/" + name
		eng := rank.New(workspace.NewIndex([]string{root}, rp.files))
		if rec, err := vcs.BuildAt(context.Background(), dir, rp.base, nil); err != nil {
			fmt.Fprintf(os.Stderr, "%s: no history record: %v\n", name, err)
		} else {
			eng = eng.WithRepoHistory(rank.NewRepoHistory([]string{root}, []*vcs.Record{rec}))
		}
		ts := make([]tally, len(modes))
		ctx := context.Background()
		for _, sq := range rp.questions {
			q, f, last := sq.name, sq.want, sq.last
			st := visitStore(root, sq.visits)
			for m := range modes {
				var hist []rank.Visit
				current := ""
				switch m {
				case 1:
					// As the server asks when a client reports focus but
					// sends no current file: the last focus stands for it.
					hist = service.EngineVisits(st.Frecent(rank.MaxVisits))
					if v, ok := st.Current(); ok {
						current = v.Path()
					}
				case 2:
					hist, current = service.EngineVisits(st.Frecent(rank.MaxVisits)), root+"/"+last
				}
				// first: find's first match is the file asked for;
				// right, wrong: resolve's resolved file is, or is not.
				var mk mark
				if m == 3 {
					mk.first = nearestTo(last, byBase[q]) == f
					ts[m].add(mk)
					total[m].add(mk)
					continue
				}
				if hist == nil {
					hist = []rank.Visit{}
				}
				fr, err := eng.Find(ctx, rank.FindRequest{Query: q, Limit: 5, History: hist, Current: current})
				mk.first = err == nil && len(fr.Matches) > 0 && fr.Matches[0].Path == f
				rr, err := eng.Resolve(ctx, rank.ResolveRequest{Path: q, Current: current, History: hist, Limit: 5})
				if err == nil {
					trust.add(fmt.Sprintf("sessions, %s", modes[m]), rr, f)
				}
				if err == nil && rr.Resolved != nil {
					mk.right, mk.wrong = rr.Resolved.Path == f, rr.Resolved.Path != f
					if mk.wrong && verbose {
						fmt.Fprintf(os.Stderr, "WRONG %s [%s] %s: %s (want %s; last visit %s)\n", name, modes[m], q, rr.Resolved.Path, f, last)
					}
				}
				ts[m].add(mk)
				total[m].add(mk)
			}
		}
		fmt.Printf("| %s | %s | %d | %d | %d |\n", name, rp.base[:7], rp.commits, len(rp.questions), rp.twoRight)
		per[name] = ts
		names = append(names, name)
	}
	fmt.Println()
	fmt.Println("| repository | mode | questions | find/files top-1 | resolvePath right | **resolvePath wrong** |")
	fmt.Println("|---|---|---:|---:|---:|---:|")
	row := func(name string, ts []tally) {
		for m, t := range ts {
			r, w := pct(t.right, t.n), pct(t.wrong, t.n)
			if m == 3 {
				r, w = "–", "–"
			}
			fmt.Printf("| %s | %s | %d | %s | %s | **%s** |\n", name, modes[m], t.n, pct(t.first, t.n), r, w)
		}
	}
	for _, n := range names {
		row(n, per[n])
	}
	row("**all**", total)
	fmt.Println()
	trust.print()
}

// visitReason is how visitStore's visits came about: a person's focus
// (a client's find/visited), or — agentsessions -as-agent — an agent's
// reads as its hook notes them, which name no current file.
var visitReason = history.Focus

// visitStore is a navigation history holding visits as a client reports
// them (visitReason), a few seconds apart, most recent last.
func visitStore(root string, visits []string) *history.Store {
	now := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	st := history.New(history.Options{CacheDir: "-", Now: func() time.Time { return now }})
	st.SetRoots([]string{root})
	for _, v := range visits {
		st.Visit(root, v, visitReason)
		now = now.Add(5 * time.Second)
	}
	return st
}

// nearestTo is the copy sharing the most leading directories with the
// last visited file (ties: the shorter path): the one-line baseline.
func nearestTo(last string, copies []string) string {
	best, bestN := "", -1
	ld := strings.Split(path.Dir(last), "/")
	for _, c := range copies {
		cd := strings.Split(path.Dir(c), "/")
		n := 0
		for n < len(ld) && n < len(cd) && ld[n] == cd[n] {
			n++
		}
		if n > bestN || (n == bestN && len(c) < len(best)) {
			best, bestN = c, n
		}
	}
	return best
}

// shortestOf is the copy with the shortest path (shorterPath): the
// baseline of a tree's conventions, top-level files first.
func shortestOf(copies []string) string {
	best := ""
	for _, c := range copies {
		if best == "" || shorterPath(c, best) {
			best = c
		}
	}
	return best
}

// shorterPath orders the baselines' ties: the shorter path, then the
// first in byte order.
func shorterPath(a, b string) bool {
	return len(a) < len(b) || len(a) == len(b) && a < b
}

// mostActiveOf is the copy the most commits of rec touched (ties: the
// shorter path): the baseline of where the repository's work goes.
func mostActiveOf(rec *vcs.Record, copies []string) string {
	best, bestN := "", -1
	for _, c := range copies {
		n := rec.Changes(c)
		if n > bestN || n == bestN && shorterPath(c, best) {
			best, bestN = c, n
		}
	}
	return best
}

// sessionLog is the commit before the last `window` commits without
// merges, and those commits, oldest first (renames not looked for: a
// session touches paths, whatever git would pair).
func sessionLog(dir string, window int) (string, []sessionCommit, error) {
	// core.quotePath off: a name with bytes outside ASCII as it is, as the
	// tree lists it (gitTree).
	out, err := exec.Command("git", "-C", dir, "-c", "core.quotePath=false", "log", "--no-merges", "--no-renames", "--name-status",
		"--format=@%H %ae", "-n", fmt.Sprint(window+1)).Output()
	if err != nil {
		return "", nil, fmt.Errorf("%s: git log: %w", dir, err)
	}
	var commits []sessionCommit
	var hashes []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "@"):
			h, a, _ := strings.Cut(l[1:], " ")
			hashes = append(hashes, h)
			commits = append(commits, sessionCommit{hash: h, author: a})
		case l == "" || len(commits) == 0:
		default:
			st, p, ok := strings.Cut(l, "\t")
			if !ok {
				continue
			}
			c := &commits[len(commits)-1]
			c.all = append(c.all, p)
			if st == "M" {
				c.edited = append(c.edited, p)
			}
		}
	}
	if len(commits) < 2 {
		return "", nil, fmt.Errorf("%s: too few commits", dir)
	}
	// Newest first: the oldest is the base, the rest the sessions.
	base := hashes[len(hashes)-1]
	commits = commits[:len(commits)-1]
	for i, j := 0, len(commits)-1; i < j; i, j = i+1, j-1 {
		commits[i], commits[j] = commits[j], commits[i]
	}
	return base, commits, nil
}

// gitTree lists the files of commit's tree, each name as it is (-z: git
// would quote one with bytes outside ASCII, and a quoted name is no file
// of the tree's).
func gitTree(dir, commit string) ([]string, error) {
	out, err := exec.Command("git", "-C", dir, "ls-tree", "-r", "-z", "--name-only", commit).Output()
	if err != nil {
		return nil, fmt.Errorf("%s: git ls-tree %s: %w", dir, commit, err)
	}
	return strings.FieldsFunc(string(out), func(r rune) bool { return r == 0 }), nil
}

func gitLines(dir string, args ...string) ([]string, error) {
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).Output()
	if err != nil {
		return nil, fmt.Errorf("%s: git %v: %w", dir, args, err)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		if l != "" {
			lines = append(lines, l)
		}
	}
	return lines, nil
}
