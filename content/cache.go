package content

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unsafe"

	"wayfind/workspace"
)

// The filters of a root persist in one file beside the symbol cache
// (workspace.RootCacheDir), so that a new process — the CLI's locate, a
// server starting — reads a file's text again only when its size or
// modification time changed. The file is written whole
// (workspace.WriteRootCache).
//
// Layout: cacheMagic, then per file its path relative to the root, size,
// modification time and the filter's count of 64-bit words (varints; no
// words for a file that is not text),
// zeros up to a multiple of 8 bytes from the start, and the words,
// little-endian. (The alignment let an earlier reader use the words
// where they lay in the file read whole; kept so that caches written
// before still read.)
const cacheMagic = "wayfind content filters 3\n"

const cacheName = "content.idx"

var errCacheFormat = errors.New("not a content cache of this version")

// loadCache reads the filters of ix's root r under dir, for the files ix
// still holds, in ix's order; a missing or unreadable cache has none.
// What is kept shares ix's path strings and holds the words in chunks of
// arenaWords. The file is read as a stream, not whole: held whole beside
// the words copied out of it, it was the largest part of a warm start's
// peak. pace, when set, is called every cachePace files.
func loadCache(dir string, ix *workspace.Index, r int, pace func()) (paths []string, filters []filter, err error) {
	f, err := os.Open(filepath.Join(workspace.RootCacheDir(dir, ix.Roots[r]), cacheName))
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil, nil
		}
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	in := &cacheReader{r: bufio.NewReaderSize(f, 1<<16), left: fi.Size()}
	if magic, ok := in.bytes(len(cacheMagic)); !ok || string(magic) != cacheMagic {
		return nil, nil, errCacheFormat
	}
	// At most every file of the root: grown as read, the two arrays were
	// five times their size in garbage (growth by a quarter), at the
	// peak of a warm start.
	lo, hi := ix.RootSpan(r)
	paths, filters = make([]string, 0, hi-lo), make([]filter, 0, hi-lo)
	var arena []uint64
	for read := 0; in.left > 0; read++ {
		if pace != nil && read%cachePace == 0 {
			pace()
		}
		n, ok := in.uvarint()
		rel, ok1 := in.bytes(int(min(n, uint64(in.left))))
		size, ok2 := in.uvarint()
		mod, ok3 := in.uvarint()
		nw, ok4 := in.uvarint()
		pad := (8 - in.read%8) % 8
		if !ok || !ok1 || !ok2 || !ok3 || !ok4 || uint64(len(rel)) != n || nw > uint64(in.left)/8 || uint64(pad)+8*nw > uint64(in.left) {
			return nil, nil, errCacheFormat
		}
		in.skip(pad)
		// rel is only looked up, not kept: a string of it copied was
		// more garbage, one a file.
		i := ix.Lookup(r, unsafe.String(unsafe.SliceData(rel), len(rel)))
		if i < 0 {
			in.skip(8 * int64(nw))
			continue
		}
		fl := filter{size: int64(size), modTime: int64(mod)}
		if nw > 0 {
			if nw > uint64(cap(arena)-len(arena)) {
				arena = make([]uint64, 0, max(arenaWords, nw))
			}
			at := len(arena)
			b, ok := in.bytes(8 * int(nw))
			if !ok {
				return nil, nil, errCacheFormat
			}
			for ; len(b) > 0; b = b[8:] {
				arena = append(arena, binary.LittleEndian.Uint64(b))
			}
			fl.bits = arena[at:len(arena):len(arena)]
			if nw == 1 && fl.bits[0] == 0 {
				fl.bits = noWords // a text file without a word
				arena = arena[:at]
			}
		}
		paths, filters = append(paths, ix.AbsAt(i)), append(filters, fl)
	}
	return paths, filters, nil
}

// cachePace is how many files loadCache reads and saveCache writes
// between calls to their pace (the indexer's Pace): a load or a save
// gives way to requests as the pass that made it does — a warm start's
// load looks every file of a large tree up, and its garbage set off the
// collections a question asked meanwhile paid for — and a server's pace
// drops the pages they read: writing the cache reads every path of the
// saved index, all of its pages, at the end of a cold start.
const cachePace = 1 << 12

// arenaWords is the words of filters a loaded cache holds in one array:
// large enough that a root of many small filters is a few allocations,
// small enough that the last, part-filled one wastes little.
const arenaWords = 1 << 16

// cacheReader reads a content cache in order, counting what it has read
// (for the words' alignment) and what is left (so that no count read
// from a damaged file asks for more than the file holds).
type cacheReader struct {
	r          *bufio.Reader
	read, left int64
	buf        []byte
}

func (c *cacheReader) uvarint() (uint64, bool) {
	v, err := binary.ReadUvarint(c)
	return v, err == nil
}

func (c *cacheReader) ReadByte() (byte, error) {
	b, err := c.r.ReadByte()
	if err == nil {
		c.advanced(1)
	}
	return b, err
}

// bytes reads n bytes into a buffer that the next call reuses.
func (c *cacheReader) bytes(n int) ([]byte, bool) {
	if cap(c.buf) < n {
		c.buf = make([]byte, n)
	}
	k, _ := io.ReadFull(c.r, c.buf[:n])
	c.advanced(k)
	return c.buf[:k], k == n
}

func (c *cacheReader) skip(n int64) {
	k, _ := c.r.Discard(int(n))
	c.advanced(k)
}

// advanced counts k bytes read.
func (c *cacheReader) advanced(k int) {
	c.read += int64(k)
	c.left -= int64(k)
}

// saveCache writes the filters of ix's files under root.
func saveCache(dir, root string, ix *Index, pace func()) error {
	return workspace.WriteRootCache(dir, root, cacheName, func(w *bufio.Writer) error {
		w.WriteString(cacheMagic)
		written := len(cacheMagic)
		var buf []byte
		prefix := workspace.RootPrefix(root)
		i := -1
		for p, f := range ix.all() {
			if i++; pace != nil && i%cachePace == 0 {
				pace()
			}
			if !strings.HasPrefix(p, prefix) {
				continue
			}
			rel := filepath.ToSlash(p[len(prefix):])
			buf = binary.AppendUvarint(buf[:0], uint64(len(rel)))
			buf = append(buf, rel...)
			buf = binary.AppendUvarint(buf, uint64(f.size))
			buf = binary.AppendUvarint(buf, uint64(f.modTime))
			buf = binary.AppendUvarint(buf, uint64(len(f.bits)))
			for (written+len(buf))%8 != 0 {
				buf = append(buf, 0)
			}
			for _, word := range f.bits {
				buf = binary.LittleEndian.AppendUint64(buf, word)
			}
			if _, err := w.Write(buf); err != nil {
				return err
			}
			written += len(buf)
		}
		return nil
	})
}
