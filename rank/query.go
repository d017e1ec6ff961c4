package rank

import (
	"errors"
	"net/url"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"wayfind/workspace"
)

// MaxQueryBytes bounds every query: nothing a person or an agent means by a
// path is longer, and the scorer's cost grows with it.
const MaxQueryBytes = 4096

// ErrInput is wrapped by every error that is the caller's to fix.
var ErrInput = errors.New("invalid input")

func inputError(msg string) error { return &inputErr{msg} }

// InputError is an error the caller must fix (it wraps ErrInput): every
// front end reports it as bad input, with msg as it stands.
func InputError(msg string) error { return inputError(msg) }

type inputErr struct{ msg string }

func (e *inputErr) Error() string { return e.msg }
func (e *inputErr) Unwrap() error { return ErrInput }

// PathQuery is a path as someone typed it, taken apart.
type PathQuery struct {
	Raw string
	// Path is '/'-separated and cleaned of "./", "//" and inner ".."; it has
	// no drive letter and no leading '/'. Leading ".." are kept in Up.
	Path string
	// Absolute is set for /x, C:\x, \\server\x and file:// forms.
	Absolute bool
	// Drive is set when the path began with a drive letter ("C:"): it
	// names another machine's disk, never a local path on Unix.
	Drive bool
	// Up counts leading ".." components (relative to the referring file).
	Up int
	// Line and Col are 1-based; 0 means absent.
	Line, Col int
	// Suffix is the location suffix as written (":12:5", "#L12", "(12,5)"),
	// so a caller rewriting the path can keep it.
	Suffix string
	// Fragment is a link's #fragment (a heading's anchor), without the
	// '#': not part of the file's name.
	Fragment string
	// Dir is set when the path was written as a directory's (a trailing
	// '/' or '\'): it asks for a directory, never for a file.
	Dir bool
}

// Written is the path as workspace.Places reads it: relative to the
// referring file when it climbs or begins "./" (".github/…" is a
// directory's name, not a relative path), absolute when it can be local.
func (q PathQuery) Written() workspace.Written {
	raw := strings.TrimSpace(q.Raw)
	w := workspace.Written{Path: q.Path, Up: q.Up, Relative: q.Up > 0 || strings.HasPrefix(raw, "./") || strings.HasPrefix(raw, ".\\")}
	if q.Absolute {
		w.Absolute, w.Path = true, localPath(q) // "" for another machine's drive: no place
	}
	return w
}

var (
	suffixHash  = regexp.MustCompile(`#L(\d+)(?:C(\d+))?(?:-L?\d+(?:C\d+)?)?$`)
	suffixParen = regexp.MustCompile(`\((\d+)(?:\s*,\s*(\d+))?\)$`)
	suffixColon = regexp.MustCompile(`:(\d+)(?::(\d+))?:?$`)
	driveLetter = regexp.MustCompile(`^[A-Za-z]:(/|$)`)
)

// ParsePath takes apart a path given in any of the forms API.md lists,
// a link read as a link (readLink).
func ParsePath(raw string) (PathQuery, error) {
	q := PathQuery{Raw: raw}
	s, err := prepare(raw)
	if err != nil {
		return q, err
	}
	if strings.ContainsAny(s, "\n\r") {
		// No file name a person or an agent means has a line break; a
		// path that does would name the file on its next line.
		return q, inputError("a path cannot hold a line break")
	}
	s, q.Fragment = readLink(s)
	if strings.HasPrefix(strings.ToLower(s), "file://") {
		s = s[len("file://"):]
		if dec, err := url.PathUnescape(s); err == nil {
			s = dec
		}
		// file://host/path and file:///path: drop the authority.
		if i := strings.IndexByte(s, '/'); i > 0 && !driveLetter.MatchString(s) {
			s = s[i:]
		}
		q.Absolute = true
	}
	for _, re := range []*regexp.Regexp{suffixHash, suffixParen, suffixColon} {
		if m := re.FindStringSubmatchIndex(s); m != nil && m[0] > 0 {
			q.Line, _ = strconv.Atoi(s[m[2]:m[3]])
			if m[4] >= 0 {
				q.Col, _ = strconv.Atoi(s[m[4]:m[5]])
			}
			q.Suffix = s[m[0]:]
			s = strings.TrimSpace(s[:m[0]])
			break
		}
	}
	s = linkQuery(s)
	s = strings.ReplaceAll(s, `\`, "/")
	q.Dir = strings.HasSuffix(s, "/")
	if strings.HasPrefix(s, "/") {
		q.Absolute = true
	}
	s = strings.TrimLeft(s, "/")
	if driveLetter.MatchString(s) {
		q.Absolute, q.Drive = true, true
		s = s[2:]
	}
	var parts []string
	for _, p := range strings.Split(s, "/") {
		switch p {
		case "", ".":
		case "..":
			if len(parts) > 0 {
				parts = parts[:len(parts)-1]
			} else if !q.Absolute {
				q.Up++
			}
		default:
			parts = append(parts, p)
		}
	}
	q.Path = strings.Join(parts, "/")
	if q.Path == "" {
		return q, inputError("path names no file")
	}
	return q, nil
}

// A path taken from a link is read as a Markdown or HTML reader reads the
// link: a quoted title after the target ("guide.md \"The guide\"") and the angle
// brackets around one (<my file.md>) are not the path; a #fragment names a
// place in the file, not the file (#L12 is a line: the suffixes above);
// a ?query is for a server; %-escapes stand for the bytes they encode.
// A '#' or '?' followed by a '/' is part of a directory's name (C#/x.cs),
// and one followed by a name with an extension is part of the file's
// (notes#1.md).
var (
	linkTitle  = regexp.MustCompile(`^(<[^>]*>|\S+)\s+("[^"]*"|'[^']*')$`)
	fragmentRE = regexp.MustCompile(`#([^#/]+)$`)
	nameLike   = regexp.MustCompile(`\.[A-Za-z][A-Za-z0-9]{0,7}$`)
	percentRE  = regexp.MustCompile(`%[0-9A-Fa-f]{2}`)
)

// readLink strips what a link adds to the path it names (above) and
// returns the path and the fragment. A location suffix (#L12) is left for
// ParsePath's suffixes.
func readLink(s string) (string, string) {
	if m := linkTitle.FindStringSubmatch(s); m != nil {
		s = trimQuotes(m[1])
	}
	frag := ""
	if m := fragmentRE.FindStringSubmatchIndex(s); m != nil && m[0] > 0 && !suffixHash.MatchString(s[m[0]:]) && !nameLike.MatchString(s[m[2]:m[3]]) {
		frag, s = s[m[2]:m[3]], s[:m[0]]
	}
	if percentRE.MatchString(s) && !strings.HasPrefix(strings.ToLower(s), "file://") {
		if dec, err := url.PathUnescape(s); err == nil && strings.IndexByte(dec, 0) < 0 {
			s = dec
		}
	}
	if f, err := url.PathUnescape(frag); err == nil {
		frag = f
	}
	return s, frag
}

// linkQuery drops a link's ?query, once the location suffix is taken off
// (guide.md?plain=1#L12).
func linkQuery(s string) string {
	if i := strings.LastIndexByte(s, '?'); i > 0 && !strings.ContainsRune(s[i:], '/') && !nameLike.MatchString(s[i:]) {
		return s[:i]
	}
	return s
}

// prepare checks a raw query and strips the white space and quotes around it.
func prepare(raw string) (string, error) {
	s := strings.TrimSpace(raw)
	if err := checkQuery(s); err != nil {
		return "", err
	}
	return trimQuotes(s), nil
}

func checkQuery(s string) error {
	switch {
	case s == "":
		return inputError("empty query")
	case len(s) > MaxQueryBytes:
		return inputError("query longer than " + strconv.Itoa(MaxQueryBytes) + " bytes")
	case strings.IndexByte(s, 0) >= 0:
		return inputError("query contains a NUL byte")
	}
	return nil
}

func trimQuotes(s string) string {
	for len(s) >= 2 {
		a, b := s[0], s[len(s)-1]
		if (a == '"' && b == '"') || (a == '\'' && b == '\'') || (a == '`' && b == '`') || (a == '<' && b == '>') {
			s = strings.TrimSpace(s[1 : len(s)-1])
			continue
		}
		break
	}
	return s
}

// FindQuery is a fuzzy file query taken apart into the directory terms
// before its last '/' and the words of the name after it.
type FindQuery struct {
	Raw string
	// Dirs are squashed directory terms, outermost first.
	Dirs []string
	// Words are the lower-case words of the name part; Squashed joins them.
	Words    []string
	Squashed string
	// Ext is the extension the name part ends with ("index.ts"), if any:
	// files with another extension rank a little lower.
	Ext string
	// Case is the name part as typed, when it is one word: a name holding
	// it with the same case wins ties.
	Case string
}

// extLike is what may follow a query name's last dot as its extension:
// letters, digits or '+', up to 16 in all — long enough for
// application.properties and spring.factories (read as one word,
// "applicationproperties" named ApplicationProperties.java exactly and
// left the files of that very name behind), digits included as the index
// reads them (splitExt: "v1.2" is v1 with the extension 2, so typing that
// name finds it). A tail with other characters ("S15.1.2.3_A1") is words.
var extLike = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9+]{0,15}$`)

// regexNoise matches the regular-expression pieces a planner puts between
// words ("cursor[ _-]?binary", "auth.*middleware", "\bfoo\b"): all of them
// mean "a word boundary may be here".
var regexNoise = regexp.MustCompile(`\[[^\]]*\][?*+]?|\.[*+?]|\\[bBsSwWdD][*+?]?|[()|^$?*+{}]`)

// regexSyntax is what makes a query a regular expression besides its
// backslashes.
var regexSyntax = regexp.MustCompile(`[\[\]()|^$?*+{}]|\.[*+?]`)

// windowsPath reports whether the query's backslashes separate path parts
// (src\auth\login.py, abcde\super\duper) rather than escape a regular
// expression's (\bfoo\b, cursor\s*binary): nothing else in it is regular
// expression syntax, and no escape stands alone at either end.
func windowsPath(s string) bool {
	if !strings.Contains(s, `\`) || regexSyntax.MatchString(s) {
		return false
	}
	return !edgeEscape.MatchString(strings.TrimSpace(s))
}

// edgeEscape: a regular expression's escape at the start (\bfoo) or end
// (foo\b) of a query.
var edgeEscape = regexp.MustCompile(`^\\[bB]|\\[bBsSwWdD]$`)

// ParseFind takes apart a find query.
func ParseFind(raw string) (FindQuery, error) {
	q := FindQuery{Raw: raw}
	s, err := prepare(raw)
	if err != nil {
		return q, err
	}
	if windowsPath(s) {
		s = strings.ReplaceAll(s, `\`, "/")
	}
	s = regexNoise.ReplaceAllString(s, " ")
	s = strings.ReplaceAll(s, `\`, "/")
	segs := strings.Split(s, "/")
	var name string
	for i := len(segs) - 1; i >= 0; i-- {
		if strings.TrimSpace(segs[i]) != "" {
			name = segs[i]
			segs = segs[:i]
			break
		}
	}
	for _, d := range segs {
		if sq := squash(d); sq != "" {
			q.Dirs = append(q.Dirs, sq)
		}
	}
	name = strings.TrimSpace(name)
	if i := strings.LastIndexByte(name, '.'); i > 0 && extLike.MatchString(name[i+1:]) {
		q.Ext = name[i+1:]
		name = name[:i]
	}
	fields := strings.Fields(name)
	for _, f := range fields {
		q.Words = append(q.Words, words(f)...)
	}
	if len(fields) == 1 {
		q.Case = fields[0]
	}
	q.Squashed = strings.Join(q.Words, "")
	if q.Squashed == "" && len(q.Dirs) == 0 {
		return q, inputError("query has no letters or digits to match")
	}
	if q.Squashed == "" { // "src/auth/": the last directory is the name
		q.Squashed = q.Dirs[len(q.Dirs)-1]
		q.Words = []string{q.Squashed}
		q.Dirs = q.Dirs[:len(q.Dirs)-1]
	}
	return q, nil
}

// localPath is the local absolute path an absolute query names, or "" for
// one that cannot be local (a drive letter on a Unix machine).
func localPath(q PathQuery) string {
	if q.Drive && filepath.Separator == '/' {
		return ""
	}
	return string(filepath.Separator) + filepath.FromSlash(q.Path)
}

// refFile maps a referring path (absolute, file:// URI, or root-relative) to
// a root and a root-relative path. It need not exist: a document may be new.
func (e *Engine) refFile(s string) (root int, rel string, ok bool) {
	if strings.TrimSpace(s) == "" {
		return 0, "", false
	}
	q, err := ParsePath(s)
	if err != nil {
		return 0, "", false
	}
	if q.Absolute {
		abs := localPath(q)
		if abs == "" {
			return 0, "", false
		}
		return e.ix.RootOf(abs)
	}
	if q.Up > 0 {
		return 0, "", false
	}
	for r := range e.ix.Roots {
		if _, ok := e.fileID(r, q.Path); ok {
			return r, q.Path, true
		}
	}
	return 0, q.Path, true
}
