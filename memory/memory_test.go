package memory

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestHeapLimit: a server's heap may grow by a quarter of what it keeps,
// and by minHeapGrowth at least, as far as the resident budget leaves
// after the mapped pages resident — and by an eighth of it whatever the
// budget leaves.
func TestHeapLimit(t *testing.T) {
	const mb = 1 << 20
	for _, c := range []struct{ live, mapped, want int64 }{
		{0, 0, 64 * mb},
		{40 * mb, 30 * mb, 104 * mb},
		{256 * mb, 30 * mb, 320 * mb},
		{300 * mb, 30 * mb, 375 * mb},
		// What the budget leaves after the mapped pages is under the growth.
		{300 * mb, 100 * mb, 368 * mb},
		// What it leaves is under an eighth's growth: the eighth stands.
		{300 * mb, 150 * mb, 337*mb + mb/2},
		{4096 * mb, 0, 4608 * mb},
	} {
		if got := heapLimit(c.live, c.mapped); got != c.want {
			t.Errorf("heapLimit(%d MB live, %d MB mapped) = %.1f MB, want %.1f", c.live/mb, c.mapped/mb, float64(got)/mb, float64(c.want)/mb)
		}
	}
}

// TestOverBudget: the saved indexes' pages go when they and the heap's
// limit pass the budget together; never under no limit at all.
func TestOverBudget(t *testing.T) {
	const mb = 1 << 20
	for _, c := range []struct {
		name          string
		limit, mapped int64
		want          bool
	}{
		{"under", 264 * mb, 200 * mb, false},
		{"at the budget", 268 * mb, 200 * mb, false},
		{"past it", 264 * mb, 205 * mb, true},
		{"no limit", math.MaxInt64, 200 * mb, false},
	} {
		if got := overBudget(c.limit, c.mapped); got != c.want {
			t.Errorf("%s: overBudget = %v", c.name, got)
		}
	}
}

// TestDropFor: the mapped pages go in the order given, each drop only
// while the heap's growth and what stays mapped pass the budget together:
// a server at rest keeps the engine's pages, a pass whose heap leaves no
// room drops them too, and a heap the budget cannot hold drops all.
func TestDropFor(t *testing.T) {
	const mb = 1 << 20
	for _, c := range []struct {
		name      string
		live      int64
		resident  []int64 // what stays mapped before the drops, and after each
		wantDrops int
		want      int64
	}{
		{"at rest", 140 * mb, []int64{160 * mb, 110 * mb, 35 * mb}, 0, 160 * mb},
		{"saved pages enough", 300 * mb, []int64{160 * mb, 40 * mb, 35 * mb}, 1, 40 * mb},
		{"the engine's too", 330 * mb, []int64{160 * mb, 110 * mb, 35 * mb}, 2, 35 * mb},
		{"nothing left to drop", 500 * mb, []int64{160 * mb, 110 * mb, 35 * mb}, 2, 35 * mb},
	} {
		drops, read := 0, 0
		resident := func() int64 { r := c.resident[read]; read++; return r }
		drop := func() { drops++ }
		if got := dropFor(c.live, resident, drop, drop); got != c.want || drops != c.wantDrops {
			t.Errorf("%s: dropFor = %d MB after %d drops, want %d MB after %d", c.name, got/mb, drops, c.want/mb, c.wantDrops)
		}
	}
}

// TestMappedResident: the mapped pages of a file read are counted.
func TestMappedResident(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("statm is Linux's")
	}
	before := mappedResident()
	if before <= 0 {
		t.Fatalf("mappedResident = %d: the test binary's own text is mapped", before)
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

// TestPacedDropsWhenDue: a background worker's pace drops what the work
// read once busyRelease has passed since the last drop, and not sooner;
// with no work under way, never.
func TestPacedDropsWhenDue(t *testing.T) {
	w := NewWork()
	w.Paced()
	if w.dropped.Load() != 0 {
		t.Fatal("dropped with no work under way")
	}
	done := w.Busy(false)
	defer done()
	w.Paced()
	first := w.dropped.Load()
	if first == 0 {
		t.Fatal("the first pace of work under way did not drop")
	}
	w.Paced()
	if got := w.dropped.Load(); got != first && time.Duration(got-first) < busyRelease {
		t.Fatalf("dropped again %v after the last, sooner than busyRelease (%v)", time.Duration(got-first), busyRelease)
	}
	time.Sleep(busyRelease)
	w.Paced()
	if w.dropped.Load() == first {
		t.Fatal("not dropped busyRelease after the last drop")
	}
}
