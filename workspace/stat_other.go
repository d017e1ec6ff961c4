//go:build !linux

package workspace

import "os"

// stat is a path's FileStat (following links) and whether it is a
// regular file.
func stat(path string) (FileStat, bool) {
	fi, err := os.Stat(path)
	if err != nil {
		return FileStat{}, false
	}
	return FileStat{Size: fi.Size(), ModTime: fi.ModTime().UnixNano(), OK: true}, fi.Mode().IsRegular()
}
