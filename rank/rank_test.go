package rank

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"wayfind/workspace"
)

// fixture lays out testdata/rank/<name>.paths as empty files and indexes it.
func fixture(t testing.TB, name string) (*Engine, string) {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "testdata", "rank", name+".paths"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dir := t.TempDir()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		p := strings.TrimSpace(sc.Text())
		if p == "" {
			continue
		}
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	roots, err := workspace.CleanRoots([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	return New(workspace.Build(roots, workspace.Options{})), roots[0]
}

func TestResolveCategories(t *testing.T) {
	e, root := fixture(t, "monorepo")
	cases := []struct {
		category string
		path     string
		from     string
		current  string
		history  []string
		want     string // the first answer; "" means nothing may resolve
		// first: the first candidate when nothing is resolved (want ""); basis:
		// why it is first (when set).
		first string
		basis Basis
		exact bool
		line  int
	}{
		{category: "exact", path: "src/auth/middleware.py", want: "src/auth/middleware.py", exact: true},
		{category: "exact ./", path: "./src/auth/login.py", want: "src/auth/login.py", exact: true},
		{category: "exact absolute in root", path: filepath.Join(root, "src/api/client.go"), want: "src/api/client.go", exact: true},
		{category: "exact file URI", path: "file://" + filepath.ToSlash(filepath.Join(root, "go.mod")), want: "go.mod", exact: true},
		{category: "relative to from", path: "../login.py", from: "src/auth/tokens/refresh.py", want: "src/auth/login.py", exact: true},
		{category: "typo insertion", path: "src/auth/middlewware.py", want: "src/auth/middleware.py"},
		{category: "typo deletion", path: "src/auth/midleware.py", want: "src/auth/middleware.py"},
		{category: "typo substitution", path: "src/auth/middlewere.py", want: "src/auth/middleware.py"},
		{category: "typo transposition", path: "src/auth/midldeware.py", want: "src/auth/middleware.py"},
		{category: "wrong ext family", path: "src/components/Button.jsx", want: "src/components/Button.tsx"},
		{category: "wrong ext yaml", path: "config/settings.yml", want: "config/settings.yaml"},
		{category: "wrong ext language", path: "src/hpack/huffman.py", want: "src/hpack/huffman.rs"},
		{category: "style camel", path: "src/util/updateUnicode.sh", want: "src/util/update_unicode.sh"},
		{category: "style kebab", path: "src/util/string-helpers.ts", want: "src/util/string_helpers.ts"},
		{category: "wrong dir", path: "src/api/refresh.py", want: "src/auth/tokens/refresh.py"},
		{category: "wrong depth extra", path: "src/auth/tokens/v2/refresh.py", want: "src/auth/tokens/refresh.py"},
		{category: "wrong depth missing", path: "src/storage/client.go", want: "src/storage/client.go", exact: true},
		{category: "wrong depth missing level", path: "src/s3/client.go", want: "src/storage/s3/client.go"},
		{category: "missing prefix", path: "auth/tokens/refresh.py", want: "src/auth/tokens/refresh.py"},
		{category: "abs other machine", path: "/home/x/proj/src/auth/login.py", want: "src/auth/login.py"},
		{category: "abs windows", path: `C:\Users\x\proj\src\hpack\huffman.rs`, want: "src/hpack/huffman.rs"},
		{category: "abs windows quoted", path: `"C:\Users\x\proj\src\auth\login.py"`, want: "src/auth/login.py"},
		{category: "cross package", path: "packages/alpha/src/renderer.ts", want: "packages/beta/src/renderer.ts"},
		{category: "typo cross package", path: "packages/alpha/src/query_planer.ts", want: "packages/beta/src/query_planner.ts"},
		{category: "moved", path: "old/stuff/replay_service.cpp", want: "src/replay_service.cpp"},
		{category: "bare unique", path: "static_table.rs", want: "src/hpack/static_table.rs"},
		{category: "bare ambiguous, no history", path: "client.go", want: ""},
		{category: "bare ambiguous, history same dir: ordered, not decided", path: "client.go", history: []string{"services/shipping/server.go"}, first: "services/shipping/client.go", basis: BasisNearer},
		{category: "bare name beside from is exact", path: "client.go", from: "src/storage/s3/other.go", want: "src/storage/s3/client.go", basis: BasisExact, exact: true},
		{category: "bare name beside current comes first", path: "client.go", current: "src/storage/s3/other.go", first: "src/storage/s3/client.go", basis: BasisNearer},
		{category: "relative name beside from is exact", path: "./client.go", from: "src/storage/s3/other.go", want: "src/storage/s3/client.go", basis: BasisExact, exact: true},
		{category: "bare name not beside from", path: "client.go", from: "src/storage/s3/sub/other.go", want: "src/storage/s3/client.go"},
		{category: "bare name at root, no history", path: "CHANGELOG.md", first: "CHANGELOG.md", basis: BasisSharedName, exact: true},
		{category: "bare name at root, no other copy", path: "go.mod", want: "go.mod", basis: BasisExact, exact: true},
		{category: "bare name at root, history beside a copy", path: "CHANGELOG.md", history: []string{"packages/beta/src/index.ts", "packages/beta/README.md"}, first: "packages/beta/CHANGELOG.md", basis: BasisNearer, exact: true},
		{category: "history most recent comes first", path: "server.go", history: []string{"services/payment/client.go", "services/shipping/client.go"}, first: "services/shipping/server.go"},
		{category: "line suffix colon", path: "src/api/client.go:42", want: "src/api/client.go", exact: true, line: 42},
		{category: "line suffix colon col", path: "src/api/client.go:42:7", want: "src/api/client.go", exact: true, line: 42},
		{category: "line suffix #L", path: "src/auth/login.py#L12", want: "src/auth/login.py", exact: true, line: 12},
		{category: "line suffix paren", path: "src/auth/login.py(12,3)", want: "src/auth/login.py", exact: true, line: 12},
		{category: "line suffix with typo", path: "src/auth/logn.py:9", want: "src/auth/login.py", line: 9},
		{category: "nonexistent", path: "src/quantum_flux.py", want: ""},
		{category: "nonexistent bare", path: "marmalade_capacitor.go", want: ""},
		{category: "short name no guess", path: "src/abc.py", want: ""},
	}
	for _, c := range cases {
		t.Run(c.category, func(t *testing.T) {
			got, res := resolved(t, e, ResolveRequest{Path: c.path, From: c.from, Current: c.current, History: Recency(c.history)})
			if c.want == "" && got != "" {
				t.Fatalf("resolved %q, want nothing; candidates %+v", got, res.Candidates)
			}
			if c.want != "" && firstPath(res) != c.want {
				t.Fatalf("first answer %q, want %q; candidates %+v", firstPath(res), c.want, res.Candidates)
			}
			if c.first != "" && (len(res.Candidates) == 0 || res.Candidates[0].Path != c.first) {
				t.Errorf("first candidate %+v, want %q", res.Candidates, c.first)
			}
			if c.basis != "" && res.Basis != c.basis {
				t.Errorf("basis %s, want %s", res.Basis, c.basis)
			}
			if (res.Resolved != nil) != (res.Confidence >= ResolvedConfidence) {
				t.Errorf("resolved %v at confidence %.2f", res.Resolved != nil, res.Confidence)
			}
			if res.Exact != c.exact {
				t.Errorf("exact = %v, want %v", res.Exact, c.exact)
			}
			if res.Line != c.line {
				t.Errorf("line = %d, want %d", res.Line, c.line)
			}
			checkBestFirst(t, c.path, candidateScores(res.Candidates))
		})
	}
}

// History and proximity may break ties but never rescue a poor match.
func TestHistoryNeverRescuesPoorMatch(t *testing.T) {
	e, _ := fixture(t, "monorepo")
	res, err := e.Resolve(context.Background(), ResolveRequest{
		Path:    "src/auth/middleware.py",
		History: Recency([]string{"tests/test_middleware.py", "tests/unit/bootstrap.test.ts"}),
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Resolved == nil || res.Resolved.Path != "src/auth/middleware.py" {
		t.Fatalf("resolved %+v", res.Resolved)
	}
	res, err = e.Resolve(context.Background(), ResolveRequest{Path: "lib/midle.py", History: Recency([]string{"src/auth/login.py"})})
	if err != nil {
		t.Fatal(err)
	}
	if res.Resolved != nil {
		t.Fatalf("a poor match near history resolved: %+v", res.Resolved)
	}
}

func TestFindCategories(t *testing.T) {
	e, _ := fixture(t, "monorepo")
	cases := []struct {
		category, query, want string
	}{
		{"squashed", "authmiddleware", ""}, // no file is named that: see words below
		{"squashed name", "replayservice", "src/replay_service.cpp"},
		{"squashed typo", "replaysevrice", "src/replay_service.cpp"},
		{"words", "query planner", "packages/beta/src/query_planner.ts"},
		{"regex words", "query[ _-]?planner", "packages/beta/src/query_planner.ts"},
		{"camel", "QueryPlanner", "packages/beta/src/query_planner.ts"},
		{"abbrev", "strhel", "src/util/string_helpers.ts"},
		{"prefix", "replay", "src/replay_service.cpp"},
		{"dir and name", "hpack/static", "src/hpack/static_table.rs"},
		{"dir and name bare dir", "unit/bootstrap", "tests/unit/bootstrap.test.ts"},
		{"words across path", "auth middleware", "src/auth/middleware.py"},
		{"test number", "t7111", "t/t7111-reset-table.sh"},
		{"with extension", "button.css", "src/components/button.css"},
	}
	for _, c := range cases {
		t.Run(c.category, func(t *testing.T) {
			res, err := e.Find(context.Background(), FindRequest{Query: c.query})
			if err != nil {
				t.Fatal(err)
			}
			if c.want == "" {
				for _, m := range res.Matches {
					if m.Reason == "name:exact" {
						t.Fatalf("exact match for %q: %+v", c.query, m)
					}
				}
				return
			}
			if len(res.Matches) == 0 || res.Matches[0].Path != c.want {
				t.Fatalf("top %+v, want %q", res.Matches, c.want)
			}
		})
	}
}

func TestFindImplPrefersImplementation(t *testing.T) {
	e, _ := fixture(t, "monorepo")
	res, err := e.Find(context.Background(), FindRequest{Query: "command router", Impl: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Matches) < 2 || res.Matches[0].Path != "src/command_router.cpp" {
		t.Fatalf("impl: %+v", res.Matches)
	}
	res, err = e.Find(context.Background(), FindRequest{Query: "command router"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Matches) < 2 {
		t.Fatalf("both files should match: %+v", res.Matches)
	}
}

func TestFindLimitThresholdExact(t *testing.T) {
	e, _ := fixture(t, "monorepo")
	res, err := e.Find(context.Background(), FindRequest{Query: "client", Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Matches) != 2 || !res.Truncated {
		t.Fatalf("limit 2: %d matches, truncated=%v", len(res.Matches), res.Truncated)
	}
	res, err = e.Find(context.Background(), FindRequest{Query: "comandrouter", Exact: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Matches) != 0 {
		t.Fatalf("--exact must not forgive typos: %+v", res.Matches)
	}
	res, err = e.Find(context.Background(), FindRequest{Query: "clnt", Threshold: 0.99})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Matches) != 0 {
		t.Fatalf("threshold 0.99 kept %+v", res.Matches)
	}
}

func TestCancelledContext(t *testing.T) {
	e, _ := fixture(t, "monorepo")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Find(ctx, FindRequest{Query: "client"}); err == nil {
		t.Fatal("find ignored a cancelled context")
	}
}

func TestBadInput(t *testing.T) {
	e, _ := fixture(t, "monorepo")
	for _, q := range []string{"a\x00b", strings.Repeat("x", MaxQueryBytes+1), "///", "[ _-]?"} {
		if _, err := e.Find(context.Background(), FindRequest{Query: q}); err == nil {
			t.Errorf("find %q: no error", q)
		}
	}
	for _, q := range []string{"", "a\x00b", strings.Repeat("x", MaxQueryBytes+1), "./", "..", "file://"} {
		_, err := e.Resolve(context.Background(), ResolveRequest{Path: q})
		if err == nil {
			t.Errorf("resolve %q: no error", q)
		}
	}
}

func TestAlternate(t *testing.T) {
	eng, _ := fixture(t, "alternate")
	cases := []struct{ from, want string }{
		{"include/net/socket.h", "src/net/socket.cc"},
		{"src/net/socket.cc", "include/net/socket.h"},
		{"lib/parse.c", "lib/parse.h"},
		{"other/parse.h", "lib/parse.c"},
		{"README.md", ""},
		{"missing.c", ""},
	}
	for _, c := range cases {
		got, ok := eng.Alternate(c.from)
		if (c.want == "") == ok || (ok && got.Path != c.want) {
			t.Errorf("Alternate(%s) = %q, %v; want %q", c.from, got.Path, ok, c.want)
		}
	}
}

// TestReadAsItsLanguageReads: a relative reference is read from its
// document's directory first, as the document's language reads it — a
// bare name beside it, a JavaScript import specifier with its extension
// or index, a ".js" specifier naming TypeScript — exact wherever the file
// is there, whatever other files share its name; `current` is nearness
// only.
func TestReadAsItsLanguageReads(t *testing.T) {
	var ixFiles []workspace.File
	for _, f := range []string{"pkg/store/README.md", "pkg/store/client.go", "pkg/store/store.go", "pkg/api/client.go",
		"web/src/app.ts", "web/src/util/helpers.ts", "web/src/widgets/index.tsx", "web/src/esm.ts", "web/src/main.ts",
		"native/net.c", "native/client.h", "include/client.h", "docs/guide.md", "docs/img/logo.png",
		"CONTRIBUTING.md", "operator/README.md", "src/app/main.go"} {
		ixFiles = append(ixFiles, workspace.File{Path: f})
	}
	ix := workspace.NewIndex([]string{"/ws"}, ixFiles)
	slices.SortFunc(ix.Files(), func(a, b workspace.File) int { return strings.Compare(a.Path, b.Path) })
	e := New(ix)
	for _, c := range []struct {
		path, from, current string
		want                string // resolved exactly; "" for nothing resolved
		link                bool   // a link's target in from
		first               string // the first candidate, when nothing resolves
	}{
		// A link's target is read from its document's directory alone:
		// the root's file of that path is a candidate, not the answer.
		{"CONTRIBUTING.md", "operator/README.md", "", "", true, "CONTRIBUTING.md"},
		{"src/app/main.go", "operator/README.md", "", "", true, "src/app/main.go"},
		// The same words in the document's prose (no link) may name it
		// from the top.
		{"CONTRIBUTING.md", "operator/README.md", "", "CONTRIBUTING.md", false, ""},
		{"src/app/main.go", "operator/README.md", "", "src/app/main.go", false, ""},
		{"client.go", "pkg/store/README.md", "", "pkg/store/client.go", true, ""},      // a Markdown link beside its document
		{"client.go", "pkg/store/store.go", "", "pkg/store/client.go", false, ""},      // --from
		{"client.go", "", "pkg/store/store.go", "", false, ""},                         // where the user is: nearness only
		{"./util/helpers", "web/src/app.ts", "", "web/src/util/helpers.ts", false, ""}, // an import specifier
		{"./widgets", "web/src/app.ts", "", "web/src/widgets/index.tsx", false, ""},    // a directory's index
		{"./esm.js", "web/src/main.ts", "", "web/src/esm.ts", false, ""},               // TypeScript's ESM
		{"./util/helpers", "docs/guide.md", "", "", false, ""},                         // not a module outside scripts
		{"client.h", "native/net.c", "", "native/client.h", false, ""},                 // #include "client.h"
		{"img/logo.png", "docs/guide.md", "", "docs/img/logo.png", true, ""},           // a relative link with directories
	} {
		res, err := e.Resolve(context.Background(), ResolveRequest{Path: c.path, From: c.from, Link: c.link, Current: c.current})
		if err != nil {
			t.Fatal(err)
		}
		if got := resolvedPath(res); got != c.want || (c.want != "" && res.Basis != BasisExact) {
			t.Errorf("%s from %q current %q: resolved %q on %s, want %q exactly", c.path, c.from, c.current, got, res.Basis, c.want)
		}
		if c.first != "" && (len(res.Candidates) == 0 || res.Candidates[0].Path != c.first || res.Exact) {
			t.Errorf("%s from %q: candidates %+v (exact %v), want %s first, not exact", c.path, c.from, res.Candidates, res.Exact, c.first)
		}
	}
}
