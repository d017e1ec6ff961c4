package workspace

import "syscall"

// statPath is a path's FileStat (following links), read into a value on
// the stack: os.Stat's FileInfo was a hundred-odd bytes of garbage a
// path, and a poll stats a quarter of a million directories, a rescan a
// million files.
func statPath(path string) FileStat {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		return FileStat{}
	}
	return FileStat{Size: st.Size, ModTime: st.Mtim.Nano(), OK: true}
}
