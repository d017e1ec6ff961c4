package workspace

// wildmatch follows git's wildmatch.c with WM_PATHNAME semantics, because
// the only definition of a .gitignore pattern that matters is git's own:
//
//   - `*` and `?` never match `/`;
//   - `**` is special only as a whole component (`**/x`, `x/**`, `a/**/b`),
//     where it matches any number of directories (zero included for `**/`);
//     anywhere else it behaves like `*`;
//   - `[...]` classes with `!`/`^` negation, ranges and `[:alpha:]`-style
//     names, never matching `/`;
//   - `\` escapes the next character.
//
// The three-valued result is what makes `**` backtrack correctly: a `*` that
// fails on a `/` tells an enclosing `**` to keep trying (abortToStarStar),
// while a mismatch that no later start can fix stops everything (abortAll).
// The go-git matcher has neither, which is why `a/**/b/c` and `gen/**`
// disagree with git there (see ignore_git_test.go).

type wmResult int

const (
	wmMatch wmResult = iota
	wmNoMatch
	wmAbortAll
	wmAbortToStarStar
)

// wildmatch reports whether text matches pattern; pathname selects WM_PATHNAME.
func wildmatch(pattern, text string, pathname bool) bool {
	return dowild(pattern, text, pathname) == wmMatch
}

func dowild(p, text string, pathname bool) wmResult {
	pi, ti := 0, 0
	for ; pi < len(p); pi, ti = pi+1, ti+1 {
		pch := p[pi]
		if ti >= len(text) && pch != '*' {
			return wmAbortAll
		}
		var tch byte
		if ti < len(text) {
			tch = text[ti]
		}
		switch pch {
		case '\\':
			pi++
			if pi >= len(p) {
				return wmNoMatch // a trailing backslash matches nothing, as in git
			}
			if text[ti] != p[pi] {
				return wmNoMatch
			}
		default:
			if tch != pch {
				return wmNoMatch
			}
		case '?':
			if pathname && tch == '/' {
				return wmNoMatch
			}
		case '*':
			matchSlash := false
			if pi+1 < len(p) && p[pi+1] == '*' {
				start := pi
				for pi+1 < len(p) && p[pi+1] == '*' {
					pi++
				}
				if !pathname {
					matchSlash = true
				} else if (start == 0 || p[start-1] == '/') && (pi+1 == len(p) || p[pi+1] == '/') {
					// `**/` may match zero directories.
					if pi+1 < len(p) && p[pi+1] == '/' && dowild(p[pi+2:], text[ti:], pathname) == wmMatch {
						return wmMatch
					}
					matchSlash = true
				}
			} else {
				matchSlash = !pathname
			}
			if pi+1 == len(p) {
				// Trailing star: matches the rest unless it holds a `/`.
				if !matchSlash && indexByte(text[ti:], '/') >= 0 {
					return wmAbortToStarStar
				}
				return wmMatch
			}
			if !matchSlash && p[pi+1] == '/' {
				// `*/`: the star ends at the next slash.
				slash := indexByte(text[ti:], '/')
				if slash < 0 {
					return wmAbortAll
				}
				ti += slash - 1 // the loop's ti+1 lands on the slash
				continue
			}
			for ; ti < len(text); ti++ {
				r := dowild(p[pi+1:], text[ti:], pathname)
				if r != wmNoMatch {
					if !matchSlash || r != wmAbortToStarStar {
						return r
					}
				} else if !matchSlash && text[ti] == '/' {
					return wmAbortToStarStar
				}
			}
			return wmAbortAll
		case '[':
			n, ok, matched := matchClass(p[pi:], tch)
			if !ok {
				return wmAbortAll // malformed class: git gives up on the pattern
			}
			pi += n - 1
			if !matched || (pathname && tch == '/') {
				return wmNoMatch
			}
		}
	}
	if ti < len(text) {
		return wmNoMatch
	}
	return wmMatch
}

// matchClass parses the bracket expression at the start of p and tests c.
// It returns the length of the expression, whether it was well formed, and
// whether c is in it.
func matchClass(p string, c byte) (n int, ok bool, matched bool) {
	i := 1
	negate := false
	if i < len(p) && (p[i] == '!' || p[i] == '^') {
		negate = true
		i++
	}
	var prev byte
	first := true
	for ; ; i++ {
		if i >= len(p) {
			return 0, false, false
		}
		ch := p[i]
		if ch == ']' && !first {
			break
		}
		first = false
		switch {
		case ch == '\\':
			i++
			if i >= len(p) {
				return 0, false, false
			}
			ch = p[i]
			if ch == c {
				matched = true
			}
		case ch == '-' && prev != 0 && i+1 < len(p) && p[i+1] != ']':
			i++
			hi := p[i]
			if hi == '\\' {
				i++
				if i >= len(p) {
					return 0, false, false
				}
				hi = p[i]
			}
			if prev <= c && c <= hi {
				matched = true
			}
			ch = 0
		case ch == '[' && i+1 < len(p) && p[i+1] == ':':
			// As git does: the name runs to the first ']', which must follow a ':'.
			end := indexByte(p[i+2:], ']') - 1
			if end+1 < 0 {
				return 0, false, false
			}
			if end < 0 || p[i+2+end] != ':' {
				// Not a class name: a literal '['.
				if ch == c {
					matched = true
				}
				break
			}
			name := p[i+2 : i+2+end]
			known, in := posixClass(name, c)
			if !known {
				return 0, false, false
			}
			if in {
				matched = true
			}
			i += 2 + end + 1
			ch = 0
		default:
			if ch == c {
				matched = true
			}
		}
		prev = ch
	}
	return i + 1, true, matched != negate
}

func posixClass(name string, c byte) (known, in bool) {
	isUpper := c >= 'A' && c <= 'Z'
	isLower := c >= 'a' && c <= 'z'
	isDigit := c >= '0' && c <= '9'
	switch name {
	case "alnum":
		return true, isUpper || isLower || isDigit
	case "alpha":
		return true, isUpper || isLower
	case "blank":
		return true, c == ' ' || c == '\t'
	case "cntrl":
		return true, c < 0x20 || c == 0x7f
	case "digit":
		return true, isDigit
	case "graph":
		return true, c > 0x20 && c < 0x7f
	case "lower":
		return true, isLower
	case "print":
		return true, c >= 0x20 && c < 0x7f
	case "punct":
		return true, c > 0x20 && c < 0x7f && !isUpper && !isLower && !isDigit
	case "space":
		return true, c == ' ' || (c >= '\t' && c <= '\r')
	case "upper":
		return true, isUpper
	case "xdigit":
		return true, isDigit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
	}
	return false, false
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}
