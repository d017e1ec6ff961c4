package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"wayfind/content"
	"wayfind/rank"
	"wayfind/symbols"
	"wayfind/workspace"
)

// locateCase is one question of scripts/genlocate.py: a definition, a name
// as words or a phrase of a comment, with the one file that answers it and
// the grep command a grep-style agent would run.
type locateCase struct {
	ID       string   `json:"id"`
	Tree     string   `json:"tree"`
	Category string   `json:"category"`
	Query    string   `json:"query"`
	Expected string   `json:"expected"`
	Grep     []string `json:"grep"`
}

type locateOutcome struct {
	c          locateCase
	got        string
	confidence float64
	elapsed    time.Duration // the server's round trip, median of the runs
	grepTop1   bool
	grepTime   time.Duration
}

// confidentAt is the confidence at which an agent acts on locate's answer
// (rank.DefaultMinConfidence): answers at or above it must be right.
const confidentAt = 0.7

// locateBench generates the question set of each tree (name=dir), asks
// every question through `wayfind lsp` once its indexes have settled, asks
// grep the same in the same run, and times the warm CLI on a sample.
func locateBench(bin string, trees []string, runs, cliSample int, verbose bool, cacheDir string, inproc bool, seed int) {
	var all []locateOutcome
	for _, t := range trees {
		name, dir, ok := strings.Cut(t, "=")
		if !ok {
			fatal(fmt.Errorf("-locate wants name=dir, got %q", t))
		}
		dir, err := filepath.Abs(dir)
		if err != nil {
			fatal(err)
		}
		cases, err := locateCases(name, dir, cacheDir, seed)
		if err != nil {
			fatal(err)
		}
		if inproc {
			all = append(all, locateInProcess(name, dir, cases, verbose)...)
			continue
		}
		s, err := startLSP(bin)
		if err != nil {
			fatal(err)
		}
		t0 := time.Now()
		if _, _, err := s.open(dir, true); err != nil {
			fatal(err)
		}
		fmt.Printf("%s: %s, %d questions, server settled in %.1f s\n", name, dir, len(cases), time.Since(t0).Seconds())
		var outs []locateOutcome
		for _, c := range cases {
			o := locateOutcome{c: c}
			var times []time.Duration
			for r := 0; r < runs; r++ {
				var res struct {
					Results []struct {
						Path string `json:"path"`
					} `json:"results"`
					Confidence float64 `json:"confidence"`
				}
				t1 := time.Now()
				err := s.call("find/locate", map[string]any{"query": c.Query, "limit": 10}, &res)
				times = append(times, time.Since(t1))
				if err != nil {
					o.got = "error: " + err.Error()
					continue
				}
				o.got, o.confidence = "", res.Confidence
				if len(res.Results) > 0 {
					o.got = res.Results[0].Path
				}
			}
			o.elapsed = quantile(times, 0.5)
			t2 := time.Now()
			o.grepTop1 = grepFirst(dir, c.Grep) == c.Expected
			o.grepTime = time.Since(t2)
			outs = append(outs, o)
		}
		s.stop()
		cli := cliLocate(bin, dir, cases, cliSample)
		printLocate(name, outs, cli)
		all = append(all, outs...)
		if verbose {
			for _, o := range outs {
				if o.got != o.c.Expected {
					fmt.Printf("  miss %s %q: got %s (%.2f), want %s\n", o.c.ID, o.c.Query, o.got, o.confidence, o.c.Expected)
				}
			}
		}
	}
	var total tally
	for _, o := range all {
		total.add(locateMark(o))
	}
	confident, wrong := total.acted, total.wrong
	fmt.Printf("\nall trees: %d questions, %d answered with confidence ≥ %.1f, %d of those wrong; confident-wrong %s of all questions\n",
		len(all), confident, confidentAt, wrong, pct(wrong, len(all)))
}

// locateCases lists the tree as the product does and runs the generator
// (or reads what it wrote into cacheDir before).
func locateCases(name, dir, cacheDir string, seed int) ([]locateCase, error) {
	cached := ""
	if cacheDir != "" {
		cached = filepath.Join(cacheDir, fmt.Sprintf("%s-%d.jsonl", name, seed))
		if out, err := os.ReadFile(cached); err == nil {
			return parseLocateCases(out)
		}
	}
	ix := workspace.Build([]string{dir}, workspace.Options{})
	list, err := os.CreateTemp("", "wayfind-locate-*.txt")
	if err != nil {
		return nil, err
	}
	defer os.Remove(list.Name())
	for _, f := range ix.Files() {
		_, rel, _ := ix.RootOf(ix.Abs(f))
		fmt.Fprintln(list, rel)
	}
	if err := list.Close(); err != nil {
		return nil, err
	}
	cmd := exec.Command("python3", "scripts/genlocate.py", "--root", dir, "--files", list.Name(), "--name", name, "--seed", fmt.Sprint(seed))
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("genlocate.py: %w", err)
	}
	if cached != "" {
		if err := os.MkdirAll(cacheDir, 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(cached, out, 0o644); err != nil {
			return nil, err
		}
	}
	return parseLocateCases(out)
}

func parseLocateCases(out []byte) ([]locateCase, error) {
	var cases []locateCase
	for _, line := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		var c locateCase
		if err := json.Unmarshal(line, &c); err != nil {
			return nil, err
		}
		cases = append(cases, c)
	}
	return cases, nil
}

// grepFirst is a grep-style agent's answer: the first file (in path order,
// as `rg --sort path` lists them) of the case's grep command.
func grepFirst(dir string, args []string) string {
	cmd := exec.Command("grep", append(append([]string{"-I"}, args...), ".")...)
	cmd.Dir = dir
	out, _ := cmd.Output()
	var files []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if l != "" {
			files = append(files, strings.TrimPrefix(l, "./"))
		}
	}
	sort.Strings(files)
	if len(files) == 0 {
		return ""
	}
	return files[0]
}

// cliLocate times `wayfind locate` end to end on n questions spread over
// the set, after one call has warmed the caches: the median wall time.
func cliLocate(bin, dir string, cases []locateCase, n int) time.Duration {
	if n <= 0 || len(cases) == 0 {
		return 0
	}
	ask := func(q string) time.Duration {
		cmd := exec.Command(bin, "locate", "--root", dir, "--quiet", q)
		t0 := time.Now()
		_ = cmd.Run()
		return time.Since(t0)
	}
	ask(cases[0].Query)
	var times []time.Duration
	for i := 0; i < n; i++ {
		times = append(times, ask(cases[i*len(cases)/n].Query))
	}
	return quantile(times, 0.5)
}

// locateMark is a locate answer as a tally counts it: right, the file
// meant first; acted on, answered at confidentAt or above (wrong: and not
// the file meant); fzf, the grep-style peer's first file; and the two
// times.
func locateMark(o locateOutcome) mark {
	conf := o.confidence >= confidentAt
	return mark{right: o.got == o.c.Expected, acted: conf, wrong: conf && o.got != o.c.Expected, fzf: o.grepTop1,
		elapsed: o.elapsed, peerElapsed: o.grepTime}
}

func printLocate(name string, outs []locateOutcome, cli time.Duration) {
	fmt.Printf("\n| %s | questions | wayfind top-1 | grep top-1 | confident (≥ %.1f) | confident wrong | server p50 ms | server p95 ms | grep p50 ms |\n", name, confidentAt)
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	var rows tallies[string]
	for _, o := range outs {
		rows.add(locateMark(o), o.c.Category, "all")
	}
	for _, cat := range []string{"definition", "words", "phrase", "all"} {
		t := rows.row(cat)
		fmt.Printf("| %s | %d | %s | %s | %d | %d | %s | %s | %s |\n", cat, t.n, pct(t.right, t.n), pct(t.fzf, t.n), t.acted, t.wrong,
			ms(quantile(t.lat, 0.5)), ms(quantile(t.lat, 0.95)), ms(quantile(t.peerLat, 0.5)))
	}
	if cli > 0 {
		fmt.Printf("\n%s: warm CLI `wayfind locate` end to end, median %s ms\n", name, ms(cli))
	}
}

// locateInProcess answers the cases with the engine built in-process as
// the CLI builds it (symbols from the cache, contents read): accuracy
// only, for working on the engine.
func locateInProcess(name, dir string, cases []locateCase, verbose bool) []locateOutcome {
	ctx := context.Background()
	ix := workspace.Build([]string{dir}, workspace.Options{})
	table, _, err := symbols.NewIndexer(symbols.IndexerOptions{}).Sync(ctx, ix)
	if err != nil {
		fatal(err)
	}
	var cx content.Indexer
	ci, err := cx.Sync(ctx, ix)
	if err != nil {
		fatal(err)
	}
	eng := rank.New(ix).WithSymbols(rank.NewSymbolIndex(table, ix.Roots)).WithContent(ci)
	var outs []locateOutcome
	for _, c := range cases {
		o := locateOutcome{c: c}
		t0 := time.Now()
		res, err := eng.Locate(ctx, rank.LocateRequest{Query: c.Query, Limit: 10})
		o.elapsed = time.Since(t0)
		switch {
		case err != nil:
			o.got = "error: " + err.Error()
		case len(res.Results) > 0:
			o.got, o.confidence = res.Results[0].Path, res.Confidence
		}
		outs = append(outs, o)
		if verbose && o.elapsed > 20*time.Millisecond {
			fmt.Printf("  slow %s %q: %.1f ms (%v)\n", c.ID, c.Query, float64(o.elapsed.Microseconds())/1000, res.Strategies)
		}
		if verbose && o.got != c.Expected {
			why := ""
			if res != nil && len(res.Results) > 0 {
				why = res.Results[0].Reason
			}
			fmt.Printf("  miss %s %q: got %s (%.2f; %s), want %s\n", c.ID, c.Query, o.got, o.confidence, why, c.Expected)
		}
	}
	printLocate(name, outs, 0)
	return outs
}
