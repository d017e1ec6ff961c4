package main

import (
	"fmt"
	"sort"
	"time"

	"wayfind/rank"
	"wayfind/rerank"
)

// modelBench runs every public case through the engine twice, without
// and with the reranker, and reports accuracy per category side by side,
// how many queries the model was asked about, and what that cost.
func modelBench(corpora, work string, names []string, byCorpus map[string][]benchCase, dir, lib string) {
	before := rssMB()
	t0 := time.Now()
	m, err := rerank.Load(rerank.Options{Dir: dir, Lib: lib, Logf: func(f string, a ...any) { fmt.Printf("model: "+f+"\n", a...) }})
	if err != nil {
		fatal(err)
	}
	defer m.Close()
	info := m.Info()
	fmt.Printf("## Rerank: %s (%s), loaded in %.0f ms (%.0f ms with the runtime); RSS %.0f MB → %.0f MB with the model\n\n",
		info.Name, info.Precision, info.LoadMs, float64(time.Since(t0).Microseconds())/1000, before, rssMB())
	type pair struct{ lex, rr outcome }
	var all []pair
	for _, name := range names {
		_, root := corpusTree(corpora, work, name)
		eng, _ := index(root)
		withModel := eng.WithReranker(m, rank.RerankOptions{})
		for _, c := range byCorpus[name] {
			all = append(all, pair{run(eng, c), run(withModel, c)})
		}
	}
	cats := map[string][]pair{}
	var keys []string
	for _, p := range all {
		k := p.lex.c.Kind + "/" + p.lex.c.Category
		if cats[k] == nil {
			keys = append(keys, k)
		}
		cats[k] = append(cats[k], p)
	}
	sort.Strings(keys)
	fmt.Println("| kind/category | cases | top-1 lexical | top-1 reranked | first candidate lexical | first candidate reranked | recall@5 lexical | recall@5 reranked | reranked | model p50 / p99 ms |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	row := func(label string, ps []pair) {
		var t1l, t1r, fl, fr, r5l, r5r, n int
		var ms []time.Duration
		for _, p := range ps {
			want := ""
			if p.lex.c.Expected != nil {
				want = *p.lex.c.Expected
			}
			t1l, t1r = t1l+b2i(p.lex.top1), t1r+b2i(p.rr.top1)
			fl, fr = fl+b2i(p.lex.first == want), fr+b2i(p.rr.first == want)
			r5l, r5r = r5l+b2i(p.lex.at5), r5r+b2i(p.rr.at5)
			if p.rr.rerank.Reranked {
				n++
				ms = append(ms, time.Duration(p.rr.rerank.Ms*float64(time.Millisecond)))
			}
		}
		lat := "—"
		if len(ms) > 0 {
			lat = ms2(quantile(ms, 0.5)) + " / " + ms2(quantile(ms, 0.99))
		}
		fmt.Printf("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |\n", label, len(ps),
			pct(t1l, len(ps)), pct(t1r, len(ps)), pct(fl, len(ps)), pct(fr, len(ps)), pct(r5l, len(ps)), pct(r5r, len(ps)), pct(n, len(ps)), lat)
	}
	for _, k := range keys {
		row(k, cats[k])
	}
	row("**all**", all)
	fmt.Println()
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func ms2(d time.Duration) string { return fmt.Sprintf("%.2f", float64(d.Microseconds())/1000) }
