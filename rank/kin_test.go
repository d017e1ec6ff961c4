package rank

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"wayfind/vcs/vcstest"
	"wayfind/workspace"
)

// kinTree is a tests directory where test is in every name, a package
// beside it, and a file read by its letters.
var kinTree = []string{
	"tests/test_domain_py.py", "tests/test_domain_c.py", "tests/test_domain_js.py",
	"tests/test_build.py", "tests/test_util.py", "tests/test_format.py",
	"pkg/sessions.py", "pkg/models.py", "pkg/format_cds.txt",
	"handlers/user_handler.go", "handlers/cart_handler.go", "handlers/order_handler.go", "handlers/routes.go",
}

// TestKinReadings: with no file read by the path's name, the files of
// the directory written whose names share its words are listed, scored
// as kin.go's header says (kinScale × shared ÷ (shared + apart), an
// abbreviation half a word, a word most of the directory's names hold
// nothing, a test's affix not a word), never resolved; nothing for a
// bare name, for a directory the tree lacks, for a test's affix alone or
// a word the whole directory shares, or when a name's letters read a
// file.
func TestKinReadings(t *testing.T) {
	e := New(indexOf(t, kinTree))
	cases := []struct {
		path string
		want []string // path score, in order; nil: no kin
	}{
		// domain and python~py (half) shared, nothing apart: 0.5 × 1.5/1.5;
		// the other domains share domain, python and their own word apart.
		{"tests/test_domain_python.py", []string{"tests/test_domain_py.py 0.5", "tests/test_domain_c.py 0.167", "tests/test_domain_js.py 0.167"}},
		// format shared, cds apart: 0.5 × 1/2.
		{"tests/test_format_cds.py", []string{"tests/test_format.py 0.25"}},
		// Absolute, at this root or another machine's prefix.
		{"/home/u/proj/tests/test_format_cds.py", []string{"tests/test_format.py 0.25"}},
		// test_ is a test's affix, not a word it shares.
		{"tests/test_sessions.py", nil},
		// handler is in most names of handlers/: it says nothing.
		{"handlers/auth_handler.go", nil},
		{"test_domain_python.py", nil},
		{"nowhere/test_domain_python.py", nil},
		// One typo: read by its letters, no kin.
		{"tests/test_formt.py", []string{"tests/test_format.py"}},
	}
	for _, c := range cases {
		res, err := e.Resolve(context.Background(), ResolveRequest{Path: c.path})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, cand := range res.Candidates {
			if slices.Contains(cand.Reasons, "name:words") {
				got = append(got, fmt.Sprintf("%s %g", cand.Path, cand.Score))
			} else {
				got = append(got, cand.Path)
			}
		}
		if len(got) > len(c.want) {
			got = got[:len(c.want)]
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.path, got, c.want)
		}
		if c.want != nil && slices.Contains(res.Candidates[0].Reasons, "name:words") && (res.Resolved != nil || res.Class() != ClassUnsupportedKin) {
			t.Errorf("%s: a kin reading resolved or stood alone: %+v", c.path, res)
		}
	}
}

// TestTestKin: a test's name whose module is a source file of the tree
// lists the tests the history committed with the module, most often
// first (scored kinScale × its commits ÷ the most), none without the
// history.
func TestTestKin(t *testing.T) {
	r := vcstest.New(t)
	r.Write("requests/sessions.py", vcstest.Text("sessions", 20))
	r.Write("tests/test_requests.py", vcstest.Text("requests tests", 20))
	r.Write("tests/test_utils.py", vcstest.Text("utils tests", 20))
	r.Write("requests/utils.py", vcstest.Text("utils", 20))
	r.Commit("start")
	for i := range 3 {
		r.Write("requests/sessions.py", vcstest.Text(fmt.Sprint("sessions", i), 20))
		r.Write("tests/test_requests.py", vcstest.Text(fmt.Sprint("requests tests", i), 20))
		r.Commit(fmt.Sprint("sessions fix ", i))
	}
	r.Write("requests/sessions.py", vcstest.Text("sessions again", 20))
	r.Write("tests/test_utils.py", vcstest.Text("utils tests again", 20))
	r.Commit("sessions and utils")
	_, without, with := historyEngines(t, r.Dir)
	res, err := with.Resolve(context.Background(), ResolveRequest{Path: "tests/test_sessions.py"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range res.Candidates {
		got = append(got, fmt.Sprintf("%s %g", c.Path, c.Score))
	}
	// test_requests.py with sessions.py in 4 commits (both ways: 8), test_utils.py in 2 (4).
	if want := []string{"tests/test_requests.py 0.5", "tests/test_utils.py 0.25"}; !slices.Equal(got, want) || res.Resolved != nil {
		t.Errorf("with the history: %q (resolved %v), want %q", got, res.Resolved, want)
	}
	if res, _ := without.Resolve(context.Background(), ResolveRequest{Path: "tests/test_sessions.py"}); len(res.Candidates) > 0 {
		t.Errorf("without the history: %+v", res.Candidates)
	}
}

// TestTestedName: the module a test's name names.
func TestTestedName(t *testing.T) {
	for stem, want := range map[string]string{
		"test_sessions": "sessions", "sessions_test": "sessions", "SessionTest": "Session",
		"sessions.test": "sessions", "sessions_spec": "sessions", "sessions": "", "test_": "",
	} {
		got, ok := testedName(stem)
		if got != want || ok != (want != "") {
			t.Errorf("testedName(%q) = %q, %v; want %q", stem, got, ok, want)
		}
	}
}

// indexOf is an index of rels under one root.
func indexOf(t *testing.T, rels []string) *workspace.Index {
	t.Helper()
	root := filepath.FromSlash("/kin")
	files := make([]workspace.File, len(rels))
	for i, r := range rels {
		files[i] = workspace.File{Path: r}
	}
	workspace.SortFiles(files)
	return workspace.NewIndex([]string{root}, files)
}
