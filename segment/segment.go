// Package segment is one immutable file of typed arrays, written once
// and then read where it lies: mapped read-only, each array a slice over
// the mapping. A server restarted on a known tree has its file index and
// its engine at once this way, without building them again or copying a
// file into fresh memory — on these machines the first touch of fresh
// memory is what a large tree's index costs (ARCHITECTURE, "what a
// megabyte costs"), and a mapped file already in the page cache costs
// almost none. It is Zoekt's shard, in miniature: the pages are the
// kernel's, shared by every process that maps the file, and dropped
// under pressure instead of swapped.
//
// Layout, every number in the machine's own byte order (a cache is read
// where it was written; another order is refused):
//
//	magic     16 bytes  "wayfind segment\n"
//	kind      16 bytes  what the file holds and its version, NUL-padded
//	order      4 bytes  0x01020304 as written
//	count      4 bytes  sections
//	id         8 bytes  chosen at random when written: what another
//	                    file names this one by (an engine, the index it
//	                    was built from)
//	table     48 bytes a section: name (24, NUL-padded), offset (8),
//	                    length in bytes (8), element size (4), layout (4):
//	                    CRC-32C of the record type's description, fields'
//	                    names, kinds and offsets (layoutOf)
//	sections  each at an offset that is a multiple of sectionAlign
//	crc        4 bytes  CRC-32C of everything before it
//
// A section holds fixed-size records without pointers (Get checks it):
// the file can then be read as it lies, and nothing in it points
// anywhere. A record type whose fields change no longer reads the
// sections written with the old one (the layout differs), so a program
// rebuilt with other records refuses its old caches by itself. Nothing
// checks what the records say; their reader does.
//
// Lifetime: a mapping lives as long as its Segment is held. The strings
// and slices read from it (every path of an index) lie in the mapping,
// where the collector does not look; so whoever keeps them keeps the
// Segment too — an index its segments, an engine its own, a table of
// paths the segments its paths were read from. Once nothing holds the
// Segment, its mapping is retired retireGrace later (the grace covers a
// question that read strings and let its snapshot go while it words its
// answer): the file's pages are replaced by zeros, so that its disk space
// (the file was deleted when replaced) is let go, and a string read after
// that reads zeros rather than fault. Until then Release drops the pages
// from the process instead (the kernel reads them again if asked), which
// is always safe. A file is only ever replaced by a rename
// (workspace.WriteRootCache), never truncated or written in place, so a
// mapping keeps the bytes it was opened with.
package segment

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"os"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

const (
	magic        = "wayfind segment\n"
	kindLen      = 16
	nameLen      = 24
	headerLen    = len(magic) + kindLen + 4 + 4 + 8
	entryLen     = nameLen + 8 + 8 + 4 + 4
	orderMark    = 0x01020304
	crcLen       = 4
	sectionAlign = 64 // a cache line: no record straddles two it need not
	maxSections  = 64
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrFormat is any file that is not a whole segment of the kind asked
// for, as this process writes them.
var ErrFormat = errors.New("not a segment of this kind and version")

// Writer gathers a segment's sections and writes them out.
type Writer struct {
	kind string
	id   uint64
	secs []wsec
	// Pace, when set, is called before each paceBytes written: a segment
	// written in the background (a large tree's index and engine) gives
	// way to requests there.
	Pace func()
}

// paceBytes is how much a paced Writer writes between calls to Pace: a
// short stretch of copying and checksumming.
const paceBytes = 1 << 20

type wsec struct {
	name   string
	elem   int
	layout uint32
	size   int64
	write  func(w io.Writer) error
}

// NewWriter starts a segment of the given kind (at most 16 bytes: what
// it holds and its version, "files 2"), with a new random id.
func NewWriter(kind string) *Writer {
	if len(kind) > kindLen {
		panic("segment: kind too long: " + kind)
	}
	return &Writer{kind: kind, id: rand.Uint64() | 1}
}

// ID is the id the segment is written with.
func (w *Writer) ID() uint64 { return w.id }

func (w *Writer) add(name string, elem int, layout uint32, size int64, write func(io.Writer) error) {
	if len(name) == 0 || len(name) > nameLen || strings.IndexByte(name, 0) >= 0 {
		panic("segment: bad section name: " + name)
	}
	for _, s := range w.secs {
		if s.name == name {
			panic("segment: section written twice: " + name)
		}
	}
	if len(w.secs) == maxSections {
		panic("segment: too many sections")
	}
	w.secs = append(w.secs, wsec{name, elem, layout, size, write})
}

// Bytes adds a section of bytes.
func (w *Writer) Bytes(name string, b []byte) {
	w.add(name, 1, bytesLayout, int64(len(b)), func(out io.Writer) error { _, err := out.Write(b); return err })
}

// String adds a section of a string's bytes, without copying them.
func (w *Writer) String(name string, s string) {
	w.Bytes(name, unsafe.Slice(unsafe.StringData(s), len(s)))
}

// Stream adds a section of size bytes that write produces when the
// segment is written: one too large to gather in memory first (a large
// tree's paths end to end are written path by path).
func (w *Writer) Stream(name string, size int64, write func(w io.Writer) error) {
	w.add(name, 1, bytesLayout, size, write)
}

// Put adds a section of records, as they lie in memory. T must hold no
// pointers (no strings, slices, maps): it panics otherwise.
func Put[T any](w *Writer, name string, s []T) {
	var zero T
	layout := layoutOf(reflect.TypeOf(zero))
	size := int(unsafe.Sizeof(zero))
	var b []byte
	if len(s) > 0 && size > 0 {
		b = unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*size)
	}
	w.add(name, max(size, 1), layout, int64(len(b)), func(out io.Writer) error { _, err := out.Write(b); return err })
}

// WriteTo writes the segment: header and table, the sections in the
// order added, each aligned, then the checksum.
func (w *Writer) WriteTo(out io.Writer) (int64, error) {
	crc := crc32.New(castagnoli)
	cw := &countWriter{w: io.MultiWriter(out, crc), pace: w.Pace}
	head := make([]byte, 0, headerLen+entryLen*len(w.secs))
	head = append(head, magic...)
	head = append(head, padded(w.kind, kindLen)...)
	head = binary.NativeEndian.AppendUint32(head, orderMark)
	head = binary.NativeEndian.AppendUint32(head, uint32(len(w.secs)))
	head = binary.NativeEndian.AppendUint64(head, w.id)
	off := align(int64(headerLen + entryLen*len(w.secs)))
	for _, s := range w.secs {
		head = append(head, padded(s.name, nameLen)...)
		head = binary.NativeEndian.AppendUint64(head, uint64(off))
		head = binary.NativeEndian.AppendUint64(head, uint64(s.size))
		head = binary.NativeEndian.AppendUint32(head, uint32(s.elem))
		head = binary.NativeEndian.AppendUint32(head, s.layout)
		off = align(off + s.size)
	}
	if _, err := cw.Write(head); err != nil {
		return cw.n, err
	}
	for _, s := range w.secs {
		if err := cw.pad(); err != nil {
			return cw.n, err
		}
		from := cw.n
		if err := s.write(cw); err != nil {
			return cw.n, err
		}
		if cw.n-from != s.size {
			return cw.n, fmt.Errorf("segment: section %s: wrote %d bytes, said %d", s.name, cw.n-from, s.size)
		}
	}
	if err := cw.pad(); err != nil {
		return cw.n, err
	}
	n, err := out.Write(binary.NativeEndian.AppendUint32(nil, crc.Sum32()))
	return cw.n + int64(n), err
}

type countWriter struct {
	w    io.Writer
	n    int64
	pace func()
}

func (c *countWriter) Write(p []byte) (int, error) {
	if c.pace == nil {
		n, err := c.w.Write(p)
		c.n += int64(n)
		return n, err
	}
	written := 0
	for len(p) > 0 {
		c.pace()
		k := min(len(p), paceBytes)
		n, err := c.w.Write(p[:k])
		c.n += int64(n)
		written += n
		if err != nil {
			return written, err
		}
		p = p[k:]
	}
	return written, nil
}

var zeros [sectionAlign]byte

// pad writes zeros up to the next section's start.
func (c *countWriter) pad() error {
	_, err := c.Write(zeros[:align(c.n)-c.n])
	return err
}

func align(n int64) int64 { return (n + sectionAlign - 1) &^ (sectionAlign - 1) }

func padded(s string, n int) []byte {
	b := make([]byte, n)
	copy(b, s)
	return b
}

// Segment is a segment file opened: mapped where the system maps files,
// else read whole.
type Segment struct {
	data []byte
	kind string
	id   uint64
	secs map[string]rsec
	m    *mapping // nil for a segment read from memory (Parse)
}

// mapping is a file Open mapped, as the process's list of them holds it:
// not its Segment, whose holders alone decide how long it lives.
type mapping struct {
	data []byte
	kind string
}

type rsec struct {
	off, size int64
	elem      int
	layout    uint32
}

// Open opens the segment file at path, which must be of the given kind:
// its header, table and checksum are checked, and then none of its pages
// are left resident in the process (Release) — a reader brings back the
// ones it reads.
func Open(path, kind string) (*Segment, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() < int64(headerLen+crcLen) || st.Size() != int64(int(st.Size())) {
		return nil, ErrFormat
	}
	data, err := mapFile(f, int(st.Size()))
	if err != nil {
		return nil, err
	}
	s, err := parse(data, kind, true)
	if err != nil {
		unmapFile(data) // nothing was handed out yet
		return nil, err
	}
	s.Release()
	m := &mapping{data: data, kind: kind}
	s.m = m
	opened.Lock()
	opened.set[m] = struct{}{}
	opened.Unlock()
	runtime.AddCleanup(s, func(m *mapping) { time.AfterFunc(time.Duration(retireGrace.Load()), func() { retire(m) }) }, m)
	return s, nil
}

// opened are the files Open mapped and has not retired: those served,
// and those replaced that something still holds.
var opened = struct {
	sync.Mutex
	set map[*mapping]struct{}
}{set: map[*mapping]struct{}{}}

// retireGrace is how long a mapping stays once nothing holds its
// Segment (nanoseconds): far longer than a question words its answer
// from strings it read before it let its snapshot go (milliseconds), far
// shorter than a server lives.
var retireGrace atomic.Int64

func init() { retireGrace.Store(int64(10 * time.Second)) }

// poisoned: a retired mapping faults when read, rather than read zeros
// (Poison).
var poisoned atomic.Bool

// Poison has every mapping retired from now on fault when read, and
// retired grace after its last holder let go: for tests and benches that
// prove nothing reads a mapping after its holders let it go (a fault
// ends the process).
func Poison(grace time.Duration) {
	poisoned.Store(true)
	retireGrace.Store(int64(grace))
}

// retire lets m's file go: its pages are replaced by zeros (Poison: by
// pages that fault), and it leaves the process's list.
func retire(m *mapping) {
	opened.Lock()
	delete(opened.set, m)
	opened.Unlock()
	zeroFile(m.data, poisoned.Load())
}

// ReleaseAll drops the pages of every file the process mapped and has
// not retired (Release): those it serves, and those replaced that are
// still held — a holder of strings read from a replaced segment reads
// its pages back in, and nothing else names it to release them.
func ReleaseAll() { releaseWhere(func(*mapping) bool { return true }) }

// ReleaseKind drops the pages of every mapped file of the given kind,
// served or replaced (ReleaseAll, for one kind): what a pass reads in
// order is dropped behind it, and what questions read of the other kinds
// stays.
func ReleaseKind(kind string) { releaseWhere(func(m *mapping) bool { return m.kind == kind }) }

func releaseWhere(which func(*mapping) bool) {
	opened.Lock()
	defer opened.Unlock() // a retirement waits: its pages are not released as they go
	for m := range opened.set {
		if which(m) {
			release(m.data)
		}
	}
}

// checksum is body's CRC-32C. Of a mapping, each chunk's pages are
// dropped once summed (release: never of memory of the process's own,
// whose pages it would zero): a large tree's engine is opened beside
// the heap's engine it replaces, at the peak of a cold start.
func checksum(body []byte, mapped bool) uint32 {
	if !mapped {
		return crc32.Checksum(body, castagnoli)
	}
	var c uint32
	for len(body) > 0 {
		n := min(len(body), checkChunk)
		c = crc32.Update(c, castagnoli, body[:n])
		release(body[:n])
		body = body[n:]
	}
	return c
}

// checkChunk is how much of a mapped segment checksum reads between
// drops: a multiple of any page size, so that each chunk starts on a
// page.
const checkChunk = 4 << 20

// Parse reads a segment from bytes in memory (a test's, or a file read
// whole), checked as Open checks a file.
func Parse(data []byte, kind string) (*Segment, error) { return parse(data, kind, false) }

// parse checks data as a segment of kind; mapped data's pages are let go
// as the checksum reads them (checksum).
func parse(data []byte, kind string, mapped bool) (s *Segment, err error) {
	// A file cut short after it was mapped faults where its pages are
	// missing: an error here, not a crash.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			s, err = nil, fmt.Errorf("%w: %v", ErrFormat, r)
		}
	}()
	if len(data) < headerLen+crcLen || string(data[:len(magic)]) != magic {
		return nil, ErrFormat
	}
	body := data[:len(data)-crcLen]
	if checksum(body, mapped) != binary.NativeEndian.Uint32(data[len(body):]) {
		return nil, ErrFormat
	}
	h := data[len(magic):]
	if strings.TrimRight(string(h[:kindLen]), "\x00") != kind || binary.NativeEndian.Uint32(h[kindLen:]) != orderMark {
		return nil, ErrFormat
	}
	count := int(binary.NativeEndian.Uint32(h[kindLen+4:]))
	s = &Segment{data: data, kind: kind, id: binary.NativeEndian.Uint64(h[kindLen+8:]), secs: map[string]rsec{}}
	if count > maxSections || headerLen+count*entryLen > len(body) {
		return nil, ErrFormat
	}
	for k := range count {
		e := data[headerLen+k*entryLen:]
		name := strings.TrimRight(string(e[:nameLen]), "\x00")
		off := binary.NativeEndian.Uint64(e[nameLen:])
		size := binary.NativeEndian.Uint64(e[nameLen+8:])
		elem := binary.NativeEndian.Uint32(e[nameLen+16:])
		layout := binary.NativeEndian.Uint32(e[nameLen+20:])
		if name == "" || off%sectionAlign != 0 || off > uint64(len(body)) || size > uint64(len(body))-off ||
			elem == 0 || size%uint64(elem) != 0 {
			return nil, ErrFormat
		}
		if _, dup := s.secs[name]; dup {
			return nil, ErrFormat
		}
		s.secs[name] = rsec{int64(off), int64(size), int(elem), layout}
	}
	return s, nil
}

// ID is the id the segment was written with.
func (s *Segment) ID() uint64 { return s.id }

// Size is the segment's size in bytes.
func (s *Segment) Size() int { return len(s.data) }

func (s *Segment) section(name string, elem int, layout uint32) ([]byte, error) {
	sec, ok := s.secs[name]
	if !ok || sec.elem != elem || sec.layout != layout {
		return nil, fmt.Errorf("%w: section %s", ErrFormat, name)
	}
	return s.data[sec.off : sec.off+sec.size : sec.off+sec.size], nil
}

// Bytes is a section of bytes, where it lies: not to be written.
func (s *Segment) Bytes(name string) ([]byte, error) { return s.section(name, 1, bytesLayout) }

// String is a section of bytes as a string, where it lies.
func (s *Segment) String(name string) (string, error) {
	b, err := s.section(name, 1, bytesLayout)
	if err != nil || len(b) == 0 {
		return "", err
	}
	return unsafe.String(&b[0], len(b)), nil
}

// Get is a section of records, where it lies: not to be written. The
// records must be of the layout they were written with (Put), and hold
// no pointers.
func Get[T any](s *Segment, name string) ([]T, error) {
	var zero T
	layout := layoutOf(reflect.TypeOf(zero))
	size := int(unsafe.Sizeof(zero))
	b, err := s.section(name, max(size, 1), layout)
	if err != nil || len(b) == 0 || size == 0 {
		return nil, err
	}
	if uintptr(unsafe.Pointer(&b[0]))%unsafe.Alignof(zero) != 0 {
		return nil, fmt.Errorf("%w: section %s misaligned", ErrFormat, name)
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), len(b)/size), nil
}

// bytesLayout is the layout of a section of bytes (Bytes, String,
// Stream).
var bytesLayout = layoutOf(reflect.TypeOf(byte(0)))

// layoutOf is the CRC-32C of t's description: its kind and size, and a
// struct's fields' names, offsets and layouts, an array's length and
// element. It panics when t holds pointers (strings, slices, maps):
// only what holds none can be written as it lies and read back in
// another process.
func layoutOf(t reflect.Type) uint32 {
	var b strings.Builder
	describe(&b, t)
	return crc32.Checksum([]byte(b.String()), castagnoli)
}

func describe(b *strings.Builder, t reflect.Type) {
	fmt.Fprintf(b, "%s/%d", t.Kind(), t.Size())
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
	case reflect.Array:
		fmt.Fprintf(b, "[%d]", t.Len())
		describe(b, t.Elem())
	case reflect.Struct:
		b.WriteString("{")
		for i := range t.NumField() {
			f := t.Field(i)
			fmt.Fprintf(b, "%s@%d:", f.Name, f.Offset)
			describe(b, f.Type)
			b.WriteString(";")
		}
		b.WriteString("}")
	default:
		panic("segment: records with pointers: " + t.String())
	}
}

// Release drops the segment's pages from the process: they stay in the
// kernel's page cache, and a read of any of them brings it back. What
// was read from the segment stays valid.
func (s *Segment) Release() { release(s.data) }

// ReleaseMapped drops the pages of b, a region of a read-only shared
// mapping of a file (another store's, such as bbolt's), from the process
// as Release does a segment's: what reads every page of such a file once
// need not hold all of them at the end.
func ReleaseMapped(b []byte) { release(b) }
