// Command wayfind-bench measures what docs/BENCHMARKS.md records, one
// subcommand a question (commands.go: `wayfind-bench COMMAND [flags]`,
// each called by a make bench-* target), every figure beside a peer
// measured in the same run.
//
// find, the public cases: each corpus (a list of real paths) is laid out
// once as a tree of empty files under -work, indexed from a cold start
// like a user's checkout, and every case is answered by the same
// rank.Engine the CLI and LSP call, and by fzf --filter.
package main

import (
	"bufio"
	"cmp"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"wayfind/rank"
	"wayfind/workspace"
)

type benchCase struct {
	ID       string   `json:"id"`
	Corpus   string   `json:"corpus"`
	Kind     string   `json:"kind"`
	Category string   `json:"category"`
	Query    string   `json:"query"`
	Expected *string  `json:"expected"`
	History  []string `json:"history"`
}

type outcome struct {
	c       benchCase
	top1    bool
	at5     bool
	wrong   bool // resolved set, but not to the expected file
	elapsed time.Duration
	// asked is when the question was asked, from the server's ready
	// (-lsp runs): a slow answer early on shares the machine with the
	// passes that follow the file index.
	asked time.Duration
	// faults: the server's page faults while it answered (-lsp runs):
	// pages of its mapped files read back in, a slow answer's likely
	// cause once they were dropped.
	faults  int64
	fzfTop1 bool
	got     string
	// fzfElapsed is fzf --filter's wall time on the case (-lsp runs only):
	// the peer's latency, process start included, as an editor plugin
	// calling fzf pays it.
	fzfElapsed time.Duration
	// first is the first candidate or match (resolve's answer when it
	// has one); rerank the model's part in the request.
	first  string
	rerank rank.RerankStats
}

func main() {
	if len(os.Args) < 2 || subcommands[os.Args[1]].run == nil {
		usage()
		os.Exit(2)
	}
	if err := subcommands[os.Args[1]].run(os.Args[2:]); err != nil && !errors.Is(err, flag.ErrHelp) {
		fatal(err)
	}
}

// findCmd runs the public cases (find and resolve) through the engine
// in-process, beside fzf --filter on the same case (make bench).
func findCmd(args []string) error {
	fs := newFlags("find")
	cf := addCaseFlags(fs)
	useFzf := fs.Bool("fzf", true, "run fzf --filter on every case as the peer")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the queries here")
	scale := fs.Int("scale", 0, "also index this many paths (the largest corpus replicated under prefixes) and report memory")
	repeat := fs.Int("repeat", 1, "answer every case this many times and time the median (warm caches)")
	names, byCorpus, err := parseWithCases(fs, cf, args, useFzf)
	if err != nil {
		return err
	}
	stop, err := profileCPU(*cpuprofile)
	if err != nil {
		return err
	}
	defer stop()
	header("bench", "")
	corpora, work, verbose := *cf.corpora, *cf.work, *cf.verbose
	fmt.Println("| corpus | files | walk ms | engine ms | index ms total | heap MB | bytes/file | RSS MB |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|")
	var all []outcome
	for _, name := range names {
		paths, root := corpusTree(corpora, work, name)
		eng, stats := index(root)
		fmt.Printf("| %s | %d | %.0f | %.0f | %.0f | %.1f | %.0f | %.0f |\n", name, eng.Len(), stats.walk, stats.engine, stats.walk+stats.engine, stats.heapMB, stats.bytesPerFile, rssMB())
		var listing string
		if *useFzf {
			listing = strings.Join(paths, "\n") + "\n"
		}
		for _, c := range byCorpus[name] {
			o := run(eng, c)
			if *repeat > 1 {
				times := []time.Duration{o.elapsed}
				for range *repeat - 1 {
					times = append(times, run(eng, c).elapsed)
				}
				sort.Slice(times, func(a, b int) bool { return times[a] < times[b] })
				o.elapsed = times[len(times)/2]
			}
			if *useFzf {
				o.fzfTop1 = fzfTop1(listing, c)
			}
			all = append(all, o)
		}
		runtime.GC()
	}
	report(all, *useFzf, verbose)
	fmt.Println("Resolve's answers by basis and by confidence (a bucket of confidence p should be right at least p of the time; a case expecting nothing counts every candidate wrong):")
	fmt.Println()
	publicTrust.print()
	fmt.Println()
	if *scale > 0 {
		scaleTest(corpora, names, *scale)
	}
	return nil
}

// scaleTest measures memory at a size no public corpus has: the largest
// corpus's paths replicated under copyN/ prefixes until n paths, indexed
// from an in-memory file list (the walk's memory is transient; what stays
// resident is the index and the engine).
func scaleTest(corpora string, names []string, n int) {
	var largest []string
	for _, name := range names {
		if p, err := readCorpus(filepath.Join(corpora, name)); err == nil && len(p) > len(largest) {
			largest = p
		}
	}
	if len(largest) == 0 {
		return
	}
	var eng *rank.Engine
	var build time.Duration
	var rssBefore float64
	heap := heapGrowth(func() {
		rssBefore = rssMB() // after the collection heapGrowth starts with
		files := make([]workspace.File, 0, n)
		for i := 0; len(files) < n; i++ {
			for _, p := range largest {
				if len(files) == n {
					break
				}
				files = append(files, workspace.File{Path: fmt.Sprintf("copy%d/%s", i, p)})
			}
		}
		sort.Slice(files, func(a, b int) bool { return files[a].Path < files[b].Path })
		t0 := time.Now()
		eng = rank.New(workspace.NewIndex([]string{"/scale"}, files))
		build = time.Since(t0)
	})
	start := time.Now()
	res, _ := eng.Resolve(context.Background(), rank.ResolveRequest{Path: "copy3/test/built-ins/Array/prototype/slice/create-speices.js"})
	q := time.Since(start)
	fmt.Printf("\n| scale | files | engine build ms | heap MB (index + engine) | bytes/file | RSS MB (process) | one resolve ms | resolved |\n|---|---:|---:|---:|---:|---:|---:|---|\n")
	got := "null"
	if res != nil && res.Resolved != nil {
		got = res.Resolved.Path
	}
	fmt.Printf("| replicated | %d | %.0f | %.1f | %.0f | %.0f (was %.0f) | %s | %s |\n", eng.Len(), float64(build.Milliseconds()), heap/(1<<20), heap/float64(n), rssMB(), rssBefore, ms(q), got)
	runtime.KeepAlive(eng)
}

type indexStats struct {
	walk, engine float64 // ms
	heapMB       float64
	bytesPerFile float64
}

// heapGrowth runs f and returns how many bytes of live heap it left behind.
func heapGrowth(f func()) float64 {
	runtime.GC()
	debug.FreeOSMemory()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.GC()
	runtime.ReadMemStats(&after)
	return float64(after.HeapAlloc) - float64(before.HeapAlloc)
}

func index(root string) (*rank.Engine, indexStats) {
	var eng *rank.Engine
	var t0, t1, t2 time.Time
	heap := heapGrowth(func() {
		t0 = time.Now()
		roots, err := workspace.CleanRoots([]string{root})
		if err != nil {
			fatal(err)
		}
		ix := workspace.Build(roots, workspace.Options{NoIgnoreFiles: true})
		t1 = time.Now()
		eng = rank.New(ix)
		t2 = time.Now()
	})
	return eng, indexStats{
		walk:         float64(t1.Sub(t0).Microseconds()) / 1000,
		engine:       float64(t2.Sub(t1).Microseconds()) / 1000,
		heapMB:       heap / (1 << 20),
		bytesPerFile: heap / float64(max(eng.Len(), 1)),
	}
}

// publicTrust tallies the public resolve cases' answers by basis and
// confidence (reliability.go); run adds to it, main prints it after the
// report.
var publicTrust = newReliability()

func run(eng *rank.Engine, c benchCase) outcome {
	o := outcome{c: c}
	want := ""
	if c.Expected != nil {
		want = *c.Expected
	}
	ctx := context.Background()
	start := time.Now()
	if c.Kind == "resolve" {
		res, err := eng.Resolve(ctx, rank.ResolveRequest{Path: c.Query, History: rank.Recency(c.History), Limit: 5})
		o.elapsed = time.Since(start)
		if err != nil {
			o.got = "error: " + err.Error()
			return o
		}
		if res.Resolved != nil {
			o.got = res.Resolved.Path
		}
		if len(res.Candidates) > 0 {
			o.first = res.Candidates[0].Path
		}
		publicTrust.add("public cases", res, want)
		o.rerank = res.Rerank
		o.top1 = o.got == want
		o.wrong = res.Resolved != nil && o.got != want
		for i, cand := range res.Candidates {
			if i < 5 && cand.Path == want {
				o.at5 = true
			}
		}
		if want == "" {
			o.at5 = o.top1
		}
		return o
	}
	res, err := eng.Find(ctx, rank.FindRequest{Query: c.Query, Limit: 5})
	o.elapsed = time.Since(start)
	if err != nil {
		o.got = "error: " + err.Error()
		return o
	}
	for i, m := range res.Matches {
		if i == 0 {
			o.got = m.Path
		}
		if m.Path == want {
			o.at5 = true
		}
	}
	o.first = o.got
	o.rerank = res.Rerank
	o.top1 = o.got == want
	if want == "" { // a no-match case: passed when nothing is listed
		o.at5 = o.top1
	}
	return o
}

// fzfFirst is fzf's first line for query over listing ("" when nothing
// matches).
func fzfFirst(listing, query string) string {
	cmd := exec.Command("fzf", "--filter", query, "--scheme=path")
	cmd.Stdin = strings.NewReader(listing)
	out, err := cmd.Output()
	if execErr := (*exec.Error)(nil); errors.As(err, &execErr) {
		// Not the exit status of no match (1): no peer to measure beside.
		fatal(fmt.Errorf("fzf, the peer the find figures stand beside, cannot run (%w): make deps installs it", err))
	}
	first, _, _ := strings.Cut(string(out), "\n")
	return first
}

// fzfTop1 asks fzf for its first line, as a person piping a file list to it
// would. fzf exits 1 when nothing matches.
func fzfTop1(listing string, c benchCase) bool {
	first := fzfFirst(listing, c.Query)
	if c.Expected == nil {
		return first == ""
	}
	return first == *c.Expected
}

// markOf is a public case's outcome as a tally counts it: right is
// top-1 (find's first match; resolve's resolved file, or nothing when
// nothing is meant); first the resolved file, else the first candidate.
func markOf(o outcome) mark {
	return mark{right: o.top1, wrong: o.wrong, first: o.top1 || o.c.Expected != nil && o.first == *o.c.Expected,
		at5: o.at5, fzf: o.fzfTop1, elapsed: o.elapsed}
}

// tallyOutcomes tallies outcomes by kind/category and by kind (resolve,
// find).
func tallyOutcomes(all []outcome) (cats, kinds *tallies[string]) {
	cats, kinds = &tallies[string]{}, &tallies[string]{}
	kinds.row("resolve")
	kinds.row("find")
	for _, o := range all {
		m := markOf(o)
		cats.add(m, o.c.Kind+"/"+o.c.Category)
		if o.c.Kind == "resolve" || o.c.Kind == "find" {
			kinds.add(m, o.c.Kind)
		}
	}
	return cats, kinds
}

func report(all []outcome, withFzf bool, verbose bool) {
	cats, kinds := tallyOutcomes(all)
	latByCorpus := map[string][]time.Duration{}
	for _, o := range all {
		latByCorpus[o.c.Corpus] = append(latByCorpus[o.c.Corpus], o.elapsed)
		if verbose && o.elapsed > 5*time.Millisecond {
			fmt.Fprintf(os.Stderr, "SLOW %s %q %s ms\n", o.c.ID, o.c.Query, ms(o.elapsed))
		}
		if verbose && !o.top1 {
			exp := "null"
			if o.c.Expected != nil {
				exp = *o.c.Expected
			}
			tag := "FAIL"
			if o.wrong {
				tag = "WRONG"
			}
			fmt.Fprintf(os.Stderr, "%s %s %q\n    want %s\n    got  %s\n", tag, o.c.ID, o.c.Query, exp, o.got)
		}
	}
	fzfCol := func(a *tally) string {
		if !withFzf {
			return "—"
		}
		return pct(a.fzf, a.n)
	}
	fmt.Println()
	// top-1: resolve's resolved file (or nothing, when nothing is meant),
	// find's first match; first: the resolved file, else the first
	// candidate, is the one meant.
	fmt.Println("| kind/category | cases | top-1 | first | recall@5 | resolved-but-wrong | p50 ms | p99 ms | fzf top-1 |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, k := range cats.sorted(cmp.Compare[string]) {
		a := cats.by[k]
		fmt.Printf("| %s | %d | %s | %s | %s | %s | %s | %s | %s |\n", k, a.n, pct(a.right, a.n), pct(a.first, a.n), pct(a.at5, a.n), wrongCol(k, a.wrong, a.n), ms(quantile(a.lat, 0.5)), ms(quantile(a.lat, 0.99)), fzfCol(a))
	}
	for _, k := range []string{"resolve", "find"} {
		a := kinds.by[k]
		fmt.Printf("| **all %s** | %d | **%s** | **%s** | %s | %s | %s | %s | %s |\n", k, a.n, pct(a.right, a.n), pct(a.first, a.n), pct(a.at5, a.n), wrongCol(k, a.wrong, a.n), ms(quantile(a.lat, 0.5)), ms(quantile(a.lat, 0.99)), fzfCol(a))
	}
	fmt.Println()
	fmt.Println("| corpus | queries | p50 ms | p99 ms | max ms |")
	fmt.Println("|---|---:|---:|---:|---:|")
	var cs []string
	for c := range latByCorpus {
		cs = append(cs, c)
	}
	sort.Strings(cs)
	for _, c := range cs {
		l := latByCorpus[c]
		fmt.Printf("| %s | %d | %s | %s | %s |\n", c, len(l), ms(quantile(l, 0.5)), ms(quantile(l, 0.99)), ms(quantile(l, 1)))
	}
}

func wrongCol(k string, wrong, n int) string {
	if strings.HasPrefix(k, "find") {
		return "—"
	}
	return pct(wrong, n)
}

func pct(a, n int) string {
	if n == 0 {
		return "—"
	}
	return strconv.FormatFloat(100*float64(a)/float64(n), 'f', 1, 64) + "%"
}

func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 3, 64)
}

func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(a, b int) bool { return s[a] < s[b] })
	i := int(q*float64(len(s)-1) + 0.5)
	return s[min(i, len(s)-1)]
}

func readCases(p string) ([]benchCase, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readJSONLines[benchCase](f, p)
}

// readJSONLines reads one JSON value a line (blank lines skipped) from r;
// an error names the file.
func readJSONLines[T any](r io.Reader, name string) ([]T, error) {
	var out []T
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

// readCorpus reads <base>.tsv or <base>.tsv.gz: one "path\tsize" a line.
func readCorpus(base string) ([]string, error) {
	var r io.Reader
	f, err := os.Open(base + ".tsv")
	if err != nil {
		f, err = os.Open(base + ".tsv.gz")
		if err != nil {
			return nil, err
		}
		gz, err := gzip.NewReader(f)
		if err != nil {
			return nil, err
		}
		r = gz
	} else {
		r = f
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		p, _, _ := strings.Cut(sc.Text(), "\t")
		if p != "" {
			out = append(out, p)
		}
	}
	return out, sc.Err()
}

// corpusTree reads a corpus's paths and lays them out as empty files under
// work/name.
func corpusTree(corpora, work, name string) (paths []string, root string) {
	paths, err := readCorpus(filepath.Join(corpora, name))
	if err != nil {
		fatal(err)
	}
	root = filepath.Join(work, name)
	if err := layout(root, paths); err != nil {
		fatal(err)
	}
	return paths, root
}

// layout creates the corpus as empty files under root, once: a marker
// records the number of paths so a changed corpus is laid out again.
func layout(root string, paths []string) error {
	return layoutWith(root, paths, func(string) []byte { return nil })
}

// layoutWith lays the corpus out with each file's text from content.
func layoutWith(root string, paths []string, content func(path string) []byte) error {
	marker := filepath.Join(filepath.Dir(root), "."+filepath.Base(root)+".done")
	if b, err := os.ReadFile(marker); err == nil && string(b) == strconv.Itoa(len(paths)) {
		return nil
	}
	if err := os.RemoveAll(root); err != nil {
		return err
	}
	made := map[string]bool{}
	for _, p := range paths {
		full := filepath.Join(root, filepath.FromSlash(p))
		dir := filepath.Dir(full)
		if !made[dir] {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			made[dir] = true
		}
		if err := os.WriteFile(full, content(p), 0o644); err != nil {
			return err
		}
	}
	return os.WriteFile(marker, []byte(strconv.Itoa(len(paths))), 0o644)
}

func rssMB() float64 { return vmRSS("/proc/self/status") }

func vmRSS(status string) float64 { return vmField(status, "VmRSS:") }

// vmField reads one size of a /proc status file (VmRSS:, VmHWM: the peak)
// in MB.
func vmField(status, field string) float64 {
	b, _ := os.ReadFile(status)
	return statusField(b, field)
}

// statusField is one size of a /proc status file's text, in MB (0 when
// it has none).
func statusField(b []byte, field string) float64 {
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, field) {
			f := strings.Fields(line)
			if len(f) >= 2 {
				kb, _ := strconv.ParseFloat(f[1], 64)
				return kb / 1024
			}
		}
	}
	return 0
}

// mappedFiles is what of each file a process maps is resident, largest
// first ("engine.seg 120 MB, ..."): which of wayfind's mapped indexes
// the questions touched.
func mappedFiles(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps", pid))
	if err != nil {
		return ""
	}
	kb := map[string]float64{}
	file := ""
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) >= 6 && strings.Contains(f[0], "-"):
			file = filepath.Base(f[5])
			if !strings.HasPrefix(f[5], "/") {
				file = ""
			}
		case len(f) >= 2 && f[0] == "Rss:" && file != "":
			v, _ := strconv.ParseFloat(f[1], 64)
			kb[file] += v
		}
	}
	names := slices.Collect(maps.Keys(kb))
	slices.SortFunc(names, func(a, b string) int { return cmp.Compare(kb[b], kb[a]) })
	var parts []string
	for _, n := range names {
		if kb[n] >= 1024 {
			parts = append(parts, fmt.Sprintf("%s %.0f MB", n, kb[n]/1024))
		}
	}
	return strings.Join(parts, ", ")
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "wayfind-bench:", err)
	os.Exit(2)
}

// lspBench runs every corpus's cases through `wayfind lsp` over stdio and
// reports round-trip latency per corpus beside fzf's on the same cases.
func lspBench(bin, corpora, work string, names []string, byCorpus map[string][]benchCase, withFzf, verbose bool) {
	fmt.Println("Through the protocol: `wayfind lsp` over stdio, one request at a time.")
	fmt.Println()
	fmt.Println("Each corpus is run twice: from the moment the file index is ready (the symbol")
	fmt.Println("and content passes still running behind), then again once they have finished.")
	fmt.Println()
	fmt.Println("| corpus | files | initialized→ready ms | server RSS MB | resolvePath p50 / p99 ms | files p50 / p99 ms | settled: resolvePath p50 / p99 ms | settled: files p50 / p99 ms | settled: all p50 / p99 ms | fzf --filter p50 / p99 ms |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	var all []outcome
	for _, name := range names {
		paths, root := corpusTree(corpora, work, name)
		listing := strings.Join(paths, "\n") + "\n"
		outs, readyMs, rss, err := lspCorpus(bin, root, byCorpus[name], listing, withFzf, false, nil)
		if err != nil {
			fatal(fmt.Errorf("%s: %w", name, err))
		}
		settled, _, _, err := lspCorpus(bin, root, byCorpus[name], listing, false, true, nil)
		if err != nil {
			fatal(fmt.Errorf("%s: %w", name, err))
		}
		var res, fnd, fz, sres, sfnd, sall []time.Duration
		for _, o := range outs {
			if o.c.Kind == "resolve" {
				res = append(res, o.elapsed)
			} else {
				fnd = append(fnd, o.elapsed)
			}
			if withFzf {
				fz = append(fz, o.fzfElapsed)
			}
		}
		for _, o := range settled {
			if o.c.Kind == "resolve" {
				sres = append(sres, o.elapsed)
			} else {
				sfnd = append(sfnd, o.elapsed)
			}
			sall = append(sall, o.elapsed)
		}
		pair := func(ds []time.Duration) string {
			if len(ds) == 0 {
				return "–"
			}
			return ms(quantile(ds, 0.5)) + " / " + ms(quantile(ds, 0.99))
		}
		fmt.Printf("| %s | %d | %.0f | %.0f | %s | %s | %s | %s | %s | %s |\n", name, len(paths), readyMs, rss, pair(res), pair(fnd), pair(sres), pair(sfnd), pair(sall), pair(fz))
		all = append(all, outs...)
	}
	fmt.Println()
	report(all, withFzf, verbose)
}

// noiseProbe is the machine's own noise, the peer of a latency's tail: a
// fixed computation of about work (calibrated first, no memory touched
// beyond a few words), timed n times in this process, one after another
// like the questions. On a shared virtual machine its p99 can be several
// times its p50, and a question's p99 cannot be smaller in proportion.
func noiseProbe(n int, work time.Duration) (p50, p99 time.Duration) {
	x := uint64(1)
	spin := func(iters int) {
		for range iters {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	iters := 1 << 16
	for {
		t0 := time.Now()
		spin(iters)
		if took := time.Since(t0); took >= work/4 {
			iters = int(float64(iters) * float64(work) / float64(took))
			break
		}
		iters *= 2
	}
	var d []time.Duration
	for range n {
		t0 := time.Now()
		spin(iters)
		d = append(d, time.Since(t0))
	}
	noiseSink = x
	return quantile(d, 0.5), quantile(d, 0.99)
}

// noiseSink keeps noiseProbe's computation from being optimized away.
var noiseSink uint64
