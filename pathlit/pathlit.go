// Package pathlit finds the strings in a document that look like file
// paths: quoted string literals in any language and Markdown link targets.
// Find reads text only; Judge (judge.go) decides, with the engine, what a
// literal leads to: a link, or a broken path and its fix.
package pathlit

import (
	"strings"
)

// Literal is one path-like string; Start and End are byte offsets of the
// path itself (quotes and link syntax excluded).
type Literal struct {
	Text       string
	Start, End int
	// Link: a Markdown link's target, which its reader reads from the
	// document's directory; other literals are quoted strings, which in
	// a document's prose mention a path from the project's top as often.
	Link bool
}

// MaxLiterals bounds the literals taken from one document.
const MaxLiterals = 2000

// Find returns the path-like literals of text in order.
func Find(text string) []Literal {
	var out []Literal
	add := func(s string, start int, link bool) {
		if len(out) < MaxLiterals && LooksLikePath(s) {
			out = append(out, Literal{Text: s, Start: start, End: start + len(s), Link: link})
		}
	}
	for i := 0; i < len(text) && len(out) < MaxLiterals; i++ {
		switch c := text[i]; c {
		case '"', '\'', '`':
			// A literal ends at its closing quote on the same line; escapes
			// make it no path, so they are skipped, not decoded.
			j := i + 1
			for j < len(text) && text[j] != c && text[j] != '\n' {
				if text[j] == '\\' && j+1 < len(text) && text[j+1] == c {
					j++
				}
				j++
			}
			if j < len(text) && text[j] == c {
				add(text[i+1:j], i+1, false)
				i = j
			}
		case ']':
			// Markdown: [label](target "title")
			if i+1 < len(text) && text[i+1] == '(' {
				j := i + 2
				for j < len(text) && text[j] != ')' && text[j] != '\n' && text[j] != ' ' {
					j++
				}
				target := text[i+2 : j]
				if k := strings.IndexByte(target, '#'); k >= 0 {
					target = target[:k]
				}
				add(target, i+2, true)
				i = j - 1
			}
		}
	}
	return out
}

// LooksLikePath accepts strings shaped like a relative or absolute file
// path: no spaces or template syntax, not a URL, and either a directory
// separator between name characters or a name with an extension.
func LooksLikePath(s string) bool {
	if len(s) < 4 || len(s) > 300 || strings.Contains(s, "://") || strings.HasPrefix(s, "//") {
		return false
	}
	for _, pre := range []string{"mailto:", "data:", "http:", "https:", "#"} {
		if strings.HasPrefix(s, pre) {
			return false
		}
	}
	letters := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			letters++
		case c >= '0' && c <= '9' || c >= 0x80:
		case strings.IndexByte("/\\._-+@~:#(),", c) >= 0:
		default:
			return false // spaces, quotes, globs, templates, markup
		}
	}
	if letters == 0 {
		return false
	}
	if strings.ContainsAny(s, "/\\") {
		name := strings.Trim(s, "/\\.")
		return name != "" && !strings.Contains(s, "//")
	}
	return HasExt(s)
}

// HasExt reports whether the last path element has an extension of one to
// eight characters with a letter in it, after a non-empty stem.
func HasExt(s string) bool {
	base := s[strings.LastIndexAny(s, "/\\")+1:]
	if i := strings.IndexAny(base, ":#("); i > 0 { // a :line or #Lline suffix
		base = base[:i]
	}
	dot := strings.LastIndexByte(base, '.')
	if dot <= 0 || len(base)-dot-1 < 1 || len(base)-dot-1 > 8 {
		return false
	}
	ext := base[dot+1:]
	for i := 0; i < len(ext); i++ {
		if c := ext[i]; c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			return true
		}
	}
	return false
}
