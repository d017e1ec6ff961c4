package pool

import (
	"context"
	"sync/atomic"
	"testing"
)

func TestMap(t *testing.T) {
	var setups, teardowns atomic.Int32
	got := map[int]int{}
	Map(context.Background(), 100, 3,
		func() (int, func()) { setups.Add(1); return 10, func() { teardowns.Add(1) } },
		func(i int) bool { return i%2 == 1 },
		func(w, i int) int { return i * w },
		func(i, r int) {
			if _, dup := got[i]; dup {
				t.Errorf("item %d twice", i)
			}
			got[i] = r
		})
	if len(got) != 50 || got[42] != 420 {
		t.Errorf("results: %d, got[42] = %d", len(got), got[42])
	}
	if setups.Load() != 3 || teardowns.Load() != 3 {
		t.Errorf("setups %d teardowns %d", setups.Load(), teardowns.Load())
	}
	// A cancelled context hands out no more work, and Map still returns.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	n := 0
	Map(ctx, 1000, 2, func() (struct{}, func()) { return struct{}{}, nil }, nil,
		func(struct{}, int) int { return 0 }, func(int, int) { n++ })
	if n > 2 {
		t.Errorf("%d items done after cancel", n)
	}
}
