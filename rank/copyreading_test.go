package rank

import (
	"fmt"
	"math"
	"testing"

	"wayfind/workspace"
)

// TestReadCopies pins a copy's reading as find's tie-break reads it: the
// current file's proximity and the visits' mean apart (a copy beside the
// current file 1, beside the visit its sibling's 0.4), the test penalty
// on a fixture's copy while the user works in source, and the formula's
// places with where the user works (the current file's copy first, the
// visit's next) and without (the shorter path, the fixture last) — the
// fixture first when the user works in it, still last without.
func TestReadCopies(t *testing.T) {
	var files []workspace.File
	for _, p := range []string{"pkg/a/config.go", "pkg/b/config.go", "testdata/config.go", "pkg/a/main.go", "pkg/b/x.go"} {
		files = append(files, workspace.File{Root: 0, Path: p})
	}
	e := New(workspace.NewIndex([]string{"/ws"}, files))
	for _, tc := range []struct {
		name string
		req  FindRequest
		want []CopyReading
	}{
		{"the current file and a visit", FindRequest{Current: "/ws/pkg/a/main.go", History: []Visit{{File: "/ws/pkg/b/x.go", Weight: 1}}}, []CopyReading{
			{Path: "pkg/a/config.go", Current: 1, Visits: 0.4},
			{Path: "pkg/b/config.go", Current: 0.4, Visits: 1, Place: 1, Alone: 1},
			{Path: "testdata/config.go", Penalized: true, Place: 2, Alone: 2},
		}},
		{"nothing says where the user works", FindRequest{}, []CopyReading{
			{Path: "pkg/a/config.go"},
			{Path: "pkg/b/config.go", Place: 1, Alone: 1},
			{Path: "testdata/config.go", Penalized: true, Place: 2, Alone: 2},
		}},
		{"the user works among fixtures", FindRequest{Current: "/ws/testdata/config.go"}, []CopyReading{
			{Path: "pkg/a/config.go", Place: 1},
			{Path: "pkg/b/config.go", Place: 2, Alone: 1},
			{Path: "testdata/config.go", Current: 1, Alone: 2},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.Query = "config.go"
			got := e.ReadCopies(tc.req)
			if len(got) != len(tc.want) {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("copy %d: got %+v, want %+v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

// TestReadCopiesOnlyBareSharedNames pins which questions are read: a bare
// file name 2 to maxReplayCopies files share, and no other.
func TestReadCopiesOnlyBareSharedNames(t *testing.T) {
	var files []workspace.File
	for _, p := range []string{"a/config.go", "b/config.go", "a/main.go"} {
		files = append(files, workspace.File{Root: 0, Path: p})
	}
	for i := range maxReplayCopies + 1 {
		files = append(files, workspace.File{Root: 0, Path: fmt.Sprintf("d%d/__init__.py", i)})
	}
	e := New(workspace.NewIndex([]string{"/ws"}, files))
	for _, tc := range []struct {
		query string
		want  int
	}{
		{"config.go", 2},
		{"Config.go", 2}, // the name in another case
		{"main.go", 0},   // one file
		{"a/config.go", 0},
		{"__init__.py", 0}, // a convention, not a question
	} {
		if got := len(e.ReadCopies(FindRequest{Query: tc.query})); got != tc.want {
			t.Errorf("%q: %d copies read, want %d", tc.query, got, tc.want)
		}
	}
}

// TestCopyFeatures pins the fitted order's inputs for two copies: the
// places as 1/(1+p) and whether first, each reading, and each reading
// against the copies' largest.
func TestCopyFeatures(t *testing.T) {
	rs := []CopyReading{
		{Path: "a/config.go", Current: 1, Visits: 0.4, Changes: 3},
		{Path: "b/c/config.go", Visits: 1, CoChange: 0.5, Mine: 0.25, Penalized: true, Place: 1, Alone: 1},
	}
	got := CopyFeatures(rs)
	if len(CopyFeatureNames) != 20 {
		t.Fatalf("%d names", len(CopyFeatureNames))
	}
	act := float32(math.Log1p(3))
	want := [][]float32{
		{1, 1, 1, 1, 1, 0.4, 0, 0, 0, act, 0, -0.55, -1, 0, 0, -0.6, -0.5, -0.25, 0, 2},
		{0.5, 0, 0.5, 0, 0, 1, 0.5, 0.25, 1, 0, -1, -0.65, -2, -act, -1, 0, 0, 0, -0.1, 2},
	}
	for i := range want {
		if len(got[i]) != len(CopyFeatureNames) {
			t.Fatalf("row %d: %d columns", i, len(got[i]))
		}
		for k := range want[i] {
			if math.Abs(float64(got[i][k]-want[i][k])) > 1e-6 {
				t.Errorf("row %d %s: got %v, want %v", i, CopyFeatureNames[k], got[i][k], want[i][k])
			}
		}
	}
}
