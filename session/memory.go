package session

import (
	"math"
	"runtime/debug"
	"runtime/metrics"
	"time"

	"wayfind/rank"
	"wayfind/segment"
	"wayfind/workspace"
)

// The process's memory has one owner, this file: every limit set, every
// collection forced and every drop of mapped pages is decided here, at
// the moments it names — as a walk grows, while a pass reads, after a
// pass, after a compaction, when requests pause. The packages below
// expose Release and never call it.
//
// Two kinds of memory are at stake. The heap, bounded by one soft limit
// (debug.SetMemoryLimit): the runtime collects as it nears it. And the
// pages of the mapped bases a question or a pass has read: the kernel's
// page cache, counted in the process's resident set while mapped in, and
// read again from that cache when dropped — so they are dropped whenever
// a reader is done.

// The server's heap may grow past what it keeps (the live heap) by a
// quarter of it, and by minHeapGrowth at least, before the runtime
// collects: what requests and passes allocate is collected every so
// often rather than let double the heap (Go's default), and a small
// tree's collections stay rare. The limit follows the live heap: it is
// set again at each of the moments below, so that a heap that grows (a
// walk, a pass) is never held under what it keeps.
const (
	heapGrowthShare = 4
	minHeapGrowth   = 64 << 20
)

// oneShotHeap is the heap a one-shot process (a CLI command, the hook)
// grows to before it collects at all: several times what a question over
// a large tree allocates, so that a short run spends nothing on
// collections.
const oneShotHeap = 1 << 30

// userLimit: the environment chose the limit (GOMEMLIMIT); it is kept.
var userLimit = debug.SetMemoryLimit(-1) != math.MaxInt64

// boundHeap sets the server's limit from what the heap keeps now.
func boundHeap() {
	if userLimit {
		return
	}
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	debug.SetMemoryLimit(heapLimit(int64(sample[0].Value.Uint64())))
}

// heapLimit is the server's limit for a heap keeping live bytes.
func heapLimit(live int64) int64 { return live + max(live/heapGrowthShare, minHeapGrowth) }

// OneShotMemory is a one-shot process's policy: no collection until its
// heap reaches oneShotHeap. A command that reads every file (index)
// collects as it goes: it is not one.
func OneShotMemory() {
	if userLimit {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(oneShotHeap)
}

// ReturnMemory collects and returns what it freed to the system at once
// (the runtime returns it a few megabytes a second on its own): for a
// status asked to report the memory kept, not the garbage.
func ReturnMemory() { debug.FreeOSMemory() }

// releaseServed drops the mapped pages of the bases from the process:
// the served snapshot's index paths and engine arrays, and those of the
// bases it replaced, still mapped, whose pages a pass over the paths it
// read from them brought back in (segment.ReleaseAll).
func (s *Session) releaseServed() {
	segment.ReleaseAll()
}

// afterRead is the memory's moment after a base was read whole, to be
// loaded or checked (Open, writeBase), or replaced by another snapshot
// (store): its pages dropped, the next question brings back the few it
// reads.
func afterRead(ix *workspace.Index, eng *rank.Engine) {
	if ix != nil {
		ix.Release()
	}
	if eng != nil {
		eng.Release()
	}
}

// afterWrite is the memory's moment after a base was written from the
// one it replaces (compaction: writeBase), before the new one is read
// back: the pages the writer read are dropped, so that a compaction does
// not hold the old base, the new one and the engine's segment at once.
func afterWrite() { segment.ReleaseAll() }

// afterPass is the memory's moment after a pass read the whole tree (a
// full symbol and content pass, a poll's stat of every file, a walk and
// its build), and when questions pause: its pages dropped, the memory
// kept for the next questions and its garbage returned, the limit set
// from what is kept.
func (s *Session) afterPass() {
	s.releaseServed()
	rank.ReleaseScratch()
	debug.FreeOSMemory()
	boundHeap()
}

// busy marks background work under way — a walk, a poll, a pass, a
// compaction — until the returned func is called: meanwhile releaseLoop
// drops what it reads. readsEngine: the work reads the served engine
// whole too (a compaction lays it out to write it).
func (s *Session) busy(readsEngine bool) (done func()) {
	if readsEngine {
		s.readingEngine.Add(1)
	}
	if s.working.Add(1) == 1 {
		select {
		case s.working0 <- struct{}{}:
		default:
		}
	}
	return func() {
		s.working.Add(-1)
		if readsEngine {
			s.readingEngine.Add(-1)
		}
	}
}

// releaseLoop is the memory's moment while background work is under way
// (busy): every paceRelease, the pages of the saved indexes' paths read
// so far are dropped — a pass reads every path once, in order — and the
// limit is set from what the work keeps so far. The engine's pages stay,
// for the questions asked meanwhile, unless the work reads the engine
// whole too.
//
// It runs until stop is closed: the session's, or, for the base a
// session going writes (writeOwedBase), that write's.
func (s *Session) releaseLoop(stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case <-s.working0:
		}
		for s.working.Load() > 0 {
			select {
			case <-stop:
				return
			case <-time.After(paceRelease):
			}
			if s.readingEngine.Load() > 0 {
				segment.ReleaseAll()
			} else {
				workspace.ReleaseSaved()
			}
			boundHeap()
		}
	}
}

// paceRelease is how often the pages background work read are dropped:
// a pass that only compares reads paths as fast as memory is read, and
// what stays resident is what it reads in this long; a question asked
// meanwhile reads its few paths' pages again from the page cache.
const paceRelease = 10 * time.Millisecond

// whileAsked is the memory's moment at each of the upkeep loop's wakes
// while requests come (askedRelease): the saved indexes' pages they read
// are dropped. It returns the lastRequest it saw.
func (s *Session) whileAsked(seen int64) int64 {
	last, due := s.askedRelease(seen)
	if due {
		workspace.ReleaseSaved()
	}
	return last
}

// askedRelease reports whether the saved indexes' pages that requests
// read are due to go at one of the upkeep loop's wakes (seen: the
// lastRequest of the wake before; last: this one's): requests ended since
// or one runs now. Each question reads a few paths here and there, and a
// long burst of them every page of the index; the engine's pages, which
// every question reads, stay until requests pause (idleRelease).
func (s *Session) askedRelease(seen int64) (last int64, due bool) {
	last = s.lastRequest.Load()
	return last, last != seen || s.active.Load() > 0
}

// idleRelease reports whether the pages and garbage of the requests since
// the last release are due to go (upkeepLoop): requests ran since
// (released: the lastRequest of that release), none runs now, and the
// last ended releaseIdle ago.
func (s *Session) idleRelease(released int64, now time.Time) (last int64, due bool) {
	last = s.lastRequest.Load()
	return last, last != released && s.active.Load() == 0 && now.Sub(time.Unix(0, last)) >= releaseIdle
}

// releaseIdle is how long requests pause before what they read is
// dropped: past a burst of questions (an agent's, a user typing into a
// picker), so that a question rarely maps again what the one before it
// read.
const releaseIdle = compactIdle

// growing is the memory's moment while a walk builds its index: the
// limit follows what it keeps.
func (s *Session) growing() { boundHeap() }
