package rank

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"wayfind/workspace"
)

// changedIndex is ix with the files add added and those remove removed,
// as workspace.Update would give it.
func changedIndex(ix *workspace.Index, add, remove []workspace.File) *workspace.Index {
	files := slices.DeleteFunc(slices.Clone(ix.Files()), func(f workspace.File) bool { return slices.Contains(remove, f) })
	files = append(files, add...)
	workspace.SortFiles(files)
	return workspace.NewIndex(ix.Roots, slices.Compact(files))
}

// sameAsNew fails t unless u answers every query as New(u's index) does.
func sameAsNew(t *testing.T, step string, u *Engine, queries []string) {
	t.Helper()
	laid := u.laidOut()
	if err := laid.check(); err != nil {
		t.Fatalf("%s: the updated engine, laid out, fails a segment's check: %v", step, err)
	}
	fresh := New(u.ix)
	sameAnswers(t, step, fresh, u, queries, FindRequest{Limit: 10}, FindRequest{Limit: 3, Exact: true})
	sameAnswers(t, step+", laid out", fresh, laid, queries, FindRequest{Limit: 10}, FindRequest{Limit: 3, Exact: true})
}

// sameAnswers fails t unless got answers every query, found as each of
// finds asks (its Query set to it) and resolved, exactly as want does.
func sameAnswers(t *testing.T, what string, want, got *Engine, queries []string, finds ...FindRequest) {
	t.Helper()
	ctx := context.Background()
	for _, q := range queries {
		for _, req := range finds {
			req.Query = q
			a, err1 := want.Find(ctx, req)
			b, err2 := got.Find(ctx, req)
			if fmt.Sprint(withoutIDs(a), err1) != fmt.Sprint(withoutIDs(b), err2) {
				t.Fatalf("%s: find %+v: want %v %v, got %v %v", what, req, a, err1, b, err2)
			}
		}
		rq := ResolveRequest{Path: q}
		c, err1 := want.Resolve(ctx, rq)
		d, err2 := got.Resolve(ctx, rq)
		if c != nil && d != nil && c.Resolved != nil && d.Resolved != nil {
			c, d = withResolved(c), withResolved(d)
		}
		if fmt.Sprint(candidatesWithoutIDs(c), err1) != fmt.Sprint(candidatesWithoutIDs(d), err2) {
			t.Fatalf("%s: resolve %q: want %v %v, got %v %v", what, q, c, err1, d, err2)
		}
	}
}

// withoutIDs is a find's answer with its files' ids cleared: an engine's
// own numbering (a file updated in keeps its id, New numbers in path
// order), which no answer shows.
func withoutIDs(res *FindResult) *FindResult {
	if res == nil {
		return nil
	}
	c := *res
	c.Matches = clearedIDs(c.Matches, func(m *Match) *int32 { return &m.File })
	return &c
}

// candidatesWithoutIDs is withoutIDs of a resolve's answer.
func candidatesWithoutIDs(res *ResolveResult) *ResolveResult {
	if res == nil {
		return nil
	}
	c := *res
	id := func(c *Candidate) *int32 { return &c.File }
	c.Candidates = clearedIDs(c.Candidates, id)
	if c.Resolved != nil {
		c.Resolved = &clearedIDs([]Candidate{*c.Resolved}, id)[0]
	}
	return &c
}

// clearedIDs is a copy of list with each one's file id (id) zero.
func clearedIDs[T any](list []T, id func(*T) *int32) []T {
	list = slices.Clone(list)
	for i := range list {
		*id(&list[i]) = 0
	}
	return list
}

// TestUpdatedAnswersAsNew: an engine updated for files added and
// removed, change after change, answers every find and resolve exactly
// as an engine built from scratch over the same files, and so does the
// engine it was updated from — asked for the
// files added, the files gone (stale paths) and the rest — in two roots
// sharing directory names, with names outside ASCII and extensions new
// to the tree.
func TestUpdatedAnswersAsNew(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	files := genTree(r, 1500)
	for i := range files {
		files[i].Root = r.IntN(2)
	}
	files = append(files, workspace.File{Root: 1, Path: "Ünïcode/Ärger.go"}, workspace.File{Path: "docs/ÉCOLE.md"})
	workspace.SortFiles(files)
	ix := workspace.NewIndex([]string{"/a", "/b"}, files)
	e := New(ix)
	updated, rebuilt := 0, 0
	var removed []workspace.File
	for step := range 40 {
		var add, remove []workspace.File
		for range 1 + r.IntN(4) {
			f := genTree(r, 1)[0]
			f.Root = r.IntN(2)
			switch r.IntN(6) {
			case 0:
				f.Path = "fresh" + fmt.Sprint(step) + "/" + f.Path // a directory new to the tree
			case 1:
				f.Path = strings.TrimSuffix(f.Path, ".go") + ".novel" // an extension new to it
			case 2:
				f.Path = "Ünïcode/Über" + fmt.Sprint(step) + ".go" // otherCase
			}
			add = append(add, f)
		}
		if step%5 == 4 {
			add = append(add, removed...) // back where they were: new ids
		}
		if step%3 == 1 {
			// Letters and a length no name of an existing directory had:
			// its prunes' masks widened.
			f := e.ix.Files()[r.IntN(e.ix.Len())]
			f.Path = f.Path[:strings.LastIndexByte(f.Path, '/')+1] + "vzqxjkw_yvzqxjkw_yvzqxjkw" + fmt.Sprint(step) + ".go"
			add = append(add, f)
		}
		for range r.IntN(4) {
			remove = append(remove, e.ix.Files()[r.IntN(e.ix.Len())])
		}
		removed = remove
		next := changedIndex(e.ix, add, remove)
		before := arraysOf(e)
		u := e.Updated(next)
		if arraysOf(e) != before {
			t.Fatalf("step %d: Updated wrote into the engine it updated", step)
		}
		if u == nil {
			rebuilt++
			e = New(next)
			continue
		}
		updated++
		queries := []string{"ärger", "über", "ecole", "novel"}
		squashed := strings.NewReplacer("/", "", ".", "")
		for _, f := range slices.Concat(add, remove) {
			// The path, its name, the path as one token over the
			// directories and the name, and that with a letter of the
			// name left out (find's typo fallback).
			typoed := f.Path
			if cut := strings.LastIndexByte(f.Path, '/') + 3; cut < len(f.Path) {
				typoed = f.Path[:cut] + f.Path[cut+1:]
			}
			queries = append(queries, f.Path, f.Path[strings.LastIndexByte(f.Path, '/')+1:], squashed.Replace(f.Path), squashed.Replace(typoed))
		}
		for range 40 {
			queries = append(queries, genQuery(r, next.Files()))
		}
		sameAsNew(t, fmt.Sprint("step ", step), u, queries)
		// The base shares its arrays with the update until either
		// changes one: it answers on, untouched.
		sameAnswers(t, fmt.Sprint("the base of step ", step), New(e.ix), e, queries, FindRequest{Limit: 10})
		e = u
	}
	// Most changes are updates; a directory or extension emptied is not.
	if updated < 15 {
		t.Errorf("%d of 40 changes updated the engine (%d built it anew)", updated, rebuilt)
	}
}

// arraysOf is every array of e, printed: what Updated must leave as it
// was in the engine it starts from, which answers questions meanwhile.
func arraysOf(e *Engine) string {
	return fmt.Sprint(e.files, e.text, e.dirInfos, e.dirFileIDs, e.dirStart, e.dirWords, e.dirLinks, e.dirNameSet,
		e.stems, e.stemFileIDs, e.stemStart, e.stemMasks, e.stemLens, e.stemLenIDs, e.stemLenStart, e.stemOrder,
		e.triKeys, e.triStart, e.triStems, e.exts, e.extID, e.extRefs, e.otherCase)
}

// TestUpdatedRefuses: Updated leaves to New a change that empties a
// directory or an extension (a resolve reads whether they exist), one
// larger than patchShare allows, and another set of roots; what it
// does update answers as New.
func TestUpdatedRefuses(t *testing.T) {
	files := []workspace.File{{Path: "a/one.go"}, {Path: "a/two.go"}, {Path: "b/three.go"}, {Path: "c/four.rs"}, {Path: "m/codelens.go"}}
	for i := range 60 {
		files = append(files, workspace.File{Path: fmt.Sprintf("many/f%02d.go", i)})
	}
	workspace.SortFiles(files)
	ix := workspace.NewIndex([]string{"/r"}, files)
	e := New(ix)
	for name, c := range map[string]struct {
		next *workspace.Index
		ok   bool
	}{
		"one of a directory's two files": {changedIndex(ix, nil, []workspace.File{{Path: "a/one.go"}}), true},
		"a file added":                   {changedIndex(ix, []workspace.File{{Path: "d/five.go"}}, nil), true},
		// The stem's word starts are its first file's.
		"a stem's first file, cut otherwise": {changedIndex(ix, []workspace.File{{Path: "a/code_lens.go"}}, nil), true},
		"a directory's last file":            {changedIndex(ix, nil, []workspace.File{{Path: "b/three.go"}}), false},
		"an extension's last file":           {changedIndex(ix, []workspace.File{{Path: "c/five.go"}}, []workspace.File{{Path: "c/four.rs"}}), false},
		"more than a patchShare-th":          {changedIndex(ix, []workspace.File{{Path: "x/1.go"}, {Path: "x/2.go"}, {Path: "x/3.go"}, {Path: "x/4.go"}, {Path: "x/5.go"}}, nil), false},
		"other roots":                        {workspace.NewIndex([]string{"/s"}, files), false},
	} {
		if u := e.Updated(c.next); (u != nil) != c.ok {
			t.Errorf("%s: updated %v, want %v", name, u != nil, c.ok)
		} else if u != nil {
			sameAsNew(t, name, u, []string{"one", "two", "five", "d/five.go", "a/one.go", "many f01", "cl", "lens", "colens"})
		}
	}
}

// TestUpdatedSealed: an updated engine written to a segment and mapped
// back (the session seals what a walk updated) answers as New, and counts
// the stems it keeps of files gone towards patchShare.
func TestUpdatedSealed(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	ix, cache := savedTree(t, r, 400)
	e := New(ix)
	var gone []workspace.File
	for sid := range e.stems {
		if ids := e.stemFiles(int32(sid)); len(ids) == 1 && len(e.dirFiles(int(e.files[ids[0]].dir))) > 1 {
			gone = append(gone, ix.Files()[ids[0]])
			break
		}
	}
	if len(gone) == 0 {
		t.Fatal("no file with a name of its own")
	}
	next := changedIndex(ix, []workspace.File{{Path: "fresh/brandnew.go"}}, gone)
	u := e.Updated(next)
	if u == nil {
		t.Fatal("not updated")
	}
	if err := workspace.SaveIndex(cache, next, workspace.Options{}); err != nil {
		t.Fatal(err)
	}
	loaded, ok := workspace.LoadIndex(cache, next.Roots, workspace.Options{})
	if !ok {
		t.Fatal("saved index not loaded")
	}
	m, err := mappedEngine(t, u, loaded, loaded)
	if err != nil {
		t.Fatal(err)
	}
	sameAsNew(t, "mapped", m, []string{gone[0].Path, "brandnew", "fresh/brandnew.go"})
	if m.patched != 1 {
		t.Errorf("mapped engine counts %d stems of files gone, want 1", m.patched)
	}
}
