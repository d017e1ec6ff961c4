//go:build unix

package daemon

import (
	"fmt"
	"os"
	"syscall"
)

// private checks that dir is a directory (not a link to one) of this
// user's that nobody else may enter: what a socket in it answers comes
// from a process of this user's.
func private(dir string) error {
	st, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	switch {
	case !st.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	case !ok || int(sys.Uid) != os.Getuid():
		return fmt.Errorf("%s is not this user's", dir)
	case st.Mode().Perm()&0o077 != 0:
		return fmt.Errorf("%s may be entered by others (mode %v)", dir, st.Mode().Perm())
	}
	return nil
}
