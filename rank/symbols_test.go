package rank

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"wayfind/symbols"
	"wayfind/workspace"
)

// symbolEngine is an engine over files with the given symbols, each
// written "Kind Container.Name" (container optional).
func symbolEngine(t *testing.T, files map[string][]string) *Engine {
	t.Helper()
	root := "/ws"
	var ixFiles []workspace.File
	table := map[string][]symbols.Symbol{}
	for path, defs := range files {
		ixFiles = append(ixFiles, workspace.File{Path: path})
		var syms []symbols.Symbol
		for i, d := range defs {
			kind, qual, _ := strings.Cut(d, " ")
			k := map[string]symbols.Kind{"class": symbols.Class, "struct": symbols.Struct, "func": symbols.Function,
				"method": symbols.Method, "interface": symbols.Interface}[kind]
			name, container := qual, ""
			if i := strings.LastIndexByte(qual, '.'); i >= 0 {
				container, name = qual[:i], qual[i+1:]
			}
			line := uint32(i)
			syms = append(syms, symbols.Symbol{Name: name, Kind: k, Container: container,
				Range: symbols.Range{Start: symbols.Position{Line: line}}, Select: symbols.Range{Start: symbols.Position{Line: line}}})
		}
		table[filepath.Join(root, path)] = syms
	}
	ix := workspace.NewIndex([]string{root}, ixFiles)
	return New(ix).WithSymbols(NewSymbolIndex(symbols.TableOf(table), ix.Roots))
}

var symbolTree = map[string][]string{
	"src/net/router.h":          {"class net.CommandRouter", "method net.CommandRouter.route", "method net.CommandRouter.dispatch"},
	"src/net/router.cc":         {"method net.CommandRouter.route", "method net.CommandRouter.dispatch"},
	"src/net/command_runner.go": {"struct net.CommandRunner", "method net.CommandRunner.Run", "func net.commandRouterHelper"},
	"src/http/server.go":        {"struct http.Server", "method http.Server.Serve", "method http.Server.ListenAndServe", "func http.Serve"},
	"src/http/handler.go":       {"interface http.Handler", "method http.Handler.ServeHTTP"},
	"lib/Routes.java":           {"class routes.Routes", "method routes.Routes.register", "class routes.Routes.Route"},
	"lib/tree.py":               {"class Tree", "method Tree.insert", "func serve"},
}

func TestSearchSymbols(t *testing.T) {
	e := symbolEngine(t, symbolTree)
	cases := []struct {
		query string
		want  []string // leading results, "path:Qualified"
		none  bool
	}{
		{"CommandRouter", []string{"src/net/router.h:net.CommandRouter"}, false},
		{"commandrouter", []string{"src/net/router.h:net.CommandRouter"}, false},
		{"CoRo", []string{"src/net/router.h:net.CommandRouter"}, false},
		{"cmdrun", nil, false},
		{"CommandR", []string{"src/net/command_runner.go:net.CommandRunner", "src/net/router.h:net.CommandRouter"}, false}, // a tie, broken by path
		{"ComandRouter", []string{"src/net/router.h:net.CommandRouter"}, false},                                            // one typo
		{"Serve", []string{"src/http/server.go:http.Serve", "src/http/server.go:http.Server.Serve"}, false},                // exact first; definitions before members
		{"http.Server.Serve", []string{"src/http/server.go:http.Server.Serve"}, false},
		{"Server::ListenAndServe", []string{"src/http/server.go:http.Server.ListenAndServe"}, false},
		{"Routes#register", []string{"lib/Routes.java:routes.Routes.register"}, false},
		{"CommandRouter.route", []string{"src/net/router.cc:net.CommandRouter.route", "src/net/router.h:net.CommandRouter.route"}, false},
		{"Tree.", []string{"lib/tree.py:Tree.insert"}, false},
		{"Nothing.route", nil, true},
		{"zzqx", nil, true},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			got := searchSymbols(t, e, c.query)
			if c.none {
				if len(got) > 0 {
					t.Errorf("want nothing, got %v", got)
				}
				return
			}
			if c.want == nil {
				if len(got) == 0 {
					t.Errorf("want something")
				}
				return
			}
			if len(got) < len(c.want) || strings.Join(got[:len(c.want)], " ") != strings.Join(c.want, " ") {
				t.Errorf("got %v, want first %v", got, c.want)
			}
		})
	}
	if ms, _ := e.SearchSymbols(context.Background(), SymbolRequest{Query: "e", Limit: 3}); len(ms) != 3 {
		t.Errorf("limit 3: %d results", len(ms))
	}
	if _, err := e.SearchSymbols(context.Background(), SymbolRequest{Query: " :: "}); err == nil {
		t.Error("an empty query must be an input error")
	}
}

// TestSymbolOrderingRules: each rule of rank/symbols.go's ordering, as a
// pair that must come out in this order.
func TestSymbolOrderingRules(t *testing.T) {
	e := symbolEngine(t, map[string][]string{
		"go/analysis/report.go":      {"struct analysis.Pass", "method analysis.Pass.ReportRangef", "func analysis.rangeint"},
		"go/ssa/range.go":            {"method ssa.builder.rangeInt", "func ssa.rangeIntersect"},
		"internal/pkg/server.go":     {"func pkg.NewServer", "func pkg.newserver"},
		"internal/metric/data.go":    {"struct metric.Int64Data", "struct metric.InitDataGroup"},
		"go/types/object.go":         {"struct types.object"},
		"go/types/testdata/fix.go":   {"struct fix.Object", "func fix.varOf"},
		"internal/otel/common.go":    {"func otel.varOf"},
		"cmd/present/static/play.js": {"func contains", "func dispatch"},
		"go/util/iters.go":           {"func iters.Contains", "func iters.dispatch"},
		"go/util/more.go":            {"func iters.dispatcher"},
		"go/vendor/x/y.go":           {"func y.Parse"},
		"go/parse/parse.go":          {"func parse.Parse"},
		"go/coll/list.go":            {"struct coll.UserList"},
		"go/coll/listtest.go":        {"struct coll.UserListTest"},
		// Enough Go that one script's two names are under incidentalShare.
		"go/big/big.go": {"func big.A1", "func big.A2", "func big.A3", "func big.A4", "func big.A5", "func big.A6", "func big.A7",
			"func big.A8", "func big.A9", "func big.B1", "func big.B2", "func big.B3", "func big.B4", "func big.B5", "func big.B6",
			"func big.B7", "func big.B8", "func big.B9", "func big.C1", "func big.C2", "func big.C3", "func big.C4", "func big.C5",
			"func big.C6", "func big.C7", "func big.C8", "func big.C9", "func big.D1", "func big.D2", "func big.D3"},
	})
	cases := []orderRule{
		{"abbreviation by word starts", "NewSrv", "internal/pkg/server.go:pkg.NewServer", "internal/pkg/server.go:pkg.newserver"},
		{"every word begun, in more pieces, a method before a function", "rngInt", "go/ssa/range.go:ssa.builder.rangeInt", "go/analysis/report.go:analysis.rangeint"},
		{"every word begun before words skipped", "rngInt", "go/ssa/range.go:ssa.builder.rangeInt", "go/ssa/range.go:ssa.rangeIntersect"},
		{"abbreviated method", "RprRng", "go/analysis/report.go:analysis.Pass.ReportRangef", ""},
		{"a number left out", "IntDt", "internal/metric/data.go:metric.Int64Data", "internal/metric/data.go:metric.InitDataGroup"},
		{"source before testdata", "Object", "go/types/object.go:types.object", "go/types/testdata/fix.go:fix.Object"},
		{"source before testdata, same class", "varOf", "internal/otel/common.go:otel.varOf", "go/types/testdata/fix.go:fix.varOf"},
		{"the workspace's language before an incidental one", "contains", "go/util/iters.go:iters.Contains", "cmd/present/static/play.js:contains"},
		{"source before vendored", "Parse", "go/parse/parse.go:parse.Parse", "go/vendor/x/y.go:y.Parse"},
		{"pieces where the query's humps are", "UsrLst", "go/coll/list.go:coll.UserList", "go/coll/listtest.go:coll.UserListTest"},
	}
	for _, c := range cases {
		c.check(t, searchSymbols(t, e, c.query), true, false)
	}
}

// searchSymbols lists a query's results as "path:Qualified".
func searchSymbols(t *testing.T, e *Engine, query string) []string {
	t.Helper()
	ms, err := e.SearchSymbols(context.Background(), SymbolRequest{Query: query})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		got = append(got, m.Path+":"+m.Symbol.Qualified())
	}
	return got
}

// TestFindUsesSymbols: a file named otherwise is found through the class
// it defines, and asking for the implementation prefers the file that
// implements the class's methods.
func TestFindUsesSymbols(t *testing.T) {
	e := symbolEngine(t, symbolTree)
	res, err := e.Find(context.Background(), FindRequest{Query: "CommandRouter"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Matches) == 0 || res.Matches[0].Path != "src/net/router.h" || !strings.Contains(strings.Join(res.Matches[0].MatchedIn, ","), "symbol") {
		t.Fatalf("find CommandRouter: %+v", res.Matches)
	}
	res, err = e.Find(context.Background(), FindRequest{Query: "CommandRouter", Impl: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Matches) == 0 || res.Matches[0].Path != "src/net/router.cc" {
		t.Fatalf("find CommandRouter --impl: %+v", res.Matches)
	}
	// A file whose name matches keeps its place; the symbol only adds to it.
	res, _ = e.Find(context.Background(), FindRequest{Query: "command_runner"})
	if len(res.Matches) == 0 || res.Matches[0].Path != "src/net/command_runner.go" {
		t.Fatalf("find command_runner: %+v", res.Matches)
	}
	// Without symbols, the class alone finds nothing named like it.
	plain := New(e.Index())
	res, _ = plain.Find(context.Background(), FindRequest{Query: "CommandRouter"})
	for _, m := range res.Matches {
		if m.Path == "src/net/router.h" && m.Score > 0.8 {
			t.Errorf("without symbols router.h scores %.2f", m.Score)
		}
	}
}

// TestResolveUsesSymbols: a path written after the class it holds finds
// the file named otherwise, in the extension family asked for.
func TestResolveUsesSymbols(t *testing.T) {
	e := symbolEngine(t, symbolTree)
	cases := []struct{ path, want string }{
		{"src/net/CommandRouter.cc", "src/net/router.cc"},
		{"src/net/CommandRouter.h", "src/net/router.h"},
		{"net/command_router.h", "src/net/router.h"},
	}
	for _, c := range cases {
		res, err := e.Resolve(context.Background(), ResolveRequest{Path: c.path})
		if err != nil {
			t.Fatal(err)
		}
		if firstPath(res) != c.want || res.Basis != BasisLexical {
			t.Errorf("%s: %+v", c.path, res)
		}
		// Without symbols it is at most a kin reading (the words its name
		// shares), never the lexical answer.
		plain, _ := New(e.Index()).Resolve(context.Background(), ResolveRequest{Path: c.path})
		if firstPath(plain) == c.want && plain.Basis == BasisLexical {
			t.Errorf("%s comes first without symbols too; the test shows nothing", c.path)
		}
	}
	// A symbol in another language family is no answer for this path.
	if res, _ := e.Resolve(context.Background(), ResolveRequest{Path: "lib/CommandRouter.py"}); res.Basis == BasisLexical {
		t.Errorf("CommandRouter.py: %+v", res.Candidates)
	}
}

// The query as typed: its separators and sigils count, matched literally
// first, then loosely; a one-edit typo of a name before letters picked
// from a longer one. Each second result must be listed, after the first.
func TestSymbolQueryAsTyped(t *testing.T) {
	e := symbolEngine(t, map[string][]string{
		"Lib/xml/dom/minidom.py":     {"method minidom.Node.getParent", "func minidom.get_parent_map"},
		"Lib/threading.py":           {"class threading._MainThread", "func threading.main_thread"},
		"Lib/posixpath.py":           {"func posixpath.issym", "func posixpath.is_symlink"},
		"src/core/instance.js":       {"func mount", "func mountComponent", "method Vue.$mount"},
		"Lib/shutil.py":              {"func shutil.as_file"},
		"Lib/test/test_non_ascii.py": {"func test_non_ascii.test_non_ascii_infile"},
	})
	cases := []orderRule{
		{"a literal prefix before a name equal once separators are ignored", "get_parent", "Lib/xml/dom/minidom.py:minidom.get_parent_map", "Lib/xml/dom/minidom.py:minidom.Node.getParent"},
		{"a literal prefix before a loose one", "main_t", "Lib/threading.py:threading.main_thread", "Lib/threading.py:threading._MainThread"},
		{"a literal prefix before a loose name", "is_sym", "Lib/posixpath.py:posixpath.is_symlink", "Lib/posixpath.py:posixpath.issym"},
		{"a sigil typed is a sigil read", "$mou", "src/core/instance.js:Vue.$mount", "src/core/instance.js:mount"},
		{"the loose name, typed without marks, is the name", "getparent", "Lib/xml/dom/minidom.py:minidom.Node.getParent", "Lib/xml/dom/minidom.py:minidom.get_parent_map"},
		{"a one-swap typo before an abbreviation leaving words out", "as_ifle", "Lib/shutil.py:shutil.as_file", "Lib/test/test_non_ascii.py:test_non_ascii.test_non_ascii_infile"},
	}
	for _, c := range cases {
		c.check(t, searchSymbols(t, e, c.query), true, true)
	}
}
