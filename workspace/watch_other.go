//go:build !linux

package workspace

// isWatchLimit: only inotify has a per-user watch limit worth a fallback.
func isWatchLimit(error) bool { return false }

// systemWatchLimit: none known.
func systemWatchLimit() int { return 0 }

// raiseWatchLimit: nothing to say where no limit is known.
const raiseWatchLimit = ""
