package service

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"wayfind/rank"
	"wayfind/service/hostiletest"
	"wayfind/workspace"
)

// FuzzResolvePath reads any path, from any document, over a hostile tree
// (links to / and to .., a link out to secrets, a FIFO, names with line
// breaks): the request layer answers or says the input is bad, and no
// answer, candidate or byte read is from outside the root by its real
// path. The corpus is testdata/fuzz/FuzzResolvePath, seeded with the
// tree's own hostile paths.
func FuzzResolvePath(f *testing.F) {
	tr := hostiletest.Build(f)
	roots, err := workspace.CleanRoots([]string{tr.Root})
	if err != nil {
		f.Fatal(err)
	}
	svc := New(&fakeWorkspace{eng: rank.New(workspace.Build(roots, workspace.Options{}))})
	for _, p := range tr.Paths() {
		f.Add(p, "")
		f.Add(p, tr.Root+"/docs/guide.md")
	}
	f.Fuzz(func(t *testing.T, path, from string) {
		ctx := context.Background()
		res, _, err := svc.Resolve(ctx, ResolveParams{Path: path, From: from})
		if err != nil && !errors.Is(err, rank.ErrInput) {
			t.Fatalf("%q: %v", path, err)
		}
		b, _ := json.Marshal(res)
		tr.Check(t, "resolve", path, b)
		read, err := svc.Read(ctx, ReadParams{Path: path, From: from})
		if err != nil && !errors.Is(err, rank.ErrInput) && !errors.Is(err, ErrUnreadable) {
			t.Fatalf("read %q: %v", path, err)
		}
		b, _ = json.Marshal(read)
		tr.Check(t, "read", path, b)
	})
}
