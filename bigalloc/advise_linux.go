package bigalloc

import (
	"syscall"
	"unsafe"
)

// advise asks for huge pages over the whole ones in the region. Advice
// only: refused (an old kernel, THP "never"), nothing changes.
func advise(start unsafe.Pointer, size uintptr) {
	if skip, n := span(uintptr(start), size); n > 0 {
		_ = syscall.Madvise(unsafe.Slice((*byte)(unsafe.Add(start, skip)), n), syscall.MADV_HUGEPAGE)
	}
}
