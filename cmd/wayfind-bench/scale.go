package main

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"wayfind/rank"
	"wayfind/workspace"
)

// The monorepo (issue 29): every public corpus under its own name, the
// whole repeated under team directories (team0/…, team1/…) as vendored
// copies repeat names, cut at each size asked for. Each size is laid out
// as empty files and indexed by `wayfind lsp` with a fresh cache (cold),
// then again with that cache (warm); the public cases of the corpora it
// holds whole are asked through the protocol as soon as the file index is
// ready (the passes after it still running), and again by the warm server
// once they have finished (settled); fzf beside on a sample.
//
// The cases are team0's: a resolve query and its history are prefixed
// with team0/<corpus>/, so they name what they named in the corpus; a find
// query is asked as written, and its answer is right when it is the
// expected file in any team's copy (the copies are the same files).

// scaleCorpus is one corpus's listing.
type scaleCorpus struct {
	name  string
	paths []string
}

// readScaleCorpora reads every corpus in the directory (<name>.tsv[.gz])
// once, largest first: the first size of a run can then be one corpus
// whole (test262's 56,970 files, as `make bench-lsp` has it).
func readScaleCorpora(corpora string) []scaleCorpus {
	entries, err := os.ReadDir(corpora)
	if err != nil {
		fatal(err)
	}
	var out []scaleCorpus
	for _, e := range entries {
		n := strings.TrimSuffix(strings.TrimSuffix(e.Name(), ".gz"), ".tsv")
		if n == e.Name() || n == "sources" {
			continue
		}
		paths, err := readCorpus(filepath.Join(corpora, n))
		if err != nil {
			fatal(err)
		}
		out = append(out, scaleCorpus{n, paths})
	}
	sort.Slice(out, func(a, b int) bool {
		if len(out[a].paths) != len(out[b].paths) {
			return len(out[a].paths) > len(out[b].paths)
		}
		return out[a].name < out[b].name
	})
	return out
}

// monorepo lists the paths of the largest size, in layout order.
func monorepo(cs []scaleCorpus, size int) []string {
	var out []string
	for team := 0; len(out) < size; team++ {
		for _, c := range cs {
			for _, p := range c.paths {
				out = append(out, "team"+strconv.Itoa(team)+"/"+c.name+"/"+p)
			}
		}
	}
	return out[:size]
}

// scaleCases are the cases of the corpora whole in team0 of paths.
func scaleCases(cases []benchCase, corpora []scaleCorpus, paths []string) []benchCase {
	have := map[string]int{}
	for _, p := range paths {
		if rest, ok := strings.CutPrefix(p, "team0/"); ok {
			name, _, _ := strings.Cut(rest, "/")
			have[name]++
		}
	}
	whole := map[string]bool{}
	for _, c := range corpora {
		whole[c.name] = len(c.paths) > 0 && have[c.name] == len(c.paths)
	}
	var out []benchCase
	for _, c := range cases {
		if !whole[c.Corpus] {
			continue
		}
		if c.Kind == "resolve" {
			prefix := "team0/" + c.Corpus + "/"
			if q, err := rank.ParsePath(c.Query); err == nil && !q.Absolute {
				c.Query = prefix + c.Query // another machine's absolute path stays as it was written
			}
			if c.Expected != nil {
				e := prefix + *c.Expected
				c.Expected = &e
			}
			var h []string
			for _, v := range c.History {
				h = append(h, prefix+v)
			}
			c.History = h
		}
		out = append(out, c)
	}
	return out
}

// scaleBench runs the monorepo at each size.
func scaleBench(bin, corpora, casesPath, work string, sizes []int, fzfSample, reindexes int) {
	scs := readScaleCorpora(corpora)
	var names []string
	for _, c := range scs {
		names = append(names, c.name)
	}
	cases, err := readCases(casesPath)
	if err != nil {
		fatal(err)
	}
	largest := 0
	for _, s := range sizes {
		largest = max(largest, s)
	}
	all := monorepo(scs, largest)
	fmt.Printf("The monorepo: %d corpora (%s) under team0/…, repeated under team1/… and on, cut at each size; `wayfind lsp` over stdio, one request at a time. Cold: a fresh cache; warm: the same cache, a new server. Find is right when its first answer is the expected file in any team's copy; fzf --filter beside on %d of the cases (its per-query time is the whole filter).\n\n", len(names), strings.Join(names, ", "), fzfSample)
	fmt.Println("| files | cases | cold: initialized→ready s | find(1) -type f, just before: s | warm: ready s | cold: RSS MB at ready | warm: RSS MB at ready | find top-1 | find p50 / p99 ms | resolve top-1 | resolve p50 / p99 ms | settled: find p50 / p99 ms | settled: resolve p50 / p99 ms | fzf top-1 | fzf p50 ms |")
	fmt.Println("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, size := range sizes {
		paths := all[:size]
		root := filepath.Join(work, "scale-"+strconv.Itoa(size))
		t0 := time.Now()
		if err := layout(root, paths); err != nil {
			fatal(err)
		}
		layMs := time.Since(t0)
		cs := scaleCases(cases, scs, paths)
		typos := commonNameTypos(paths, commonNames, commonEach)
		cache, err := os.MkdirTemp(work, "scale-cache-")
		if err != nil {
			fatal(err)
		}
		if os.Getenv("WAYFIND_BENCH_DROP_CACHES") != "" {
			diskCold(bin, root, work)
		}
		os.Setenv("WAYFIND_CACHE_DIR", cache)
		// The peer walks the tree first: the cold server's figure is then
		// wayfind's, not the disk's (diskCold above measures that).
		peer := walkPeer(root)
		var cold *lspServer
		outs, coldMs, rss, err := lspCorpus(bin, root, slices.Concat(cs, typos), "", false, false, func(s *lspServer) error {
			cold = s
			return nil
		})
		if err != nil {
			fatal(err)
		}
		coldPeak := cold.lifePeakMB
		// Warm: a new server on the same cache, its cases asked once the
		// passes after the file index (symbols, contents) have finished;
		// then the changes.
		var changes scaleChangeFigures
		settled, warmMs, warmRSS, err := lspCorpus(bin, root, slices.Concat(cs, typos), "", false, true, scaleChanges(root, cache, reindexes, &changes))
		noise50, noise99 := noiseProbe(len(typos)/2, noiseWork)
		if err != nil {
			fatal(err)
		}
		changes.peakMB = changes.server.lifePeakMB
		hookCalls, err := hookOnTree(bin, root, cache, typos)
		if err != nil {
			fatal(err)
		}
		hookP50, hookP90, hookRight, _, _, _ := hookFigures(hookCalls)
		os.RemoveAll(cache)
		var typoOuts, typoSettled [2][]outcome // resolve, find
		split := func(all []outcome, into *[2][]outcome) []outcome {
			return slices.DeleteFunc(all, func(o outcome) bool {
				if o.c.Category != commonTypoCategory {
					return false
				}
				k := map[bool]int{true: 0, false: 1}[o.c.Kind == "resolve"]
				into[k] = append(into[k], o)
				return true
			})
		}
		outs, settled = split(outs, &typoOuts), split(settled, &typoSettled)
		typoRow := func(asked []outcome) string {
			var lat []time.Duration
			right := 0
			for _, o := range asked {
				lat = append(lat, o.elapsed)
				if commonTypoRight(o) {
					right++
				}
			}
			return fmt.Sprintf("%s / %s ms, %s", ms(quantile(lat, 0.5)), ms(quantile(lat, 0.99)), pct(right, len(asked)))
		}
		scaleExtraRows = append(scaleExtraRows, fmt.Sprintf("| %d | %d | %s | %s | %s | %s | %s / %s ms | %.0f / %.0f | %s / %s ms, found %d of %d | %s / %s ms, read or named first %d of %d | %d: %d files, %.0f MB → %d files, %.0f MB; %d replaced files still mapped (%.0f MB) %.0f s after the idle |",
			size, len(typos)/2, typoRow(typoOuts[0]), typoRow(typoOuts[1]), typoRow(typoSettled[0]), typoRow(typoSettled[1]),
			ms(noise50), ms(noise99), coldPeak, changes.peakMB, ms(quantile(changes.added, 0.5)), ms(quantile(changes.added, 1)), changes.addedFound, len(changes.added),
			ms(hookP50), ms(hookP90), hookRight, len(hookCalls),
			changes.reindexes, changes.cacheBefore.files, float64(changes.cacheBefore.bytes)/(1<<20), changes.cacheAfter.files, float64(changes.cacheAfter.bytes)/(1<<20), changes.deleted, changes.deletedMB, changes.letGo.Seconds()))
		if extra, _ := setDiff(changes.cacheAfter.names, changes.cacheBefore.names); len(extra) > 0 {
			fmt.Fprintf(os.Stderr, "scale %d: files the reindexes left in the cache: %v\n", size, extra)
		}
		var setFind, setResolve []time.Duration
		for _, o := range settled {
			if o.c.Kind == "find" {
				setFind = append(setFind, o.elapsed)
			} else {
				setResolve = append(setResolve, o.elapsed)
			}
		}
		var findLat, resolveLat []time.Duration
		findTop, findN, resTop, resN := 0, 0, 0, 0
		for _, o := range outs {
			if o.c.Kind == "find" {
				findN++
				findLat = append(findLat, o.elapsed)
				if scaleFindRight(o) {
					findTop++
				}
			} else {
				resN++
				resolveLat = append(resolveLat, o.elapsed)
				if o.top1 {
					resTop++
				}
			}
		}
		listing := strings.Join(paths, "\n") + "\n"
		fzfTop, fzfN := 0, 0
		var fzfLat []time.Duration
		var finds []benchCase
		for _, c := range cs {
			if c.Kind == "find" {
				finds = append(finds, c)
			}
		}
		for i := 0; i < len(finds) && fzfN < fzfSample; i += max(1, len(finds)/fzfSample) {
			c := finds[i]
			t1 := time.Now()
			first := fzfFirst(listing, c.Query)
			fzfLat = append(fzfLat, time.Since(t1))
			fzfN++
			if scaleFindRight(outcome{c: c, got: first}) {
				fzfTop++
			}
		}
		fmt.Printf("| %d | %d | %.1f | %.1f | %.1f | %.0f | %.0f | %s | %s / %s | %s | %s / %s | %s / %s | %s / %s | %s of %d | %s |\n", size, len(cs),
			coldMs/1000, peer.Seconds(), warmMs/1000, rss, warmRSS, pct(findTop, findN), ms(quantile(findLat, 0.5)), ms(quantile(findLat, 0.99)),
			pct(resTop, resN), ms(quantile(resolveLat, 0.5)), ms(quantile(resolveLat, 0.99)),
			ms(quantile(setFind, 0.5)), ms(quantile(setFind, 0.99)), ms(quantile(setResolve, 0.5)), ms(quantile(setResolve, 0.99)),
			pct(fzfTop, fzfN), fzfN, ms(quantile(fzfLat, 0.5)))
		fmt.Fprintf(os.Stderr, "scale %d: laid out in %s; resolve not resolved to the file, by category: %s\n",
			size, layMs.Round(time.Millisecond), missesByCategory(outs))
		// The tails question by question, to set beside the engine's
		// alone (-scale-inproc): what the server adds, and at ready what
		// the passes running beside add (when each was asked says which).
		for _, tail := range []struct {
			name string
			outs []outcome
		}{{"at ready", outs}, {"settled", settled},
			{"at ready, common-name typos", slices.Concat(typoOuts[0], typoOuts[1])},
			{"settled, common-name typos", slices.Concat(typoSettled[0], typoSettled[1])}} {
			slices.SortFunc(tail.outs, func(a, b outcome) int { return cmp.Compare(b.elapsed, a.elapsed) })
			fmt.Fprintf(os.Stderr, "scale %d: slowest questions %s:\n", size, tail.name)
			for _, o := range tail.outs[:min(12, len(tail.outs))] {
				fmt.Fprintf(os.Stderr, "  %8s  %-7s asked %6.2f s after ready, %6d page faults  %q\n", ms(o.elapsed), o.c.Kind, o.asked.Seconds(), o.faults, o.c.Query)
			}
		}
	}
	fmt.Printf("\nQuestions and changes nobody wrote (%s: the %d most common names, %d files each, the name's 2nd and 3rd letters swapped; right: resolved to the file or, unresolved, listing it; found first). The hook: `wayfind hook` as Claude Code runs it, a Read of each typo's path, on the warm server's cache. The machine's noise beside them: a fixed computation of about %s, timed as many times as there are typo paths, in the bench's process once the settled server has finished (noiseProbe).\n\n", commonTypoCategory, commonNames, commonEach, noiseWork)
	fmt.Println("| files | typo paths | at ready: resolve p50 / p99, right | at ready: find p50 / p99, first | settled: resolve | settled: find | the machine: a fixed computation p50 / p99 | peak RSS MB cold / warm (all phases) | one file added: first answer p50 / slowest | hook: p50 / p90 | reindexes: cache before → after |")
	fmt.Println("|---:|---:|---|---|---|---|---|---|---|---|---|")
	for _, r := range scaleExtraRows {
		fmt.Println(r)
	}
}

// noiseWork is the fixed computation the machine's noise is timed on:
// about what the slowest common-name typos take to answer.
const noiseWork = 15 * time.Millisecond

// The common-name typos: the commonNames most common names, commonEach
// files of each — three hundred questions of each kind, so that their
// p99 is the third slowest, not the second of a hundred: on a machine
// whose own fixed computation reads twice its median a few times in a
// hundred, the second slowest of a hundred measures the machine's worst
// moments more than the questions.
const (
	commonNames = 20
	commonEach  = 15
)

// scaleExtraRows are the second table's rows, one a size, printed after
// the first (scaleBench).
var scaleExtraRows []string

// setDiff is what a has that b has not (both any order), and the reverse.
func setDiff(a, b []string) (onlyA, onlyB []string) {
	for _, x := range a {
		if !slices.Contains(b, x) {
			onlyA = append(onlyA, x)
		}
	}
	for _, x := range b {
		if !slices.Contains(a, x) {
			onlyB = append(onlyB, x)
		}
	}
	return onlyA, onlyB
}

// walkPeer is how long find(1) takes to list the files under root: the
// floor a walk of the tree has on this machine now, beside wayfind's
// cold start in the same run.
func walkPeer(root string) time.Duration {
	t0 := time.Now()
	cmd := exec.Command("find", root, "-type", "f")
	cmd.Stdout = io.Discard
	if err := cmd.Run(); err != nil {
		fatal(fmt.Errorf("find %s: %w", root, err))
	}
	return time.Since(t0)
}

// diskCold starts a server with a fresh cache after the kernel has
// dropped its caches (root only: WAYFIND_BENCH_DROP_CACHES), and then
// find(1) after dropping them again: the cold start where the tree's
// directories must come off the disk, beside the same walk by find.
func diskCold(bin, root, work string) {
	drop := func() {
		exec.Command("sync").Run()
		if err := os.WriteFile("/proc/sys/vm/drop_caches", []byte("3"), 0); err != nil {
			fatal(fmt.Errorf("WAYFIND_BENCH_DROP_CACHES: %w", err))
		}
	}
	cache, err := os.MkdirTemp(work, "scale-cache-")
	if err != nil {
		fatal(err)
	}
	defer os.RemoveAll(cache)
	os.Setenv("WAYFIND_CACHE_DIR", cache)
	drop()
	_, readyMs, rss, err := lspCorpus(bin, root, nil, "", false, false, nil)
	if err != nil {
		fatal(err)
	}
	drop()
	peer := walkPeer(root)
	fmt.Fprintf(os.Stderr, "%s: the kernel's caches dropped: initialized→ready %.1f s (RSS %.0f MB); find(1) -type f, caches dropped again: %.1f s\n",
		root, readyMs/1000, rss, peer.Seconds())
}

// inprocRight is a monorepo question answered right in-process: a
// common-name typo as the server's bench counts it, a find's expected
// file first in any team's copy, a resolve's resolved.
func inprocRight(o outcome) bool {
	switch {
	case o.c.Category == commonTypoCategory:
		return commonTypoRight(o)
	case o.c.Kind == "find":
		return scaleFindRight(o)
	default:
		return o.top1
	}
}

// commonTypoRight is a common-name typo answered right: its file first,
// or, for resolve, its file listed and nothing resolved wrong (a typo in a
// name a hundred files share is a candidate, not a promise).
func commonTypoRight(o outcome) bool {
	return o.top1 || o.c.Kind == "resolve" && o.at5 && !o.wrong
}

// scaleFindRight: a find answer is right when it is the expected file in
// any team's copy (or nothing, when nothing is expected).
func scaleFindRight(o outcome) bool {
	if o.c.Expected == nil {
		return o.got == ""
	}
	return strings.HasSuffix(o.got, "/"+o.c.Corpus+"/"+*o.c.Expected) && strings.HasPrefix(o.got, "team")
}

// missesByCategory counts the resolve cases not resolved to their file,
// by category, largest first.
func missesByCategory(outs []outcome) string {
	n := map[string]int{}
	for _, o := range outs {
		if o.c.Kind == "resolve" && !o.top1 {
			n[o.c.Category]++
		}
	}
	var cats []string
	for c := range n {
		cats = append(cats, c)
	}
	sort.Slice(cats, func(a, b int) bool { return n[cats[a]] > n[cats[b]] || n[cats[a]] == n[cats[b]] && cats[a] < cats[b] })
	var parts []string
	for _, c := range cats {
		parts = append(parts, fmt.Sprintf("%s %d", c, n[c]))
	}
	return strings.Join(parts, ", ")
}

// scaleInProcess answers the monorepo's cases at size files in-process,
// the engine over the listing (no tree, no server), and prints latency by
// kind and the slowest questions: where the protocol's p99 is the ranking
// and not the server around it. With -cpuprofile and -memprofile, the
// questions' profiles (the latter of what they allocate, sampled finely
// enough to see a question's 0.2 MB).
func scaleInProcess(corpora, casesPath string, size int, cpuprofile, memprofile string) {
	scs := readScaleCorpora(corpora)
	cases, err := readCases(casesPath)
	if err != nil {
		fatal(err)
	}
	paths := monorepo(scs, size)
	files := make([]workspace.File, len(paths))
	for i, p := range paths {
		files[i] = workspace.File{Path: p}
	}
	workspace.SortFiles(files)
	t0 := time.Now()
	eng := rank.New(workspace.NewIndex([]string{"/scale"}, files))
	build := time.Since(t0)
	cs := slices.Concat(scaleCases(cases, scs, paths), commonNameTypos(paths, commonNames, commonEach))
	if only := os.Getenv("WAYFIND_BENCH_ONLY"); only != "" {
		// A developer's few questions (their queries, "|" between; a
		// case's ID, kind:query, for one kind; or a category's name:
		// every question of it), each asked benchRepeats times: the
		// profile of a tail.
		want := strings.Split(only, "|")
		var some []benchCase
		for _, c := range cs {
			if slices.Contains(want, c.Query) || slices.Contains(want, c.ID) || slices.Contains(want, c.Category) {
				for range benchRepeats() {
					some = append(some, c)
				}
			}
		}
		cs = some
	}
	if cpuprofile != "" {
		f, err := os.Create(cpuprofile)
		if err != nil {
			fatal(err)
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	if memprofile != "" {
		runtime.MemProfileRate = 4 << 10
		defer func() {
			f, err := os.Create(memprofile)
			if err != nil {
				fatal(err)
			}
			defer f.Close()
			runtime.GC() // the profile is as of the last collection
			pprof.Lookup("allocs").WriteTo(f, 0)
		}()
	}
	var outs []outcome
	lat := map[string][]time.Duration{} // by group: the kind, the common-name typos apart
	alloc := map[string]uint64{}        // bytes allocated by each group's questions
	group := func(c benchCase) string {
		if c.Category == commonTypoCategory {
			return c.Kind + ", " + commonTypoCategory
		}
		return c.Kind
	}
	groups := []string{"find", "resolve", "find, " + commonTypoCategory, "resolve, " + commonTypoCategory}
	var before, after runtime.MemStats
	for _, c := range cs {
		runtime.ReadMemStats(&before)
		o := run(eng, c)
		runtime.ReadMemStats(&after)
		alloc[group(c)] += after.TotalAlloc - before.TotalAlloc
		outs = append(outs, o)
		lat[group(c)] = append(lat[group(c)], o.elapsed)
	}
	defer func() {
		for _, g := range groups {
			if n := len(lat[g]); n > 0 {
				fmt.Printf("%s: %.2f MB allocated a question on average\n", g, float64(alloc[g])/float64(n)/(1<<20))
			}
		}
	}()
	fmt.Printf("| files | engine build ms | questions | cases | top-1 | p50 ms | p99 ms | max ms |\n|---:|---:|---|---:|---:|---:|---:|---:|\n")
	for _, g := range groups {
		top := 0
		for _, o := range outs {
			if group(o.c) == g && inprocRight(o) {
				top++
			}
		}
		d := lat[g]
		if len(d) == 0 {
			continue
		}
		fmt.Printf("| %d | %.0f | %s | %d | %s | %s | %s | %s |\n", size, float64(build.Milliseconds()), g, len(d), pct(top, len(d)),
			ms(quantile(d, 0.5)), ms(quantile(d, 0.99)), ms(quantile(d, 1)))
	}
	slices.SortFunc(outs, func(a, b outcome) int { return cmp.Compare(b.elapsed, a.elapsed) })
	shown := 15
	if os.Getenv("WAYFIND_BENCH_ONLY") != "" {
		shown = len(outs) // a developer's few: every answer, to take medians
	}
	fmt.Println("\nslowest:")
	for _, o := range outs[:min(shown, len(outs))] {
		fmt.Printf("  %8s  %-7s %q\n", ms(o.elapsed), o.c.Kind, o.c.Query)
	}
}

// benchRepeats is how many times WAYFIND_BENCH_ONLY's questions are
// asked: WAYFIND_BENCH_REPEAT, else ten.
func benchRepeats() int {
	if n, err := strconv.Atoi(os.Getenv("WAYFIND_BENCH_REPEAT")); err == nil && n > 0 {
		return n
	}
	return 10
}

// scaleHookBench is `scale -hook-only`: at each size, the monorepo's
// cache written by a one-shot `wayfind resolve` (the base a hook finds
// warm), then the common-name typos through the hook as Claude Code runs
// it, the daemon it starts answering once it can; the kernel's watch
// limit beside, since past it the daemon watches the tree in part and
// stats the rest for each answer.
func scaleHookBench(bin, corpora, work string, sizes []int) {
	scs := readScaleCorpora(corpora)
	largest := slices.Max(sizes)
	all := monorepo(scs, largest)
	limit, _ := os.ReadFile("/proc/sys/fs/inotify/max_user_watches")
	fmt.Printf("The hook on the monorepo (scale's tree, its common-name typos as Reads), the cache warm from a one-shot `wayfind resolve`; inotify's watch limit %s. A call is the daemon's when the hook log says so.\n\n", strings.TrimSpace(string(limit)))
	fmt.Println("| files | directories | calls | p50 / p90 ms | read or named first | the daemon's: calls, p50 ms | the daemon's first answer: call |")
	fmt.Println("|---:|---:|---:|---:|---:|---:|---:|")
	for _, size := range sizes {
		paths := all[:size]
		root := filepath.Join(work, "scale-"+strconv.Itoa(size))
		if err := layout(root, paths); err != nil {
			fatal(err)
		}
		typos := commonNameTypos(paths, commonNames, commonEach)
		cache, err := os.MkdirTemp(work, "scale-cache-")
		if err != nil {
			fatal(err)
		}
		warm := exec.Command(bin, "resolve", "--root", root, "--quiet", "no/such/file")
		warm.Env = append(os.Environ(), "WAYFIND_CACHE_DIR="+cache)
		_ = warm.Run() // exit 100: nothing found; the base is written
		dirs := map[string]bool{}
		for _, p := range paths {
			for d := path.Dir(p); d != "." && !dirs[d]; d = path.Dir(d) {
				dirs[d] = true
			}
		}
		calls, err := hookOnTree(bin, root, cache, typos)
		if err != nil {
			fatal(err)
		}
		os.RemoveAll(cache)
		p50, p90, right, byDaemon, daemonP50, first := hookFigures(calls)
		fmt.Printf("| %d | %d | %d | %s / %s | %d | %d, %s | %d |\n", size, len(dirs), len(calls), ms(p50), ms(p90), right, byDaemon, ms(daemonP50), first)
	}
}
