package rank

import (
	"context"
	"os"
	"strings"
	"testing"

	"wayfind/workspace"
)

// BenchmarkFindCorpus times find on a laid-out corpus tree
// (WAYFIND_BENCH_TREE, e.g. /tmp/wayfind-bench/tc39__test262 after
// `make bench`); it is skipped without one.
func BenchmarkFindCorpus(b *testing.B) {
	root := os.Getenv("WAYFIND_BENCH_TREE")
	if root == "" {
		b.Skip("WAYFIND_BENCH_TREE names no corpus tree")
	}
	roots, err := workspace.CleanRoots([]string{root})
	if err != nil {
		b.Fatal(err)
	}
	e := New(workspace.Build(roots, workspace.Options{}))
	queries := []string{"zzzzqqqq", "regflagacce", "typedarraysetwith", "unicode ext seq in private tag", "asyncgendstrvarobjptrnidinitfnnamefn"}
	if f := os.Getenv("WAYFIND_BENCH_QUERIES"); f != "" {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		queries = strings.Split(strings.TrimSpace(string(data)), "\n")
		b.Run("all", func(b *testing.B) {
			for b.Loop() {
				for _, q := range queries {
					e.Find(context.Background(), FindRequest{Query: q, Limit: 5})
				}
			}
		})
		return
	}
	for _, q := range queries {
		b.Run(q, func(b *testing.B) {
			for b.Loop() {
				if _, err := e.Find(context.Background(), FindRequest{Query: q, Limit: 5}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
