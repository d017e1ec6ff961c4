package main

// Reliability (issue 26): does a resolve answer's confidence mean what it
// says? Every answer is tallied by its basis and by its confidence's
// bucket, against whether its first candidate was the file meant; a
// bucket of confidence p should see a share of at least p right.

import (
	"fmt"
	"math"
	"os"
	"sort"

	"wayfind/rank"
)

type trustTally struct{ n, right, resolved, resolvedRight int }

type reliability struct {
	byBasis  map[string]map[string]*trustTally // source → class (rank.ResolveResult.Class)
	byBucket map[string]map[int]*trustTally    // source → confidence (hundredths)
	sources  []string
	verbose  bool
}

func newReliability() *reliability {
	return &reliability{byBasis: map[string]map[string]*trustTally{}, byBucket: map[string]map[int]*trustTally{}}
}

// add tallies one answer: want is the file meant.
func (r *reliability) add(source string, res *rank.ResolveResult, want string) {
	if r.byBasis[source] == nil {
		r.sources = append(r.sources, source)
		r.byBasis[source] = map[string]*trustTally{}
		r.byBucket[source] = map[int]*trustTally{}
	}
	right := len(res.Candidates) > 0 && res.Candidates[0].Path == want && res.Gone == nil
	for _, t := range []*trustTally{tallyOf(r.byBasis[source], string(res.Class())), tallyOf(r.byBucket[source], bucket(res.Confidence))} {
		t.n++
		if right {
			t.right++
		}
		if res.Resolved != nil {
			t.resolved++
			if right {
				t.resolvedRight++
			}
		}
	}
	if r.verbose && res.Basis == rank.BasisNearer && len(res.Candidates) > 1 {
		top, runner, topCo, runnerCo := res.Nearness()
		fmt.Fprintf(os.Stderr, "NEARER\t%v\t%s\t%.3f\t%.3f\t%s\t%s\t%.3f\t%.3f\n", right, source, top, runner, res.Candidates[0].Path, want, topCo, runnerCo)
	}
}

func tallyOf[K comparable](m map[K]*trustTally, k K) *trustTally {
	t := m[k]
	if t == nil {
		t = &trustTally{}
		m[k] = t
	}
	return t
}

// bucket is a confidence in hundredths: the engine's confidences are a
// few measured values, each its own row.
func bucket(c float64) int { return int(math.Round(c * 100)) }

func (r *reliability) print() {
	fmt.Println("| answers | class | answers | first candidate right | resolved | resolved right |")
	fmt.Println("|---|---|---:|---:|---:|---:|")
	for _, s := range r.sources {
		var bs []string
		for b := range r.byBasis[s] {
			bs = append(bs, b)
		}
		sort.Strings(bs)
		for _, b := range bs {
			t := r.byBasis[s][b]
			fmt.Printf("| %s | %s | %d | %s | %d | %s |\n", s, b, t.n, pct(t.right, t.n), t.resolved, pct(t.resolvedRight, t.resolved))
		}
	}
	fmt.Println()
	fmt.Println("| answers | confidence | answers | first candidate right | resolved | resolved right |")
	fmt.Println("|---|---|---:|---:|---:|---:|")
	for _, s := range r.sources {
		var ks []int
		for k := range r.byBucket[s] {
			ks = append(ks, k)
		}
		sort.Ints(ks)
		for _, k := range ks {
			t := r.byBucket[s][k]
			fmt.Printf("| %s | %.2f | %d | %s | %d | %s |\n", s, float64(k)/100, t.n, pct(t.right, t.n), t.resolved, pct(t.resolvedRight, t.resolved))
		}
	}
}
