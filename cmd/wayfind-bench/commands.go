package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"time"
)

// subcommand is one question the harness measures: its own flags, parsed
// from args, and its tables on standard output.
type subcommand struct {
	run  func(args []string) error
	help string
}

// subcommands: every benchmark of docs/BENCHMARKS.md, by the name the
// Makefile's bench-* target calls it with.
var subcommands map[string]subcommand

func init() {
	subcommands = map[string]subcommand{
		"find":          {findCmd, "public find and resolve cases in-process, beside fzf (make bench)"},
		"history":       {historyCmd, "ambiguous names after navigation sessions, with and without the history (make bench-history)"},
		"stale":         {staleCmd, "real stale paths with and without the repository's history (make bench-stale)"},
		"sessions":      {sessionsCmd, "real sessions replayed from commits (make bench-sessions)"},
		"calibrate":     {calibrateCmd, "the held-out calibration of what resolved promises (make bench-calibrate)"},
		"agent":         {agentCmd, "the hook through the real Claude Code on held-out stale paths (make bench-agent)"},
		"agentfail":     {agentfailCmd, "real coding agents' failed file accesses replayed at their tasks' commits (testdata/agentfail)"},
		"rooms":         {roomsCmd, "following a handler's parameter through the code: its rooms and climbs back up (issue 55)"},
		"agentsessions": {agentSessionsCmd, "which copy of a name real coding agents opened, their earlier files as the visits (testdata/agentsessions; -data testdata/idetraces/sessions.jsonl.gz: which one a developer edited in a JetBrains IDE)"},
		"lsp":           {lspCmd, "the public cases through `wayfind lsp` over stdio, beside fzf (make bench-lsp)"},
		"settle":        {settleCmd, "a real tree through `wayfind lsp`: times and memory until the passes settle"},
		"symbols":       {symbolsCmd, "the symbol index beside universal-ctags (make bench-symbols)"},
		"gopls":         {goplsCmd, "workspace/symbol beside gopls (make bench-symbols-gopls)"},
		"content":       {contentCmd, "locate's content search on a corpus laid out with generated text (make bench-content)"},
		"locate":        {locateCmd, "locate on real trees beside grep (make bench-locate)"},
		"model":         {modelCmd, "every public case with and without the reranking model (make bench-model)"},
		"mcp":           {mcpCmd, "the bytes `wayfind mcp` answers with, beside a listing and the shell (make bench-mcp)"},
		"scale":         {scaleCmd, "the monorepo at given sizes through `wayfind lsp`, cold and warm, beside fzf (make bench-scale)"},
		"scale-inproc":  {scaleInprocCmd, "the monorepo's cases in-process at one size: latency by kind, profiles"},
	}
}

func usage() {
	names := make([]string, 0, len(subcommands))
	for n := range subcommands {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintln(os.Stderr, "usage: wayfind-bench COMMAND [flags]   (wayfind-bench COMMAND -h: its flags)")
	for _, n := range names {
		fmt.Fprintf(os.Stderr, "  %-13s %s\n", n, subcommands[n].help)
	}
}

func newFlags(name string) *flag.FlagSet {
	return flag.NewFlagSet(name, flag.ContinueOnError)
}

// header is the first line of every report: what ran, when, on how many
// cores, with which Go; extra follows (", seed 1").
func header(what, extra string) {
	fmt.Printf("# wayfind %s — %s, %d cores (GOMAXPROCS %d), %s%s\n\n", what, time.Now().Format("2006-01-02"), runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.Version(), extra)
}

// caseFlags are the flags of a run over case files and corpora.
type caseFlags struct {
	corpora, cases, work, only *string
	verbose                    *bool
}

func addCaseFlags(fs *flag.FlagSet) caseFlags {
	return caseFlags{
		corpora: fs.String("corpora", "testdata/bench/corpora", "directory of <corpus>.tsv[.gz] path lists"),
		cases:   fs.String("cases", "testdata/bench/cases-public.jsonl", "benchmark cases (JSON lines)"),
		work:    fs.String("work", filepath.Join(os.TempDir(), "wayfind-bench"), "where corpora are laid out as trees"),
		only:    fs.String("corpus", "", "run only this corpus"),
		verbose: fs.Bool("v", false, "print every failed case"),
	}
}

// load reads the cases and groups them by corpus, the corpora sorted.
func (cf caseFlags) load() (names []string, byCorpus map[string][]benchCase, err error) {
	cases, err := readCases(*cf.cases)
	if err != nil {
		return nil, nil, err
	}
	names, byCorpus = groupCases(cases, *cf.only)
	return names, byCorpus, nil
}

// groupCases groups cases by corpus (only that one when only is set),
// the corpora's names sorted.
func groupCases(cases []benchCase, only string) (names []string, byCorpus map[string][]benchCase) {
	byCorpus = map[string][]benchCase{}
	for _, c := range cases {
		if only != "" && c.Corpus != only {
			continue
		}
		if byCorpus[c.Corpus] == nil {
			names = append(names, c.Corpus)
		}
		byCorpus[c.Corpus] = append(byCorpus[c.Corpus], c)
	}
	sort.Strings(names)
	return names, byCorpus
}

// parseWithCases parses args, checks for fzf when the peer is asked for
// (useFzf non-nil and set), and reads the cases.
func parseWithCases(fs *flag.FlagSet, cf caseFlags, args []string, useFzf *bool) ([]string, map[string][]benchCase, error) {
	if err := fs.Parse(args); err != nil {
		return nil, nil, err
	}
	if useFzf != nil {
		if err := needFzf(*useFzf); err != nil {
			return nil, nil, err
		}
	}
	return cf.load()
}

// profileCPU starts a CPU profile written to path ("": none); stop ends
// it.
func profileCPU(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// needFzf is an error when the peer is asked for and not installed.
func needFzf(use bool) error {
	if !use {
		return nil
	}
	if _, err := exec.LookPath("fzf"); err != nil {
		return fmt.Errorf("fzf not found (apt-get install fzf, or -fzf=false)")
	}
	return nil
}

func historyCmd(args []string) error {
	fs := newFlags("history")
	cf := addCaseFlags(fs)
	useFzf := fs.Bool("fzf", true, "run fzf --filter on the find shapes as the peer")
	seed := fs.Int("seed", 1, "the sessions' seed")
	names, byCorpus, err := parseWithCases(fs, cf, args, useFzf)
	if err != nil {
		return err
	}
	header("history bench", fmt.Sprintf(", seed %d", *seed))
	historyBench(*cf.corpora, *cf.work, names, byCorpus, int64(*seed), *useFzf, *cf.verbose)
	return nil
}

func staleCmd(args []string) error {
	fs := newFlags("stale")
	cf := addCaseFlags(fs)
	useFzf := fs.Bool("fzf", true, "run fzf --filter on every case as the peer")
	repos := fs.String("repos", "", "a directory of git checkouts, one per corpus (OWNER+NAME)")
	replay := fs.String("replay", "", "replay the histories in this directory (<corpus>.log.gz) into repositories under -work and use them as -repos")
	names, byCorpus, err := parseWithCases(fs, cf, args, useFzf)
	if err != nil {
		return err
	}
	header("stale-path bench", "")
	if *replay != "" {
		*repos = replayAll(*replay, *cf.corpora, *cf.work, names)
	}
	staleBench(*cf.corpora, *cf.work, *repos, names, byCorpus, *useFzf, *cf.verbose)
	return nil
}

func sessionsCmd(args []string) error {
	fs := newFlags("sessions")
	cf := addCaseFlags(fs)
	repos := fs.String("repos", "", "the checkouts whose commits are replayed (name=dir,…); without it, -replay's histories")
	replay := fs.String("replay", "", "replay the histories in this directory (<corpus>.log.gz) and ask their sessions")
	window := fs.Int("window", 400, "the commits asked about, the newest ones (the tree is the one before them)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *repos == "" {
		if *replay == "" {
			return fmt.Errorf("sessions: -repos or -replay is needed")
		}
		names, _, err := cf.load()
		if err != nil {
			return err
		}
		dir := replayAll(*replay, *cf.corpora, *cf.work, names)
		var specs []string
		for _, n := range names {
			specs = append(specs, n+"="+filepath.Join(dir, strings.Replace(strings.TrimPrefix(n, "hist__"), "__", "+", 1)))
		}
		*repos = strings.Join(specs, ",")
	}
	header("real-session replay", fmt.Sprintf(", window %d", *window))
	sessionsBench(strings.Split(*repos, ","), *window, *cf.verbose)
	return nil
}

func lspCmd(args []string) error {
	fs := newFlags("lsp")
	cf := addCaseFlags(fs)
	bin := fs.String("bin", "bin/wayfind", "the wayfind binary whose `lsp` is driven")
	useFzf := fs.Bool("fzf", true, "run fzf --filter on every case as the peer")
	names, byCorpus, err := parseWithCases(fs, cf, args, useFzf)
	if err != nil {
		return err
	}
	header("bench", "")
	lspBench(*bin, *cf.corpora, *cf.work, names, byCorpus, *useFzf, *cf.verbose)
	return nil
}

func settleCmd(args []string) error {
	fs := newFlags("settle")
	bin := fs.String("bin", "bin/wayfind", "the wayfind binary whose `lsp` is driven")
	tree := fs.String("tree", "", "a real tree (files with their contents), opened with a fresh cache")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *tree == "" {
		return fmt.Errorf("settle: -tree is needed")
	}
	header("bench", "")
	settleBench(*bin, *tree)
	return nil
}

func symbolsCmd(args []string) error {
	fs := newFlags("symbols")
	bin := fs.String("bin", "bin/wayfind", "the wayfind binary")
	root := fs.String("root", "", "the tree indexed beside universal-ctags")
	runs := fs.Int("runs", 3, "runs per measurement (medians are reported)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *root == "" {
		return fmt.Errorf("symbols: -root is needed")
	}
	header("symbol bench", "")
	symbolBench(*bin, *root, *runs)
	return nil
}

func goplsCmd(args []string) error {
	fs := newFlags("gopls")
	bin := fs.String("bin", "bin/wayfind", "the wayfind binary")
	gopls := fs.String("gopls", "", "the gopls binary")
	goRoot := fs.String("go", "", "the Go workspace")
	other := fs.String("other", "", "a second workspace, wayfind alone (lang=dir, ctags' language name)")
	seed := fs.Int("seed", 1, "the query set's seed")
	verbose := fs.Bool("v", false, "print every miss")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *gopls == "" || *goRoot == "" {
		return fmt.Errorf("gopls: -gopls and -go are needed")
	}
	header("workspace/symbol beside gopls", fmt.Sprintf(", seed %d", *seed))
	lang, dir, _ := strings.Cut(*other, "=")
	symbolsVsGopls(*bin, *gopls, *goRoot, dir, lang, int64(*seed), *verbose)
	return nil
}

func contentCmd(args []string) error {
	fs := newFlags("content")
	cf := addCaseFlags(fs)
	corpus := fs.String("of", "tc39__test262", "the corpus laid out with generated text")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile here")
	if err := fs.Parse(args); err != nil {
		return err
	}
	header("content bench", "")
	stop, err := profileCPU(*cpuprofile)
	if err != nil {
		return err
	}
	defer stop()
	contentBench(*cf.corpora, *cf.work, *corpus)
	return nil
}

func locateCmd(args []string) error {
	fs := newFlags("locate")
	bin := fs.String("bin", "bin/wayfind", "the wayfind binary whose `lsp` answers")
	trees := fs.String("trees", "", "the real trees (name=dir,…)")
	runs := fs.Int("runs", 3, "runs per question (medians are reported)")
	cli := fs.Int("cli", 10, "time the warm CLI on this many questions a tree")
	cache := fs.String("cases-dir", "", "keep the generated questions in this directory and reuse them")
	seed := fs.Int("seed", 1, "the question set's seed")
	inproc := fs.Bool("inproc", false, "answer in-process (accuracy only, no server, grep or CLI)")
	verbose := fs.Bool("v", false, "print every miss")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *trees == "" {
		return fmt.Errorf("locate: -trees is needed")
	}
	header("locate bench", "")
	locateBench(*bin, strings.Split(*trees, ","), *runs, *cli, *verbose, *cache, *inproc, *seed)
	return nil
}

func modelCmd(args []string) error {
	fs := newFlags("model")
	cf := addCaseFlags(fs)
	dir := fs.String("model", "testdata/model", "the model's directory")
	lib := fs.String("ort-lib", "", "libonnxruntime")
	names, byCorpus, err := parseWithCases(fs, cf, args, nil)
	if err != nil {
		return err
	}
	header("bench", "")
	modelBench(*cf.corpora, *cf.work, names, byCorpus, *dir, *lib)
	return nil
}

func mcpCmd(args []string) error {
	fs := newFlags("mcp")
	cf := addCaseFlags(fs)
	bin := fs.String("bin", "bin/wayfind", "the wayfind binary whose `mcp` answers")
	tree := fs.String("tree", "", "also measure every tool on this real tree")
	names, byCorpus, err := parseWithCases(fs, cf, args, nil)
	if err != nil {
		return err
	}
	header("bench", "")
	mcpBench(*bin, *cf.corpora, *cf.work, names, byCorpus)
	if *tree != "" {
		mcpToolsBench(*bin, *tree)
	}
	return nil
}

func scaleCmd(args []string) error {
	fs := newFlags("scale")
	cf := addCaseFlags(fs)
	bin := fs.String("bin", "bin/wayfind", "the wayfind binary whose `lsp` is driven")
	sizesFlag := fs.String("sizes", "56970,250000,1000000", "the monorepo's sizes (files, comma-separated)")
	fzfSample := fs.Int("fzf-sample", 30, "how many find cases fzf is timed on at each size")
	reindexes := fs.Int("reindexes", 100, "how many reindexes, each finding a file made, the warm server makes before its cache is listed")
	hookOnly := fs.Bool("hook-only", false, "only the hook on a warm cache, with the daemon it starts")
	if err := fs.Parse(args); err != nil {
		return err
	}
	sizes, err := parseSizes(*sizesFlag)
	if err != nil {
		return err
	}
	header("at monorepo scale", "")
	if *hookOnly {
		scaleHookBench(*bin, *cf.corpora, *cf.work, sizes)
		return nil
	}
	scaleBench(*bin, *cf.corpora, *cf.cases, *cf.work, sizes, *fzfSample, *reindexes)
	return nil
}

// parseSizes reads a comma-separated list of positive sizes.
func parseSizes(list string) ([]int, error) {
	var sizes []int
	for _, f := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("%q is not a size", f)
		}
		sizes = append(sizes, n)
	}
	return sizes, nil
}

func scaleInprocCmd(args []string) error {
	fs := newFlags("scale-inproc")
	cf := addCaseFlags(fs)
	size := fs.Int("size", 1000000, "the monorepo's size (files)")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the questions here")
	memprofile := fs.String("memprofile", "", "write a profile of what the questions allocate here")
	if err := fs.Parse(args); err != nil {
		return err
	}
	scaleInProcess(*cf.corpora, *cf.cases, *size, *cpuprofile, *memprofile)
	return nil
}
