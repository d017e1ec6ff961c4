package session

import (
	"time"

	"wayfind/memory"
)

// The session's moments of the memory policy (package memory, which
// makes every limit and drop): as a walk grows, while background work
// reads, while questions come, after a pass, when requests pause.

// afterPass is the moment after a pass read the whole tree, and when
// questions pause (memory.AfterPass).
func (s *Session) afterPass() { memory.AfterPass() }

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
// (busy): every busyRelease, the pages of the saved indexes' paths read
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
			case <-time.After(busyRelease):
			}
			if s.readingEngine.Load() > 0 {
				memory.ReleaseMapped()
			} else {
				memory.ReleaseSaved()
			}
			memory.BoundHeap()
		}
	}
}

// busyRelease is how often the pages background work read are dropped:
// a pass that only compares reads paths as fast as memory is read, and
// what stays resident is what it reads in this long; a question asked
// meanwhile reads its few paths' pages again from the page cache.
const busyRelease = 10 * time.Millisecond

// whileAsked is the memory's moment at each of the upkeep loop's wakes
// while requests come (askedRelease): the saved indexes' pages they read
// are dropped. It returns the lastRequest it saw.
func (s *Session) whileAsked(seen int64) int64 {
	last, due := s.askedRelease(seen)
	if due {
		memory.ReleaseSaved()
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
func (s *Session) growing() { memory.BoundHeap() }
