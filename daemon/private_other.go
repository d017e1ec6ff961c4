//go:build !unix

package daemon

// private: elsewhere the cache directory is the user's profile's, which
// its own access rules keep.
func private(string) error { return nil }
