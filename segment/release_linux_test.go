package segment

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// resident is the resident set of the mapping b lies in, in kB, as the
// process's smaps say (mincore would say the page cache's, not the
// process's).
func resident(t *testing.T, b []byte) int {
	t.Helper()
	at := uint64(uintptr(unsafe.Pointer(unsafe.SliceData(b))))
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	in := false
	for _, line := range strings.Split(string(smaps), "\n") {
		if lo, hi, ok := strings.Cut(strings.Fields(line + " x")[0], "-"); ok && !strings.HasSuffix(line, ":") {
			l, err1 := strconv.ParseUint(lo, 16, 64)
			h, err2 := strconv.ParseUint(hi, 16, 64)
			if err1 == nil && err2 == nil {
				in = l <= at && at < h
				continue
			}
		}
		if rest, ok := strings.CutPrefix(line, "Rss:"); ok && in {
			kb, _ := strconv.Atoi(strings.Fields(rest)[0])
			return kb
		}
	}
	t.Fatal("the mapping is not in smaps")
	return 0
}

// TestReleaseAll: the pages of every segment opened — one no longer
// served included — leave the process, and read back as they were.
func TestReleaseAll(t *testing.T) {
	text := strings.Repeat("wayfind ", 1<<16) // 512 KiB: many pages
	var segs []*Segment
	for range 2 {
		w := NewWriter("test 1")
		w.String("text", text)
		s, err := Open(written(t, w), "test 1")
		if err != nil {
			t.Fatal(err)
		}
		segs = append(segs, s)
	}
	var sum int
	for _, s := range segs {
		got, _ := s.String("text")
		for i := 0; i < len(got); i += 1024 {
			sum += int(got[i]) // read every page in
		}
		if resident(t, s.data) == 0 {
			t.Fatal("pages read are not resident")
		}
	}
	ReleaseAll()
	for i, s := range segs {
		if n := resident(t, s.data); n > 0 {
			t.Errorf("segment %d: %d kB still resident", i, n)
		}
		if got, _ := s.String("text"); got != text {
			t.Errorf("segment %d reads back otherwise", i)
		}
	}
	if sum == 0 {
		t.Fatal("nothing read")
	}
}

// TestReleaseKind: the pages of the segments of the kind named leave the
// process, those of another kind stay.
func TestReleaseKind(t *testing.T) {
	text := strings.Repeat("wayfind ", 1<<16)
	open := func(kind string) *Segment {
		w := NewWriter(kind)
		w.String("text", text)
		s, err := Open(written(t, w), kind)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := s.String("text")
		sum := 0
		for i := 0; i < len(got); i += 1024 {
			sum += int(got[i]) // read every page in
		}
		if sum == 0 || resident(t, s.data) == 0 {
			t.Fatal("pages read are not resident")
		}
		return s
	}
	paths, engine := open("paths 1"), open("engine 1")
	ReleaseKind("paths 1")
	for _, c := range []struct {
		s        *Segment
		resident bool
	}{{paths, false}, {engine, true}} {
		if got := resident(t, c.s.data) > 0; got != c.resident {
			t.Errorf("segment of kind %q: resident %v, want %v", c.s.kind, got, c.resident)
		}
		if got, _ := c.s.String("text"); got != text {
			t.Errorf("segment of kind %q reads back otherwise", c.s.kind)
		}
	}
}
