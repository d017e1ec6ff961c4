//go:build !linux || !(amd64 || arm64)

package workspace

// statBytes is statPath of the path in b, which ends in a NUL.
func statBytes(b []byte) FileStat { return statPath(string(b[:len(b)-1])) }
