package compaction

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"wayfind/rank"
	"wayfind/workspace"
)

// fakeHost swaps when swap says so, and records what it was handed.
type fakeHost struct {
	swap    bool
	swapped *workspace.Index
	busy    int
}

func (h *fakeHost) Swap(seq uint64, ix *workspace.Index, eng *rank.Engine) bool {
	if h.swap {
		h.swapped = ix
	}
	return h.swap
}
func (h *fakeHost) Busy(bool) func() { h.busy++; return func() {} }
func (h *fakeHost) Pace()            {}

// TestDue: a snapshot on the heap is compacted when a walk owes it, or
// when its owner is quiet — unless it is an overlay over the base; never
// one served from its base, nor one tried already.
func TestDue(t *testing.T) {
	for _, c := range []struct {
		name               string
		snap               Snapshot
		owed, tried, quiet bool
		want               bool
	}{
		{"owed", Snapshot{Seq: 2, Heap: true}, true, false, false, true},
		{"owed, an overlay", Snapshot{Seq: 2, Heap: true, Overlay: true}, true, false, false, true},
		{"quiet", Snapshot{Seq: 2, Heap: true}, false, false, true, true},
		{"quiet, an overlay", Snapshot{Seq: 2, Heap: true, Overlay: true}, false, false, true, false},
		{"not quiet", Snapshot{Seq: 2, Heap: true}, false, false, false, false},
		{"the base", Snapshot{Seq: 2}, true, false, true, false},
		{"tried", Snapshot{Seq: 2, Heap: true}, true, true, true, false},
	} {
		co := New(&fakeHost{}, "-", workspace.Options{}, nil)
		if c.owed {
			co.Owe()
		}
		if c.tried {
			co.tried = c.snap.Seq
		}
		if got := co.Due(c.snap, c.quiet); got != c.want {
			t.Errorf("%s: due %v, want %v", c.name, got, c.want)
		}
	}
}

// TestCompact: the base is written and handed to the host to swap in,
// the same files; a host that no longer serves the snapshot keeps its
// own, and a failure is not tried again on the same snapshot. What was
// owed is settled.
func TestCompact(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	for _, f := range []string{"a.go", "src/b.go"} {
		p := filepath.Join(dir, filepath.FromSlash(f))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(f), 0o644)
	}
	roots, _ := workspace.CleanRoots([]string{dir})
	ix := workspace.Build(roots, workspace.Options{})
	snap := Snapshot{Seq: 1, Index: ix, Engine: rank.New(ix), Heap: true}
	for _, swap := range []bool{false, true} {
		h := &fakeHost{swap: swap}
		co := New(h, cache, workspace.Options{}, nil)
		co.Owe()
		if got := co.Compact(snap, time.Second); got != swap {
			t.Errorf("host swaps %v: Compact reports %v", swap, got)
		}
		if swap && (h.swapped == nil || h.swapped.Len() != ix.Len()) {
			t.Errorf("the base handed to the host: %v", h.swapped)
		}
		if h.busy != 1 {
			t.Errorf("the write was marked busy %d times", h.busy)
		}
		if co.Due(snap, true) {
			t.Error("a snapshot tried is due again")
		}
		co.Settle()
		if co.Owed() != nil {
			t.Error("settled, and still owed")
		}
	}
}
