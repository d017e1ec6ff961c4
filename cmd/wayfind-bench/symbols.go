package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"wayfind/rank"
	"wayfind/symbols"
	"wayfind/wire"
	"wayfind/workspace"
)

// symbolBench measures the symbol index of root beside universal-ctags in
// the same run: cold index wall time and peak RSS (`wayfind index` as a
// child with an empty cache, against `ctags -R`), warm start from the
// cache, workspace/symbol latency over queries made from the index's own
// names, bytes per symbol, and how soon `wayfind lsp` answers a file
// search while symbols still index.
func symbolBench(bin, root string, runs int) {
	fmt.Printf("## symbols: %s\n\n", root)
	var ctagsWall, coldWall, warmWall []time.Duration
	var coldRSS []float64
	var stats struct {
		Result struct {
			Parseable, Parsed, FromCache, Symbols int
		} `json:"result"`
	}
	for i := 0; i < runs; i++ {
		tags := filepath.Join(os.TempDir(), "wayfind-bench.tags")
		d, _, err := timeChild(exec.Command("ctags", "-R", "-f", tags, root))
		if err != nil {
			fatal(fmt.Errorf("ctags: %w", err))
		}
		os.Remove(tags)
		ctagsWall = append(ctagsWall, d)

		cache, _ := os.MkdirTemp("", "wayfind-bench-cache")
		cmd := exec.Command(bin, "index", "--quiet", "--format", "json", "--root", root)
		cmd.Env = append(os.Environ(), "WAYFIND_CACHE_DIR="+cache)
		d, rss, err := timeChild(cmd)
		if err != nil {
			fatal(fmt.Errorf("wayfind index: %w", err))
		}
		coldWall, coldRSS = append(coldWall, d), append(coldRSS, rss)

		cmd = exec.Command(bin, "index", "--quiet", "--format", "json", "--root", root)
		cmd.Env = append(os.Environ(), "WAYFIND_CACHE_DIR="+cache)
		out, d, err := outputTimed(cmd)
		if err != nil {
			fatal(fmt.Errorf("wayfind index (warm): %w", err))
		}
		warmWall = append(warmWall, d)
		_ = json.Unmarshal(out, &stats)
		os.RemoveAll(cache)
	}
	med := func(ds []time.Duration) time.Duration { return quantile(ds, 0.5) }
	sort.Float64s(coldRSS)
	fmt.Printf("| runs | ctags -R s | wayfind cold s | ratio | wayfind peak RSS MB | warm start s | files parsed | symbols |\n|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	fmt.Printf("| %d | %.2f | %.2f | %.2f× | %.0f | %.3f | %d | %d |\n\n", runs, med(ctagsWall).Seconds(), med(coldWall).Seconds(),
		med(coldWall).Seconds()/med(ctagsWall).Seconds(), coldRSS[len(coldRSS)/2], med(warmWall).Seconds(), stats.Result.Parseable, stats.Result.Symbols)

	// In-process: the table from a warm cache, its search index, and
	// queries of five shapes made from random symbols.
	cache, _ := os.MkdirTemp("", "wayfind-bench-cache")
	defer os.RemoveAll(cache)
	roots, err := workspace.CleanRoots([]string{root})
	if err != nil {
		fatal(err)
	}
	ix := workspace.Build(roots, workspace.Options{})
	x := symbols.NewIndexer(symbols.IndexerOptions{CacheDir: cache})
	var table *symbols.Table
	var si *rank.SymbolIndex
	tableBytes := heapGrowth(func() {
		table, _, err = x.Sync(context.Background(), ix)
	})
	if err != nil {
		fatal(err)
	}
	indexBytes := heapGrowth(func() { si = rank.NewSymbolIndex(table, ix.Roots) })
	eng := rank.New(ix).WithSymbols(si)
	n := si.Len()
	fmt.Printf("bytes per symbol: table %.0f + search index %.0f = %.0f (%d symbols, %.1f MB)\n\n",
		tableBytes/float64(n), indexBytes/float64(n), (tableBytes+indexBytes)/float64(n), n, (tableBytes+indexBytes)/1e6)

	var all []symbols.Symbol
	table.Each(func(_ string, syms []symbols.Symbol) { all = append(all, syms...) })
	sort.Slice(all, func(i, j int) bool { return all[i].Qualified() < all[j].Qualified() })
	rng := rand.New(rand.NewSource(1))
	shapes := []struct {
		name string
		make func(s symbols.Symbol) string
	}{
		{"exact", func(s symbols.Symbol) string { return s.Name }},
		{"prefix", func(s symbols.Symbol) string { return s.Name[:max(1, len(s.Name)*2/3)] }},
		{"humps", func(s symbols.Symbol) string { return humpsOf(s.Name) }},
		{"typo", func(s symbols.Symbol) string { return swapMiddle(s.Name) }},
		{"qualified", func(s symbols.Symbol) string {
			c := s.Container[strings.LastIndexByte(s.Container, '.')+1:]
			return c + "." + s.Name
		}},
	}
	fmt.Println("| query shape | queries | p50 ms | p99 ms | max ms | wanted symbol first | in top 10 |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|")
	var every []time.Duration
	for _, sh := range shapes {
		var ds []time.Duration
		first, top10, q := 0, 0, 0
		for q < 300 {
			s := all[rng.Intn(len(all))]
			if len(s.Name) < 4 || (sh.name == "qualified" && s.Container == "") {
				continue
			}
			query := sh.make(s)
			t0 := time.Now()
			ms, err := eng.SearchSymbols(context.Background(), rank.SymbolRequest{Query: query, Limit: 100})
			d := time.Since(t0)
			if err != nil {
				fatal(err)
			}
			ds = append(ds, d)
			q++
			for i, m := range ms {
				if m.Symbol.Name == s.Name && m.Symbol.Container == s.Container {
					if i == 0 {
						first++
					}
					if i < 10 {
						top10++
					}
					break
				}
			}
		}
		every = append(every, ds...)
		fmt.Printf("| %s | %d | %s | %s | %s | %s | %s |\n", sh.name, len(ds), ms(quantile(ds, 0.5)), ms(quantile(ds, 0.99)), ms(quantile(ds, 1)), pct(first, len(ds)), pct(top10, len(ds)))
	}
	fmt.Printf("| **all** | %d | %s | %s | %s | | |\n\n", len(every), ms(quantile(every, 0.5)), ms(quantile(every, 0.99)), ms(quantile(every, 1)))
	fmt.Println("(\"wanted symbol first\" is strict: a name shared by many symbols — String, New — has one right answer here and many equal ones.)")
	fmt.Println()

	lspWhileIndexing(bin, root)
}

// lspWhileIndexing starts `wayfind lsp` on root with an empty cache and
// times, from initialize, the first find/files answer and the moment
// symbols are complete.
func lspWhileIndexing(bin, root string) {
	cache, _ := os.MkdirTemp("", "wayfind-bench-cache")
	defer os.RemoveAll(cache)
	os.Setenv("WAYFIND_CACHE_DIR", cache)
	defer os.Unsetenv("WAYFIND_CACHE_DIR")
	s, err := startLSP(bin)
	if err != nil {
		fatal(err)
	}
	defer s.stop()
	start := time.Now()
	u := wire.FileURI(root)
	if err := s.call("initialize", map[string]any{"processId": os.Getpid(), "rootUri": u, "capabilities": map[string]any{},
		"workspaceFolders": []any{map[string]any{"uri": u, "name": "root"}}}, nil); err != nil {
		fatal(err)
	}
	_ = s.notify("initialized", map[string]any{})
	var files wire.Files
	if err := s.call("find/files", map[string]any{"query": "server", "limit": 5}, &files); err != nil {
		fatal(err)
	}
	firstFind := time.Since(start)
	var st struct {
		Symbols      int  `json:"symbols"`
		SymbolsReady bool `json:"symbolsReady"`
	}
	_ = s.call("find/status", map[string]any{}, &st)
	during := st
	var syms []wire.SymbolInformation
	if err := s.call("workspace/symbol", map[string]any{"query": "Server"}, &syms); err != nil {
		fatal(err)
	}
	symbolsAt := time.Since(start)
	_ = s.call("find/status", map[string]any{}, &st)
	fmt.Printf("`wayfind lsp`, empty cache: first find/files answered %.0f ms after initialize (symbols then: %d, complete: %v); "+
		"first workspace/symbol (which waits for the symbol index) %.1f s after initialize, %d symbols; server RSS %.0f MB after.\n\n",
		float64(firstFind.Microseconds())/1000, during.Symbols, during.SymbolsReady, symbolsAt.Seconds(), st.Symbols, rssOf(s.cmd.Process.Pid))
}

// timeChild runs cmd and returns its wall time and peak RSS in MB.
func timeChild(cmd *exec.Cmd) (time.Duration, float64, error) {
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	rss := 0.0
	if cmd.ProcessState != nil {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			rss = float64(ru.Maxrss) / 1024
		}
	}
	return d, rss, err
}

func outputTimed(cmd *exec.Cmd) ([]byte, time.Duration, error) {
	start := time.Now()
	out, err := cmd.Output()
	return out, time.Since(start), err
}

// humpsOf abbreviates a name by the first two letters of each word
// ("CommandRouter" → "CoRo"), as people type camel-hump queries.
func humpsOf(name string) string {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		start := i == 0 || (c >= 'A' && c <= 'Z' && !(name[i-1] >= 'A' && name[i-1] <= 'Z')) || (name[i-1] == '_' && c != '_')
		if start {
			b.WriteByte(c)
			if i+1 < len(name) && name[i+1] >= 'a' && name[i+1] <= 'z' {
				b.WriteByte(name[i+1])
			}
		}
	}
	return b.String()
}

// swapMiddle transposes two letters in the middle of a name: a typing slip.
func swapMiddle(name string) string {
	b := []byte(name)
	i := len(b) / 2
	if i+1 < len(b) {
		b[i], b[i+1] = b[i+1], b[i]
	}
	return string(b)
}
