// Package pacing puts requests before background work: a request marks
// itself running (Begin); background workers give way while any runs
// and in the gaps of a burst (Pace), and a full pass waits for a quiet
// moment (AwaitQuiet); a request that waits for the background work
// itself says so (Waiting) and does not hold it up.
package pacing

import (
	"runtime"
	"sync/atomic"
	"time"
)

// Requests are the requests of one workspace, as background work sees
// them. The zero value is ready to use.
type Requests struct {
	active  atomic.Int32 // in progress (Begin)
	last    atomic.Int64 // when the last one ended, UnixNano (0: none yet)
	waiting atomic.Int32 // among them, waiting for the background work (Waiting)
}

// Begin marks a request in progress until end is called; background work
// pauses meanwhile.
func (r *Requests) Begin() (end func()) {
	r.active.Add(1)
	return func() {
		r.last.Store(time.Now().UnixNano())
		r.active.Add(-1)
	}
}

// Waiting marks a request waiting for the background work itself until
// done is called: Pace does not hold that work up for it.
func (r *Requests) Waiting() (done func()) {
	r.waiting.Add(1)
	return func() { r.waiting.Add(-1) }
}

// Running reports whether a request is in progress.
func (r *Requests) Running() bool { return r.active.Load() > 0 }

// LastEnded is when the last request ended, in UnixNano (0: none yet).
func (r *Requests) LastEnded() int64 { return r.last.Load() }

// maxPause is the longest Pace holds a worker at a time: constant
// traffic cannot starve indexing.
const maxPause = 50 * time.Millisecond

// burstGap is how soon after a request ends the next of a burst comes:
// a client's turn between an answer and its next question (reading it,
// writing the next) is a millisecond or a few, more on a loaded machine.
// Background work that ran in those gaps ran at full speed on every core
// just as the client and the server's reader needed one.
const burstGap = 10 * time.Millisecond

// Pace holds a background worker while requests run (those waiting for
// the background work aside), and within burstGap of the last one's
// end, for at most maxPause.
func (r *Requests) Pace() {
	for waited := time.Duration(0); r.holds() && waited < maxPause; waited += time.Millisecond {
		time.Sleep(time.Millisecond)
	}
	// Let a request that has just arrived run on this processor now rather
	// than at Go's next preemption.
	runtime.Gosched()
}

// AwaitQuiet delays a full background pass until no request has run for
// quiet, or at most maxWait, or until stop is closed: an editor's burst
// of requests at start-up is answered before the passes take their share
// of the machine. A request waiting for the pass ends the wait.
func (r *Requests) AwaitQuiet(quiet, maxWait time.Duration, stop <-chan struct{}) {
	deadline := time.Now().Add(maxWait)
	for time.Now().Before(deadline) {
		last := time.Unix(0, r.last.Load())
		if r.waiting.Load() > 0 || (r.active.Load() == 0 && time.Since(last) >= quiet) {
			return
		}
		select {
		case <-stop:
			return
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// AllWaiting reports whether every request in progress waits for the
// background work (none, too).
func (r *Requests) AllWaiting() bool { return r.waiting.Load() >= r.active.Load() }

// holds reports whether background work gives way now: a request runs
// that does not wait for it, or none does and the last ended within
// burstGap — unless one waits for the work (which a burst's gap must
// not hold up either).
func (r *Requests) holds() bool {
	if r.waiting.Load() > 0 {
		return !r.AllWaiting()
	}
	return r.active.Load() > 0 || time.Since(time.Unix(0, r.last.Load())) < burstGap
}
