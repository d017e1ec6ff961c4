package memory

import (
	"bytes"
	"os"
	"strconv"
)

// mappedResident is how much of the process's resident set is pages of
// mapped files (and shared memory): statm's third field, in pages — read
// where the limit is set, a read of a few bytes the kernel counts as it
// goes. 0 when it cannot be read.
func mappedResident() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := bytes.Fields(b)
	if len(f) < 3 {
		return 0
	}
	pages, err := strconv.ParseInt(string(f[2]), 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}
