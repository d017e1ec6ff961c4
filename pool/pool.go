// Package pool runs one function over many items on a bounded number of
// goroutines: the shape of every indexing pass (symbols, contents).
package pool

import (
	"context"
	"runtime"
	"sync"
)

// Map calls work(i) for each i in [0, n) on workers goroutines (0: one per
// core), each goroutine made ready by setup (one parser each, say) and
// released by its returned teardown, and hands every result to each, from
// the calling goroutine, in no set order. It stops handing out work when
// ctx ends; skip, when set, passes over an index without calling work.
func Map[W, R any](ctx context.Context, n, workers int, setup func() (W, func()), skip func(i int) bool, work func(w W, i int) R, each func(i int, r R)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	type result struct {
		i int
		r R
	}
	jobs := make(chan int)
	results := make(chan result, workers)
	var wg sync.WaitGroup
	for k := 0; k < workers; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w, teardown := setup()
			if teardown != nil {
				defer teardown()
			}
			for i := range jobs {
				results <- result{i, work(w, i)}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := 0; i < n; i++ {
			if skip != nil && skip(i) {
				continue
			}
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(results)
	}()
	for r := range results {
		each(r.i, r.r)
	}
}
