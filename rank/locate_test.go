package rank

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wayfind/content"
	"wayfind/symbols"
	"wayfind/workspace"
)

// locateEngine indexes testdata/locate (a small C++ tree) with symbols
// and contents, as the servers do.
func locateEngine(t *testing.T) *Engine {
	t.Helper()
	return locateEngineAt(t, "../testdata/locate")
}

// locateEngineAt indexes the tree at dir as locateEngine does.
func locateEngineAt(t *testing.T, dir string) *Engine {
	t.Helper()
	roots, err := workspace.CleanRoots([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	ix := workspace.Build(roots, workspace.Options{})
	table, _, err := symbols.NewIndexer(symbols.IndexerOptions{CacheDir: "-"}).Sync(context.Background(), ix)
	if err != nil {
		t.Fatal(err)
	}
	var cx content.Indexer
	ci, err := cx.Sync(context.Background(), ix)
	if err != nil {
		t.Fatal(err)
	}
	return New(ix).WithSymbols(NewSymbolIndex(table, ix.Roots)).WithContent(ci)
}

func TestLocateCascade(t *testing.T) {
	e := locateEngine(t)
	cases := []struct {
		query, term string
		impl        bool
		want        string
		via         Via
		strategies  string
		confident   bool
	}{
		// The seed's answers; symbols are asked first now (evidence before
		// similarity), file names always.
		{"where is replay implemented", "replay", true, "src/replay_service.cpp", "symbol", "symbol file", true},
		{"find cursor binary", "cursor binary", false, "docs/tools.md", "content", "symbol file content", false},
		{"cursor[ _-]?binary", "cursor[ _-]?binary", false, "docs/tools.md", "content", "symbol file content", false},
		{"where is CommandRouter implemented", "CommandRouter", true, "src/command_router.cpp", "symbol", "symbol file", true},
		{"Where is the SessionManager class implemented?", "SessionManager", true, "src/session.cpp", "symbol", "symbol file", true},
		{"where is Socket implemented", "Socket", true, "src/net/socket_posix.cc", "symbol", "symbol file", true},
		{"where is command_router", "command_router", false, "src/command_router.cpp", "file", "symbol file", true},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			res, err := e.Locate(context.Background(), LocateRequest{Query: c.query})
			if err != nil {
				t.Fatal(err)
			}
			if res.Term != c.term || res.Impl != c.impl {
				t.Errorf("term %q impl %v, want %q %v", res.Term, res.Impl, c.term, c.impl)
			}
			if len(res.Results) == 0 {
				t.Fatalf("no results; strategies %v", res.Strategies)
			}
			top := res.Results[0]
			if top.Path != c.want || top.Via != c.via {
				t.Errorf("top %s via %s (%s), want %s via %s; all %+v", top.Path, top.Via, top.Reason, c.want, c.via, res.Results)
			}
			if got := strings.Join(res.Strategies, " "); got != c.strategies {
				t.Errorf("strategies %q, want %q", got, c.strategies)
			}
			if (res.Confidence >= DefaultMinConfidence) != c.confident {
				t.Errorf("confidence %.2f", res.Confidence)
			}
			if top.Via != "file" && top.Range == nil {
				t.Errorf("a %s hit without a range", top.Via)
			}
		})
	}
}

func TestLocateNothing(t *testing.T) {
	e := locateEngine(t)
	res, err := e.Locate(context.Background(), LocateRequest{Query: "where is the flux capacitor implemented"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) != 0 || res.Confidence != 0 || strings.Join(res.Strategies, " ") != "symbol file content" {
		t.Errorf("nothing to find: %+v", res)
	}
	if _, err := e.Locate(context.Background(), LocateRequest{Query: "where is the"}); err == nil {
		t.Error("a question naming nothing must be an input error")
	}
}

// TestLocateRecovery: without symbols, the class's name in the files'
// text still finds its implementation first (the file whose lines define
// its methods), the header declaring it next.
func TestLocateRecovery(t *testing.T) {
	e := locateEngine(t)
	plain := New(e.Index()).WithContent(e.content)
	res, err := plain.Locate(context.Background(), LocateRequest{Query: "where is SessionManager implemented"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) < 2 || res.Results[0].Path != "src/session.cpp" || res.Results[0].Via != "content" ||
		res.Results[1].Path != "include/session.h" || strings.Join(res.Strategies, " ") != "file content" {
		t.Errorf("SessionManager without symbols: %+v (%v)", res.Results, res.Strategies)
	}
	if r := res.Results[0].Range; r == nil || r.Start.Line != 2 {
		t.Errorf("content range: %+v", r)
	}
}

func TestDeclares(t *testing.T) {
	cases := []struct {
		line, name, ext string
		want            bool
	}{
		{"wild bool", "wild", "go", true},                           // a Go field
		{"\twidPresent  bool", "widPresent", "go", true},            // indented
		{"EmitMetaFile: mpath,", "EmitMetaFile", "go", false},       // a literal's key
		{"modRoots = append(modRoots, x)", "modRoots", "go", false}, // an assignment
		{"modRoots := f()", "modRoots", "go", false},
		{"fileNamed      = symTypeScore + 0.06", "fileNamed", "go", true}, // a const block's aligned spec
		{"func wild(x int) {", "wild", "go", true},
		{"func (p *pp) wild(x int) {", "wild", "go", true},
		{"p.wild(x)", "wild", "go", false},
		{"type Wild struct {", "Wild", "go", true},
		{"var commitTime time.Time", "commitTime", "go", true},    // top level
		{"\tvar commitTime time.Time", "commitTime", "go", false}, // a local
		{"wild: true", "wild", "yaml", true},
		{"wild = 1", "wild", "py", true},
		{"wild == 1", "wild", "py", false},
		{"self.wild = wild", "wild", "py", true},
		{"def wild(self):", "wild", "py", true},
		{"#define DEF_BOUND 2", "DEF_BOUND", "h", true},
		{"#  define DEF_BOUND 2", "DEF_BOUND", "h", true},
		{"const node_type m_type;", "m_type", "hpp", true},
		{"_Base_ptr _M_left;", "_M_left", "h", true},
		{"return m_type;", "m_type", "hpp", false},
		{"if (p->m_type == leaf)", "m_type", "hpp", false},
		{"x = p->m_type;", "m_type", "hpp", false},
		{"void SessionManager::open() {}", "SessionManager", "cpp", true},
		{"match Command::new(program).output() {", "Command", "rs", false}, // a path, in Rust
		{"return Session::create();", "Session", "cpp", false},
		{"bound or connected */", "bound", "h", false}, // a comment's line
		{"// wild bool", "wild", "go", false},
	}
	for _, c := range cases {
		text := strings.TrimLeft(c.line, " \t")
		at := strings.Index(text, c.name)
		m := content.Match{Text: text, At: at, Len: len(c.name), Col: at + len(c.line) - len(text)}
		if got := declares(m, c.ext); got != c.want {
			t.Errorf("declares(%q, %s) = %v", c.line, c.name, got)
		}
	}
}

// TestLocateText: quoted text is a phrase, found as written; a long
// unquoted body is searched as text when it names nothing; a name only a
// field declares is found by its declaration, not its uses.
func TestLocateText(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"utf8/utf8.go":     "package utf8\n\n// FullRune reports whether the bytes in p begin with a full encoding.\nfunc FullRune(p []byte) bool { return true }\n",
		"utf8/other.go":    "package utf8\n\n// reports whether the bytes are valid\nfunc Valid(p []byte) bool { return true }\n",
		"fmt/format.go":    "package fmt\n\ntype fmtFlags struct {\n\twidPresent  bool\n}\n",
		"fmt/print.go":     "package fmt\n\nfunc (p *pp) Width() bool { return p.fmt.widPresent }\nfunc g(f *fmt) { f.widPresent = true }\n",
		"read/file.go":     "package read\n\nfunc ReadFile(name string) ([]byte, error) { return nil, nil }\n",
		"read/readfile.md": "# notes\n",
		"go/build/read.go": "package build\n\nfunc read() {}\n",
		"http/headers.js":  "// There's no 'user-agent' header by default\nconst h = {};\n",
		"http/options.js":  "const d = {'user-agent': 'got'};\n",
		"http/agent.js":    "// sets 'user-agent' from the options\n",
	}
	for p, text := range files {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), []byte(text), 0o644)
	}
	roots, _ := workspace.CleanRoots([]string{dir})
	ix := workspace.Build(roots, workspace.Options{})
	table, _, err := symbols.NewIndexer(symbols.IndexerOptions{CacheDir: "-"}).Sync(context.Background(), ix)
	if err != nil {
		t.Fatal(err)
	}
	var cx content.Indexer
	ci, _ := cx.Sync(context.Background(), ix)
	e := New(ix).WithSymbols(NewSymbolIndex(table, ix.Roots)).WithContent(ci)
	cases := []struct {
		query, want string
		via         Via
		confident   bool
	}{
		{`where is "reports whether the bytes in p" handled`, "utf8/utf8.go", "content", true},
		{"find reports whether the bytes in p begin", "utf8/utf8.go", "content", true},
		{"where is `reports whether the bytes`", "", "", false}, // in two files: no guess
		{"where is widPresent", "fmt/format.go", "content", true},
		{"find read file", "read/file.go", "file", true}, // named so, and ReadFile is defined there: they agree
		{`"nothing like this anywhere"`, "", "", false},
		// A quotation inside a longer text: the whole text, found, wins.
		{"find There's no 'user-agent' header", "http/headers.js", "content", true},
	}
	for _, c := range cases {
		res, err := e.Locate(context.Background(), LocateRequest{Query: c.query})
		if err != nil {
			t.Fatalf("%s: %v", c.query, err)
		}
		confident := res.Confidence >= DefaultMinConfidence
		if c.want == "" {
			if confident {
				t.Errorf("%s: confident %+v", c.query, res.Results)
			}
			continue
		}
		if len(res.Results) == 0 || res.Results[0].Path != c.want || res.Results[0].Via != c.via || confident != c.confident {
			t.Errorf("%s: %+v (confidence %.2f, %v)", c.query, res.Results, res.Confidence, res.Strategies)
		}
	}
}

// TestLocateOpensAtDefinition: a file found by its name or by its
// methods, that also defines what was asked for, answers with the
// definition's line (testdata/vscode/workspace, the real-VS-Code test's
// tree: the CartClient struct is on line 4 of services/cart/client.go,
// its method on line 9; ShipClient has no methods, and its file is found
// by its name).
func TestLocateOpensAtDefinition(t *testing.T) {
	e := locateEngineAt(t, "../testdata/vscode/workspace")
	for _, c := range []struct {
		query, path string
		line        uint32 // 0-based
	}{
		{"where is CartClient implemented", "services/cart/client.go", 3}, // the struct, not its method Add
		{"CartClient", "services/cart/client.go", 3},
		{"where is ShipClient implemented", "services/ship/client.go", 3}, // no methods: the file named for it, at the struct
	} {
		res, err := e.Locate(context.Background(), LocateRequest{Query: c.query})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Results) == 0 || res.Results[0].Path != c.path || res.Results[0].Range == nil || res.Results[0].Range.Start.Line != c.line {
			t.Errorf("%s: %+v; want %s at line %d", c.query, res.Results, c.path, c.line)
		}
	}
}
