package service

import (
	"path"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"wayfind/rank"
)

// anchorLine turns a link's #fragment into the line it names in the
// resolved document, when the query gave no line: a heading (as GitHub
// or the format's own tools make its anchor), or an explicit anchor
// (<a name=…>, id=…, {#id}, [[id]]). Reasons say which: anchor:line:N,
// or anchor:missing when the document has no such place (the link's
// section is gone, though its file is found).
func anchorLine(eng *rank.Engine, res *rank.ResolveResult) {
	if res.Fragment == "" || res.Line > 0 || res.Resolved == nil {
		return
	}
	c := res.Resolved
	kind := anchorKind(c.Path)
	if kind == "" {
		return
	}
	text, ok := readInside(eng.Index().Roots, c.Root, c.Path, maxLineCount)
	if !ok {
		return
	}
	if n := findAnchor(kind, string(text), res.Fragment); n > 0 {
		res.Line = n
		addReason(res, "anchor:line:"+strconv.Itoa(n))
		return
	}
	addReason(res, "anchor:missing")
}

// anchorKind is how a document names its places: "md", "rst", "adoc",
// "html", or "" for a file whose fragments are not places.
func anchorKind(p string) string {
	switch strings.ToLower(strings.TrimPrefix(path.Ext(p), ".")) {
	case "md", "markdown", "mdx", "mkd":
		return "md"
	case "rst":
		return "rst"
	case "adoc", "asciidoc":
		return "adoc"
	case "html", "htm", "xhtml":
		return "html"
	}
	return ""
}

var (
	atxHeading    = regexp.MustCompile(`^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$`)
	explicitID    = regexp.MustCompile(`(?i)(?:\bid|\bname)\s*=\s*["']([^"']+)["']`)
	customID      = regexp.MustCompile(`\{#([^}\s]+)\}\s*$`)
	adocAnchor    = regexp.MustCompile(`^\[\[([^\],]+)(?:,[^\]]*)?\]\]|^\[#([^\].]+)`)
	adocHeading   = regexp.MustCompile(`^(={1,6})\s+(.*)$`)
	setextUnder   = regexp.MustCompile(`^ {0,3}(=+|-+)\s*$`)
	rstLabel      = regexp.MustCompile(`^\.\.\s+_([^:]+):\s*$`)
	markdownClean = regexp.MustCompile(`[*_` + "`" + `]|\[([^\]]*)\]\([^)]*\)|<[^>]+>`)
)

// findAnchor is the 1-based line of the place fragment names in text of
// kind, or 0.
func findAnchor(kind, text, fragment string) int {
	want := strings.ToLower(fragment)
	lines := strings.Split(text, "\n")
	seen := map[string]int{} // GitHub numbers repeated headings: x, x-1, x-2
	heading := func(title string) string {
		slug := slugOf(kind, title)
		n := seen[slug]
		seen[slug] = n + 1
		if n > 0 {
			slug += "-" + strconv.Itoa(n)
		}
		return slug
	}
	for i, l := range lines {
		for _, m := range explicitID.FindAllStringSubmatch(l, -1) {
			if strings.EqualFold(m[1], fragment) {
				return i + 1
			}
		}
		switch kind {
		case "md":
			if m := customID.FindStringSubmatch(l); m != nil && strings.EqualFold(m[1], fragment) {
				return i + 1
			}
			if m := atxHeading.FindStringSubmatch(l); m != nil && heading(customID.ReplaceAllString(m[2], "")) == want {
				return i + 1
			}
			if i+1 < len(lines) && strings.TrimSpace(l) != "" && setextUnder.MatchString(lines[i+1]) && heading(l) == want {
				return i + 1
			}
		case "rst":
			if m := rstLabel.FindStringSubmatch(l); m != nil && slugOf(kind, m[1]) == want {
				return i + 1
			}
			if i+1 < len(lines) && strings.TrimSpace(l) != "" && !rstUnderline(l) && rstUnderline(lines[i+1]) && slugOf(kind, l) == want {
				return i + 1
			}
		case "adoc":
			if m := adocAnchor.FindStringSubmatch(l); m != nil && (strings.EqualFold(m[1], fragment) || strings.EqualFold(m[2], fragment)) {
				return i + 1
			}
			if m := adocHeading.FindStringSubmatch(l); m != nil && (slugOf(kind, m[2]) == want || slugOf("md", m[2]) == want) {
				return i + 1
			}
		}
	}
	return 0
}

// rstUnderline reports whether l is a reStructuredText section's
// underline: three or more of one punctuation character.
func rstUnderline(l string) bool {
	l = strings.TrimRight(l, " \t\r")
	if len(l) < 3 || !strings.ContainsRune("=-~^\"'`#*+<>:.!$%&,/;?@\\_|", rune(l[0])) {
		return false
	}
	return strings.Count(l, l[:1]) == len(l)
}

// slugOf is the anchor a heading's title gets: GitHub's for Markdown
// (lower case; letters, digits, '-' and '_' kept; spaces become '-');
// docutils' for reStructuredText (runs of other characters become one
// '-'); Asciidoctor's for AsciiDoc ('_' first, other characters '_').
func slugOf(kind, title string) string {
	title = strings.TrimSpace(markdownClean.ReplaceAllString(title, "$1"))
	var b strings.Builder
	switch kind {
	case "rst":
		dash := false
		for _, r := range strings.ToLower(title) {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				if dash && b.Len() > 0 {
					b.WriteByte('-')
				}
				b.WriteRune(r)
				dash = false
			} else {
				dash = true
			}
		}
	case "adoc":
		b.WriteByte('_')
		under := false
		for _, r := range strings.ToLower(title) {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				b.WriteRune(r)
				under = false
			} else if !under {
				b.WriteByte('_')
				under = true
			}
		}
		return strings.TrimRight(b.String(), "_")
	default:
		for _, r := range strings.ToLower(title) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteByte('-')
			}
		}
	}
	return b.String()
}
