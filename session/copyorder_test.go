package session

import (
	"context"
	"slices"
	"testing"
	"time"

	"wayfind/rank"
	"wayfind/symbols"
	"wayfind/vcs/vcstest"
)

// reversedPlaces is a copy order putting the formula's last copy first.
type reversedPlaces struct{}

func (reversedPlaces) Score(rows [][]float32) ([]float32, error) {
	k := slices.Index(rank.CopyFeatureNames, "place")
	out := make([]float32, len(rows))
	for i, r := range rows {
		out[i] = -r[k]
	}
	return out, nil
}

// TestCopyOrderFollowsTheSession: a session starts with the shipped
// copy order (find/status says so); the engines it hands out once a copy
// order is set order a shared name's copies by it; with none (it could
// not be read), the formula orders and status says why.
func TestCopyOrderFollowsTheSession(t *testing.T) {
	repo := vcstest.New(t)
	for _, p := range []string{"a/config.go", "b/config.go", "c/config.go", "a/main.go"} {
		repo.Write(p, vcstest.Text(p, 5))
	}
	repo.Commit("configs")
	s := New(Options{Symbols: symbols.IndexerOptions{CacheDir: t.TempDir()}})
	defer s.Close()
	s.SetRoots([]string{repo.Dir})
	if !has(t, s, "a/main.go") || !s.WaitHistory(context.Background(), 10*time.Second) {
		t.Fatal("the repository was not indexed")
	}
	first := func() string {
		eng, err := s.Engine(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		res, err := eng.Find(context.Background(), rank.FindRequest{Query: "config.go", Current: repo.Dir + "/a/main.go"})
		if err != nil || len(res.Matches) != 3 {
			t.Fatalf("%v, %v", res, err)
		}
		return res.Matches[0].Path
	}
	if st := s.Status().CopyOrder; !st.Loaded || st.Reason != "" {
		t.Errorf("the shipped copy order: status %+v", st)
	}
	s.SetCopyOrder(nil, CopyOrderStatus{Reason: "unreadable"})
	if st := s.Status().CopyOrder; st.Loaded || st.Reason != "unreadable" {
		t.Errorf("status %+v", st)
	}
	if got := first(); got != "a/config.go" {
		t.Errorf("no copy order: %s first, want the current file's copy", got)
	}
	s.SetCopyOrder(reversedPlaces{}, CopyOrderStatus{LoadMs: 1})
	if st := s.Status().CopyOrder; !st.Loaded {
		t.Errorf("status %+v", st)
	}
	if got := first(); got != "c/config.go" {
		t.Errorf("the copy order set: %s first, want its choice", got)
	}
}
