//go:build !linux

package bigalloc

import "unsafe"

// advise: only Linux is advised.
func advise(unsafe.Pointer, uintptr) {}
