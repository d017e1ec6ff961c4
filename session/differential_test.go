package session

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"wayfind/rank"
	"wayfind/symbols"
	"wayfind/workspace"
)

// TestChangesAnswerAsAFreshBuild is the differential test of the live
// workspace: over generated sequences of changes on a real tree — files
// added, removed and renamed, directories emptied and made, extensions
// new to the tree and gone from it — reported as a client reports them,
// with compactions and restarts (Open from the saved index and directory
// times) between them, every find and resolve the session answers is
// exactly what an engine built from scratch over a fresh walk answers.
func TestChangesAnswerAsAFreshBuild(t *testing.T) {
	for seed := range uint64(3) {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 53))
			dir := t.TempDir()
			var files []string // root-relative, slash-separated
			for range 300 {
				files = append(files, genFile(r, ""))
			}
			for _, f := range files {
				write(t, filepath.Join(dir, filepath.FromSlash(f)))
			}
			opts := Options{Symbols: symbols.IndexerOptions{CacheDir: t.TempDir()}, NoSymbols: true, NoContent: true}
			s := New(opts)
			defer func() { s.Close() }()
			s.SetRoots([]string{dir})
			for step := range 30 {
				changed, gone := changeTree(t, r, dir, step)
				files = slices.DeleteFunc(files, func(f string) bool { return slices.Contains(gone, f) })
				s.Changed(changed)
				switch r.IntN(6) {
				case 0: // the heap's copies written as a new base
					if cur := s.snap.Load(); cur != nil && !cur.sealed {
						s.compactor.Compact(cur.view(), s.opts.WaitReady)
					}
				case 1: // a new server: the saved index and directory times
					s.Close()
					s = New(opts)
					s.SetRoots([]string{dir})
				}
				eng, err := s.Engine(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				fresh := rank.New(workspace.Build([]string{dir}, workspace.Options{}))
				queries := []string{"orphan", "novel", "thing.legacy"}
				for _, p := range slices.Concat(changed, gone) {
					rel, err := filepath.Rel(dir, p)
					if err == nil {
						rel = filepath.ToSlash(rel)
						queries = append(queries, rel, filepath.Base(rel), typo(r, rel))
					}
				}
				for range 20 {
					f := eng.Index().Files()[r.IntN(eng.Index().Len())].Path
					queries = append(queries, typo(r, f), filepath.Base(f), typo(r, filepath.Base(f)))
				}
				sameAnswers(t, fmt.Sprint("step ", step), fresh, eng, queries)
			}
		})
	}
}

// sameAnswers fails t unless got answers every query, found and
// resolved, as want does; the engines' indexes are compared first.
func sameAnswers(t *testing.T, what string, want, got *rank.Engine, queries []string) {
	t.Helper()
	if !slices.Equal(want.Index().Files(), got.Index().Files()) {
		t.Fatalf("%s: the session's files differ from a walk's:\n%v\n%v", what, got.Index().Files(), want.Index().Files())
	}
	ctx := context.Background()
	for _, q := range queries {
		for _, req := range []rank.FindRequest{{Query: q, Limit: 10}, {Query: q, Limit: 3, Exact: true}} {
			a, err1 := want.Find(ctx, req)
			b, err2 := got.Find(ctx, req)
			if shown(a, err1) != shown(b, err2) {
				t.Fatalf("%s: find %+v: want %v %v, got %v %v", what, req, a, err1, b, err2)
			}
		}
		req := rank.ResolveRequest{Path: q}
		c, err1 := want.Resolve(ctx, req)
		d, err2 := got.Resolve(ctx, req)
		if shown(c, err1) != shown(d, err2) {
			t.Fatalf("%s: resolve %q: want %v %v, got %v %v", what, q, c, err1, d, err2)
		}
	}
}

// shown is an answer as a client is shown it (its JSON: paths, scores,
// reasons, what resolved), or its error: the engines' own numbering of
// their files (an engine updated keeps its files' ids, one built numbers
// them in path order) is not part of it. rank's update test compares
// the engines' answers whole.
func shown(res any, err error) string {
	if err != nil {
		return err.Error()
	}
	b, err := json.Marshal(res)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// The generated tree: a few directories two deep, names from a small
// vocabulary so that names are shared, a few extensions.
var (
	genDirs  = []string{"src", "lib", "pkg", "internal", "cmd", "tests", "docs", "api", "server", "client"}
	genNames = []string{"handler", "server", "client", "config", "router", "util", "parser", "lexer", "index", "main", "thing", "widget", "store", "cache", "http_server", "HttpClient"}
	genExts  = []string{".go", ".ts", ".py", ".rs", ".md", "_test.go", ".legacy"}
)

// genFile is a path under prefix ("" or ending in '/').
func genFile(r *rand.Rand, prefix string) string {
	p := prefix + genDirs[r.IntN(len(genDirs))] + "/"
	if r.IntN(2) == 0 {
		p += genDirs[r.IntN(len(genDirs))] + "/"
	}
	return p + genNames[r.IntN(len(genNames))] + genExts[r.IntN(len(genExts))]
}

// changeTree makes one step's changes on disk: what a client reports
// (absolute paths), and the files it removed (root-relative).
func changeTree(t *testing.T, r *rand.Rand, dir string, step int) (changed, gone []string) {
	t.Helper()
	var have []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			have = append(have, filepath.ToSlash(rel))
		}
		return nil
	})
	abs := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
	for range 1 + r.IntN(3) {
		switch r.IntN(7) {
		case 0, 1: // a file added
			p := genFile(r, "")
			write(t, abs(p))
			changed = append(changed, abs(p))
		case 2: // a file removed
			p := have[r.IntN(len(have))]
			if os.Remove(abs(p)) == nil {
				changed, gone = append(changed, abs(p)), append(gone, p)
			}
		case 3: // a file renamed
			p, q := have[r.IntN(len(have))], genFile(r, "")
			os.MkdirAll(filepath.Dir(abs(q)), 0o755)
			if os.Rename(abs(p), abs(q)) == nil {
				changed, gone = append(changed, abs(p), abs(q)), append(gone, p)
			}
		case 4: // a directory made, with files
			d := fmt.Sprintf("fresh%d/", step)
			for range 1 + r.IntN(3) {
				write(t, abs(genFile(r, d)))
			}
			changed = append(changed, abs(strings.TrimSuffix(d, "/")))
		case 5: // a directory emptied: every file of one removed
			d := path2Dir(have[r.IntN(len(have))])
			for _, p := range have {
				if path2Dir(p) == d && os.Remove(abs(p)) == nil {
					changed, gone = append(changed, abs(p)), append(gone, p)
				}
			}
		case 6: // an extension new to the tree, or the last file of one gone
			if r.IntN(2) == 0 {
				p := genFile(r, "") + ".orphan"
				write(t, abs(p))
				changed = append(changed, abs(p))
			} else {
				for _, p := range have {
					if strings.HasSuffix(p, ".legacy") && os.Remove(abs(p)) == nil {
						changed, gone = append(changed, abs(p)), append(gone, p)
					}
				}
			}
		}
	}
	return changed, gone
}

func path2Dir(p string) string { return p[:strings.LastIndexByte(p, '/')+1] }

// typo is p with one edit: a letter dropped, doubled or swapped with the
// next.
func typo(r *rand.Rand, p string) string {
	if len(p) < 3 {
		return p
	}
	i := 1 + r.IntN(len(p)-2)
	switch r.IntN(3) {
	case 0:
		return p[:i] + p[i+1:]
	case 1:
		return p[:i] + p[i:i+1] + p[i:]
	}
	return p[:i] + p[i+1:i+2] + p[i:i+1] + p[i+2:]
}
