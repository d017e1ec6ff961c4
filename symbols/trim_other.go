//go:build !linux || !cgo

package symbols

// releaseParserMemory: only glibc's malloc is known to keep what the
// parsers freed (trim_cgo.go).
func releaseParserMemory() {}
