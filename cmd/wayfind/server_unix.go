//go:build unix

package main

import (
	"os/signal"
	"syscall"
)

// outliveClient keeps a server alive when its client closes the pipes
// first: an editor or a bench sends exit and closes them at once, and a
// write to a closed stdout then raised SIGPIPE, which killed the process
// inside Close — before the navigation history and the base it owed
// reached the disk. Ignored, the write fails with EPIPE and Close
// finishes.
func outliveClient() { signal.Ignore(syscall.SIGPIPE) }
