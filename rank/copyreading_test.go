package rank

import (
	"testing"

	"wayfind/workspace"
)

// TestReadCopies pins a copy's reading as find's tie-break reads it: the
// current file's proximity and the visits' mean apart (a copy beside the
// current file 1, beside the visit its sibling's 0.4), the test penalty
// on a fixture's copy while the user works in source, and a path the
// index does not hold left out.
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
			{Path: "pkg/b/config.go", Current: 0.4, Visits: 1},
			{Path: "testdata/config.go", Penalized: true},
		}},
		{"nothing says where the user works", FindRequest{}, []CopyReading{
			{Path: "pkg/a/config.go"},
			{Path: "pkg/b/config.go"},
			{Path: "testdata/config.go", Penalized: true},
		}},
		{"the user works among fixtures", FindRequest{Current: "/ws/testdata/config.go"}, []CopyReading{
			{Path: "pkg/a/config.go"},
			{Path: "pkg/b/config.go"},
			{Path: "testdata/config.go", Current: 1},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := e.ReadCopies(tc.req, 0, []string{"pkg/a/config.go", "pkg/b/config.go", "testdata/config.go", "pkg/c/config.go"})
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
