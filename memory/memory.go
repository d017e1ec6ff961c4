// Package memory is the process's memory policy, in one file: every
// limit set, every collection forced and every drop of mapped pages is
// made here, at the moments its callers name — the servers' session (as
// a walk grows, while background work reads, after a pass, when
// requests pause) and the base's opener and writer (after a base is read
// whole or written). The packages below expose Release and never call
// it. (resident_*.go only reads what the kernel counts.)
//
// Two kinds of memory are at stake. The heap, bounded by one soft limit
// (debug.SetMemoryLimit): the runtime collects as it nears it. And the
// pages of the mapped bases a question or a pass has read: the kernel's
// page cache, counted in the process's resident set while mapped in, and
// read again from that cache when dropped — so they are dropped whenever
// a reader is done.
package memory

import (
	"math"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
	"time"

	"wayfind/rank"
	"wayfind/segment"
	"wayfind/workspace"
)

// The server's heap may grow past what it keeps (the live heap) by a
// quarter of it, and by minHeapGrowth at least, before the runtime
// collects: what requests and passes allocate is collected every so
// often rather than let double the heap (Go's default), and a small
// tree's collections stay rare. The limit follows the live heap: it is
// set again at each of the moments the session names, so that a heap
// that grows (a walk, a pass) is never held under what it keeps.
const (
	heapGrowthShare = 4
	minHeapGrowth   = 64 << 20
)

// residentBudget is what the server's resident set stays under — its
// heap and the pages of the mapped bases it has read — while the heap
// it keeps leaves room: the growth above is cut to what the budget
// leaves after the mapped pages resident when the limit is set
// (mappedResident), so that on a large tree a background pass collects
// more often rather than take the process past it. The budget is the
// resident set a million files' server is held to (docs/BENCHMARKS.md,
// "Scale"), less budgetSlack.
//
// budgetSlack is what the set may gain between two settings of the
// limit: the runtime's limit is soft (it collects as the heap nears it,
// and returns freed pages a few megabytes a second), and mapped pages a
// question reads come in between.
const (
	residentBudget = 500<<20 - budgetSlack
	budgetSlack    = 32 << 20
)

// minHeapShare: however little the budget leaves, the heap may grow by
// an eighth of what it keeps before the runtime collects — a heap that
// the budget cannot hold (a larger tree than it was set for) is
// collected every eighth of itself, not after each allocation.
const minHeapShare = 8

// oneShotHeap is the heap a one-shot process (a CLI command, the hook)
// grows to before it collects at all: several times what a question over
// a large tree allocates, so that a short run spends nothing on
// collections.
const oneShotHeap = 1 << 30

// userLimit: the environment chose the limit (GOMEMLIMIT); it is kept.
var userLimit = debug.SetMemoryLimit(-1) != math.MaxInt64

// BoundHeap sets the server's limit from what the heap keeps now and
// the mapped pages resident now — dropped first (dropFor) when the heap's
// growth and they would pass the budget together: pages read again from
// the page cache are cheaper than a heap collected more often.
func BoundHeap() {
	if userLimit {
		return
	}
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	live := int64(sample[0].Value.Uint64())
	mapped := dropFor(live, mappedResident, ReleaseSaved, ReleaseMapped)
	debug.SetMemoryLimit(heapLimit(live, mapped))
}

// dropFor drops mapped pages, in the order drops gives them, until a heap
// keeping live bytes may grow by its share (heapLimit) beside what stays
// mapped (resident: read again after each drop) within the budget; it
// returns what stays. The saved indexes' pages go first, read here and
// there by a question; the engine's, which every question reads, go only
// when a pass's heap leaves them no room either (a reindex parses every
// file again while the old tables serve).
func dropFor(live int64, resident func() int64, drops ...func()) int64 {
	mapped := resident()
	for _, drop := range drops {
		if !overBudget(heapLimit(live, 0), mapped) {
			break
		}
		drop()
		mapped = resident()
	}
	return mapped
}

// heapLimit is the server's limit for a heap keeping live bytes while
// mapped bytes of mapped files are resident: its growth (heapGrowthShare,
// minHeapGrowth), cut to what residentBudget leaves, and never under
// live's share (minHeapShare).
func heapLimit(live, mapped int64) int64 {
	limit := min(live+max(live/heapGrowthShare, minHeapGrowth), residentBudget-mapped)
	return max(limit, live+live/minHeapShare)
}

// overBudget reports whether a heap limited to limit and mapped bytes of
// mapped pages would pass the resident budget.
func overBudget(limit, mapped int64) bool {
	return limit < math.MaxInt64-mapped && limit+mapped > residentBudget
}

// OneShot is a one-shot process's policy: no collection until its heap
// reaches oneShotHeap. A command that reads every file (index) collects
// as it goes: it is not one.
func OneShot() {
	if userLimit {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(oneShotHeap)
}

// Return collects and returns what it freed to the system at once (the
// runtime returns it a few megabytes a second on its own): for a status
// asked to report the memory kept, not the garbage.
func Return() { debug.FreeOSMemory() }

// ReleaseMapped drops the mapped pages of every base from the process:
// the served index's paths and engine's arrays, and those of the bases
// they replaced that something still holds, whose pages a pass over the
// paths read from them brought back in (segment.ReleaseAll).
func ReleaseMapped() { segment.ReleaseAll() }

// ReleaseSaved drops the pages of the saved indexes' paths only — what
// a pass, a poll or a burst of questions reads here and there of every
// file — and leaves the engine's, which every question reads.
func ReleaseSaved() { workspace.ReleaseSaved() }

// AfterRead is the moment after a base was read whole, to be loaded or
// checked (an open, a write), or replaced by another snapshot: its pages
// dropped, the next question brings back the few it reads.
func AfterRead(ix *workspace.Index, eng *rank.Engine) {
	if ix != nil {
		ix.Release()
	}
	if eng != nil {
		eng.Release()
	}
}

// AfterWrite is the moment after a base was written from the one it
// replaces, before the new one is read back: the pages the writer read
// are dropped, so that a compaction does not hold the old base, the new
// one and the engine's segment at once; and the garbage of what was
// built to be written (a walk's, an engine builder's) is collected and
// returned before the read back adds the new base's pages to the heap
// the reindex keeps — the moment of a reindex's peak.
func AfterWrite() {
	segment.ReleaseAll()
	debug.FreeOSMemory()
}

// AfterPass is the moment after a pass read the whole tree (a full
// symbol and content pass, a poll's stat of every file, a walk and its
// build), and when questions pause: its pages dropped, the scratch kept
// for the next questions and the garbage returned, the limit set from
// what is kept.
func AfterPass() {
	segment.ReleaseAll()
	rank.ReleaseScratch()
	debug.FreeOSMemory()
	BoundHeap()
}

// Work is one workspace's background work under way — a walk, a poll, a
// pass, a compaction, the base a closing session writes (Busy) — whose
// reads are dropped as it goes (Release).
type Work struct {
	working       atomic.Int32
	readingEngine atomic.Int32  // among it, work that reads the served engine whole
	started       chan struct{} // hears working leave zero
	dropped       atomic.Int64  // when its reads were last dropped, UnixNano
}

// NewWork is a workspace's background work, none under way.
func NewWork() *Work { return &Work{started: make(chan struct{}, 1)} }

// Busy marks work under way until done is called. readsEngine: it reads
// the served engine whole too (a compaction lays it out to write it).
func (w *Work) Busy(readsEngine bool) (done func()) {
	if readsEngine {
		w.readingEngine.Add(1)
	}
	if w.working.Add(1) == 1 {
		select {
		case w.started <- struct{}{}:
		default:
		}
	}
	return func() {
		w.working.Add(-1)
		if readsEngine {
			w.readingEngine.Add(-1)
		}
	}
}

// busyRelease is how often the pages background work read are dropped:
// a pass that only compares reads paths as fast as memory is read — the
// kernel maps a mapped file's cached pages several at a fault — and what
// stays resident is what it reads in this long, so the period is a few
// milliseconds, not the tens a person would notice; a drop where little
// is resident costs a walk of the page tables, and a question asked
// meanwhile reads its few paths' pages again from the page cache.
const busyRelease = 2 * time.Millisecond

// Release is the moment while work is under way (Busy), until stop is
// closed: every busyRelease, the pages of the saved indexes' paths read
// so far are dropped — a pass reads every path once, in order — and the
// limit is set from what the work keeps so far. The engine's pages stay,
// for the questions asked meanwhile, unless the work reads the engine
// whole too.
func (w *Work) Release(stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case <-w.started:
		}
		for w.working.Load() > 0 {
			select {
			case <-stop:
				return
			case <-time.After(busyRelease):
			}
			w.dropIfDue()
		}
	}
}

// Paced is the moment between two stretches of background work (its
// pace): the drop Release makes every busyRelease is made here when it
// is due, by the worker itself. Release's loop, woken by a timer, can be
// woken late on a busy machine — both cores taken by the reader and the
// collector — while a reader maps a whole base at memory's speed; the
// reader's own pace comes every short stretch.
func (w *Work) Paced() {
	if w.working.Load() > 0 {
		w.dropIfDue()
	}
}

// dropIfDue drops the pages the work read (the engine's too when it
// reads the engine whole) and sets the limit from what it keeps, when
// busyRelease has passed since the last drop, whoever made it — the
// loop or a worker's pace: one drop a period, not one each.
func (w *Work) dropIfDue() {
	now := time.Now().UnixNano()
	if last := w.dropped.Load(); now-last < int64(busyRelease) || !w.dropped.CompareAndSwap(last, now) {
		return
	}
	if w.readingEngine.Load() > 0 {
		ReleaseMapped()
	} else {
		ReleaseSaved()
	}
	BoundHeap()
}

// AskedDue reports whether the saved indexes' pages that requests read
// are due to go at a wake of the workspace's upkeep (ReleaseSaved): a
// request ended since the last wake (last, the end of the last request,
// differs from seen, the last wake's) or one runs now. Each question
// reads a few paths here and there, and a long burst of them every page
// of the index; the engine's pages, which every question reads, stay
// until requests pause (IdleDue).
func AskedDue(seen, last int64, running bool) bool {
	return last != seen || running
}

// IdleDue reports whether the pages and garbage of the requests since the
// last such drop (released: the end of the last request then) are due
// to go (AfterPass): requests ran since, none runs now, and the last
// ended idle ago — past a burst of questions (an agent's, a user typing
// into a picker), so that a question rarely maps again what the one
// before it read.
func IdleDue(released, last int64, running bool, now time.Time, idle time.Duration) bool {
	return last != released && !running && now.Sub(time.Unix(0, last)) >= idle
}
