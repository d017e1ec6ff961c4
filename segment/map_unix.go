//go:build unix

package segment

import (
	"os"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// mapFile maps the file's first size bytes read-only, shared: the pages
// are the page cache's, not copies.
func mapFile(f *os.File, size int) ([]byte, error) {
	return syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
}

// unmapFile unmaps what mapFile mapped, when nothing was read from it.
func unmapFile(b []byte) { _ = syscall.Munmap(b) }

// release drops the mapping's pages from the process (they stay in the
// page cache): read again, a page is mapped again from there.
func release(b []byte) {
	if len(b) > 0 {
		_ = unix.Madvise(b, unix.MADV_DONTNEED) // syscall has no Madvise on macOS
	}
}

// zeroFile maps anonymous pages over b, a mapping of a file, in place:
// the file is let go (its disk space, when it was deleted), and b reads
// zeros — or, poisoned, faults. Failing that, b stays as it was.
func zeroFile(b []byte, poisoned bool) {
	if len(b) == 0 {
		return
	}
	prot := unix.PROT_READ
	if poisoned {
		prot = unix.PROT_NONE
	}
	_, _ = unix.MmapPtr(-1, 0, unsafe.Pointer(unsafe.SliceData(b)), uintptr(len(b)), prot, unix.MAP_PRIVATE|unix.MAP_ANON|unix.MAP_FIXED)
}
