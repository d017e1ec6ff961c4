package session

import (
	"testing"
	"time"
)

// TestReleaseDue: the segments' pages are dropped once after requests,
// when none runs and the last ended mappedIdle ago.
func TestReleaseDue(t *testing.T) {
	now := time.Unix(1000, 0)
	ended := now.Add(-mappedIdle).UnixNano()
	for _, c := range []struct {
		name           string
		last, released int64
		active         int32
		want           bool
	}{
		{"idle long enough", ended, 0, 0, true},
		{"dropped since", ended, ended, 0, false},
		{"a request runs", ended, 0, 1, false},
		{"ended just under mappedIdle ago", ended + 1, 0, 0, false},
		{"no request yet", 0, 0, 0, false},
	} {
		if got := releaseDue(c.last, c.released, c.active, now); got != c.want {
			t.Errorf("%s: %v", c.name, got)
		}
	}
}
