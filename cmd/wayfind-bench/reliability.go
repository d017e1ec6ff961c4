package main

// Reliability (issue 26): does a resolve answer's confidence mean what it
// says? Every answer is tallied by its basis and by its confidence's
// bucket, against whether its first candidate was the file meant; a
// bucket of confidence p should see a share of at least p right.

import (
	"cmp"
	"fmt"
	"math"
	"os"

	"wayfind/rank"
)

type reliability struct {
	byBasis  map[string]*tallies[string] // source → class (rank.ResolveResult.Class)
	byBucket map[string]*tallies[int]    // source → confidence (hundredths)
	sources  []string
	verbose  bool
}

func newReliability() *reliability {
	return &reliability{byBasis: map[string]*tallies[string]{}, byBucket: map[string]*tallies[int]{}}
}

// add tallies one answer: want is the file meant.
func (r *reliability) add(source string, res *rank.ResolveResult, want string) {
	if r.byBasis[source] == nil {
		r.sources = append(r.sources, source)
		r.byBasis[source] = &tallies[string]{}
		r.byBucket[source] = &tallies[int]{}
	}
	right := len(res.Candidates) > 0 && res.Candidates[0].Path == want && res.Gone == nil
	m := mark{right: right, first: right, acted: res.Resolved != nil}
	r.byBasis[source].add(m, string(res.Class()))
	r.byBucket[source].add(m, bucket(res.Confidence))
	if r.verbose && res.Basis == rank.BasisNearer && len(res.Candidates) > 1 {
		top, runner, topCo, runnerCo := res.Nearness()
		fmt.Fprintf(os.Stderr, "NEARER\t%v\t%s\t%.3f\t%.3f\t%s\t%s\t%.3f\t%.3f\n", right, source, top, runner, res.Candidates[0].Path, want, topCo, runnerCo)
	}
}

// bucket is a confidence in hundredths: the engine's confidences are a
// few measured values, each its own row.
func bucket(c float64) int { return int(math.Round(c * 100)) }

func (r *reliability) print() {
	printReliability(r.sources, "class", r.byBasis, func(c string) string { return c })
	fmt.Println()
	printReliability(r.sources, "confidence", r.byBucket, func(k int) string { return fmt.Sprintf("%.2f", float64(k)/100) })
}

// printReliability prints one table of the answers by source and by key
// (a class, a confidence bucket), the keys in order.
func printReliability[K cmp.Ordered](sources []string, col string, by map[string]*tallies[K], label func(K) string) {
	fmt.Printf("| answers | %s | answers | first candidate right | resolved | resolved right |\n", col)
	fmt.Println("|---|---|---:|---:|---:|---:|")
	for _, s := range sources {
		ts := by[s]
		for _, k := range ts.sorted(cmp.Compare[K]) {
			t := ts.by[k]
			fmt.Printf("| %s | %s | %d | %s | %d | %s |\n", s, label(k), t.n, pct(t.first, t.n), t.acted, pct(t.actedRight, t.acted))
		}
	}
}
