package rank

import (
	"context"
	"slices"
	"strings"
	"testing"

	"wayfind/workspace"
)

// TestScoringOrderings pins the orderings score.go promises, each with the
// navigation history pointing at the weaker candidate: exact over case over
// style over typo, whatever the history. A weight change that breaks one
// fails here.
func TestScoringOrderings(t *testing.T) {
	e, _ := fixture(t, "orderings")
	cases := []struct {
		rule, query, history, want string
	}{
		{"exact over case", "Widget.go", "b/other.go", "a/Widget.go"},
		{"case over typo", "widget.go", "c/other.go", "b/widget.go"},
		{"exact over typo", "widget.go", "d/other.go", "b/widget.go"},
		{"style over typo", "gadget_helper.go", "f/other.go", "e/gadget_helper.go"},
		{"exact over style", "gadgetHelper.go", "e/gadget_helper.go", "f/gadgetHelper.go"},
	}
	for _, c := range cases {
		res, err := e.Resolve(context.Background(), ResolveRequest{Path: c.query, History: Recency([]string{c.history})})
		if err != nil {
			t.Fatal(err)
		}
		if firstPath(res) != c.want || res.Basis != BasisLexical {
			t.Errorf("%s: %q with history %s: first %q on %s, want %s on lexical (candidates %+v)", c.rule, c.query, c.history, firstPath(res), res.Basis, c.want, res.Candidates)
		}
	}
	// The weights behind those promises.
	if proxWeight >= ResolveMargin {
		t.Errorf("proxWeight %.3f must stay under ResolveMargin %.3f", proxWeight, ResolveMargin)
	}
	if gap := (1 - stemCase) * bareNameWeight; proxWeight*(1+activityWeight) >= gap {
		t.Errorf("nearness and activity together (%.4f) must stay under the exact→case gap %.4f", proxWeight*(1+activityWeight), gap)
	}
}

// Two readings of one path that point at different files are a tie to
// report; where the user has been puts one first, without deciding.
func TestContradictionIsATie(t *testing.T) {
	e, _ := fixture(t, "contradiction")
	cases := []struct{ history, first string }{
		{"", ""},
		{"encoding/json/encode.go", "encoding/json/decode.go"},
		{"encoding/gob/encoder.go", "encoding/gob/decoder.go"},
	}
	for _, c := range cases {
		var history []string
		if c.history != "" {
			history = []string{c.history}
		}
		got, res := resolved(t, e, ResolveRequest{Path: "encoding/json/decoder.go", History: Recency(history)})
		if got != "" {
			t.Errorf("history %q: resolved %q, want nothing", c.history, got)
		}
		if c.first != "" && res.Candidates[0].Path != c.first {
			t.Errorf("history %q: %s first, want %s", c.history, res.Candidates[0].Path, c.first)
		}
		if len(res.Candidates) < 2 || res.Candidates[0].Path+res.Candidates[1].Path != "encoding/gob/decoder.goencoding/json/decode.go" &&
			res.Candidates[0].Path+res.Candidates[1].Path != "encoding/json/decode.goencoding/gob/decoder.go" {
			t.Errorf("history %q: the two readings are not first: %+v", c.history, res.Candidates)
		}
	}
}

// TestParallelCopiesTail: among dozens of parallel copies of one header
// (Node's per-architecture OpenSSL headers, listed from /usr/include), a
// long written tail that every directory but one honours beats a short path
// that honours only the last; a prefix no path in the tree starts with
// stays cheap.
func TestParallelCopiesTail(t *testing.T) {
	e, _ := fixture(t, "parallel")
	cases := []struct{ query, want string }{
		{"node/openssl/archs/linux-x86_64/asm/inc/openssl/x509.h", "node/openssl/archs/linux-x86_64/asm/include/openssl/x509.h"},
		{"node/v8/archs/linux-x86_64/asm/include/openssl/ssl.h", "node/openssl/archs/linux-x86_64/asm/include/openssl/ssl.h"},
		{"node/openssl/archs/linux-x86_64/no_asm/include/openssl/ssl.h", "node/openssl/archs/linux-x86_64/no-asm/include/openssl/ssl.h"},
		{"openssl/archs/linux-x86_64/asm/include/openssl/x509.h", "node/openssl/archs/linux-x86_64/asm/include/openssl/x509.h"},
		{"/home/u/node/openssl/archs/VC-WIN32/asm/include/openssl/x509.h", "node/openssl/archs/VC-WIN32/asm/include/openssl/x509.h"},
		{"/home/u/src/openssl/x509.h", ""},         // openssl/x509.h or node/openssl/x509.h
		{"/home/u/src/include/openssl/x509.h", ""}, // openssl/x509.h or node/openssl/x509.h: a tie, not an arch copy
	}
	for _, c := range cases {
		_, res := resolved(t, e, ResolveRequest{Path: c.query, History: Recency([]string{})})
		if c.want != "" && (firstPath(res) != c.want || res.Basis != BasisLexical) {
			t.Errorf("%s: first %q on %s, want %q clearly first (candidates %v)", c.query, firstPath(res), res.Basis, c.want, paths(res.Candidates))
		}
		if c.want == "" && res.Basis != BasisTie {
			t.Errorf("%s: %s, want a tie (candidates %v)", c.query, res.Basis, paths(res.Candidates))
		}
		if c.want == "" && (len(res.Candidates) == 0 || strings.Contains(res.Candidates[0].Path, "/archs/")) {
			t.Errorf("%s: first candidate %v, want a top-level copy", c.query, paths(res.Candidates))
		}
	}
}

func paths(cs []Candidate) []string {
	out := make([]string, 0, min(len(cs), 3))
	for _, c := range cs[:min(len(cs), 3)] {
		out = append(out, c.Path)
	}
	return out
}

// firstPath is the first answer: the resolved file, else the first
// candidate ("" for none).
func firstPath(res *ResolveResult) string {
	switch {
	case res.Resolved != nil:
		return res.Resolved.Path
	case len(res.Candidates) > 0:
		return res.Candidates[0].Path
	}
	return ""
}

// resolved runs req, failing the test on an error, and returns the
// resolved path ("" for none) with the whole result.
func resolved(t *testing.T, e *Engine, req ResolveRequest) (string, *ResolveResult) {
	t.Helper()
	res, err := e.Resolve(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if res.Resolved == nil {
		return "", res
	}
	return res.Resolved.Path, res
}

// TestWordDroppedIsNotATypo: a name with one of its words more or fewer
// (two letters or more) names another file, however short the word: git's
// builtin-rm.c, moved to builtin/rm.c, is not builtin.h mistyped. A
// number or a lone letter dropped, and a letter slipped, still are typos.
func TestWordDroppedIsNotATypo(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"builtin-rm", "builtin", true}, {"builtin", "builtinRm", true}, {"read_tree_fn", "read_fn", true},
		{"S15.1.2.3_A1_T2", "S15.1..3_A1_T2", false}, {"a_b", "b", false}, {"builtin", "biultin", false},
		{"builtin-rm", "builtin-mv", false}, {"x", "", false}, {"Builtin-RM", "builtin", true},
		{"BuiltinRm", "builtin_rm_x", false}, {"builtin_rm_Xy", "BuiltinRm", true},
	} {
		if got := wordApart(c.a, c.b); got != c.want {
			t.Errorf("wordApart(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
		// Asked of every stem within a typo's distance: nothing allocated.
		if n := testing.AllocsPerRun(10, func() { wordApart(c.a, c.b) }); n != 0 {
			t.Errorf("wordApart(%q, %q) allocates %.0f times", c.a, c.b, n)
		}
	}
	var ixFiles []workspace.File
	for _, f := range []string{"builtin.h", "builtin/rm.c", "builtin/add.c", "strbuf.h"} {
		ixFiles = append(ixFiles, workspace.File{Path: f})
	}
	ix := workspace.NewIndex([]string{"/ws"}, ixFiles)
	e := New(ix)
	if got, res := resolved(t, e, ResolveRequest{Path: "builtin-rm.c"}); got == "builtin.h" || slices.Contains(paths(res.Candidates), "builtin.h") {
		t.Errorf("builtin-rm.c: resolved %q, candidates %v; builtin.h is not it", got, paths(res.Candidates))
	}
	if _, res := resolved(t, e, ResolveRequest{Path: "biultin.h"}); firstPath(res) != "builtin.h" {
		t.Errorf("biultin.h (a typo): first %q, want builtin.h", firstPath(res))
	}
}
