//go:build !unix

package main

// heapProfileOnSignal: no SIGUSR1 here.
func heapProfileOnSignal(path string) {}
