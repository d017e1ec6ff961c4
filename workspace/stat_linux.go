package workspace

import "syscall"

// stat is a path's FileStat (following links) and whether it is a
// regular file, read into a value on the stack: os.Stat's FileInfo was a
// hundred-odd bytes of garbage a path, and a poll stats every directory,
// a rescan every file.
func stat(path string) (FileStat, bool) {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		return FileStat{}, false
	}
	return FileStat{Size: st.Size, ModTime: st.Mtim.Nano(), OK: true}, st.Mode&syscall.S_IFMT == syscall.S_IFREG
}
