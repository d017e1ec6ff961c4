//go:build !linux

package memory

// mappedResident is unknown off Linux: the budget is the heap's alone.
func mappedResident() int64 { return 0 }
