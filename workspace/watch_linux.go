package workspace

import (
	"errors"
	"syscall"
)

// isWatchLimit reports the errors inotify gives when max_user_watches or
// max_user_instances is used up.
func isWatchLimit(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EMFILE)
}
