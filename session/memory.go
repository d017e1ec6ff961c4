package session

import (
	"wayfind/memory"
)

// The session's moments of the memory policy (package memory, which
// makes every limit and drop): as a walk grows, while background work
// reads (memory.Work: busy, and its Release loop), while questions come,
// after a pass, when requests pause.

// afterPass is the moment after a pass read the whole tree, and when
// questions pause (memory.AfterPass).
func (s *Session) afterPass() { memory.AfterPass() }

// busy marks background work under way (memory.Work.Busy).
func (s *Session) busy(readsEngine bool) (done func()) { return s.work.Busy(readsEngine) }

// pace is every background worker's pace: held while requests run
// (pacing), and its reads dropped when due (memory.Work.Paced).
func (s *Session) pace() { s.req.Pace(); s.work.Paced() }

// whileAsked is the memory's moment at each of the upkeep loop's wakes
// while requests come (memory.AskedDue). It returns the end of the last
// request it saw.
func (s *Session) whileAsked(seen int64) int64 {
	last := s.req.LastEnded()
	if memory.AskedDue(seen, last, s.req.Running()) {
		memory.ReleaseSaved()
	}
	return last
}

// releaseIdle is how long requests pause before what they read is
// dropped (memory.IdleDue): as long as changes stand before they are
// compacted, the same pause past a burst.
const releaseIdle = compactIdle

// growing is the memory's moment while a walk builds its index: the
// limit follows what it keeps.
func (s *Session) growing() { memory.BoundHeap() }
