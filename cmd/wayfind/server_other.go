//go:build !unix

package main

// outliveClient: only Unix raises SIGPIPE on a write to a closed pipe.
func outliveClient() {}
