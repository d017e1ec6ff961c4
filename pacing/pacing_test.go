package pacing

import (
	"testing"
	"time"
)

// TestRequestsState: a request runs from Begin to its end, which is then
// the last request's end; one waiting for the background work counts as
// such only while it waits, and background work is held only for
// requests that do not wait for it.
func TestRequestsState(t *testing.T) {
	var r Requests
	if r.Running() || r.LastEnded() != 0 || !r.AllWaiting() {
		t.Fatalf("no request yet: running %v, last ended %d, all waiting %v", r.Running(), r.LastEnded(), r.AllWaiting())
	}
	before := time.Now().UnixNano()
	end := r.Begin()
	if !r.Running() || r.AllWaiting() {
		t.Fatalf("one request: running %v, all waiting %v", r.Running(), r.AllWaiting())
	}
	done := r.Waiting()
	if !r.AllWaiting() {
		t.Error("the one request waits for the background work, and is not counted so")
	}
	done()
	end()
	if r.Running() || r.LastEnded() < before {
		t.Errorf("after the request: running %v, last ended %d (began after %d)", r.Running(), r.LastEnded(), before)
	}
}

// TestAwaitQuietEndsForAWaiter: a full pass's wait for a quiet moment
// ends at once while a request waits for that very pass, however busy.
func TestAwaitQuietEndsForAWaiter(t *testing.T) {
	var r Requests
	defer r.Begin()()
	defer r.Waiting()()
	returned := make(chan struct{})
	go func() {
		r.AwaitQuiet(time.Hour, time.Hour, nil)
		close(returned)
	}()
	<-returned // a test timeout, else
}

// TestHolds: background work gives way while a request runs and within
// burstGap of the last one's end (a burst's next question comes then),
// not after it nor before any request; a request waiting for the work
// itself never holds it.
func TestHolds(t *testing.T) {
	now := time.Now().UnixNano()
	for _, c := range []struct {
		name            string
		active, waiting int32
		lastEndedAgo    time.Duration // 0: no request yet
		want            bool
	}{
		{"no request yet", 0, 0, 0, false},
		{"one running", 1, 0, time.Hour, true},
		{"the last ended just now", 0, 0, burstGap / 10, true},
		{"the last ended past the gap", 0, 0, 2 * burstGap, false},
		{"the one running waits for the work", 1, 1, burstGap / 10, false},
		{"one waits, another runs", 2, 1, time.Hour, true},
	} {
		var r Requests
		r.active.Store(c.active)
		r.waiting.Store(c.waiting)
		if c.lastEndedAgo > 0 {
			r.last.Store(now - int64(c.lastEndedAgo))
		}
		if got := r.holds(); got != c.want {
			t.Errorf("%s: holds %v, want %v", c.name, got, c.want)
		}
	}
}
