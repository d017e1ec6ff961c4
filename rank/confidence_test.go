package rank

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"wayfind/vcs"
	"wayfind/vcs/vcstest"
	"wayfind/workspace"
)

// TestCoChangeDecides: among copies of a name, nearness to where the user
// works orders them but decides nothing on its own; a copy that is
// clearly nearer and was committed together with the file the user is
// in, while the runner-up was not, is resolved (confidence.go's
// measured classes).
func TestCoChangeDecides(t *testing.T) {
	r := vcstest.New(t)
	for _, p := range []string{"services/cart/handler.go", "services/cart/api/client.go",
		"services/ship/handler.go", "services/ship/client.go", "lib/client.go"} {
		r.Write(p, vcstest.Text(p, 20))
	}
	r.Commit("start")
	for i := range 3 { // the cart's handler and the api client change together
		r.Write("services/cart/handler.go", vcstest.Text("handler", 20+i))
		r.Write("services/cart/api/client.go", vcstest.Text("api client", 20+i))
		r.Commit("cart api")
	}
	roots, err := workspace.CleanRoots([]string{r.Dir})
	if err != nil {
		t.Fatal(err)
	}
	without := New(workspace.Build(roots, workspace.Options{}))
	rec, err := vcs.Build(context.Background(), roots[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	with := without.WithRepoHistory(NewRepoHistory(roots, []*vcs.Record{rec}))
	visit := []Visit{{File: filepath.Join(roots[0], "services/cart/handler.go"), Weight: 1}}
	cases := []struct {
		name     string
		e        *Engine
		history  []Visit
		first    string
		resolved bool
		basis    Basis
	}{
		{"no history: a tie", with, []Visit{}, "lib/client.go", false, BasisTie},
		{"nearness alone orders", without, visit, "services/cart/api/client.go", false, BasisNearer},
		{"committed together and nearer decides", with, visit, "services/cart/api/client.go", true, BasisNearer},
	}
	for _, c := range cases {
		res, err := c.e.Resolve(context.Background(), ResolveRequest{Path: "client.go", History: c.history})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Candidates) == 0 || res.Candidates[0].Path != c.first || (res.Resolved != nil) != c.resolved || res.Basis != c.basis {
			t.Errorf("%s: first %+v, resolved %v, basis %s at %.2f; want %s, %v, %s", c.name, res.Candidates, res.Resolved != nil, res.Basis, res.Confidence, c.first, c.resolved, c.basis)
		}
		if res.Resolved != nil && res.Confidence < ResolvedConfidence {
			t.Errorf("%s: resolved at confidence %.2f", c.name, res.Confidence)
		}
	}
}

// TestNearnessConfidenceOrder pins the measured classes' order: agreement
// of the history over a lead alone, a lead over a nearer tie-break, and
// only agreement reaching ResolvedConfidence.
func TestNearnessConfidenceOrder(t *testing.T) {
	agree := nearness{top: nearLead, topCo: 0.5}.confidence()
	lead := nearness{top: nearLead}.confidence()
	slight := nearness{top: nearLead / 2}.confidence()
	contested := nearness{top: nearLead, topCo: 0.5, runnerCo: 0.5}.confidence()
	if !(agree >= ResolvedConfidence && lead < ResolvedConfidence && slight < lead && contested == lead) {
		t.Errorf("agree %.2f, lead %.2f, slight %.2f, contested %.2f", agree, lead, slight, contested)
	}
	if confSharedName >= ResolvedConfidence || confLexicalElsewhere < ResolvedConfidence || confLexical < confLexicalElsewhere || confHistory < ResolvedConfidence {
		t.Errorf("measured classes crossed ResolvedConfidence")
	}
}

// TestLexicalConfidence: a reading clearly best is resolved either way,
// but one in other directories than the ones written says it is less
// sure (confLexicalElsewhere) than one that keeps them (confLexical).
func TestLexicalConfidence(t *testing.T) {
	ix := &workspace.Index{Roots: []string{"/r"}}
	for _, f := range []string{"pkg/auth/session_store.go", "pkg/auth/login.go", "cmd/tool/main.go"} {
		ix.Files = append(ix.Files, workspace.File{Path: f})
	}
	slices.SortFunc(ix.Files, func(a, b workspace.File) int { return strings.Compare(a.Path, b.Path) })
	e := New(ix)
	for _, c := range []struct {
		query, want string
		conf        float64
	}{
		{"pkg/auth/sesion_store.go", "pkg/auth/session_store.go", confLexical},                   // a typo, in the directories written
		{"auth/session_store.py", "pkg/auth/session_store.go", confLexical},                      // their tail, another extension
		{"internal/session/session_store.go", "pkg/auth/session_store.go", confLexicalElsewhere}, // moved out of them
	} {
		res, err := e.Resolve(context.Background(), ResolveRequest{Path: c.query})
		if err != nil {
			t.Fatal(err)
		}
		if resolvedPath(res) != c.want || res.Basis != BasisLexical || res.Confidence != c.conf {
			t.Errorf("%s: resolved %q on %s at %.2f; want %s on lexical at %.2f", c.query, resolvedPath(res), res.Basis, res.Confidence, c.want, c.conf)
		}
	}
}
