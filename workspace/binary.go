package workspace

import "bytes"

// binarySniff is how much of a file decides whether it is binary: what
// git and grep look at.
const binarySniff = 8000

// IsBinary reports a NUL byte near the start of a file's content, as git
// and grep judge: such a file is neither parsed, searched nor returned as
// text.
func IsBinary(b []byte) bool {
	if len(b) > binarySniff {
		b = b[:binarySniff]
	}
	return bytes.IndexByte(b, 0) >= 0
}
