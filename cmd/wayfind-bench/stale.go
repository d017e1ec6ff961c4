package main

// The stale-path benchmark (make bench-stale): real renames, asked for by
// their old paths, answered with and without the repository's history.
//
// Without history: each corpus's HEAD listing laid out as empty files, no
// .git — what names alone can do. With history: a git checkout of the
// same repository at the same HEAD (-repos: one directory per corpus,
// OWNER+NAME, as fetch names them, or as -replay makes them from the
// logs), indexed as a user's checkout, its history read by vcs.Build.
// Beside them: the cold build of the record, a ten-commit update, its
// memory, git log alone, and deleted files with no successor asked for.

import (
	"cmp"
	"context"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"wayfind/rank"
	"wayfind/vcs"
	"wayfind/workspace"
)

// staleOutcome is one case in one mode.
type staleOutcome struct {
	cat, query         string
	right, none, wrong bool
	elapsed            time.Duration
	// gone: the deleting commit the answer named ("" for none).
	gone string
}

func staleBench(corpora, work, repos string, names []string, byCorpus map[string][]benchCase, useFzf, verbose bool) {
	ctx := context.Background()
	var without, with, fzf []staleOutcome
	fmt.Println("| repository | files | commits | renames | record cold s | git log -M alone s | update of 10 commits ms | record heap MB | old paths | their index MB |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	var deleted []staleOutcome
	trust := newReliability()
	var perRepo []staleOutcome // one row per repository and mode, as categories
	for _, name := range names {
		cases := byCorpus[name]
		paths, tree := corpusTree(corpora, work, name)
		bare, _ := index(tree)
		listing := strings.Join(paths, "\n") + "\n"
		for _, c := range cases {
			o := staleRun(ctx, bare, c, "without", trust, verbose)
			without = append(without, o)
			o.cat = name + ", without history"
			perRepo = append(perRepo, o)
			if useFzf {
				fzf = append(fzf, fzfStale(listing, c))
			}
		}
		repo := filepath.Join(repos, strings.Replace(strings.TrimPrefix(name, "hist__"), "__", "+", 1))
		if _, err := os.Stat(repo); err != nil {
			fmt.Printf("| %s | — | no checkout at %s | | | | | | | |\n", name, repo)
			continue
		}
		roots, err := workspace.CleanRoots([]string{repo})
		if err != nil {
			fatal(err)
		}
		ix := workspace.Build(roots, workspace.Options{})
		eng := rank.New(ix)
		var rec *vcs.Record
		var cold time.Duration
		heap := heapGrowth(func() {
			t0 := time.Now()
			rec, err = vcs.Build(ctx, repo, nil)
			cold = time.Since(t0)
		})
		if err != nil {
			fatal(fmt.Errorf("%s: %w", repo, err))
		}
		gitAlone := timeGitLog(repo)
		update := timeUpdate(ctx, repo)
		var h *rank.RepoHistory
		indexHeap := heapGrowth(func() { h = rank.NewRepoHistory(ix.Roots, []*vcs.Record{rec}) })
		heng := eng.WithRepoHistory(h)
		fmt.Printf("| %s | %d | %d | %d | %.2f | %s | %.0f | %.1f | %d | %.1f |\n", name, ix.Len(), rec.Commits, rec.Renames,
			cold.Seconds(), gitAlone, float64(update.Microseconds())/1000, heap/(1<<20), len(rec.Gone()), indexHeap/(1<<20))
		for _, c := range cases {
			o := staleRun(ctx, heng, c, "with", trust, verbose)
			with = append(with, o)
			o.cat = name + ", with history"
			perRepo = append(perRepo, o)
		}
		deleted = append(deleted, deletedRun(ctx, heng, repo, rec, verbose)...)
	}
	fmt.Println()
	if useFzf {
		staleTable("fzf --filter OLD_PATH --scheme=path over the HEAD listing (its first line taken as the answer)", fzf)
	}
	staleTable("without history (the HEAD listing laid out, no .git)", without)
	staleTable("with history (a checkout at the same HEAD)", with)
	staleTable("by repository", perRepo)
	fmt.Println("Answers by basis and by confidence (a bucket of confidence p should be right at least p of the time; an old path whose file is gone, or expecting nothing, counts every candidate wrong):")
	fmt.Println()
	trust.print()
	fmt.Println()
	right, named := 0, 0
	for _, d := range deleted {
		if d.none {
			right++
		}
		if d.right {
			named++
		}
	}
	fmt.Printf("Deleted files with no successor: %d asked, resolved to nothing %s, the deleting commit named (as `git log --diff-filter=D -1` says) %s.\n\n",
		len(deleted), pct(right, len(deleted)), pct(named, len(deleted)))
}

func staleRun(ctx context.Context, eng *rank.Engine, c benchCase, mode string, trust *reliability, verbose bool) staleOutcome {
	o := staleOutcome{cat: c.Category}
	t0 := time.Now()
	res, err := eng.Resolve(ctx, rank.ResolveRequest{Path: c.Query, Limit: 5})
	o.elapsed = time.Since(t0)
	if err != nil {
		fatal(err)
	}
	want := ""
	if c.Expected != nil {
		want = *c.Expected
	}
	trust.add("stale paths, "+mode+" history", res, want)
	switch {
	case res.Resolved == nil:
		o.none = true
	case res.Resolved.Path == want:
		o.right = true
	default:
		o.wrong = true
	}
	if verbose && !o.right {
		got := "null"
		if res.Resolved != nil {
			got = res.Resolved.Path + fmt.Sprint(res.Resolved.Reasons)
		} else if len(res.Candidates) > 0 {
			got = "null; first " + res.Candidates[0].Path + fmt.Sprint(res.Candidates[0].Reasons)
		}
		if res.Gone != nil {
			got += fmt.Sprintf(" (gone: %s deleted in %s)", res.Gone.Path, res.Gone.Fate.Commit.Short())
		}
		tag := "NONE"
		if o.wrong {
			tag = "WRONG"
		}
		fmt.Fprintf(os.Stderr, "%s %s %s %q\n    want %s\n    got  %s\n", tag, mode, c.ID, c.Query, want, got)
	}
	return o
}

func staleTable(title string, outs []staleOutcome) {
	var by tallies[string]
	all := &tally{}
	for _, o := range outs {
		m := mark{right: o.right, none: o.none, wrong: o.wrong, elapsed: o.elapsed}
		by.add(m, o.cat)
		all.add(m)
	}
	fmt.Printf("%s:\n\n| category | cases | right | nothing resolved | **wrong** | p50 ms | p99 ms |\n|---|---:|---:|---:|---:|---:|---:|\n", title)
	row := func(k string, a *tally) {
		fmt.Printf("| %s | %d | %s | %s | **%s** | %s | %s |\n", k, a.n, pct(a.right, a.n), pct(a.none, a.n), pct(a.wrong, a.n),
			ms(quantile(a.lat, 0.5)), ms(quantile(a.lat, 0.99)))
	}
	for _, k := range by.sorted(cmp.Compare[string]) {
		row(k, by.by[k])
	}
	row("**all**", all)
	fmt.Println()
}

// fzfStale is the peer: the old path typed into fzf, its first line.
func fzfStale(listing string, c benchCase) staleOutcome {
	o := staleOutcome{cat: c.Category}
	t0 := time.Now()
	first := fzfFirst(listing, c.Query)
	o.elapsed = time.Since(t0)
	switch {
	case first == "":
		o.none = true
	case c.Expected != nil && first == *c.Expected:
		o.right = true
	default:
		o.wrong = true
	}
	return o
}

// deletedRun asks for up to 40 deleted files with no successor (drawn
// with a fixed seed) and checks the answer names the commit git names.
func deletedRun(ctx context.Context, eng *rank.Engine, repo string, rec *vcs.Record, verbose bool) []staleOutcome {
	var paths []string
	for _, p := range rec.Gone() {
		if f, ok := rec.Fate(p); ok && f.Deleted && f.LastPath == p {
			paths = append(paths, p)
		}
	}
	rnd := rand.New(rand.NewSource(1))
	rnd.Shuffle(len(paths), func(i, j int) { paths[i], paths[j] = paths[j], paths[i] })
	if len(paths) > 40 {
		paths = paths[:40]
	}
	deleters := lastDeletes(repo, paths)
	var out []staleOutcome
	for _, p := range paths {
		o := staleOutcome{cat: "deleted", query: p}
		t0 := time.Now()
		res, err := eng.Resolve(ctx, rank.ResolveRequest{Path: p, Limit: 5})
		o.elapsed = time.Since(t0)
		if err != nil {
			fatal(err)
		}
		o.none = res.Resolved == nil
		o.right = res.Gone != nil && res.Gone.Fate.Commit.Hash == deleters[p]
		if res.Gone != nil {
			o.gone = res.Gone.Fate.Commit.Hash
		}
		if verbose && !(o.none && o.right) {
			fmt.Fprintf(os.Stderr, "DELETED %s: resolved %v gone %+v want %s\n", p, res.Resolved, res.Gone, deleters[p])
		}
		out = append(out, o)
	}
	return out
}

// lastDeletes is, for each of paths, the newest commit that deleted it,
// as `git log -1 --full-history --diff-filter=D -- PATH` names it (one
// log for all of them); for a path only a merge deleted, the merge on
// the first-parent line whose diff deleted it.
func lastDeletes(repo string, paths []string) map[string]string {
	out := map[string]string{}
	if len(paths) == 0 {
		return out
	}
	want := map[string]bool{}
	for _, p := range paths {
		want[p] = true
	}
	for _, args := range [][]string{{"--full-history"}, {"--first-parent", "--diff-merges=first-parent"}} {
		log, err := exec.Command("git", append(append([]string{"-C", repo, "-c", "core.quotePath=false", "log"}, args...),
			"--no-renames", "--diff-filter=D", "--name-only", "-z", "--format=%x01%H", "HEAD", "--")...).Output()
		if err != nil {
			fatal(fmt.Errorf("%s: git log: %w", repo, err))
		}
		commit := ""
		for _, f := range strings.Split(string(log), "\x00") {
			f = strings.TrimLeft(f, "\n")
			if strings.HasPrefix(f, "\x01") {
				commit = f[1:]
				continue
			}
			if want[f] && out[f] == "" {
				out[f] = commit
			}
		}
	}
	return out
}

// timeGitLog is git's own rename-following log, alone: the floor of a
// record's cold build.
// A store missing blobs stops it: the time is then that of -M100%
// (exact renames, as the record then reads), marked so.
func timeGitLog(repo string) string {
	for _, m := range []string{"-M", "-M100%"} {
		t0 := time.Now()
		cmd := exec.Command("git", "-C", repo, "log", m, "--name-status", "--no-merges", "-z", "--format=%H")
		if err := cmd.Run(); err == nil {
			s := fmt.Sprintf("%.2f", time.Since(t0).Seconds())
			if m != "-M" {
				s += " (" + m + ": blobs missing)"
			}
			return s
		}
	}
	return "failed"
}

// timeUpdate is a record brought from HEAD~10 to HEAD: a pull's cost.
func timeUpdate(ctx context.Context, repo string) time.Duration {
	old, err := vcs.BuildAt(ctx, repo, "HEAD~10", nil)
	if err != nil {
		return 0
	}
	t0 := time.Now()
	if _, err := vcs.Build(ctx, repo, old); err != nil {
		fatal(err)
	}
	return time.Since(t0)
}
