//go:build !linux

package workspace

import "errors"

// dirMarks: fanotify is Linux's; elsewhere there are no marks to add.
type dirMarks struct{}

func newDirMarks(func([]string, bool)) (*dirMarks, error) {
	return nil, errors.New("no fanotify on this system")
}

func (*dirMarks) add(string) error { return errors.New("no fanotify on this system") }
func (*dirMarks) remove(string)    {}
func (*dirMarks) close()           {}

func isMarkLimit(error) bool { return false }

// systemMarkLimit: none.
func systemMarkLimit() int { return 0 }
