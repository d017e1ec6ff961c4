//go:build !linux

package workspace

import "os"

// statPath is a path's FileStat (following links).
func statPath(path string) FileStat {
	fi, err := os.Stat(path)
	if err != nil {
		return FileStat{}
	}
	return FileStat{Size: fi.Size(), ModTime: fi.ModTime().UnixNano(), OK: true}
}
