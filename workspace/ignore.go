package workspace

import (
	"strings"
)

// Pattern is one line of a .gitignore-style file, parsed the way git's
// dir.c parses it.
type Pattern struct {
	base     string // directory of the file it came from, "" for the root, no trailing slash
	glob     string // what wildmatch compares, leading '/' removed
	negate   bool   // "!pattern"
	dirOnly  bool   // "pattern/"
	anchored bool   // contains a '/' other than a trailing one: match the path relative to base
}

// ParseIgnore parses the text of an ignore file found in directory base
// (workspace-relative, "" for the root).
func ParseIgnore(text, base string) []Pattern {
	var out []Pattern
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if p, ok := parsePattern(line, base); ok {
			out = append(out, p)
		}
	}
	return out
}

func parsePattern(line, base string) (Pattern, bool) {
	if line == "" || line[0] == '#' {
		return Pattern{}, false
	}
	line = trimTrailingSpaces(line)
	p := Pattern{base: base}
	if line != "" && line[0] == '!' {
		p.negate = true
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") {
		p.dirOnly = true
		line = strings.TrimRight(line, "/")
	}
	if line == "" {
		return Pattern{}, false
	}
	if strings.Contains(line, "/") {
		p.anchored = true
	}
	p.glob = strings.TrimPrefix(line, "/")
	if p.glob == "" {
		return Pattern{}, false
	}
	return p, true
}

// trimTrailingSpaces drops unescaped trailing spaces, as git does.
func trimTrailingSpaces(s string) string {
	end := len(s)
	for end > 0 && s[end-1] == ' ' {
		// Count the backslashes before this space: an odd number escapes it.
		bs := 0
		for j := end - 2; j >= 0 && s[j] == '\\'; j-- {
			bs++
		}
		if bs%2 == 1 {
			break
		}
		end--
	}
	return s[:end]
}

// match reports whether the pattern matches path (workspace-relative, '/'
// separated). It does not look at negation.
func (p *Pattern) match(path string, isDir bool) bool {
	if p.dirOnly && !isDir {
		return false
	}
	rel := path
	if p.base != "" {
		if !strings.HasPrefix(path, p.base+"/") {
			return false
		}
		rel = path[len(p.base)+1:]
	}
	if !p.anchored {
		// A pattern without a slash matches the name at any depth.
		name := rel[strings.LastIndexByte(rel, '/')+1:]
		return wildmatch(p.glob, name, false)
	}
	return wildmatch(p.glob, rel, true)
}

// Rules is the ordered set of patterns that applies to one directory: the
// patterns of every ignore file from the root down to it, lowest priority
// first. Rules values are immutable; child directories extend a copy.
type Rules struct {
	patterns []Pattern
}

// With returns rules that also include ps, at higher priority.
func (r *Rules) With(ps []Pattern) *Rules {
	if len(ps) == 0 {
		return r
	}
	out := &Rules{patterns: make([]Pattern, 0, len(r.patterns)+len(ps))}
	out.patterns = append(out.patterns, r.patterns...)
	out.patterns = append(out.patterns, ps...)
	return out
}

// Ignored reports whether path is excluded. The caller is responsible for
// not descending into excluded directories: as in git, a file inside an
// excluded directory cannot be re-included, and walking with pruning is
// what gives that behaviour.
func (r *Rules) Ignored(path string, isDir bool) bool {
	if r == nil {
		return false
	}
	for i := len(r.patterns) - 1; i >= 0; i-- {
		p := &r.patterns[i]
		if p.match(path, isDir) {
			return !p.negate
		}
	}
	return false
}
