package rank

import (
	"path"
	"strings"

	"wayfind/ident"
)

// squash is ident.Squash: the one form of a name for matching.
func squash(s string) string { return ident.Squash(s) }

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// lowerASCII lower-cases the ASCII letters of s and keeps every other
// byte: a name as typed, separators and sigils kept, case aside (the
// case squash ignores, and no more).
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if isUpper(s[i]) {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if isUpper(b[j]) {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// words splits a name into lower-case words at separators and camel humps
// (ident.HumpAt: "parseHTTPRequest" → parse, http, request; "md5Hash" →
// md5, hash) and nowhere else: digits stay with the word before them
// ("t9125", "i18n"), because that is how people abbreviate them.
func words(s string) []string {
	var out []string
	eachWord(s, func(start, end int) {
		out = append(out, squash(s[start:end])) // lower case as squash has it: ASCII only
	})
	return out
}

// wordsInto appends s's words to buf as they are written (not squashed).
func wordsInto(s string, buf []string) []string {
	eachWord(s, func(start, end int) { buf = append(buf, s[start:end]) })
	return buf
}

// eachWord calls fn with the bounds of each of s's words, as words cuts
// them: a word is letters and digits only, so squashed it keeps its
// length (wordStarts counts on it, and allocates nothing).
func eachWord(s string, fn func(start, end int)) {
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			fn(start, end)
		}
		start = -1
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isAlnum(c) {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		if ident.HumpAt(s, i) { // aB, 5B → a|B ; ABc → A|Bc
			flush(i)
			start = i
		}
	}
	flush(len(s))
}

// charMask is the set of [a-z0-9] bytes in an already squashed string; a
// query can only be a subsequence of a name whose mask contains its own.
// pairBit is the bit of a directory word's first two letters (b is 0
// for a word of one letter) in a mask of 64, hashed: a chunk of at
// least dirMinChunk bytes read from position p of a token begins with
// the token's own two letters there, so a directory whose words begin
// with none of the pairs a token may go on with reads nothing more of
// it — a test far finer than the first letter alone (a few words a
// directory set a few bits of 64, where their first letters set the
// commonest of 37).
func pairBit(a, b byte) uint64 {
	return 1 << ((uint32(a)<<8 | uint32(b)) * 0x9E3779B1 >> 26)
}

// pairSecond is the second letter pairBit takes of w: 0 for a word of
// one letter.
func pairSecond(w string) byte {
	if len(w) < 2 {
		return 0
	}
	return w[1]
}

func charMask(s string) uint64 {
	var m uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z':
			m |= 1 << (c - 'a')
		case c >= '0' && c <= '9':
			m |= 1 << (26 + c - '0')
		default:
			m |= 1 << 36
		}
	}
	return m
}

// splitExt splits a base name into stem and extension (without the dot). A
// leading dot is part of the stem: ".gitignore" has no extension.
func splitExt(base string) (stem, ext string) {
	i := strings.LastIndexByte(base, '.')
	if i <= 0 {
		return base, ""
	}
	return base[:i], base[i+1:]
}

// extFamily groups extensions a person or an agent confuses with one another.
// Within a family a wrong extension costs little; between source languages
// (".py" for ".rs" after switching projects) it costs more; anything else
// costs most.
var extFamily = map[string]string{
	"js": "js", "mjs": "js", "cjs": "js", "jsx": "js", "ts": "js", "tsx": "js", "mts": "js", "cts": "js",
	"c": "c", "h": "c", "cc": "c", "cpp": "c", "cxx": "c", "c++": "c", "hh": "c", "hpp": "c", "hxx": "c", "h++": "c", "inl": "c", "inc": "c", "ipp": "c", "m": "c", "mm": "c",
	"java": "jvm", "kt": "jvm", "kts": "jvm", "scala": "jvm", "groovy": "jvm", "gradle": "jvm",
	"sh": "sh", "bash": "sh", "zsh": "sh", "ksh": "sh", "fish": "sh",
	"yml": "yaml", "yaml": "yaml",
	"md": "doc", "markdown": "doc", "adoc": "doc", "asciidoc": "doc", "rst": "doc", "txt": "doc",
	"json": "json", "jsonc": "json", "json5": "json",
	"htm": "html", "html": "html", "xhtml": "html",
	"toml": "conf", "ini": "conf", "cfg": "conf", "conf": "conf",
	"py": "py", "pyi": "py", "pyx": "py",
	"rb": "rb", "erb": "rb", "rake": "rb",
	"cs": "cs", "fs": "cs", "vb": "cs",
	"css": "css", "scss": "css", "sass": "css", "less": "css",
}

// sourceLang marks extensions of programming languages, the wider family.
var sourceLang = map[string]bool{
	"go": true, "py": true, "rs": true, "js": true, "ts": true, "tsx": true, "jsx": true, "mjs": true, "cjs": true,
	"java": true, "kt": true, "scala": true, "c": true, "h": true, "cc": true, "cpp": true, "hpp": true, "cxx": true,
	"cs": true, "rb": true, "php": true, "swift": true, "m": true, "mm": true, "lua": true, "pl": true, "ex": true,
	"exs": true, "erl": true, "hs": true, "ml": true, "dart": true, "zig": true, "nim": true, "jl": true, "r": true,
	"sh": true, "bash": true, "groovy": true, "clj": true, "elm": true, "vue": true, "svelte": true,
}

// extAffinity scores how well a candidate's extension stands in for the
// query's: 1 same, then family, then any two source languages.
func extAffinity(q, c string) (float64, string) {
	switch {
	case q == c:
		return 1, ""
	case strings.EqualFold(q, c):
		return extCaseAffinity, "ext:case"
	case q == "":
		return extAdded, "ext:added"
	}
	lq, lc := strings.ToLower(q), strings.ToLower(c)
	if f := extFamily[lq]; f != "" && f == extFamily[lc] {
		return extFamilyAffinity, "ext:family"
	}
	if sourceLang[lq] && sourceLang[lc] {
		return extLanguage, "ext:language"
	}
	return extOther, "ext:other"
}

// parentDir is the directory of a root-relative path, "" at the top level.
func parentDir(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}

func splitDirs(d string) []string {
	if d == "" {
		return nil
	}
	return strings.Split(d, "/")
}

func round3(f float64) float64 {
	return float64(int64(f*1000+0.5)) / 1000
}

// pathExt is the extension of a path's base name, as splitExt reads it.
func pathExt(p string) string {
	_, ext := splitExt(path.Base(p))
	return ext
}
