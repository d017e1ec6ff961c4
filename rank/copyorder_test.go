package rank

import (
	"context"
	"errors"
	"slices"
	"testing"

	"wayfind/vcs/vcstest"
)

// fakeCopyOrder scores each row by one column of CopyFeatures, or fails.
type fakeCopyOrder struct {
	column int
	sign   float32
	err    error
	asked  int
}

func (f *fakeCopyOrder) Score(rows [][]float32) ([]float32, error) {
	f.asked++
	if f.err != nil {
		return nil, f.err
	}
	out := make([]float32, len(rows))
	for i, r := range rows {
		out[i] = f.sign * r[f.column]
	}
	return out, nil
}

// TestCopyOrder pins where the fitted order orders: a shared bare name's
// copies with where the user works, in its order (here the formula's
// reversed); never past the test penalty or the case typed (Config.go,
// the formula's first, stays first); the formula's order without
// the visits, for a name it does not read, without a history record
// (every question it was fitted on had one), and when it fails; the
// file the user is in (InCurrent) after the copies the order ranks.
func TestCopyOrder(t *testing.T) {
	r := vcstest.New(t)
	for _, p := range []string{"pkg/a/config.go", "pkg/b/config.go", "pkg/c/config.go", "testdata/config.go", "pkg/d/Config.go", "pkg/a/main.go", "pkg/a/configure.go"} {
		r.Write(p, vcstest.Text(p, 3))
	}
	r.Commit("the files")
	roots, bare, base := historyEngines(t, r.Dir)
	place := slices.Index(CopyFeatureNames, "place")
	aux := slices.Index(CopyFeatureNames, "aux")
	here := []Visit{{File: roots[0] + "/pkg/a/main.go", Weight: 1}}
	for _, tc := range []struct {
		name   string
		order  *fakeCopyOrder
		noRepo bool
		req    FindRequest
		want   []string
	}{
		{"the formula: the visit's copy first", nil, false, FindRequest{Query: "config.go", History: here},
			[]string{"pkg/a/config.go", "pkg/b/config.go", "pkg/c/config.go", "pkg/d/Config.go", "testdata/config.go", "pkg/a/configure.go"}},
		{"the fitted order: the formula's reversed", &fakeCopyOrder{column: place, sign: -1}, false, FindRequest{Query: "config.go", History: here},
			[]string{"pkg/c/config.go", "pkg/b/config.go", "pkg/a/config.go", "pkg/d/Config.go", "testdata/config.go", "pkg/a/configure.go"}},
		{"never past the test penalty", &fakeCopyOrder{column: aux, sign: -1}, false, FindRequest{Query: "config.go", History: here},
			[]string{"pkg/a/config.go", "pkg/b/config.go", "pkg/c/config.go", "pkg/d/Config.go", "testdata/config.go", "pkg/a/configure.go"}},
		{"never past the case typed", &fakeCopyOrder{column: place, sign: -1}, false, FindRequest{Query: "Config.go", History: here},
			[]string{"pkg/d/Config.go", "pkg/c/config.go", "pkg/b/config.go", "pkg/a/config.go", "testdata/config.go", "pkg/a/configure.go"}},
		{"without where the user works", &fakeCopyOrder{column: place, sign: -1}, false, FindRequest{Query: "config.go"},
			[]string{"pkg/a/config.go", "pkg/b/config.go", "pkg/c/config.go", "pkg/d/Config.go", "testdata/config.go", "pkg/a/configure.go"}},
		{"a name it does not read", &fakeCopyOrder{column: place, sign: -1}, false, FindRequest{Query: "configure.go", History: here},
			[]string{"pkg/a/configure.go"}},
		{"without a history record (none fitted on)", &fakeCopyOrder{column: place, sign: -1}, true, FindRequest{Query: "config.go", History: here},
			[]string{"pkg/a/config.go", "pkg/b/config.go", "pkg/c/config.go", "pkg/d/Config.go", "testdata/config.go", "pkg/a/configure.go"}},
		{"when it fails", &fakeCopyOrder{err: errors.New("no runtime")}, false, FindRequest{Query: "config.go", History: here},
			[]string{"pkg/a/config.go", "pkg/b/config.go", "pkg/c/config.go", "pkg/d/Config.go", "testdata/config.go", "pkg/a/configure.go"}},
		{"the file the user is in last among the copies", &fakeCopyOrder{column: place, sign: 1}, false,
			FindRequest{Query: "config.go", History: here, Current: roots[0] + "/pkg/c/config.go", InCurrent: true},
			[]string{"pkg/a/config.go", "pkg/b/config.go", "pkg/c/config.go", "pkg/d/Config.go", "testdata/config.go", "pkg/a/configure.go"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := base
			if tc.noRepo {
				e = bare
			}
			if tc.order != nil {
				e = e.WithCopyOrder(tc.order)
			}
			res, err := e.Find(context.Background(), tc.req)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range res.Matches {
				got = append(got, m.Path)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestResolveOrdersTiedCopies: where nothing told a bare name's copies
// apart, resolve lists them in the fitted order (here the formula's
// reversed), still a tie and unresolved, scores best first; a name with
// a directory written, or asked without where the user works, keeps the
// formula's order.
func TestResolveOrdersTiedCopies(t *testing.T) {
	r := vcstest.New(t)
	for _, p := range []string{"x/a/config.go", "x/b/config.go", "x/c/config.go", "y/main.go"} {
		r.Write(p, vcstest.Text(p, 3))
	}
	r.Commit("the files")
	roots, _, base := historyEngines(t, r.Dir)
	place := slices.Index(CopyFeatureNames, "place")
	here := []Visit{{File: roots[0] + "/y/main.go", Weight: 1}}
	for _, tc := range []struct {
		name  string
		order CopyOrder
		req   ResolveRequest
		want  []string
	}{
		{"the formula", nil, ResolveRequest{Path: "config.go", History: here},
			[]string{"x/a/config.go", "x/b/config.go", "x/c/config.go"}},
		{"the fitted order", &fakeCopyOrder{column: place, sign: -1}, ResolveRequest{Path: "config.go", History: here},
			[]string{"x/c/config.go", "x/b/config.go", "x/a/config.go"}},
		{"a directory written", &fakeCopyOrder{column: place, sign: -1}, ResolveRequest{Path: "x/config.go", History: here},
			[]string{"x/a/config.go", "x/b/config.go", "x/c/config.go"}},
		{"without where the user works", &fakeCopyOrder{column: place, sign: -1}, ResolveRequest{Path: "config.go", History: []Visit{}},
			[]string{"x/a/config.go", "x/b/config.go", "x/c/config.go"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := base
			if tc.order != nil {
				e = base.WithCopyOrder(tc.order)
			}
			res, err := e.Resolve(context.Background(), tc.req)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for i, c := range res.Candidates {
				got = append(got, c.Path)
				if i > 0 && c.Score > res.Candidates[i-1].Score {
					t.Errorf("candidate %d scores %v above %v", i, c.Score, res.Candidates[i-1].Score)
				}
			}
			if !slices.Equal(got, tc.want) || res.Resolved != nil || res.Basis != BasisTie {
				t.Errorf("got %v (resolved %v, basis %v), want %v, a tie", got, res.Resolved, res.Basis, tc.want)
			}
		})
	}
}
