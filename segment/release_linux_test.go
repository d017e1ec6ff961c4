package segment

import (
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"
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

// TestRetiredOnceLetGo: a segment nothing holds is retired a grace after
// — out of the process's list, its deleted file no longer mapped — and a
// string read from it before then reads zeros after (poisoned: faults).
func TestRetiredOnceLetGo(t *testing.T) {
	defer func(g int64, p bool) { retireGrace.Store(g); poisoned.Store(p) }(retireGrace.Load(), poisoned.Load())
	for _, poison := range []bool{false, true} {
		retireGrace.Store(int64(10 * time.Millisecond))
		poisoned.Store(poison)
		w := NewWriter("test 1")
		w.String("text", strings.Repeat("wayfind ", 1<<12))
		path := written(t, w)
		s, err := Open(path, "test 1")
		if err != nil {
			t.Fatal(err)
		}
		text, _ := s.String("text")
		if err := os.Remove(path); err != nil { // as a compaction replaces it
			t.Fatal(err)
		}
		s = nil
		retired := func() bool {
			maps, _ := os.ReadFile("/proc/self/maps")
			return !strings.Contains(string(maps), path)
		}
		for deadline := time.Now().Add(10 * time.Second); !retired(); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("poison %v: %s still mapped", poison, path)
			}
			runtime.GC()
		}
		if !poison {
			if strings.Trim(text, "\x00") != "" {
				t.Errorf("a string read before the file was let go reads %q…; want zeros", text[:16])
			}
			continue
		}
		faulted := func() (f bool) {
			defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
			defer func() { f = recover() != nil }()
			_ = strings.Count(text, "w")
			return false
		}()
		if !faulted {
			t.Error("poisoned: a string read from a file let go did not fault")
		}
	}
}
