// Package bigalloc makes the few large, long-lived, densely filled
// allocations of an index (a million paths laid end to end) with the
// kernel advised to back them with huge pages.
//
// Why: on these machines (Firecracker guests) the first write to fresh
// memory faults at about 10 µs a 4 KB page — filling a new 110 MB slice
// took 0.9–1.7 s, and 0.26–0.32 s with the advice — so at a million files
// loading a saved index and building the engine were mostly page faults.
// Linux grants transparent huge pages in its default "madvise" mode only
// where asked; the Go runtime does not ask. The advice suits only memory
// that is filled whole at once (a sparse heap would grow by whole 2 MB
// pages), which is why it is here and not everywhere — and it is measured
// before use: advising the engine's per-file records (64 MB at a million
// files) made rank.New slower (2.2–2.8 s → 3.3–4.1 s) and every query
// after it too (find p50 5.7–6.5 → 7.2–8.3 ms in-process), so they are
// not advised.
package bigalloc

import "unsafe"

// hugePage is the size of an x86-64 or arm64 huge page.
const hugePage = 2 << 20

// Make is make([]T, n, c), advised for huge pages when it spans several.
func Make[T any](n, c int) []T {
	s := make([]T, n, c)
	var zero T
	if size := uintptr(c) * unsafe.Sizeof(zero); size >= 2*hugePage {
		advise(unsafe.Pointer(unsafe.SliceData(s[:1])), size)
	}
	return s
}

// span is the whole huge pages inside the region of size bytes at
// address p: from its offset skip, n bytes — what advice can apply to.
func span(p, size uintptr) (skip, n uintptr) {
	lo := (p + hugePage - 1) &^ (hugePage - 1)
	hi := (p + size) &^ (hugePage - 1)
	if hi <= lo {
		return 0, 0
	}
	return lo - p, hi - lo
}
