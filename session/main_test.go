package session

import (
	"os"
	"testing"
	"time"

	"wayfind/segment"
)

// TestMain has every mapped file these tests let go fault when read
// (segment.Poison): a string read from a base after nothing held the
// base ends the tests, rather than read zeros.
func TestMain(m *testing.M) {
	segment.Poison(20 * time.Millisecond)
	os.Exit(m.Run())
}
