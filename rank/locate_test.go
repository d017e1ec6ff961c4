package rank

import (
	"context"
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
	roots, err := workspace.CleanRoots([]string{"../testdata/locate"})
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
	return New(ix).WithSymbols(NewSymbolIndex(table)).WithContent(ci)
}

func TestLocateCascade(t *testing.T) {
	e := locateEngine(t)
	cases := []struct {
		query, term string
		impl        bool
		want, via   string
		strategies  string
		confident   bool
	}{
		{"where is replay implemented", "replay", true, "src/replay_service.cpp", "file", "file", true},
		{"find cursor binary", "cursor binary", false, "docs/tools.md", "content", "file symbol content", false},
		{"cursor[ _-]?binary", "cursor[ _-]?binary", false, "docs/tools.md", "content", "file symbol content", false},
		{"where is CommandRouter implemented", "CommandRouter", true, "src/command_router.cpp", "file", "file", true},
		{"Where is the SessionManager class implemented?", "SessionManager", true, "src/session.cpp", "symbol", "file symbol", true},
		{"where is Socket implemented", "Socket", true, "src/net/socket_posix.cc", "symbol", "file symbol", true},
		{"where is command_router", "command_router", false, "src/command_router.cpp", "file", "file", true},
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
	if len(res.Results) != 0 || res.Confidence != 0 || strings.Join(res.Strategies, " ") != "file symbol content" {
		t.Errorf("nothing to find: %+v", res)
	}
	if _, err := e.Locate(context.Background(), LocateRequest{Query: "where is the"}); err == nil {
		t.Error("a question naming nothing must be an input error")
	}
}

// TestLocateRecovery: without symbols, the class's words in the files'
// text still find its implementation first, and the alternate step then
// looks for the header beside it.
func TestLocateRecovery(t *testing.T) {
	e := locateEngine(t)
	plain := New(e.Index()).WithContent(e.content)
	res, err := plain.Locate(context.Background(), LocateRequest{Query: "where is SessionManager implemented"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) < 2 || res.Results[0].Path != "src/session.cpp" || res.Results[0].Via != "content" ||
		res.Results[1].Path != "include/session.h" || strings.Join(res.Strategies, " ") != "file content alternate" {
		t.Errorf("SessionManager without symbols: %+v (%v)", res.Results, res.Strategies)
	}
	if r := res.Results[0].Range; r == nil || r.Start.Line != 2 {
		t.Errorf("content range: %+v", r)
	}
}
