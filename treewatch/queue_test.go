package treewatch

import (
	"slices"
	"testing"
	"time"
)

// TestQueueDue: a request applies what the watcher saw itself only while
// the tree's engine builds quickly and no batch was taken under
// minApplyGap ago; a client's report is always in the next answer, also
// while the batch holding it is being applied.
func TestQueueDue(t *testing.T) {
	for _, c := range []struct {
		name     string
		build    time.Duration
		reported bool
		taken    time.Duration // since the last batch was taken
		want     bool
	}{
		{"quick build", time.Millisecond, false, 2 * minApplyGap, true},
		{"slow build", waitForBuild + time.Millisecond, false, 2 * minApplyGap, false},
		{"slow build, reported", waitForBuild + time.Millisecond, true, 2 * minApplyGap, true},
		{"a batch just taken", time.Millisecond, false, 0, false},
	} {
		q := NewQueue(func() {})
		q.lastApply = time.Now().Add(-c.taken)
		q.pending, q.reported = []string{"/r/a.go"}, c.reported
		q.Built(c.build)
		if got := q.Due(1); got != c.want {
			t.Errorf("%s: a request applies %v, want %v", c.name, got, c.want)
		}
	}
	q := NewQueue(func() {})
	if q.Due(1) {
		t.Error("nothing pending, and a request applies")
	}
	q.pending, q.reported = []string{"/r/a.go"}, true
	paths, done := q.Take()
	q.Built(time.Hour)
	if !slices.Equal(paths, []string{"/r/a.go"}) || !q.Due(1) {
		t.Errorf("took %v; while a reported batch is applied a request waits for it: %v", paths, q.Due(1))
	}
	done()
	if q.Due(1) {
		t.Error("the reported batch applied, and a request still applies")
	}
}

// TestExpectedBuild: before a build was measured (a mapped engine), the
// tree's size says how long one takes; a request waits for a test262's
// build and not for a million files'.
func TestExpectedBuild(t *testing.T) {
	for _, c := range []struct {
		took  time.Duration
		files int
		want  time.Duration
	}{
		{0, 57_000, 57_000 * buildPerFile},
		{0, 1_000_000, 1_000_000 * buildPerFile},
		{30 * time.Millisecond, 1_000_000, 30 * time.Millisecond},
	} {
		if got := ExpectedBuild(c.took, c.files); got != c.want {
			t.Errorf("ExpectedBuild(%v, %d) = %v, want %v", c.took, c.files, got, c.want)
		}
	}
	if ExpectedBuild(0, 57_000) > waitForBuild || ExpectedBuild(0, 1_000_000) <= waitForBuild {
		t.Errorf("a request should wait for test262's build (%v) and not for a million files' (%v); waitForBuild is %v",
			ExpectedBuild(0, 57_000), ExpectedBuild(0, 1_000_000), waitForBuild)
	}
}

// TestQueueTimer: what is added is handed to the apply by the timer, in
// one batch.
func TestQueueTimer(t *testing.T) {
	got := make(chan []string, 1)
	var q *Queue
	q = NewQueue(func() {
		paths, done := q.Take()
		done()
		got <- paths
	})
	defer q.Close()
	q.Add([]string{"/r/a.go"}, false)
	q.Add([]string{"/r/b.go"}, false)
	if p := <-got; !slices.Equal(p, []string{"/r/a.go", "/r/b.go"}) {
		t.Errorf("the timer applied %v", p)
	}
}
