package treewatch

import (
	"sync"
	"time"
)

// Queue batches the changes a live workspace hears — seen by its tracker,
// or reported by its client — for its owner to apply, one batch at a
// time (Take): by a timer, at most every minApplyGap, or at once by a
// request that is to see them (Due). It is safe for concurrent use.
type Queue struct {
	apply func() // the owner's apply, which Takes the batch

	mu       sync.Mutex
	pending  []string    // changed paths not yet applied
	timer    *time.Timer // the apply of pending, debounced
	timerSet bool        // timer is scheduled
	reported bool        // pending holds changes a client reported
	// applyingReported: changes a client reported are being applied (the
	// timer took them): a request waits for them too.
	applyingReported bool
	lastApply        time.Time // when a batch was last taken
	closed           bool
	// buildTook is how long the owner's last engine build took (Built):
	// whether a request may wait for one (Due).
	buildTook time.Duration
}

// The timer's delays.
const (
	debounce = 30 * time.Millisecond
	// minApplyGap is the least time between two applies, and so the most
	// a change waits for the timer.
	minApplyGap = 100 * time.Millisecond
)

// NewQueue is a queue whose batches apply takes (Take).
func NewQueue(apply func()) *Queue { return &Queue{apply: apply} }

// Add queues paths (absolute) created, changed or deleted; reported: a
// client reported them, so the next answer is to hold them (Due).
func (q *Queue) Add(paths []string, reported bool) {
	if len(paths) == 0 {
		return
	}
	q.mu.Lock()
	q.pending = append(q.pending, paths...)
	q.reported = q.reported || reported
	q.mu.Unlock()
	q.Schedule()
}

// Schedule sets the timer for what is pending, unless it is set. The
// timer runs from the first change of a batch and is not pushed back by
// later ones: a steady stream of changes (a build writing files) is
// applied every so often, not when it stops.
func (q *Queue) Schedule() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed || len(q.pending) == 0 || q.timerSet {
		return
	}
	q.timerSet = true
	delay := max(debounce, minApplyGap-time.Since(q.lastApply))
	if q.timer == nil {
		q.timer = time.AfterFunc(delay, q.apply)
		return
	}
	q.timer.Reset(delay)
}

// Take is the batch to apply now, the queue emptied; done is called once
// it is applied (a request waits for a reported batch until then).
func (q *Queue) Take() (paths []string, done func()) {
	q.mu.Lock()
	defer q.mu.Unlock()
	paths, q.pending = q.pending, nil
	q.applyingReported = q.reported
	q.timerSet, q.reported = false, false
	q.lastApply = time.Now()
	return paths, func() {
		q.mu.Lock()
		q.applyingReported = false
		q.mu.Unlock()
	}
}

// waitForBuild is the longest engine build a request waits for to see
// what the watcher saw: a tenth of a second, below what a person
// notices.
const waitForBuild = 100 * time.Millisecond

// Built records how long the owner's last engine build took.
func (q *Queue) Built(took time.Duration) {
	q.mu.Lock()
	q.buildTook = took
	q.mu.Unlock()
}

// Due reports whether a request applies what is pending before it is
// answered, the apply's build for a tree of files expected to take what
// ExpectedBuild says.
// Changes a client reported are in the next answer. What the watcher saw
// is too, unless a batch was taken under minApplyGap ago (rebuilding for
// every request under a stream of file events only churned memory) or
// the build takes longer than waitForBuild: then the timer applies it
// within minApplyGap, and the answers come from the snapshot meanwhile —
// a request is not made to wait seconds for a change nobody asked about.
func (q *Queue) Due(files int) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.reported || q.applyingReported {
		return true // the apply waits for the one under way
	}
	return len(q.pending) > 0 && time.Since(q.lastApply) >= minApplyGap && ExpectedBuild(q.buildTook, files) <= waitForBuild
}

// Settled reports whether nothing is pending and the last batch was
// taken idle before now.
func (q *Queue) Settled(now time.Time, idle time.Duration) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.pending) == 0 && now.Sub(q.lastApply) >= idle
}

// Close stops the timer; nothing is applied after.
func (q *Queue) Close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.closed = true
	if q.timer != nil {
		q.timer.Stop()
	}
}

// ExpectedBuild is how long building the engine for a tree of files is
// expected to take: the last build's time (took), or, when none was
// measured (the engine was mapped from its segment), buildPerFile a
// file: a server started warm has measured none.
func ExpectedBuild(took time.Duration, files int) time.Duration {
	if took > 0 {
		return took
	}
	return time.Duration(files) * buildPerFile
}

// buildPerFile is about what rank.New takes a file on two cores
// (docs/BENCHMARKS.md).
const buildPerFile = time.Microsecond
