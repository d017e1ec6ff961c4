package session

import (
	"runtime"
	"time"
)

// Requests first: background passes pause while requests run, and a full
// pass waits for a quiet moment.

// Begin marks a request in progress until the returned func is called;
// background indexing pauses meanwhile.
func (s *Session) Begin() (end func()) {
	s.active.Add(1)
	return func() {
		s.lastRequest.Store(time.Now().UnixNano())
		s.active.Add(-1)
	}
}

// awaitQuiet delays a full background pass until no request has run for
// quiet, or at most maxWait: an editor's burst of requests at start-up is
// answered before the symbol and content passes take their share of the
// machine.
func (s *Session) awaitQuiet(quiet, maxWait time.Duration) {
	deadline := time.Now().Add(maxWait)
	for time.Now().Before(deadline) {
		last := time.Unix(0, s.lastRequest.Load())
		if s.waiting.Load() > 0 || (s.active.Load() == 0 && time.Since(last) >= quiet) {
			return // quiet, or a request waits for this very pass
		}
		select {
		case <-s.stop:
			return
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// pace holds a background indexing worker while requests run, for at most
// maxPause at a time so that constant traffic cannot starve indexing.
func (s *Session) pace() {
	const maxPause = 50 * time.Millisecond
	// Requests waiting for the background work itself do not hold it up.
	for waited := time.Duration(0); s.active.Load() > s.waiting.Load() && waited < maxPause; waited += time.Millisecond {
		time.Sleep(time.Millisecond)
	}
	// Let a request that has just arrived run on this processor now rather
	// than at Go's next preemption.
	runtime.Gosched()
}
