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
