package rank

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
)

func findPaths(t *testing.T, e *Engine, query string) []string {
	t.Helper()
	res, err := e.Find(context.Background(), FindRequest{Query: query, Limit: 20})
	if err != nil {
		t.Fatalf("%q: %v", query, err)
	}
	var out []string
	for _, m := range res.Matches {
		out = append(out, m.Path)
	}
	return out
}

// Each shape of query that runs across directory and file name, as people
// type it into a Quick Open or Ctrl-P finder.
func TestFindAcrossPath(t *testing.T) {
	e, _ := fixture(t, "paths")
	cases := []struct{ shape, query, want string }{
		{"squashed dir+name", "nethttpserver", "net/http/server.go"},
		{"Windows separators", `net\http\server.go`, "net/http/server.go"},
		{"Windows separators", `services\payment\handler`, "services/payment/handler.go"},
		{"Windows separators", `encoding\json\dec`, "encoding/json/decode.go"},
		{"squashed dir+name", "httpserver", "net/http/server.go"},
		{"squashed dir+name", "builtinwritetree", "builtin/write-tree.c"},
		{"squashed dir+name", "paymenthandler", "services/payment/handler.go"},
		{"squashed dir+name", "cartstore", "services/cart/store.go"},
		{"squashed dir+name", "lspserver", "lsp/server.go"},
		{"squashed dir+name", "asyncioevents", "Lib/asyncio/events.py"},
		{"squashed dir+name", "osexec", "os/exec.go"},
		{"word-prefix abbreviation", "buicatfil", "builtin/cat-file.c"},
		{"one typo in each word", "paymnt handler", "services/payment/handler.go"},
		{"one typo in each word", "payment handlr", "services/payment/handler.go"},
		{"one typo in each word", "htp servr", "net/http/server.go"},
		{"word-prefix abbreviation", "buiupdind", "builtin/update-index.c"},
		{"word-prefix abbreviation", "payhan", "services/payment/handler.go"},
		{"word-prefix abbreviation", "jsondec", "encoding/json/decode.go"},
		{"word-prefix abbreviation", "djancosig", "django/core/signals.py"},
		{"word-prefix abbreviation", "gradientmain", "cmd/gradient/main.go"},
		{"word-prefix abbreviation", "bookpageIndex", "photobook/src/canvasComponents/BookPage/index.js"},
		{"word-prefix abbreviation", "repostoreduxts", "src/repository/store/redux.ts"},
		{"words naming directories", "tls handshake client", "crypto/tls/handshake_client.go"},
		{"words naming directories", "os exec", "os/exec.go"},
		{"words naming directories", "server lens", "gopls/internal/server/code_lens.go"},
		{"words in any order", "client handshake", "crypto/tls/handshake_client.go"},
		{"words in any order", "client tls handshake", "crypto/tls/handshake_client.go"},
		{"words in any order", "js color", "app/constants/color.js"},
		{"words in any order", "color js", "app/constants/color.js"},
		{"words in any order", "workbench browser", "src/vs/workbench/browser/workbench.ts"},
		{"words in any order", "browser workbench", "src/vs/workbench/browser/workbench.ts"},
		{"words in any order", "workbench.ts browser", "src/vs/workbench/browser/workbench.ts"},
		{"words in any order", "window node", "src/vs/workbench/electron-node/window.ts"},
		{"one typo", "nethtpserver", "net/http/server.go"},
		{"one typo", "jsondecoder", "encoding/json/decode.go"},
		{"one typo", "buitlincatfile", "builtin/cat-file.c"},
		{"one typo", "builtinwrtietree", "builtin/write-tree.c"},
		{"CamelCase", "HttpServer", "net/http/server.go"},
		{"slash anywhere", "http/serv", "net/http/server.go"},
		{"slash anywhere", "net/httpserver", "net/http/server.go"},
		{"slash anywhere", "ui/icons", "ui/src/ui/Icons/index.js"},
		{"slash anywhere", "co/te", "config/test.js"},
		{"separators optional", "colorjs", "app/constants/color.js"},
		{"separators optional", "protectedconfigphp", "adsys/protected/config.php"},
		{"separators optional", "protectedconfig.php", "adsys/protected/config.php"},
		{"separators optional", "foobar", "app/emails/foo.bar.js"},
		{"directory only, entry file first", "xyz", "xyz/index.js"},
		{"directory only, entry file first", "concurrentfutures", "Lib/concurrent/futures/__init__.py"},
		{"directory only", "encodingjson", "encoding/json/decode.go"},
		{"directory only", "somepath", "some/path/fileA.txt"},
		{"name beats directory", "partsquick", "parts/quickopen/quickopen.ts"},
		{"literal name first", "ioutil", "io/ioutil/ioutil.go"},
	}
	for _, c := range cases {
		got := findPaths(t, e, c.query)
		if len(got) == 0 || got[0] != c.want {
			t.Errorf("%s: %q = %v, want %s first", c.shape, c.query, got, c.want)
		}
	}
}

// The ordering rules a Quick Open user expects, each as a pair that must
// come out in this order.
func TestFindRankingRules(t *testing.T) {
	e, _ := fixture(t, "paths")
	cases := []orderRule{
		{"name over directory only", "partsquick", "parts/quickopen/quickopen.ts", "parts/quick/arrow-left-dark.svg"},
		{"the separators typed read literally among equal readings", "get_parent", "xml/dom/get_parent.py", "xml/dom/getParent.py"},
		{"the separators typed read literally among equal readings", "getParent", "xml/dom/getParent.py", "xml/dom/get_parent.py"},
		{"exact case wins", "Lists.php", "lib/Lists.php", "lists.php"},
		{"exact case wins", "lists.php", "lists.php", "lib/Lists.php"},
		{"exact case wins", "Color", "app/components/model/input/Color.js", "app/constants/color.js"},
		{"exact case wins", "color", "app/constants/color.js", "app/components/model/input/Color.js"},
		{"name explained most", "colorjs", "app/constants/color.js", "app/components/model/input/pick-avatar-color.js"},
		{"a whole name read across the path over a sliver of a long one", "colorjs", "app/constants/color.js", "app/themes/with-colorjs-support-for-the-legacy-theme-provider-config.ts"},
		{"word starts over scattered", "xyz", "xyz/index.js", "xerxes-yak-zubba/index.js"},
		{"shorter, shallower path", "protectedconfigphp", "adsys/protected/config.php", "duowanVideo/wap/protected/config.php"},
		{"contiguous over scattered", "protectedconfigphp", "duowanVideo/wap/protected/config.php", "adsys/protected/framework/smarty/sysplugins/smarty_internal_config.php"},
		{"source over test", "lspserver", "lsp/server.go", "lsp/server_test.go"},
		{"source over test", "listview", "editor/core/components/list-view.js", "editor/core/components/tests/list-view-spec.js"},
		{"source over test", "os exec", "os/exec/exec.go", "debug/pe/testdata/gcc-386-mingw-no-symbols-exec"},
		{"source over fixture", "paymenthandler", "services/payment/handler.go", "services/payment/handler_test.go"},
		{"the file beside the directories typed", "nethttpserver", "net/http/server.go", "net/http/httptest/server.go"},
		{"the file beside the directories typed", "encodingjson", "encoding/json/encode.go", "encoding/json/internal/jsontest/testdata/golang_source.json.zst"},
		{"entry file first", "xyz", "xyz/index.js", "xyz/helpers.js"},
		{"the directory's own files, then deeper ones", "somepath", "some/path/fileA.txt", "some/path/other/fileBLonger.txt"},
		{"directory's own files first", "co/te", "config/test/t1.js", "config/test/t2.js"},
		{"a directory named like the file is no detour", "osexec", "os/exec/exec.go", "os/exec/lp_unix.go"},
		{"the file of that very name", "application.properties", "src/main/resources/application.properties", "src/main/java/org/example/ApplicationProperties.java"},
		{"the file of that very name", "spring.factories", "src/main/resources/META-INF/spring.factories", "build/CheckSpringFactories.java"},
	}
	for _, c := range cases {
		if _, ok := e.fileID(0, c.second); !ok {
			t.Fatalf("%s: %s is not in the fixture: the rule would hold of nothing", c.rule, c.second)
		}
		// The second may be left out (below the threshold): never first.
		c.check(t, findPaths(t, e, c.query), false, false)
	}
}

// A query that fits no file by word prefixes, words or one typo finds
// nothing: no letters scattered through the middle of words.
func TestFindNoJunk(t *testing.T) {
	e, _ := fixture(t, "paths")
	for _, q := range []string{"qzxwvk", "jfkdlsaqp", "marmalade", "zebra", "quorum", "xkcdplm", "wombatfile"} {
		if got := findPaths(t, e, q); len(got) > 0 {
			t.Errorf("%q = %v, want nothing", q, got)
		}
	}
	// "ioutil" is a name; condition_util.go only holds its letters scattered.
	if got := findPaths(t, e, "ioutil"); slices.Contains(got, "cmd/vendor/golang.org/x/arch/arm64/arm64asm/condition_util.go") {
		t.Errorf("ioutil = %v: scattered letters matched", got)
	}
	// one letter of a directory is no evidence: "t" of t/ with "bugreport"
	if got := findPaths(t, e, "t/bugreport"); len(got) == 0 || got[0] != "t/t0091-bugreport.sh" {
		t.Errorf("t/bugreport = %v", got)
	}
}

func TestAdvanceWithOneEdit(t *testing.T) {
	tk := &newPathQuery("htpserver").tokens[0]
	// "htp" for "http": the second t missing, after two exact bytes
	if o0, o1 := tk.advance1(1, 0, "http", 1); o0 != 1<<1|1<<2 || o1&(1<<3) == 0 {
		t.Errorf("advance1 = %b, %b", o0, o1)
	}
	// no edit before typoLead exact bytes: "xtp" does not start "http"
	tk = &newPathQuery("xtpserver").tokens[0]
	if o0, o1 := tk.advance1(1, 0, "http", 1); o0|o1 != 0 {
		t.Errorf("advance1 = %b, %b", o0, o1)
	}
}

// TestTypoNameLongEnough: whenever a name read from a position of a
// token with one edit (advance1) finishes it, the bound pathTypos prunes
// by lets the name by; and it rules out a name a byte shorter than the
// rest of the token less the edit.
func TestTypoNameLongEnough(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const letters = "abcde"
	for range 20000 {
		var q, name []byte
		for range 3 + r.IntN(10) {
			q = append(q, letters[r.IntN(len(letters))])
		}
		from := r.IntN(len(q))
		name = append(name, q[from:]...)
		switch i := r.IntN(len(name)); r.IntN(4) { // one edit, or none
		case 0:
			name = append(name[:i:i], name[i+1:]...)
		case 1:
			name = append(name[:i:i], append([]byte{letters[r.IntN(len(letters))]}, name[i:]...)...)
		case 2:
			name[i] = letters[r.IntN(len(letters))]
		}
		if len(name) == 0 {
			continue
		}
		tk := &newPathQuery(string(q)).tokens[0]
		o0, o1 := tk.advance1(1<<from, 0, string(name), 1)
		if (o0|o1)&tk.full != 0 && !typoNameLongEnough(tk, 1<<from, uint16(len(name))) {
			t.Fatalf("%q from %d finished by %q, which the bound rules out", q, from, name)
		}
	}
	tk := &newPathQuery("abcdef").tokens[0]
	for _, c := range []struct {
		s    uint64
		n    uint16
		want bool
	}{{1 << 2, 3, true}, {1 << 2, 2, false}, {1<<2 | 1<<4, 1, true}, {1, 5, true}, {1, 4, false}} {
		if got := typoNameLongEnough(tk, c.s, c.n); got != c.want {
			t.Errorf("typoNameLongEnough(%b, %d) = %v, want %v", c.s, c.n, got, c.want)
		}
	}
}

func TestPathTokenSets(t *testing.T) {
	pq := newPathQuery("buicatfil")
	tk := &pq.tokens[0]
	// "builtin" reads 2 or 3 bytes (bu, bui), never 1: directories need two.
	if got := tk.advance(1, "builtin", dirMinChunk); got != 1<<2|1<<3 {
		t.Errorf("advance = %b", got)
	}
	// from the end: "fil" is read by "file" from position 6
	if got := tk.back(tk.full, "file", 1); got != 1<<6 {
		t.Errorf("back = %b", got)
	}
	if newPathQuery("   ") != nil || newPathQuery(string(make([]byte, 70))) != nil {
		t.Error("a query with nothing to read should have no path reading")
	}
}
