package bigalloc

import "testing"

// TestSpan: advice covers the whole huge pages inside a region and
// nothing outside it.
func TestSpan(t *testing.T) {
	for _, c := range []struct {
		start, size, from, n uintptr
	}{
		{0, 2 * hugePage, 0, 2 * hugePage},
		{1, 2 * hugePage, hugePage, hugePage},
		{hugePage - 1, hugePage + 1, hugePage, hugePage},
		{hugePage - 1, hugePage, 0, 0},
		{4096, 3 * hugePage, hugePage, 2 * hugePage},
	} {
		skip, n := span(c.start, c.size)
		from := c.start + skip
		if n != c.n || n > 0 && from != c.from {
			t.Errorf("span(%#x, %#x) = %#x, %#x; want %#x, %#x", c.start, c.size, from, n, c.from, c.n)
		}
		if n > 0 && (from < c.start || from+n > c.start+c.size) {
			t.Errorf("span(%#x, %#x) leaves the region", c.start, c.size)
		}
	}
}

// TestMake: what Make returns is make's slice, large or small.
func TestMake(t *testing.T) {
	for _, c := range [][2]int{{0, 1}, {3, 10}, {0, 5 << 20}, {1 << 20, 1 << 20}} {
		s := Make[uint64](c[0], c[1])
		if len(s) != c[0] || cap(s) != c[1] {
			t.Fatalf("Make(%d, %d): len %d cap %d", c[0], c[1], len(s), cap(s))
		}
		for i := range s {
			if s[i] != 0 {
				t.Fatal("not zeroed")
			}
		}
		s = append(s[:0], 7)
		if s[0] != 7 {
			t.Fatal("not writable")
		}
	}
}
