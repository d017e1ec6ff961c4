package content

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
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
// little-endian. Aligned so, the words are used where they were read
// (wordsAt): loading a root of ten thousand files allocates no filter.
const cacheMagic = "wayfind content filters 3\n"

const cacheName = "content.idx"

var errCacheFormat = errors.New("not a content cache of this version")

// loadCache reads the filters of ix's root r under dir, for the files ix
// still holds, in ix's order; a missing or unreadable cache has none.
// What is kept shares ix's path strings and one array of words a root:
// the file's buffer, paths and all, is let go (at a million files it was
// 118 MB held for the words of its filters).
func loadCache(dir string, ix *workspace.Index, r int) (paths []string, filters []filter, err error) {
	root := ix.Roots[r]
	b, err := os.ReadFile(filepath.Join(workspace.RootCacheDir(dir, root), cacheName))
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil, nil
		}
		return nil, nil, err
	}
	if !bytes.HasPrefix(b, []byte(cacheMagic)) {
		return nil, nil, errCacheFormat
	}
	all := b
	b = b[len(cacheMagic):]
	read := func() (uint64, bool) {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			return 0, false
		}
		b = b[n:]
		return v, true
	}
	type entry struct {
		file        int // in ix
		size, mod   uint64
		first, last int  // its words in all, as word offsets
		noWords     bool // a text file without a word
	}
	var kept []entry
	words := 0
	for len(b) > 0 {
		n, ok := read()
		if !ok || n > uint64(len(b)) {
			return nil, nil, errCacheFormat
		}
		rel := string(b[:n])
		b = b[n:]
		size, ok1 := read()
		mod, ok2 := read()
		nw, ok3 := read()
		pad := (8 - (len(all)-len(b))%8) % 8
		if !ok1 || !ok2 || !ok3 || uint64(pad)+8*nw > uint64(len(b)) {
			return nil, nil, errCacheFormat
		}
		b = b[pad:]
		at := (len(all) - len(b)) / 8
		b = b[8*nw:]
		if i := ix.Lookup(r, rel); i >= 0 {
			e := entry{file: i, size: size, mod: mod, first: at, last: at + int(nw)}
			e.noWords = nw == 1 && [8]byte(all[8*at:8*at+8]) == [8]byte{}
			if !e.noWords {
				words += int(nw)
			}
			kept = append(kept, e)
		}
	}
	arena := make([]uint64, 0, words)
	paths, filters = make([]string, len(kept)), make([]filter, len(kept))
	for k, e := range kept {
		f := &filters[k]
		f.size, f.modTime = int64(e.size), int64(e.mod)
		switch {
		case e.last == e.first: // none: a file that is not text
		case e.noWords:
			f.bits = noWords
		default:
			at := len(arena)
			arena = append(arena, wordsAt(all[8*e.first:8*e.last])...)
			f.bits = arena[at:len(arena):len(arena)]
		}
		paths[k] = ix.AbsAt(e.file)
	}
	return paths, filters, nil
}

// saveCache writes the filters of ix's files under root.
func saveCache(dir, root string, ix *Index) error {
	return workspace.WriteRootCache(dir, root, cacheName, func(w *bufio.Writer) error {
		w.WriteString(cacheMagic)
		written := len(cacheMagic)
		var buf []byte
		prefix := workspace.RootPrefix(root)
		for i, p := range ix.paths {
			if !strings.HasPrefix(p, prefix) {
				continue
			}
			f := ix.filters[i]
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

// wordsAt is b's 64-bit little-endian words: b itself seen as words on a
// little-endian machine when b is aligned (the file's buffer is, and
// every filter in it starts at a multiple of 8), else a copy.
func wordsAt(b []byte) []uint64 {
	n := len(b) / 8
	if n > 0 && littleEndian && uintptr(unsafe.Pointer(&b[0]))%8 == 0 {
		return unsafe.Slice((*uint64)(unsafe.Pointer(&b[0])), n)
	}
	out := make([]uint64, n)
	for i := range out {
		out[i] = binary.LittleEndian.Uint64(b[8*i:])
	}
	return out
}

var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1
