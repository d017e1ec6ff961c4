package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"wayfind/content"
	"wayfind/rank"
	"wayfind/workspace"
)

// contentBench lays out a corpus with generated text (a file per path,
// ~1.5 KB of JavaScript-like source whose identifiers come from the path's
// own words and a shared vocabulary, so some words are in one file and
// some in thousands), indexes it as the session does, and times content
// searches of three kinds: a word of one file's path (rare), a pair of
// shared vocabulary words (common), and words no file has.
func contentBench(corpora, work, name string) {
	paths, err := readCorpus(filepath.Join(corpora, name))
	if err != nil {
		fatal(err)
	}
	root := filepath.Join(work, "contents", name)
	if err := layoutText(root, paths); err != nil {
		fatal(err)
	}
	roots, _ := workspace.CleanRoots([]string{root})
	ix := workspace.Build(roots, workspace.Options{})
	var x content.Indexer
	var ci *content.Index
	start := time.Now()
	heap := heapGrowth(func() {
		ci, err = x.Sync(context.Background(), ix)
	})
	if err != nil {
		fatal(err)
	}
	build := time.Since(start)
	var bytes int64
	for _, f := range ix.Files() {
		if st, err := os.Stat(ix.Abs(f)); err == nil {
			bytes += st.Size()
		}
	}
	fmt.Printf("## content search: %s with generated text\n\n", name)
	fmt.Printf("%d files, %.0f MB of text; index built in %.2f s on %d cores, %.1f MB of filters (%.0f bytes per file)\n\n",
		ix.Len(), float64(bytes)/1e6, build.Seconds(), runtime.NumCPU(), heap/1e6, heap/float64(ix.Len()))

	eng := rank.New(ix).WithContent(ci)
	keep := ix.Has
	rng := rand.New(rand.NewSource(7))
	kinds := []struct {
		name  string
		words func() []string
	}{
		{"rare (a word of one path)", func() []string {
			ws := pathWords(paths[rng.Intn(len(paths))])
			return []string{ws[rng.Intn(len(ws))]}
		}},
		{"common (two vocabulary words)", func() []string {
			return []string{vocabulary[rng.Intn(len(vocabulary))], vocabulary[rng.Intn(len(vocabulary))]}
		}},
		{"absent", func() []string { return []string{"zqxj" + strconv.Itoa(rng.Intn(1000)), "vvkk"} }},
	}
	fmt.Println("| query kind | queries | p50 ms | p99 ms | max ms | files filtered (median) | files read (median) | locate p50 ms |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|")
	var all []time.Duration
	for _, k := range kinds {
		var ds, lds []time.Duration
		var filtered, read []int
		for i := 0; i < 200; i++ {
			words := k.words()
			t0 := time.Now()
			_, st, err := ci.Search(context.Background(), content.Query{Words: words}, content.SearchOptions{Keep: keep})
			ds = append(ds, time.Since(t0))
			if err != nil {
				fatal(err)
			}
			filtered, read = append(filtered, st.Filtered), append(read, st.Read)
			t0 = time.Now()
			if _, err := eng.Locate(context.Background(), rank.LocateRequest{Query: "where is " + strings.Join(words, "_")}); err != nil && !errors.Is(err, rank.ErrInput) {
				fatal(err) // (a word like "function" is a question word to locate: nothing to ask)
			}
			lds = append(lds, time.Since(t0))
		}
		all = append(all, ds...)
		fmt.Printf("| %s | %d | %s | %s | %s | %d | %d | %s |\n", k.name, len(ds), ms(quantile(ds, 0.5)), ms(quantile(ds, 0.99)), ms(quantile(ds, 1)),
			medianInt(filtered), medianInt(read), ms(quantile(lds, 0.5)))
	}
	fmt.Printf("| **all** | %d | %s | %s | %s | | | |\n\n", len(all), ms(quantile(all, 0.5)), ms(quantile(all, 0.99)), ms(quantile(all, 1)))
}

var vocabulary = strings.Fields(`assert sameValue throws verifyProperty prototype constructor Symbol
iterator Promise resolve reject then Array from map filter reduce length Object defineProperty
getOwnPropertyDescriptor writable enumerable configurable value TypeError RangeError SyntaxError
Reflect Proxy handler target receiver BigInt Number String RegExp exec lastIndex flags global
async await generator yield next done return this arguments callee strict module import export
default class extends super static get set Date Math floor ceil abs Intl Temporal duration
calendar timezone instant plain compare equals toString valueOf`)

func pathWords(p string) []string {
	var out []string
	content.Words([]byte(p), func(w []byte) {
		if len(w) >= 4 && !strings.ContainsAny(string(w), "0123456789") {
			out = append(out, string(w))
		}
	})
	if len(out) == 0 {
		out = []string{"test"}
	}
	return out
}

func medianInt(xs []int) int {
	s := slices.Sorted(slices.Values(xs))
	return s[len(s)/2]
}

// layoutText writes each path with generated text, once.
func layoutText(root string, paths []string) error {
	rng := rand.New(rand.NewSource(1))
	return layoutWith(root, paths, func(p string) []byte {
		var b strings.Builder
		own := pathWords(p)
		fmt.Fprintf(&b, "// Copyright (C) 2024 the contributors. All rights reserved.\n/*---\ndescription: %s\nfeatures: [%s, %s]\n---*/\n\n",
			strings.Join(own, " "), vocabulary[rng.Intn(len(vocabulary))], vocabulary[rng.Intn(len(vocabulary))])
		for n := 0; n < 8+rng.Intn(16); n++ {
			a, c := vocabulary[rng.Intn(len(vocabulary))], vocabulary[rng.Intn(len(vocabulary))]
			switch rng.Intn(3) {
			case 0:
				fmt.Fprintf(&b, "var %s_%s = %s.%s(%d);\n", own[rng.Intn(len(own))], a, c, a, rng.Intn(100))
			case 1:
				fmt.Fprintf(&b, "function %s%s(%s) {\n  assert.sameValue(%s, %q);\n}\n", a, strings.Title(c), c, a, c)
			default:
				fmt.Fprintf(&b, "assert.throws(%s, function() { %s.%s(); }, %q);\n", c, a, own[rng.Intn(len(own))], a+" "+c)
			}
		}
		return []byte(b.String())
	})
}
