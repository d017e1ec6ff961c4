package memory

import (
	"runtime/debug"
	"testing"
	"time"
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

// TestIdleDue: what requests read is dropped once after them, when none
// runs and the last ended idle ago.
func TestIdleDue(t *testing.T) {
	const idle = 10 * time.Second
	now := time.Unix(1000, 0)
	ended := now.Add(-idle).UnixNano()
	for _, c := range []struct {
		name           string
		last, released int64
		running        bool
		want           bool
	}{
		{"idle long enough", ended, 0, false, true},
		{"dropped since", ended, ended, false, false},
		{"a request runs", ended, 0, true, false},
		{"ended just under idle ago", ended + 1, 0, false, false},
		{"no request yet", 0, 0, false, false},
	} {
		if got := IdleDue(c.released, c.last, c.running, now, idle); got != c.want {
			t.Errorf("%s: %v", c.name, got)
		}
	}
}

// TestAskedDue: the paths requests read are dropped at each wake of the
// upkeep after one ended since the last, or while one runs.
func TestAskedDue(t *testing.T) {
	for _, c := range []struct {
		name       string
		last, seen int64
		running    bool
		want       bool
	}{
		{"one ended since", 2, 1, false, true},
		{"none since", 1, 1, false, false},
		{"one runs", 1, 1, true, true},
		{"none yet", 0, 0, false, false},
	} {
		if got := AskedDue(c.seen, c.last, c.running); got != c.want {
			t.Errorf("%s: %v", c.name, got)
		}
	}
}
