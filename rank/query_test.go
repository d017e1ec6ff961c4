package rank

import (
	"context"
	"fmt"
	"math"
	"path"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"wayfind/workspace"
)

func TestParsePath(t *testing.T) {
	cases := []struct {
		in        string
		path      string
		abs       bool
		up        int
		line, col int
		fragment  string
	}{
		{in: "src/a.go", path: "src/a.go"},
		{in: "./src/a.go", path: "src/a.go"},
		{in: "src//x/../a.go", path: "src/a.go"},
		{in: "../../lib/a.go", path: "lib/a.go", up: 2},
		{in: "/home/x/proj/src/a.go", path: "home/x/proj/src/a.go", abs: true},
		{in: `C:\Users\x\proj\src\a.go`, path: "Users/x/proj/src/a.go", abs: true},
		{in: `src\win\a.go`, path: "src/win/a.go"},
		{in: `\\server\share\a.go`, path: "server/share/a.go", abs: true},
		{in: "file:///home/x/a%20b.go", path: "home/x/a b.go", abs: true},
		{in: "file://host/home/x/a.go", path: "home/x/a.go", abs: true},
		{in: "file:///C:/proj/a.go", path: "proj/a.go", abs: true},
		{in: "src/a.go:12", path: "src/a.go", line: 12},
		{in: "src/a.go:12:5", path: "src/a.go", line: 12, col: 5},
		{in: "src/a.go:12:5:", path: "src/a.go", line: 12, col: 5},
		{in: "src/a.go#L7", path: "src/a.go", line: 7},
		{in: "src/a.go#L7-L9", path: "src/a.go", line: 7},
		{in: "src/a.go#L7C3", path: "src/a.go", line: 7, col: 3},
		{in: "src/a.go(12,3)", path: "src/a.go", line: 12, col: 3},
		{in: "src/a.go(12)", path: "src/a.go", line: 12},
		{in: `"src/a.go"`, path: "src/a.go"},
		{in: "`src/a.go:3`", path: "src/a.go", line: 3},
		{in: "  src/a.go  ", path: "src/a.go"},
		{in: "C:", path: "", abs: true},
		// Links, read as a Markdown or HTML reader reads them.
		{in: "../terminology.md#resources", path: "terminology.md", up: 1, fragment: "resources"},
		{in: "docs/a.md#section-2.1", path: "docs/a.md", fragment: "section-2.1"},
		{in: "docs/a%20b.md#x%20y", path: "docs/a b.md", fragment: "x y"},
		{in: "findings/Kubernetes%20Threat%20Model.pdf", path: "findings/Kubernetes Threat Model.pdf"},
		{in: "<my file.md>", path: "my file.md"},
		{in: `<my file.md> "The title"`, path: "my file.md"},
		{in: `guide.md "The guide"`, path: "guide.md"},
		{in: "img/logo.png 'Logo'", path: "img/logo.png"},
		{in: "licenses/MIT (advertising clause)", path: "licenses/MIT (advertising clause)"},
		{in: "guide.md?plain=1#L12", path: "guide.md", line: 12},
		{in: "docs/x.md?raw=true", path: "docs/x.md"},
		{in: "src/a.go (12,5)", path: "src/a.go", line: 12, col: 5},
		// '#' and '?' that are part of a name.
		{in: "C#/Program.cs", path: "C#/Program.cs"},
		{in: "notes#1.md", path: "notes#1.md"},
		{in: "what?.md", path: "what?.md"},
	}
	for _, c := range cases {
		q, err := ParsePath(c.in)
		if c.path == "" {
			if err == nil {
				t.Errorf("%q: want an error, got %+v", c.in, q)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if q.Path != c.path || q.Absolute != c.abs || q.Up != c.up || q.Line != c.line || q.Col != c.col || q.Fragment != c.fragment {
			t.Errorf("%q: got path=%q abs=%v up=%d line=%d col=%d fragment=%q; want %q %v %d %d %d %q",
				c.in, q.Path, q.Absolute, q.Up, q.Line, q.Col, q.Fragment, c.path, c.abs, c.up, c.line, c.col, c.fragment)
		}
		// The suffix is the location as written, and only that.
		if (c.line > 0) != (q.Suffix != "") || !strings.HasSuffix(strings.Trim(strings.TrimSpace(c.in), "`\""), q.Suffix) {
			t.Errorf("%q: suffix %q", c.in, q.Suffix)
		}
	}
}

func TestParsePathDrive(t *testing.T) {
	for in, drive := range map[string]bool{
		`C:\Users\x\a.go`:      true,
		"file:///C:/proj/a.go": true,
		`"D:\a.go"`:            true,
		"/home/x/a.go":         false,
		"file://host/x/a.go":   false,
		"src/C:/a.go":          false,
	} {
		q, err := ParsePath(in)
		if err != nil || q.Drive != drive {
			t.Errorf("%q: drive=%v err=%v, want drive=%v", in, q.Drive, err, drive)
		}
	}
}

func TestParseFind(t *testing.T) {
	cases := []struct {
		in       string
		dirs     string
		words    string
		squashed string
		ext      string
	}{
		{in: "authmidlware", words: "authmidlware", squashed: "authmidlware"},
		{in: "auth middleware", words: "auth middleware", squashed: "authmiddleware"},
		{in: "AuthMiddleware", words: "auth middleware", squashed: "authmiddleware"},
		{in: "parseHTTPRequest", words: "parse http request", squashed: "parsehttprequest"},
		{in: "cursor[ _-]?binary", words: "cursor binary", squashed: "cursorbinary"},
		{in: "auth.*middleware", words: "auth middleware", squashed: "authmiddleware"},
		{in: `\bauth\b`, words: "auth", squashed: "auth"},
		{in: "hpack/static", dirs: "hpack", words: "static", squashed: "static"},
		{in: "a/b-c/Name", dirs: "a bc", words: "name", squashed: "name"},
		{in: "index.ts", words: "index", squashed: "index", ext: "ts"},
		{in: "S15.1.2.3_A1", words: "s15 1 2 3 a1", squashed: "s15123a1", ext: ""},
		{in: "t9125-git-svn", words: "t9125 git svn", squashed: "t9125gitsvn"},
		{in: "src/auth/", dirs: "src", words: "auth", squashed: "auth"},
		// Backslashes separate path parts as on Windows, unless the query
		// is a regular expression (\b, \s… among other syntax or at an end).
		{in: `abcde\super\duper`, dirs: "abcde super", words: "duper", squashed: "duper"},
		{in: `src\auth\login.py`, dirs: "src auth", words: "login", squashed: "login", ext: "py"},
		{in: `\bfoo\b`, words: "foo", squashed: "foo"},
		{in: `cursor\s*binary`, words: "cursor binary", squashed: "cursorbinary"},
	}
	for _, c := range cases {
		q, err := ParseFind(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if strings.Join(q.Dirs, " ") != c.dirs || strings.Join(q.Words, " ") != c.words || q.Squashed != c.squashed || q.Ext != c.ext {
			t.Errorf("%q: got dirs=%q words=%q squashed=%q ext=%q", c.in, q.Dirs, q.Words, q.Squashed, q.Ext)
		}
	}
}

func TestOSA(t *testing.T) {
	cases := []struct {
		a, b string
		d    int
	}{
		{"middleware", "middleware", 0},
		{"midleware", "middleware", 1},
		{"middlewware", "middleware", 1},
		{"middlewere", "middleware", 1},
		{"midldeware", "middleware", 1},
		{"tetsdir", "testdir", 1},
		{"abc", "xyz", 3},
		{"", "abc", 3},
	}
	for _, c := range cases {
		if got := osa(c.a, c.b, 5); got != c.d {
			t.Errorf("osa(%q,%q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
	if got := osa("abcdef", "uvwxyz", 2); got != 3 {
		t.Errorf("bounded osa = %d, want limit+1 = 3", got)
	}
	// The cases again at limit 1: the one-pass path (oneEdit) agrees.
	for _, c := range cases {
		if got, want := osa(c.a, c.b, 1), min(c.d, 2); got != want {
			t.Errorf("osa(%q,%q,1) = %d, want %d", c.a, c.b, got, want)
		}
	}
}

// TestOneEditIsOSA: at limit 1, osa's one pass answers as its rows do, for
// every pair of short strings over a small alphabet (where slips collide:
// repeats, swaps of equal letters, edits at either end).
func TestOneEditIsOSA(t *testing.T) {
	var all []string
	var grow func(s string)
	grow = func(s string) {
		all = append(all, s)
		if len(s) < 4 {
			for _, c := range "abc" {
				grow(s + string(c))
			}
		}
	}
	grow("")
	for _, a := range all {
		for _, b := range all {
			if got, want := osa(a, b, 1), min(osaRows(a, b, 1), 2); got != want { // past the limit, any more
				t.Fatalf("osa(%q,%q,1) = %d, its rows say %d", a, b, got, want)
			}
		}
	}
}

func TestWords(t *testing.T) {
	for in, want := range map[string]string{
		"AuthMiddleware":       "auth middleware",
		"parseHTTPRequest":     "parse http request",
		"t9125-git-svn":        "t9125 git svn",
		"snake_case_name":      "snake case name",
		"XMLHttpRequest2":      "xml http request2",
		"already lower words":  "already lower words",
		"__init__":             "init",
		"i18n":                 "i18n",
		"ActiveMQClassicThing": "active mq classic thing",
	} {
		if got := strings.Join(words(in), " "); got != want {
			t.Errorf("words(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzParsePath(f *testing.F) {
	for _, s := range []string{"src/a.go:12:5", `C:\x\y.go`, "file:///a%2", "../../x", "a.go(1,2)", "#L", "\x00", "::::", "file://"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := ParsePath(s)
		if err != nil {
			return
		}
		if q.Path == "" || strings.HasPrefix(q.Path, "/") || strings.Contains(q.Path, "//") {
			t.Fatalf("%q parsed to unclean path %q", s, q.Path)
		}
		for _, part := range strings.Split(q.Path, "/") {
			if part == "." || part == ".." {
				t.Fatalf("%q kept %q in %q", s, part, q.Path)
			}
		}
		if q.Line < 0 || q.Col < 0 {
			t.Fatalf("negative position %d:%d", q.Line, q.Col)
		}
	})
}

func FuzzParseFind(f *testing.F) {
	for _, s := range []string{"auth[ _-]?mid", "a/b/c", "CamelCase", "[", "(((", "\\", "//", "x.ts"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := ParseFind(s)
		if err != nil {
			return
		}
		if q.Squashed == "" {
			t.Fatalf("%q: accepted with nothing to match", s)
		}
	})
}

// FuzzEngine drives both requests with any text over the fixture: no
// panic, results best first with scores within [0, 1], and a path that exists always resolves to
// itself, exactly and first.
func FuzzEngine(f *testing.F) {
	e, _ := fixture(f, "monorepo")
	for _, s := range []string{"src/auth/middleware.py", "client.go", "hpack/static", "zz", "a[b", "../x", "C:\\a"} {
		f.Add(s, 5)
	}
	f.Fuzz(func(t *testing.T, s string, limit int) {
		ctx := context.Background()
		if !utf8.ValidString(s) {
			return
		}
		limit = limit%20 + 1
		if limit < 1 {
			limit = -limit + 1
		}
		if res, err := e.Find(ctx, FindRequest{Query: s, Limit: limit}); err == nil {
			if len(res.Matches) > limit {
				t.Fatalf("find returned %d > limit %d", len(res.Matches), limit)
			}
			checkBestFirst(t, "find "+s, matchScores(res.Matches))
		}
		res, err := e.Resolve(ctx, ResolveRequest{Path: s, Limit: limit})
		if err != nil {
			return
		}
		checkBestFirst(t, "resolve "+s, candidateScores(res.Candidates))
		q, _ := ParsePath(s)
		if _, exists := e.fileID(0, q.Path); exists && !q.Absolute && q.Up == 0 {
			if res.Resolved == nil || res.Resolved.Path != q.Path || !res.Exact {
				t.Fatalf("%q names an existing file but resolved to %+v", s, res.Resolved)
			}
		}
	})
}

// FuzzScorer ranks any query against any candidate path (beside a few
// fixed files): no panic, results best first within [0, 1], and the candidate's own
// path always resolves to it, exactly and first; its own name is always
// found by find.
func FuzzScorer(f *testing.F) {
	for _, s := range [][2]string{{"auth midleware", "src/auth/middleware.py"}, {"x", "a/b/c.d"}, {"ÿ..", "é/ü.go"}, {"", "Makefile"}, {"a[ _-]?b", "a_b/a-b.txt"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, query, cand string) {
		done := make(chan struct{})
		go func() { // a watchdog: a query that never ends is a finding too
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				panic(fmt.Sprintf("query %q over %q runs for more than 5 s", query, cand))
			}
		}()
		defer close(done)
		if !utf8.ValidString(query) || !utf8.ValidString(cand) {
			return
		}
		q, err := ParsePath(cand)
		if err != nil || q.Path == "" || q.Absolute || q.Up > 0 || q.Suffix != "" || strings.ContainsAny(q.Path, "\x00\\\\") || q.Path != strings.Trim(cand, " ") {
			return // not a plain relative path
		}
		files := []workspace.File{{Path: q.Path}, {Path: "src/main.go"}, {Path: "lib/util/strings.py"}, {Path: "README.md"}}
		sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
		for i := 1; i < len(files); i++ {
			if files[i].Path == files[i-1].Path {
				return
			}
		}
		e := New(workspace.NewIndex([]string{"/ws"}, files))
		ctx := context.Background()
		if res, err := e.Find(ctx, FindRequest{Query: query}); err == nil {
			checkBestFirst(t, "find "+query, matchScores(res.Matches))
		}
		if res, err := e.Resolve(ctx, ResolveRequest{Path: query}); err == nil {
			checkBestFirst(t, "resolve "+query, candidateScores(res.Candidates))
		}
		// Its own name, typed, finds it (when the query reads its
		// extension as the index does: extLike).
		base := path.Base(q.Path)
		if _, ext := splitExt(base); squash(base) != "" && (ext == "" || extLike.MatchString(ext)) {
			if res, err := e.Find(ctx, FindRequest{Query: base}); err == nil && !slices.ContainsFunc(res.Matches, func(m Match) bool { return m.Path == q.Path }) {
				t.Fatalf("find %q: %s not found (%+v)", base, q.Path, res.Matches)
			}
		}
		res, err := e.Resolve(ctx, ResolveRequest{Path: q.Path})
		if err != nil {
			t.Fatalf("resolve %q: %v", q.Path, err)
		}
		if res.Resolved == nil || res.Resolved.Path != q.Path || !res.Exact || res.Candidates[0].Path != q.Path {
			t.Fatalf("%q does not resolve to itself first: %+v", q.Path, res)
		}
	})
}

// checkBestFirst fails unless scores are within [0, 1] and never rise.
func checkBestFirst(t *testing.T, what string, scores []float64) {
	t.Helper()
	for i, s := range scores {
		if s < 0 || s > 1 || i > 0 && s > scores[i-1] {
			t.Fatalf("%s: scores %v are not best first within [0, 1]", what, scores)
		}
	}
}

func matchScores(ms []Match) []float64 {
	out := make([]float64, len(ms))
	for i, m := range ms {
		out[i] = m.Score
	}
	return out
}

func candidateScores(cs []Candidate) []float64 {
	out := make([]float64, len(cs))
	for i, c := range cs {
		out[i] = c.Score
	}
	return out
}

// TestComponentMatchNumbers: one edit makes a directory name a slip of
// another only when their numbers agree.
func TestComponentMatchNumbers(t *testing.T) {
	for _, c := range []struct {
		q, c string
		want float64
	}{
		{"midleware", "middleware", 0.7},
		{"pyhton3", "python3", 0.7},
		{"team0", "team1", 0},
		{"team0", "team10", 0},
		{"v1", "v2", 0},
		{"api2", "api", 0},
		{"es2015", "es2016", 0},
		{"Team0", "team0", 0.95},
	} {
		if got := componentMatch(c.q, c.c, squash(c.q), squash(c.c)); got != c.want {
			t.Errorf("componentMatch(%q, %q) = %v, want %v", c.q, c.c, got, c.want)
		}
	}
}

// TestDirectoryLadder: one ladder reads a directory written whole
// (resolve's, componentMatch) and a term typed as a part of one (find's,
// dirTermMatch), rung for rung; the partial rungs only for a term, and
// numbers never meeting on the typo rung for either.
func TestDirectoryLadder(t *testing.T) {
	for _, c := range []struct {
		q, c        string
		whole, part float64
	}{
		{"middleware", "middleware", dirSame, dirSame},
		{"Middleware", "middleware", dirCase, dirSame},
		{"test_utils", "testutils", dirSquashed, dirSame},
		{"comp", "components", 0, dirPrefix},
		{"pone", "components", 0, dirInside},
		{"midleware", "middleware", dirTypo, dirTypo},
		{"v1", "v2", 0, 0},
		{"team0", "team1", 0, 0},
		{"xyz", "components", 0, 0},
	} {
		if got := componentMatch(c.q, c.c, squash(c.q), squash(c.c)); got != c.whole {
			t.Errorf("componentMatch(%q, %q) = %v, want %v", c.q, c.c, got, c.whole)
		}
		if got := dirTermMatch(squash(c.q), squash(c.c)); got != c.part {
			t.Errorf("dirTermMatch(%q, %q) = %v, want %v", c.q, c.c, got, c.part)
		}
	}
}

// TestDirTermsSkipCost: each directory a term reading leaves out costs
// exp(−dirInnerCost), resolve's cost of one left out inside an alignment.
func TestDirTermsSkipCost(t *testing.T) {
	for _, c := range []struct {
		terms, dirs []string
		want        float64
	}{
		{[]string{"boot"}, []string{"org", "boot"}, 1},
		{[]string{"boot"}, []string{"boot", "cassandra", "autoconfigure"}, math.Exp(-2 * dirInnerCost)},
		{[]string{"src", "boot"}, []string{"src", "main", "boot"}, math.Exp(-dirInnerCost)},
		{[]string{"comp", "boot"}, []string{"components", "boot"}, (dirPrefix + dirSame) / 2},
		{[]string{"boot", "src"}, []string{"src", "boot"}, 0},
	} {
		if got := matchDirTerms(c.terms, c.dirs); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("matchDirTerms(%q, %q) = %v, want %v", c.terms, c.dirs, got, c.want)
		}
	}
}

// TestDirTermsWeighAName: directory terms typed choose among names — the
// file of a name read in the directory typed comes before a better name
// two directories below another of that name (the public find case
// spring-boot "boot/simple": with the terms at a quarter of the score,
// resolve's weight, the order was the other way round).
func TestDirTermsWeighAName(t *testing.T) {
	var files []workspace.File
	for _, f := range []string{
		"core/src/test/java/org/springframework/boot/SimpleMainTests.java",
		"module/cassandra/src/test/resources/org/springframework/boot/cassandra/autoconfigure/simple.conf",
		"docs/simple.md",
	} {
		files = append(files, workspace.File{Path: f})
	}
	e := New(workspace.NewIndex([]string{"/ws"}, files))
	res, err := e.Find(context.Background(), FindRequest{Query: "boot/simple"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range res.Matches {
		got = append(got, m.Path)
	}
	want := []string{files[0].Path, files[1].Path}
	if len(got) < 2 || !slices.Equal(got[:2], want) {
		t.Fatalf("boot/simple: %q, want %q first", got, want)
	}
}
