//go:build !unix

package segment

import (
	"io"
	"os"
)

// mapFile reads the file whole where files are not mapped.
func mapFile(f *os.File, size int) ([]byte, error) {
	b := make([]byte, size)
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, err
	}
	return b, nil
}

func unmapFile([]byte) {}

func release([]byte) {}

// zeroFile: a file read whole is the heap's, let go with its Segment.
func zeroFile([]byte, bool) {}
