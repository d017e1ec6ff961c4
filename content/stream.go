package content

import (
	"bytes"
	"errors"
	"io"
	"os"

	"wayfind/workspace"
)

// chunkSize is how much of a file is held at once. A chunk ends at a
// line's end, so that no word, pair of words or one-line match straddles
// two chunks: files of any size are indexed and searched a megabyte at a
// time (the 1 MiB limit of the symbol pass is for parsing only).
const chunkSize = 1 << 20

// eachChunk calls fn with file's text a chunk at a time, each ending at a
// newline (a line longer than chunkSize is cut), until fn returns false.
// A binary file (a NUL in its first bytes) is refused with errBinary.
func eachChunk(file string, fn func(chunk []byte) bool) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	size := chunkSize
	if st, err := f.Stat(); err == nil && st.Size() < int64(size) {
		size = int(st.Size()) + 1 // one read sees the end
	}
	buf := make([]byte, size)
	carry, first := 0, true
	for {
		n, err := io.ReadFull(f, buf[carry:])
		n += carry
		last := err != nil
		if last && err != io.EOF && err != io.ErrUnexpectedEOF {
			return err
		}
		if first {
			if workspace.IsBinary(buf[:n]) {
				return errBinary
			}
			first = false
		}
		end := n
		if !last {
			if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
				end = i + 1
			}
		}
		if end > 0 && !fn(buf[:end]) {
			return nil
		}
		if last {
			return nil
		}
		carry = copy(buf, buf[end:n])
		if len(buf) < chunkSize { // the file grew while read
			buf = append(buf[:len(buf):len(buf)], make([]byte, chunkSize-len(buf))...)
		}
	}
}

var errBinary = errors.New("binary file")
