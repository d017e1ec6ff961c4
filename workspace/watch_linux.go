package workspace

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// isWatchLimit reports the errors inotify gives when max_user_watches or
// max_user_instances is used up.
func isWatchLimit(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EMFILE)
}

// systemWatchLimit is the most watches one user may hold (inotify's
// max_user_watches), or 0 when unknown.
func systemWatchLimit() int { return procLimit("/proc/sys/fs/inotify/max_user_watches") }

// procLimit is the number in a /proc/sys file, 0 when it cannot be read.
func procLimit(file string) int {
	b, err := os.ReadFile(file)
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return n
}

// raiseWatchLimit ends the log line that says the watcher fell back to
// polling with how to make it watch: polling a large tree costs a steady
// share of a core and sees a new file only at the next poll, where
// watches are free and at once.
const raiseWatchLimit = " (watch instead: sysctl fs.inotify.max_user_watches=1048576, as root)"
