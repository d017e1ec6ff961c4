package memory

import (
	"runtime/debug"
	"testing"
)

// TestHeapLimit: a server's heap may grow by a quarter of what it keeps,
// and by minHeapGrowth at least.
func TestHeapLimit(t *testing.T) {
	const mb = 1 << 20
	for _, c := range []struct{ live, want int64 }{
		{0, 64 * mb}, {40 * mb, 104 * mb}, {256 * mb, 320 * mb}, {300 * mb, 375 * mb}, {4096 * mb, 5120 * mb},
	} {
		if got := heapLimit(c.live); got != c.want {
			t.Errorf("heapLimit(%d MB) = %d MB, want %d", c.live/mb, got/mb, c.want/mb)
		}
	}
}

// TestBoundHeapKeepsAChoice: a limit the environment set (GOMEMLIMIT) is
// left as it is.
func TestBoundHeapKeepsAChoice(t *testing.T) {
	prev := debug.SetMemoryLimit(123 << 20)
	defer debug.SetMemoryLimit(prev)
	was := userLimit
	userLimit = true
	defer func() { userLimit = was }()
	BoundHeap()
	if got := debug.SetMemoryLimit(-1); got != 123<<20 {
		t.Errorf("BoundHeap changed a chosen limit of 123 MB to %d", got)
	}
}
