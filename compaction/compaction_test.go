package compaction

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"wayfind/rank"
	"wayfind/workspace"
)

// fakeHost swaps when swap says so, and records what it was handed;
// with replacements, each swap refused serves the next of them.
type fakeHost struct {
	swap         bool
	swapped      *workspace.Index
	busy         int
	current      Snapshot
	replacements []Snapshot
	seqs         []uint64 // the snapshots it was asked to swap
}

func (h *fakeHost) Swap(seq uint64, ix *workspace.Index, eng *rank.Engine) bool {
	h.seqs = append(h.seqs, seq)
	if len(h.replacements) > 0 {
		h.current, h.replacements = h.replacements[0], h.replacements[1:]
		return false
	}
	if h.swap {
		h.swapped = ix
	}
	return h.swap
}
func (h *fakeHost) Current() Snapshot { return h.current }
func (h *fakeHost) Busy(bool) func()  { h.busy++; return func() {} }
func (h *fakeHost) Pace()             {}

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

// TestCompactReplaced: an owed compaction whose snapshot is replaced
// while its base is written writes the one that replaced it, when that
// one is on the heap, up to owedRetries times; one not owed, or replaced
// by a base, is left as it is.
func TestCompactReplaced(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.go"), nil, 0o644)
	roots, _ := workspace.CleanRoots([]string{dir})
	ix := workspace.Build(roots, workspace.Options{})
	heap := func(seq uint64) Snapshot { return Snapshot{Seq: seq, Index: ix, Engine: rank.New(ix), Heap: true} }
	many := func(n int) []Snapshot {
		var out []Snapshot
		for k := range n {
			out = append(out, heap(uint64(k+2)))
		}
		return out
	}
	for _, c := range []struct {
		name         string
		owed         bool
		replacements []Snapshot
		want         bool
		wantSeqs     []uint64
	}{
		{"owed, replaced once", true, many(1), true, []uint64{1, 2}},
		{"owed, replaced as often as retried", true, many(owedRetries), true, []uint64{1, 2, 3}},
		{"owed, replaced past the retries", true, many(owedRetries + 1), false, []uint64{1, 2, 3}},
		{"not owed, replaced", false, many(1), false, []uint64{1}},
		{"owed, replaced by a base", true, []Snapshot{{Seq: 2, Index: ix}}, false, []uint64{1}},
	} {
		h := &fakeHost{swap: true, replacements: c.replacements}
		co := New(h, cache, workspace.Options{}, nil)
		if c.owed {
			co.Owe()
		}
		if got := co.Compact(heap(1), time.Second); got != c.want || !slices.Equal(h.seqs, c.wantSeqs) {
			t.Errorf("%s: Compact %v after swaps of %v, want %v after %v", c.name, got, h.seqs, c.want, c.wantSeqs)
		}
		if h.busy != 1 {
			t.Errorf("%s: marked busy %d times", c.name, h.busy)
		}
	}
}
