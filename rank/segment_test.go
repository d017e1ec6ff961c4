package rank

import (
	"bufio"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"wayfind/segment"
	"wayfind/workspace"
)

// savedTree writes a generated tree of n files (some named outside
// ASCII, so that otherCase is not empty) under a temporary root, walks
// it, saves its index and loads it back: an index with SavedIDs, as a
// warm start has.
func savedTree(t *testing.T, r *rand.Rand, n int) (*workspace.Index, string) {
	t.Helper()
	root, cache := t.TempDir(), t.TempDir()
	files := genTree(r, n)
	extra := []string{"Ünïcode/Ärger.go", "docs/ÉCOLE.md", "x/Straße.ts"}
	for _, f := range files {
		extra = append(extra, f.Path)
	}
	for _, p := range extra {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	roots := []string{root}
	if err := workspace.SaveIndex(cache, workspace.Build(roots, workspace.Options{}), workspace.Options{}); err != nil {
		t.Fatal(err)
	}
	ix, ok := workspace.LoadIndex(cache, roots, workspace.Options{})
	if !ok {
		t.Fatal("saved index not loaded")
	}
	return ix, cache
}

// mappedEngine writes e to a segment file, named by the saved index ix,
// and maps it back over over.
func mappedEngine(t *testing.T, e *Engine, ix, over *workspace.Index) (*Engine, error) {
	t.Helper()
	w := segment.NewWriter(SegmentKind)
	if !e.Put(w, ix) {
		t.Fatal("an engine of a saved index was not put")
	}
	// Written as the session writes it: whole, then renamed in place.
	base := t.TempDir()
	if err := workspace.WriteRootCache(base, ix.Roots[0], "engine.seg", func(bw *bufio.Writer) error {
		_, err := w.WriteTo(bw)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(workspace.RootCacheDir(base, ix.Roots[0]), "engine.seg")
	seg, err := segment.Open(path, SegmentKind)
	if err != nil {
		t.Fatal(err)
	}
	return Mapped(seg, over)
}

// TestMappedAnswersAsBuilt: an engine written to a segment and mapped
// back answers every find and resolve exactly as the engine built.
func TestMappedAnswersAsBuilt(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	ix, _ := savedTree(t, r, 1500)
	built := New(ix)
	mapped, err := mappedEngine(t, built, ix, ix)
	if err != nil {
		t.Fatal(err)
	}
	queries := []string{"ärger", "ecole", "strasse"}
	for range 300 {
		queries = append(queries, genQuery(r, ix.Files()))
	}
	sameAnswers(t, "mapped", built, mapped, queries, FindRequest{Limit: 10})
	if len(mapped.otherCase) == 0 {
		t.Error("no name outside ASCII reached otherCase")
	}
}

// withResolved is res with the answer it resolved to as a value, not a
// pointer that differs between two results alike.
func withResolved(res *ResolveResult) *ResolveResult {
	c := *res
	c.Candidates = append([]Candidate{*c.Resolved}, c.Candidates...)
	c.Resolved = nil
	return &c
}

// TestMappedRefused: an engine is read back only over the very index it
// was built from, and an engine whose arrays do not hold together is
// refused by name, whatever array is wrong.
func TestMappedRefused(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	ix, cache := savedTree(t, r, 300)
	built := New(ix)

	// The same tree saved again: another save, another index.
	if err := workspace.SaveIndex(cache, ix, workspace.Options{}); err != nil {
		t.Fatal(err)
	}
	again, _ := workspace.LoadIndex(cache, ix.Roots, workspace.Options{})
	if _, err := mappedEngine(t, built, ix, again); !errors.Is(err, errStale) {
		t.Errorf("mapped over another save of the index: %v", err)
	}
	walked := workspace.Build(ix.Roots, workspace.Options{})
	if New(walked).Put(segment.NewWriter(SegmentKind), walked) {
		t.Error("an engine over a walked index was put, which nothing can name")
	}
	if !New(walked).Put(segment.NewWriter(SegmentKind), ix) {
		t.Error("an engine of a walked index was not put over the same files saved")
	}

	for name, spoil := range map[string]func(e *Engine){
		"file's stem":     func(e *Engine) { e.files[0].stem = int32(len(e.stems)) },
		"file's dir":      func(e *Engine) { e.files[1].dir = -1 },
		"file's ext":      func(e *Engine) { e.files[2].ext = uint16(len(e.extRefs)) },
		"file's root":     func(e *Engine) { e.files[3].root = 1 },
		"files":           func(e *Engine) { e.files = e.files[:len(e.files)-1] },
		"dir name":        func(e *Engine) { e.dirInfos[1].name.off = uint32(len(e.text)) },
		"dir parent":      func(e *Engine) { e.dirLinks[1].parent = 1 },
		"dir depth":       func(e *Engine) { e.dirInfos[1].depth += 1 },
		"dir words":       func(e *Engine) { e.dirWords = e.dirWords[:len(e.dirWords)-1] },
		"dir files":       func(e *Engine) { e.dirFileIDs[0], e.dirFileIDs[1] = e.dirFileIDs[1], e.dirFileIDs[0] },
		"stem files":      func(e *Engine) { e.stemFileIDs[0] = e.stemFileIDs[len(e.stemFileIDs)-1] },
		"stem text":       func(e *Engine) { e.stems[0].text.n = uint32(len(e.text)) + 1 },
		"stem masks":      func(e *Engine) { e.stemMasks = e.stemMasks[1:] },
		"stems by length": func(e *Engine) { e.stemLenIDs[0] = -1 },
		"stem order":      func(e *Engine) { e.stemOrder[0] = int32(len(e.stems)) },
		"trigram stems":   func(e *Engine) { e.triStart[1] = e.triStart[len(e.triStart)-1] + 1 },
		"other case":      func(e *Engine) { e.otherCase[0].id = int32(len(e.files)) },
		"dir name set":    func(e *Engine) { e.dirNameSet[0].n = uint32(len(e.text)) + 1 },
	} {
		e := New(ix)
		if err := e.check(); err != nil {
			t.Fatalf("%s: a built engine fails its check: %v", name, err)
		}
		spoil(e)
		if err := e.check(); !errors.Is(err, segment.ErrFormat) {
			t.Errorf("%s: spoiled engine passed (%v)", name, err)
		}
	}
}
