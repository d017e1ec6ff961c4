package segment

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type rec struct {
	A int32
	B uint16
	C bool
	D uint64
}

func written(t *testing.T, w *Writer) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "seg")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.WriteTo(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestRoundTrip: what a Writer writes, Open reads back as it was — bytes,
// strings, records, a streamed section and an empty one — with the id it
// was written with, and still after Release.
func TestRoundTrip(t *testing.T) {
	w := NewWriter("test 1")
	recs := []rec{{1, 2, true, 3}, {-4, 5, false, 1 << 60}}
	w.Bytes("bytes", []byte{9, 8, 7})
	w.String("text", "hello, segment")
	Put(w, "recs", recs)
	Put(w, "none", []uint64(nil))
	w.Stream("stream", 6, func(out io.Writer) error {
		_, err := io.WriteString(out, "abcdef")
		return err
	})
	s, err := Open(written(t, w), "test 1")
	if err != nil {
		t.Fatal(err)
	}
	if s.ID() != w.ID() || s.ID() == 0 {
		t.Errorf("id %x, written %x", s.ID(), w.ID())
	}
	for range 2 {
		b, err1 := s.Bytes("bytes")
		txt, err2 := s.String("text")
		got, err3 := Get[rec](s, "recs")
		none, err4 := Get[uint64](s, "none")
		str, err5 := s.String("stream")
		if err := errors.Join(err1, err2, err3, err4, err5); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b, []byte{9, 8, 7}) || txt != "hello, segment" || len(got) != 2 || got[0] != recs[0] || got[1] != recs[1] || len(none) != 0 || str != "abcdef" {
			t.Fatalf("read back %v %q %v %v %q", b, txt, got, none, str)
		}
		s.Release() // read again after the pages were dropped
	}
	if _, err := Get[uint32](s, "recs"); err == nil {
		t.Error("records read with another size")
	}
	// The same size and kinds, a field renamed or moved: another layout.
	type renamed struct {
		A int32
		B uint16
		E bool
		D uint64
	}
	type moved struct {
		B uint16
		A int32
		C bool
		D uint64
	}
	type same struct {
		A int32
		B uint16
		C bool
		D uint64
	}
	if _, err := Get[renamed](s, "recs"); err == nil {
		t.Error("records read with a field renamed")
	}
	if _, err := Get[moved](s, "recs"); err == nil {
		t.Error("records read with fields moved")
	}
	if _, err := Get[same](s, "recs"); err != nil {
		t.Errorf("records of the same layout under another name: %v", err)
	}
	if _, err := s.Bytes("missing"); err == nil {
		t.Error("a missing section was read")
	}
}

// TestRefused: a file of another kind, cut anywhere, or with any byte
// changed is refused, never read.
func TestRefused(t *testing.T) {
	w := NewWriter("test 1")
	w.String("text", strings.Repeat("wayfind ", 20))
	Put(w, "recs", []rec{{1, 2, true, 3}})
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	whole := buf.Bytes()
	if _, err := Parse(whole, "test 1"); err != nil {
		t.Fatal(err)
	}
	if _, err := Parse(whole, "test 2"); !errors.Is(err, ErrFormat) {
		t.Errorf("another kind: %v", err)
	}
	for n := range len(whole) {
		if _, err := Parse(whole[:n], "test 1"); err == nil {
			t.Fatalf("read a segment cut at %d of %d bytes", n, len(whole))
		}
	}
	for i := range whole {
		bad := bytes.Clone(whole)
		bad[i] ^= 0x20
		if _, err := Parse(bad, "test 1"); err == nil {
			t.Fatalf("read a segment with byte %d changed", i)
		}
	}
	path := filepath.Join(t.TempDir(), "cut")
	os.WriteFile(path, whole[:len(whole)/2], 0o600)
	if _, err := Open(path, "test 1"); err == nil {
		t.Error("opened a file cut in half")
	}
}

// TestPointersRefused: records that hold pointers cannot be written or
// read as they lie.
func TestPointersRefused(t *testing.T) {
	for name, f := range map[string]func(){
		"put string": func() { Put(NewWriter("t"), "s", []string{"x"}) },
		"put struct": func() { Put(NewWriter("t"), "s", []struct{ p *int }{{}}) },
		"get slice":  func() { Get[[]byte](&Segment{}, "s") },
		"name twice": func() { w := NewWriter("t"); w.Bytes("a", nil); w.Bytes("a", nil) },
		"long name":  func() { NewWriter("t").Bytes(strings.Repeat("n", nameLen+1), nil) },
		"long kind":  func() { NewWriter(strings.Repeat("k", kindLen+1)) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// TestStreamSize: a streamed section that writes other than it said is
// an error, not a segment.
func TestStreamSize(t *testing.T) {
	w := NewWriter("t")
	w.Stream("s", 3, func(out io.Writer) error { _, err := out.Write([]byte("ab")); return err })
	if _, err := w.WriteTo(io.Discard); err == nil {
		t.Error("a short stream was written")
	}
}

// TestPacedWrite: a Writer with Pace writes the same bytes, and calls it
// at least once per paceBytes of a section, so a section of megabytes is
// written in steps that give way to requests.
func TestPacedWrite(t *testing.T) {
	big := make([]uint64, 3*paceBytes/8+5)
	for i := range big {
		big[i] = uint64(i) * 2654435761
	}
	build := func(pace func()) *Writer {
		w := NewWriter("test 1")
		w.Pace = pace
		Put(w, "big", big)
		w.String("text", "after")
		return w
	}
	var plain, paced bytes.Buffer
	w := build(nil)
	id := w.ID()
	if _, err := w.WriteTo(&plain); err != nil {
		t.Fatal(err)
	}
	calls := 0
	w = build(func() { calls++ })
	w.id = id // the same random id, to compare the bytes
	if _, err := w.WriteTo(&paced); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(plain.Bytes(), paced.Bytes()) {
		t.Fatalf("paced write differs: %d bytes against %d", paced.Len(), plain.Len())
	}
	if want := len(big) * 8 / paceBytes; calls < want+1 {
		t.Errorf("Pace called %d times for %d bytes: want at least %d", calls, len(big)*8, want+1)
	}
}

// TestLargeChecked: a segment of several checkChunks opens, reads back
// whole after its pages were dropped chunk by chunk, and a byte changed
// in its last chunk fails the checksum as one in the first does.
func TestLargeChecked(t *testing.T) {
	big := make([]byte, 2*checkChunk+12345)
	for i := range big {
		big[i] = byte(i * 7)
	}
	w := NewWriter("test 1")
	w.Bytes("big", big)
	path := written(t, w)
	s, err := Open(path, "test 1")
	if err != nil {
		t.Fatal(err)
	}
	if b, err := s.Bytes("big"); err != nil || !bytes.Equal(b, big) {
		t.Fatalf("read back %d bytes, %v", len(b), err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []int{headerLen + 1, len(data) - crcLen - 1} {
		spoiled := bytes.Clone(data)
		spoiled[at] ^= 1
		p := filepath.Join(t.TempDir(), "spoiled")
		if err := os.WriteFile(p, spoiled, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Open(p, "test 1"); !errors.Is(err, ErrFormat) {
			t.Errorf("byte %d of %d changed: %v", at, len(data), err)
		}
	}
}
