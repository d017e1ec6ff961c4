// Command wayfind finds files: the shell front end of the rank engine.
// It parses flags, calls the engine, and formats; it does no ranking.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"

	"wayfind/content"
	"wayfind/lsp"
	"wayfind/memory"
	"wayfind/rank"
	"wayfind/rerank"
	"wayfind/service"
	"wayfind/symbols"
	"wayfind/wire"
	"wayfind/workspace"
)

// Version is the one reported in every JSON envelope.
const Version = "0.1.0"

// Exit codes from docs/API.md.
const (
	exitFound   = 0
	exitNothing = 100
	exitInput   = 2
)

const usage = `usage: wayfind <command> [flags] QUERY

commands (wayfind help COMMAND, or COMMAND --help, for flags and examples):
  lsp             language server on stdio (for editors)
  mcp             MCP server on stdio (for coding agents); --root DIR (repeatable),
                  else the client's roots, else the current directory
  hook            inside an agent's own tool calls (Claude Code's hooks);
                  hook install [--user|--project] writes it into the settings
  find QUERY      fuzzy file search (typos, words, CamelCase, dir/name, a[ _-]?b)
  resolve PATH    the file a wrong, stale or mistyped path meant
  locate QUESTION "where is CommandRouter implemented": symbols, then file names,
                  then the files' text, until the evidence is sufficient
  symbols QUERY   class/function/method search (CoRo, Type.method, Type::method)
  index           build or refresh the on-disk symbol cache and print its stats
  history         read the repository's history into the shared cache (what a
                  hook or a command starts in the background when it is not ready)
  daemon          keep the roots open for the hook on a large tree (what the
                  hook starts in the background when opening them is slow)
  completion SH   shell completion script (bash, zsh, fish)
  help [COMMAND]  this overview, or one command's help

common flags:
  --root DIR      workspace root (repeatable; default: the enclosing project —
                  nearest .git, .hg or .jj — else the current directory)
  --limit N       how many results (default 10)
  --format F      text | json | jsonl (default: text on a terminal or with
                  --quiet, json otherwise)
  --quiet         bare paths, one per line (text, wherever it goes)
  --verbose       log lines on stderr (skipped symlinks, index stats)

find:     --exact  --threshold F (0..1)  --kind file|symbol|all  --impl
          (symbol and all read the symbol index, from its cache when warm)
          --current FILE (the file you are in: nearness, and of its own
          name the other copies first)
symbols:  --exact  --max-file-bytes N (default 1 MB)
locate:   --min-confidence F (0..1, default 0.7: where the cascade stops)
model:    --model-dir DIR  --precision int8|fp16|fp32  --ort-lib FILE  --topk N
          (find, resolve, locate, mcp; or RESOLVE_MODEL_DIR, ONNXRUNTIME_LIB,
          RESOLVE_TOPK): an optional ONNX ColBERT model reorders close calls
resolve:  --from FILE (the document the path is written in: a relative
          path, a bare name included, is read from its directory first)
          --current FILE (where you are: nearness only)
          --history FILE (repeatable, most recent last)

exit status: 0 found, 100 nothing found, 2 invalid input
`

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr, isTerminal(os.Stdout)))
}

// run is main without the process: tests call it directly.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, tty bool) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitInput
	}
	cmd, rest := args[0], args[1:]
	if _, known := helpOf[cmd]; known && wantsHelp(rest) {
		return help(cmd, stdout, stderr)
	}
	switch cmd {
	case "find", "resolve", "symbols", "index", "locate":
	case "lsp":
		serverHint("lsp", "LSP", "your editor", stderr)
		return serveLSP(ctx, rest, stderr)
	case "mcp":
		serverHint("mcp", "MCP", "your agent's MCP configuration", stderr)
		return serveMCP(ctx, rest, stderr)
	case "hook":
		return runHook(ctx, rest, os.Stdin, stdout, stderr)
	case "history":
		return runHistory(ctx, rest, stdout, stderr)
	case "daemon":
		return runDaemon(ctx, rest, stdout, stderr)
	case "completion":
		if len(rest) != 1 {
			fmt.Fprint(stderr, helpOf["completion"])
			return exitInput
		}
		if err := completion(rest[0], stdout); err != nil {
			fmt.Fprintf(stderr, "wayfind completion: %s\n", strings.TrimPrefix(err.Error(), rank.ErrInput.Error()+": "))
			return exitInput
		}
		return exitFound
	case "help":
		if len(rest) > 0 {
			return help(rest[0], stdout, stderr)
		}
		return help("", stdout, stderr)
	case "-h", "--help":
		fmt.Fprint(stdout, usage)
		return exitFound
	case "version", "--version":
		fmt.Fprintln(stdout, "wayfind", Version)
		return exitFound
	default:
		fmt.Fprintf(stderr, "wayfind: unknown command %q (try: wayfind --help)\n", cmd)
		return exitInput
	}
	opts, err := parseFlags(cmd, rest, tty)
	if opts.format == "" { // flags that failed to parse: report as the destination expects
		opts.format = map[bool]string{true: "text", false: "json"}[tty]
	}
	out := &output{cmd: cmd, format: opts.format, stdout: stdout, stderr: stderr, quiet: opts.quiet, start: time.Now()}
	if err != nil {
		return out.fail(err)
	}
	roots, err := workspace.CleanRoots(opts.roots)
	if err != nil {
		return out.fail(inputErr(err.Error()))
	}
	out.roots = roots
	out.cwd, _ = os.Getwd()
	// stderr is quiet unless asked: --verbose for what indexing met on the
	// way (skipped symlinks, index stats).
	logf := func(format string, a ...any) {
		if opts.verbose {
			fmt.Fprintf(stderr, "wayfind: "+format+"\n", a...)
		}
	}
	eng, closeModel, code, done := buildEngine(ctx, cmd, opts, roots, out, logf)
	defer closeModel()
	if done {
		return code
	}
	return ask(ctx, cmd, opts, newOneShot(eng, logf), out)
}

// buildEngine indexes the roots for one command: files always, symbols
// and contents when the command reads them, the model when one is named.
// done is set when the command is answered already (index) or failed.
func buildEngine(ctx context.Context, cmd string, opts options, roots []string, out *output, logf func(string, ...any)) (eng *rank.Engine, closeModel func(), code int, done bool) {
	closeModel = func() {}
	// One question and exit; not index, which parses every file.
	if cmd != "index" {
		memory.OneShot()
	}
	ix, eng := openIndex(workspace.CacheDirOf("", logf), roots, workspace.Options{Logf: logf}, logf)
	var caches *locateCaches
	if cmd == "locate" {
		caches = readLocateCaches(ctx, ix, opts, logf)
	}
	if model := opts.model.WithEnvironment(); model.Dir != "" && cmd != "symbols" && cmd != "index" {
		// The optional reranker: without it (or when it cannot load) the
		// answers are the lexical engine's, unchanged.
		m, err := rerank.Load(model.LoadOptions(logf))
		switch {
		case err != nil && !opts.quiet:
			// asked for by name: said even without --verbose
			fmt.Fprintf(out.stderr, "wayfind: model not loaded, answers stay lexical: %v\n", err)
		case err == nil:
			closeModel = func() { m.Close() }
			eng = eng.WithReranker(m, model.RerankOptions())
		}
	}
	if caches != nil {
		return caches.engine(ctx, eng, ix, out, closeModel)
	}
	if cmd == "symbols" || cmd == "index" || opts.kind != "file" {
		x := symbols.NewIndexer(symbols.IndexerOptions{MaxBytes: opts.maxFileBytes, Logf: logf})
		table, st, err := x.Sync(ctx, ix)
		if err != nil {
			return nil, closeModel, out.fail(err), true
		}
		if cmd == "index" {
			// The text filters too, so that the next locate finds them.
			cx := content.Indexer{CacheDir: workspace.CacheDirOf("", logf), Logf: logf}
			ci, err := cx.Sync(ctx, ix)
			if err != nil {
				return nil, closeModel, out.fail(err), true
			}
			return nil, closeModel, out.index(ix, st, ci.Len(), time.Since(out.start)), true
		}
		eng = eng.WithSymbols(rank.NewSymbolIndex(table, ix.Roots))
	}
	return eng, closeModel, 0, false
}

// ask puts the command's one question to the engine and formats the answer.
func ask(ctx context.Context, cmd string, opts options, ws oneShot, out *output) int {
	// One question through the request layer, as the servers ask it.
	eng, svc := ws.eng, service.New(ws)
	switch {
	case cmd == "locate":
		if strings.ContainsAny(opts.query, "/.") {
			// It may name a file by an old path or name.
			if w, ok := ws.withRepoHistory(ctx); ok {
				svc = service.New(w)
				out.pending(w.pending)
			}
		}
		res, _, err := svc.Locate(ctx, service.LocateParams{Query: opts.query, Limit: opts.limit, MinConfidence: opts.minConfidence})
		if err != nil {
			return out.fail(err)
		}
		return out.locate(opts, res, eng.Len())
	case cmd == "symbols" || cmd == "find" && opts.kind == "symbol":
		res, _, err := svc.Symbols(ctx, service.SymbolParams{Query: opts.query, Limit: opts.limit, Exact: opts.exact})
		if err != nil {
			return out.fail(err)
		}
		return out.symbols(opts, res, eng.Symbols().Len())
	case cmd == "find":
		read := strings.Contains(opts.query, "/")
		if read {
			// A path may be an old one: the history finds today's file.
			if w, ok := ws.withRepoHistory(ctx); ok {
				svc = service.New(w)
				out.pending(w.pending)
			}
		}
		p := service.FindParams{Query: opts.query, Limit: opts.limit, Threshold: opts.threshold, Exact: opts.exact, Impl: opts.impl, Current: opts.current}
		res, _, err := svc.Find(ctx, p)
		if err == nil && !read && tiedFirst(res) {
			// Copies the index cannot tell apart (a name several
			// directories share): the repository's history orders them
			// — activity, the user's own commits — as the servers'
			// answers are ordered.
			if w, ok := ws.withRepoHistory(ctx); ok {
				res, _, err = service.New(w).Find(ctx, p)
				out.pending(w.pending)
			}
		}
		if err != nil {
			return out.fail(err)
		}
		return out.find(opts, res)
	default:
		// --history replaces the remembered history (nil: the servers').
		p := service.ResolveParams{Path: opts.query, From: opts.from, Link: opts.link, Current: opts.current, History: opts.history, Limit: opts.limit}
		res, _, err := svc.Resolve(ctx, p)
		if err == nil && !res.Exact {
			// Not a file today: the repository's history may know it.
			if w, ok := ws.withRepoHistory(ctx); ok {
				res, _, err = service.New(w).Resolve(ctx, p)
				out.pending(w.pending)
			}
		}
		if err != nil {
			return out.fail(err)
		}
		return out.resolve(opts, res, eng.Len())
	}
}

// tiedFirst: the first two matches score alike, as the answer shows them.
func tiedFirst(res wire.Files) bool {
	return len(res.Matches) > 1 && res.Matches[0].Score == res.Matches[1].Score
}

type options struct {
	roots     []string
	limit     int
	format    string
	quiet     bool
	verbose   bool
	exact     bool
	impl      bool
	threshold float64
	kind      string
	from      string
	link      bool
	current   string
	history   []string
	query     string

	maxFileBytes  int
	minConfidence float64
	model         service.ModelConfig
}

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

func inputErr(msg string) error { return fmt.Errorf("%w: %s", rank.ErrInput, msg) }

// parseFlags accepts flags before and after the query, as people type them.
func parseFlags(cmd string, args []string, tty bool) (options, error) {
	defaultFormat := "json" // for programs: text only on a terminal
	if tty {
		defaultFormat = "text"
	}
	o := options{limit: rank.DefaultLimit, kind: "file"}
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var roots, history listFlag
	fs.Var(&roots, "root", "")
	fs.IntVar(&o.limit, "limit", o.limit, "")
	fs.StringVar(&o.format, "format", o.format, "")
	fs.BoolVar(&o.quiet, "quiet", false, "")
	fs.BoolVar(&o.verbose, "verbose", false, "")
	switch cmd {
	case "find":
		fs.BoolVar(&o.exact, "exact", false, "")
		fs.BoolVar(&o.impl, "impl", false, "")
		fs.Float64Var(&o.threshold, "threshold", 0, "")
		fs.StringVar(&o.kind, "kind", o.kind, "")
		fs.StringVar(&o.current, "current", "", "")
	case "symbols":
		fs.BoolVar(&o.exact, "exact", false, "")
	case "resolve":
		fs.StringVar(&o.from, "from", "", "")
		fs.BoolVar(&o.link, "link", false, "")
		fs.StringVar(&o.current, "current", "", "")
		fs.Var(&history, "history", "")
	case "locate":
		fs.Float64Var(&o.minConfidence, "min-confidence", 0, "")
	}
	if cmd != "resolve" {
		fs.IntVar(&o.maxFileBytes, "max-file-bytes", 0, "")
	}
	if cmd == "find" || cmd == "resolve" || cmd == "locate" {
		modelFlags(fs, &o.model)
	}
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return o, inputErr(err.Error())
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
	o.roots, o.history = roots, history
	if len(o.roots) == 0 {
		o.roots = []string{workspace.ProjectOf(".")}
	}
	if o.format == "" {
		// Bare paths are text wherever they go; otherwise text for a
		// person at a terminal, JSON for a program.
		o.format = defaultFormat
		if o.quiet {
			o.format = "text"
		}
	}
	switch {
	case o.format != "text" && o.format != "json" && o.format != "jsonl":
		bad := o.format
		o.format = defaultFormat // report the error in a format that exists
		return o, inputErr("--format must be text, json or jsonl, not " + strconv.Quote(bad))
	case o.limit < 1:
		return o, inputErr("--limit must be at least 1")
	case o.threshold < 0 || o.threshold > 1:
		return o, inputErr("--threshold must be between 0 and 1")
	case o.kind != "file" && o.kind != "all" && o.kind != "symbol":
		return o, inputErr("--kind must be file, symbol or all")
	case o.minConfidence < 0 || o.minConfidence > 1:
		return o, inputErr("--min-confidence must be between 0 and 1")
	case o.maxFileBytes < 0:
		return o, inputErr("--max-file-bytes must not be negative")
	case cmd == "index" && len(positional) > 0:
		return o, inputErr("index takes no query")
	case cmd == "index":
		return o, nil
	case len(positional) == 0:
		return o, inputErr("missing " + map[string]string{"find": "QUERY", "resolve": "PATH", "symbols": "QUERY", "locate": "QUESTION"}[cmd])
	}
	o.query = strings.Join(positional, " ")
	if strings.TrimSpace(o.query) == "" {
		return o, inputErr("empty query")
	}
	if cmd == "resolve" && len(positional) > 1 {
		return o, inputErr("resolve takes one PATH (quote a path with spaces)")
	}
	return o, nil
}

// modelFlags are the reranking model's flags (find, resolve, locate, mcp).
func modelFlags(fs *flag.FlagSet, m *service.ModelConfig) {
	fs.StringVar(&m.Dir, "model-dir", "", "")
	fs.StringVar(&m.Precision, "precision", "", "")
	fs.StringVar(&m.Lib, "ort-lib", "", "")
	fs.IntVar(&m.TopK, "topk", 0, "")
}

// isTerminal asks the terminal driver (a character device such as
// /dev/null is not a terminal).
func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

func exitCodeFor(err error) int {
	if errors.Is(err, rank.ErrInput) {
		return exitInput
	}
	return 1
}

func ms(d time.Duration) float64 {
	f, _ := strconv.ParseFloat(strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 2, 64), 64)
	return f
}

// serverProcs gives a long-lived server more Go processors than cores.
// Background indexing keeps cores busy, and Go moves a waiting goroutine
// onto a busy processor only by preempting, every 10 ms: a request that
// arrived then waited up to that long, where with spare processors the
// kernel shares the cores at a finer grain. GOMAXPROCS in the
// environment still wins.
func serverProcs() {
	outliveClient()
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(runtime.NumCPU() + 2)
	}
}

// serveLSP runs the language server on the process's stdin and stdout.
// "--stdio" is accepted because editors' clients add it.
func serveLSP(ctx context.Context, args []string, stderr io.Writer) int {
	for _, a := range args {
		if a != "--stdio" {
			fmt.Fprintf(stderr, "wayfind lsp: unknown argument %q (the server speaks LSP on stdio)\n", a)
			return exitInput
		}
	}
	serverProcs()
	// WAYFIND_CPUPROFILE: where a developer wants the server's CPU profile.
	if path := os.Getenv("WAYFIND_CPUPROFILE"); path != "" {
		if f, err := os.Create(path); err == nil && pprof.StartCPUProfile(f) == nil {
			defer func() { pprof.StopCPUProfile(); f.Close() }()
		}
	}
	// WAYFIND_MEMPROFILE: where a developer wants what the server's heap
	// holds, written whenever the process is sent SIGUSR1.
	if path := os.Getenv("WAYFIND_MEMPROFILE"); path != "" {
		heapProfileOnSignal(path)
	}
	return lsp.Serve(ctx, os.Stdin, os.Stdout, stderr, lsp.Options{Version: Version})
}

// locateCaches are what one locate question reads besides the file
// index: the symbols the question names, from the symbol cache (brought
// up to date first) rather than the whole table, and the files' text
// filters from theirs — both checked against one stat of every file, and
// read on other goroutines while the engine's file index is built.
type locateCaches struct {
	wg    sync.WaitGroup
	x     *symbols.Indexer
	lk    *symbols.Lookup
	lkErr error
	ci    *content.Index
	ciErr error
}

func readLocateCaches(ctx context.Context, ix *workspace.Index, opts options, logf func(string, ...any)) *locateCaches {
	c := &locateCaches{x: symbols.NewIndexer(symbols.IndexerOptions{MaxBytes: opts.maxFileBytes, Logf: logf})}
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		stats := workspace.StatFiles(ix, nil)
		c.wg.Add(1)
		go func() {
			defer c.wg.Done()
			cx := content.Indexer{CacheDir: workspace.CacheDirOf("", logf), Logf: logf}
			c.ci, c.ciErr = cx.SyncStat(ctx, ix, stats)
		}()
		c.lk, _, c.lkErr = c.x.Lookup(ctx, ix, stats)
	}()
	return c
}

// engine waits for the caches and gives eng their symbols and contents;
// closeModel, returned, also releases the symbol cache.
func (c *locateCaches) engine(ctx context.Context, eng *rank.Engine, ix *workspace.Index, out *output, closeModel func()) (*rank.Engine, func(), int, bool) {
	c.wg.Wait()
	switch {
	case c.lkErr == nil:
		prev := closeModel
		closeModel = func() { c.lk.Close(); prev() }
		eng = eng.WithSymbolLookup(c.lk)
	case errors.Is(c.lkErr, symbols.ErrNoCache):
		table, _, err := c.x.Sync(ctx, ix)
		if err != nil {
			return nil, closeModel, out.fail(err), true
		}
		eng = eng.WithSymbols(rank.NewSymbolIndex(table, ix.Roots))
	default:
		return nil, closeModel, out.fail(c.lkErr), true
	}
	if c.ciErr != nil {
		return nil, closeModel, out.fail(c.ciErr), true
	}
	return eng.WithContent(c.ci), closeModel, 0, false
}
