// Package ident is how wayfind cuts a name into words, the one rule the
// ranking engine (file names, directories, symbols) and the content index
// (identifiers in text) share, so that a query's words meet a file's the
// same way everywhere.
package ident

// HumpAt reports whether a new word starts at s[i] inside a run of
// letters and digits (i > 0): at an upper-case letter after a lower-case
// one or a digit ("parseHTTP" → parse|HTTP, "md5Hash" → md5|Hash), or at
// the last capital of a run when a lower-case letter follows ("HTTPServer"
// → HTTP|Server). Digits stay with the word before them ("t9125", "i18n",
// "http2"): that is how people abbreviate them.
func HumpAt[T ~string | ~[]byte](s T, i int) bool {
	if i <= 0 || i >= len(s) || !isUpper(s[i]) {
		return false
	}
	prev := s[i-1]
	return isLower(prev) || isDigit(prev) || isUpper(prev) && i+1 < len(s) && isLower(s[i+1])
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// Squash lower-cases s and keeps only ASCII letters and digits (other
// bytes of a UTF-8 sequence are kept as they are): the form in which
// "AuthMiddleware", "auth_middleware" and "auth-middleware" are one
// string — how the engine matches names and the symbol cache files them.
func Squash(s string) string {
	if squashed(s) {
		return s // most names are: no copy made
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			b = append(b, c+'a'-'A')
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c >= 0x80:
			b = append(b, c)
		}
	}
	return string(b)
}

// squashed reports whether s is already as Squash makes it.
func squashed(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 0x80) {
			return false
		}
	}
	return true
}
