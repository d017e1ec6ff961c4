package rank

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"wayfind/vcs"
	"wayfind/vcs/vcstest"
	"wayfind/workspace"
)

// pruneWords make up generated trees: shared words, so that names collide,
// directories repeat and queries match many files at once.
var pruneWords = []string{"server", "client", "http", "net", "auth", "middleware", "handler", "test", "tests", "util",
	"config", "index", "main", "parse", "parser", "json", "encode", "decode", "store", "cart", "payment", "spec",
	"fixtures", "lib", "src", "core", "api", "model", "view", "router", "route", "color", "x", "io"}

var pruneExts = []string{"go", "ts", "js", "py", "h", "c", "cc", "json", "md", "pb.go", "test.ts"}

var pruneSeps = []string{"", "_", "-", "."}

func genName(r *rand.Rand) string {
	n := 1 + r.IntN(3)
	parts := make([]string, n)
	sep := pruneSeps[r.IntN(len(pruneSeps))]
	for i := range parts {
		w := pruneWords[r.IntN(len(pruneWords))]
		if sep == "" && i > 0 && r.IntN(2) == 0 {
			w = strings.ToUpper(w[:1]) + w[1:] // camel case
		}
		parts[i] = w
	}
	return strings.Join(parts, sep)
}

// genTree is n distinct paths of one to four directories.
func genTree(r *rand.Rand, n int) []workspace.File {
	seen := map[string]bool{}
	var files []workspace.File
	for len(files) < n {
		depth := r.IntN(4)
		var b strings.Builder
		for range depth {
			b.WriteString(pruneWords[r.IntN(len(pruneWords))])
			b.WriteByte('/')
		}
		b.WriteString(genName(r))
		b.WriteByte('.')
		b.WriteString(pruneExts[r.IntN(len(pruneExts))])
		p := b.String()
		if !seen[p] {
			seen[p] = true
			files = append(files, workspace.File{Path: p})
		}
	}
	workspace.SortFiles(files)
	return files
}

// genQuery is a query a person might type for one of the files: its name,
// a piece of it, an abbreviation, words, a directory and a name, a typo,
// a typo in each word, a full path with a typo in its name.
func genQuery(r *rand.Rand, files []workspace.File) string {
	p := files[r.IntN(len(files))].Path
	base := p[strings.LastIndexByte(p, '/')+1:]
	stem, _ := splitExt(base)
	sq := squash(stem)
	switch r.IntN(10) {
	case 0:
		return base
	case 1:
		return sq[:1+r.IntN(len(sq))]
	case 2: // word initials and prefixes
		var b strings.Builder
		for _, w := range words(stem) {
			b.WriteString(w[:1+r.IntN(len(w))])
		}
		return b.String()
	case 3:
		return strings.Join(words(stem), " ")
	case 4:
		return strings.ReplaceAll(strings.TrimSuffix(p, "."+base[len(stem)+1:]), "/", " ")
	case 5: // one edit
		if len(sq) > 3 {
			i := r.IntN(len(sq) - 1)
			return sq[:i] + sq[i+1:i+2] + sq[i:i+1] + sq[i+2:]
		}
		return sq
	case 6:
		return strings.ReplaceAll(p, "/", "")[:max(3, len(p)/2)]
	case 7: // a directory and the name, each with a swap
		var parts []string
		for _, w := range append(splitDirs(parentDir(p)), sq) {
			if len(w) > 3 {
				i := r.IntN(len(w) - 1)
				w = w[:i] + w[i+1:i+2] + w[i:i+1] + w[i+2:]
			}
			parts = append(parts, w)
		}
		return strings.Join(parts, " ")
	case 8: // the whole path, its name's letters swapped or one dropped
		i := r.IntN(max(len(base)-1, 1))
		name := base[:i] + base[i+1:]
		if r.IntN(2) == 0 && len(base) > 1 {
			name = base[:i] + base[i+1:i+2] + base[i:i+1] + base[i+2:]
		}
		return p[:len(p)-len(base)] + name
	default:
		return pruneWords[r.IntN(len(pruneWords))] + " " + pruneWords[r.IntN(len(pruneWords))]
	}
}

// hashedCopyOrder scores a copy by a hash of its row: an order unlike
// the formula's, the same each time it is asked.
type hashedCopyOrder struct{}

var hashedAsked int // how many finds asked it (TestPrunesChangeNothing checks it was asked)

func (hashedCopyOrder) Score(rows [][]float32) ([]float32, error) {
	hashedAsked++
	out := make([]float32, len(rows))
	for i, row := range rows {
		h := uint32(2166136261)
		for _, v := range row {
			h = (h ^ math.Float32bits(v)) * 16777619
		}
		out[i] = float32(h%1000)/100 - 5
	}
	return out, nil
}

// TestPrunesChangeNothing: over generated trees and queries, find with its
// prunes (the typo search skipped when enough names beat it, the path
// readings called off, heaps cut at their worst) returns exactly what it
// returns without them, at every limit from 1 to 10, with and without a
// history, a current file, the impl preference and a fitted order of a
// shared name's copies — and so does a big
// tree's reading of its directories in two halves at once (halfDir),
// wherever they are cut, with the files of the names it matched merged
// in two halves, each into a top of its own.
func TestPrunesChangeNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	ctx := context.Background()
	hashedAsked = 0
	trees, queries := 40, 40
	if testing.Short() {
		trees = 10
	}
	for tree := range trees {
		files := genTree(r, 20+r.IntN(200))
		var shared []string // names several files have
		if tree%2 == 1 {
			// Copies of a few names in other directories, for a fitted
			// order of a shared name's copies (it runs where a history is
			// read: an empty record stands for one).
			for range 4 {
				base := path.Base(files[r.IntN(len(files))].Path)
				for _, d := range []string{"copy1", "copy2/" + pruneWords[r.IntN(len(pruneWords))]} {
					files = append(files, workspace.File{Path: d + "/" + base})
				}
				shared = append(shared, base)
			}
			workspace.SortFiles(files)
			files = slices.CompactFunc(files, func(a, b workspace.File) bool { return a.Path == b.Path })
		}
		e := New(workspace.NewIndex([]string{"/ws"}, files))
		if len(shared) > 0 {
			e = e.WithRepoHistory(NewRepoHistory([]string{"/ws"}, []*vcs.Record{{}})).WithCopyOrder(hashedCopyOrder{})
		}
		ex := *e
		ex.exhaustive = true
		split := *e
		split.halfDir = 1 + r.IntN(max(len(e.dirInfos)-1, 1))
		split.mergeSplit = 1 // every name's files merged in two halves
		for range queries {
			req := FindRequest{Query: genQuery(r, files), Impl: r.IntN(4) == 0}
			if len(shared) > 0 && r.IntN(3) == 0 {
				req.Query = shared[r.IntN(len(shared))]
			}
			if r.IntN(3) == 0 {
				req.Current = files[r.IntN(len(files))].Path
				req.History = Recency([]string{files[r.IntN(len(files))].Path, files[r.IntN(len(files))].Path})
			}
			for limit := 1; limit <= 10; limit++ {
				req.Limit = limit
				got, err1 := e.Find(ctx, req)
				want, err2 := ex.Find(ctx, req)
				if fmt.Sprint(err1) != fmt.Sprint(err2) {
					t.Fatalf("tree %d %q: errors %v and %v", tree, req.Query, err1, err2)
				}
				if err1 != nil {
					break
				}
				if !reflect.DeepEqual(got.Matches, want.Matches) {
					t.Fatalf("tree %d, %q at limit %d (impl %v, history %v):\npruned     %v\nexhaustive %v",
						tree, req.Query, limit, req.Impl, req.History != nil, matchLines(got.Matches), matchLines(want.Matches))
				}
				if halves, err := split.Find(ctx, req); err != nil || !reflect.DeepEqual(halves.Matches, want.Matches) {
					t.Fatalf("tree %d, %q at limit %d (impl %v, history %v), halves cut at directory %d of %d:\nhalves     %v (%v)\nexhaustive %v",
						tree, req.Query, limit, req.Impl, req.History != nil, split.halfDir, len(e.dirInfos), matchLines(halves.Matches), err, matchLines(want.Matches))
				}
			}
		}
	}
	if hashedAsked == 0 {
		t.Error("the fitted order of a shared name's copies was never asked")
	}
}

// TestDirReachHalvesAgree: a one-word query's directories read in two
// halves at once give every directory the positions of one pass, wherever
// the halves meet — also when two roots share directory names, so that a
// directory of the second half has ancestors well before the cut.
func TestDirReachHalvesAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for tree := range 20 {
		files := genTree(r, 20+r.IntN(150))
		roots := []string{"/ws"}
		if tree%2 == 1 {
			roots = append(roots, "/other")
			for _, f := range genTree(r, 20+r.IntN(150)) {
				f.Root = 1
				files = append(files, f)
			}
		}
		e := New(workspace.NewIndex(roots, files))
		nd := len(e.dirInfos)
		for range 10 {
			pq := newPathQuery(strings.ReplaceAll(genQuery(r, files), " ", ""))
			if pq == nil {
				continue
			}
			one := *e
			one.halfDir = 0
			want := make([]uint64, nd*len(pq.tokens))
			one.dirReach(pq, want)
			for half := 1; half < nd; half++ {
				split := *e
				split.halfDir = half
				got := make([]uint64, nd*len(pq.tokens))
				split.dirReach(pq, got)
				if !slices.Equal(got, want) {
					t.Fatalf("tree %d, %q cut at directory %d of %d: sets differ", tree, pq.tokens[0].text, half, nd)
				}
			}
		}
	}
}

func matchLines(ms []Match) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = fmt.Sprintf("%s %.3f %s", m.Path, m.Score, m.Reason)
	}
	return out
}

// FuzzPrunes: for any tree and query, find with its filters and prunes
// lists exactly what it lists when every file is read by the DP and
// nothing is cut — every match, at a threshold that keeps them all: the
// bit-set prefilters admit every file the DP would score.
func FuzzPrunes(f *testing.F) {
	f.Add("nethttpserver", "net/http/server.go\nnet/http/httptest/server.go\nserver.go")
	f.Add("buicatfil", "builtin/cat-file.c\nbuiltin/cat.c\ncat-file.h")
	f.Add("js color", "app/color.js\napp/pick-color.js\ncolor/index.js")
	f.Add("inde", "test/index/net.md\ntests/encode/index/api.decode.pb.go\nindex-io-view.go")
	f.Fuzz(func(t *testing.T, query, tree string) {
		seen := map[string]bool{}
		var files []workspace.File
		for _, p := range strings.Split(tree, "\n") {
			q, err := ParsePath(p)
			if err != nil || q.Path == "" || q.Absolute || q.Up > 0 || q.Suffix != "" || q.Path != p || seen[p] || len(files) == 64 {
				continue
			}
			seen[p] = true
			files = append(files, workspace.File{Path: p})
		}
		if len(files) == 0 {
			return
		}
		workspace.SortFiles(files)
		e := New(workspace.NewIndex([]string{"/ws"}, files))
		ex := *e
		ex.exhaustive = true
		req := FindRequest{Query: query, Limit: len(files), Threshold: 1e-9}
		got, err1 := e.Find(context.Background(), req)
		want, err2 := ex.Find(context.Background(), req)
		if fmt.Sprint(err1) != fmt.Sprint(err2) {
			t.Fatalf("errors %v and %v", err1, err2)
		}
		if err1 == nil && !reflect.DeepEqual(got.Matches, want.Matches) {
			t.Fatalf("%q:\nfiltered   %v\nexhaustive %v", query, matchLines(got.Matches), matchLines(want.Matches))
		}
	})
}

// TestAlignColumnsIsAlignDirs: alignAll's shortcut — directories in path
// order, each reusing the componentMatch columns of the upper directories
// it shares with the one before — aligns every directory of generated
// trees with written directories (typos and capitals among them) exactly
// as alignDirs does, whichever directories are asked.
func TestAlignColumnsIsAlignDirs(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for tree := range 30 {
		files := genTree(r, 50+r.IntN(200))
		e := New(workspace.NewIndex([]string{"/ws"}, files))
		for range 10 {
			var comps []string
			for range 1 + r.IntN(4) {
				w := pruneWords[r.IntN(len(pruneWords))]
				switch r.IntN(4) {
				case 0:
					w = strings.ToUpper(w[:1]) + w[1:]
				case 1:
					if len(w) > 3 {
						i := r.IntN(len(w) - 1)
						w = w[:i] + w[i+1:i+2] + w[i:i+1] + w[i+2:]
					}
				}
				comps = append(comps, w)
			}
			rq := newResolveQuery(strings.Join(comps, "/") + "/name.go")
			var dirs []int32
			for d := range e.dirInfos {
				if d > 0 && r.IntN(3) > 0 {
					dirs = append(dirs, int32(d))
				}
			}
			got := make([]dirAlignment, len(dirs))
			e.alignColumns(rq, dirs, got, nil, nil)
			for k, d := range dirs {
				p := e.pathOf(d, nil)
				if want := alignDirs(&rq.dir, &p); got[k] != want {
					t.Fatalf("tree %d, %q against %q: %+v, want %+v", tree, comps, p.comps, got[k], want)
				}
			}
		}
	}
}

// alignAll's alignments of many candidates are the ones alignment finds
// for each candidate directory afterwards, the same as aligned alone; the
// foreign prefix read from them, and their prices past it, are the ones
// read from each directory aligned alone — deeper than a sequence of
// columns goes too.
func TestAlignAllFound(t *testing.T) {
	var ixFiles []workspace.File
	for i := range alignSplit + 100 {
		ixFiles = append(ixFiles, workspace.File{Path: fmt.Sprintf("m%d/src/pkg%d/package-info.java", i%37, i)})
	}
	deep := strings.Repeat("d/", maxDepth+3)
	for i := range 5 {
		ixFiles = append(ixFiles, workspace.File{Path: fmt.Sprintf("m%d/%ssrc/pkg/package-info.java", i, deep)})
	}
	workspace.SortFiles(ixFiles)
	ix := workspace.NewIndex([]string{"/ws"}, ixFiles)
	e := New(ix)
	for _, query := range []string{"m3/src/pkg/package-info.java", "home/u/m3/src/pkg/package-info.java", "src/m3/pkg/package-info.java"} {
		rq := newResolveQuery(query)
		cands, _ := e.resolveCandidates(rq)
		if len(cands) < alignSplit {
			t.Fatalf("%d candidates, want at least %d", len(cands), alignSplit)
		}
		e.alignAll(rq, cands)
		if len(rq.alignedDirs) == 0 {
			t.Fatal("alignAll aligned nothing")
		}
		rq.foreign = e.foreignPrefix(rq, cands)
		rq.priceAll()
		alone := newResolveQuery(query)
		if want := e.foreignPrefix(alone, cands); rq.foreign != want {
			t.Fatalf("%s: foreign prefix %d, want %d", query, rq.foreign, want)
		}
		for _, c := range cands {
			d := e.files[c.id].dir
			p := e.pathOf(d, nil)
			want := alignDirs(&rq.dir, &p)
			if got := e.alignment(rq, d); got != want {
				t.Fatalf("%s, %s: %+v, want %+v", query, e.filePath(c.id), got, want)
			}
			if got, want := e.dirScore(rq, d), want.score(rq.foreign); got != want {
				t.Fatalf("%s, %s: priced %+v, want %+v", query, e.filePath(c.id), got, want)
			}
		}
		if len(rq.aligned) != 0 {
			t.Errorf("%s: %d directories aligned again on demand", query, len(rq.aligned))
		}
	}
}

// shortNames are few names, some a typo or a case apart, so that a
// generated tree shares each among many files.
var shortNames = []string{"input.js", "Input.js", "input.ts", "inptu.js", "input_test.js", "index.js", "output.json", "main.go", "mian.go", "parser.go", "input.JS", "main.GO"}

// sharedDirs are few directory names, so that paths repeat each other's
// directories at different depths.
var sharedDirs = []string{"src", "lib", "core", "test", "api", "app"}

// genSharedTree is n distinct paths named from shortNames: half of them
// under zero to five directories, half as lead/[inner/]mid/name, where
// the readings of mid/name differ by a directory more or less, within
// ResolveMargin of each other.
func genSharedTree(r *rand.Rand, n int) []string {
	seen := map[string]bool{}
	var paths []string
	for len(paths) < n {
		var b strings.Builder
		if r.IntN(2) == 0 {
			for range r.IntN(6) {
				b.WriteString(sharedDirs[r.IntN(len(sharedDirs))])
				b.WriteByte('/')
			}
		} else {
			for range 1 + r.IntN(2) {
				b.WriteString(pruneWords[r.IntN(len(pruneWords))])
				b.WriteByte('/')
			}
			if r.IntN(2) == 0 {
				b.WriteString("internal/")
			}
			b.WriteString(sharedDirs[r.IntN(2)])
			b.WriteByte('/')
		}
		b.WriteString(shortNames[r.IntN(len(shortNames))])
		if p := b.String(); !seen[p] {
			seen[p] = true
			paths = append(paths, p)
		}
	}
	return paths
}

// genResolveQuery is a wrong path for one of the files: a typo in its
// name, a directory changed or dropped, the bare name, the name under
// directories of its own, the path behind another machine's checkout of
// the root, or the path itself.
func genResolveQuery(r *rand.Rand, paths []string, root string) string {
	p := paths[r.IntN(len(paths))]
	dirs := strings.Split(p, "/")
	name := dirs[len(dirs)-1]
	dirs = dirs[:len(dirs)-1]
	switch r.IntN(8) {
	case 6:
		dirs = dirs[max(len(dirs)-1, 0):]
	case 0:
		if len(name) > 3 {
			name = name[:1] + name[2:3] + name[1:2] + name[3:]
		}
	case 1:
		if len(dirs) > 0 {
			dirs[r.IntN(len(dirs))] = sharedDirs[r.IntN(len(sharedDirs))]
		}
	case 2:
		if len(dirs) > 0 {
			dirs = dirs[1:]
		}
	case 3:
		dirs = nil
	case 4:
		dirs = []string{sharedDirs[r.IntN(len(sharedDirs))], sharedDirs[r.IntN(len(sharedDirs))]}
	case 5:
		return "/home/someone/" + filepath.Base(root) + "/" + p
	}
	return strings.Join(append(dirs, name), "/")
}

// TestResolveShortlistChangesNothing: over generated trees where a few
// names are shared by many files, with and without a history (activity)
// and with and without where the user works, Resolve scoring every
// candidate (on two cores when they are many) and building only its
// shortlist answers exactly as building every candidate on one core, at
// limits below, at and above what the shortlist keeps.
func TestResolveShortlistChangesNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	trees, queries := 4, 100
	if testing.Short() {
		trees = 2
	}
	for range trees {
		repo := vcstest.New(t)
		paths := genSharedTree(r, 150+r.IntN(250))
		for _, p := range paths {
			repo.Write(p, vcstest.Text(p, 5))
		}
		repo.Commit("start")
		for c := range 8 { // some copies busier than others
			for range 1 + r.IntN(20) {
				p := paths[r.IntN(len(paths))]
				repo.Write(p, vcstest.Text(fmt.Sprint(p, c), 5))
			}
			repo.Commit("work")
		}
		roots, without, with := historyEngines(t, repo.Dir)
		for _, e := range []*Engine{without, with} {
			resolveAsExhaustive(t, r, e, paths, roots[0], queries)
		}
	}
	// The nearest of a lexical tie, and the one as near, behind more
	// files than the shortlist keeps in result order.
	var tie []string
	for i := range 12 {
		tie = append(tie, fmt.Sprintf("p%d/checker/x.go", i))
	}
	for _, c := range []struct {
		name  string
		paths []string
		first string
	}{
		{"the nearest moves first", append(slices.Clone(tie), "q/internal/checker/x.go"), "q/internal/checker/x.go"},
		{"as near as another: neither moves", append(slices.Clone(tie), "q/internal/checker/x.go", "q/inner/checker/x.go"), "p0/checker/x.go"},
	} {
		files := make([]workspace.File, len(c.paths))
		for i, p := range c.paths {
			files[i] = workspace.File{Path: p}
		}
		workspace.SortFiles(files)
		e := New(workspace.NewIndex([]string{"/ws"}, files))
		ex := *e
		ex.exhaustive = true
		req := ResolveRequest{Path: "checker/x.go", Current: "/ws/q/y.go", Limit: 3}
		got, err1 := e.Resolve(context.Background(), req)
		want, err2 := ex.Resolve(context.Background(), req)
		if err1 != nil || err2 != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s:\nshortlist  %+v (%v)\nexhaustive %+v (%v)", c.name, got, err1, want, err2)
		}
		if got.Candidates[0].Path != c.first {
			t.Errorf("%s: %s first, want %s", c.name, got.Candidates[0].Path, c.first)
		}
	}
	// Candidates enough to be scored in two halves.
	paths := genSharedTree(r, 4*alignSplit)
	files := make([]workspace.File, len(paths))
	for i, p := range paths {
		files[i] = workspace.File{Path: p}
	}
	workspace.SortFiles(files)
	e := New(workspace.NewIndex([]string{"/ws"}, files))
	var common []string // the paths of the most shared stem
	for _, p := range paths {
		if strings.HasPrefix(strings.ToLower(path.Base(p)), "input.") {
			common = append(common, p)
		}
	}
	resolveAsExhaustive(t, r, e, common, "/ws", queries/4)
}

// resolveAsExhaustive asks e and e exhaustive the same generated
// questions, and fails on the first answer they differ in.
func resolveAsExhaustive(t *testing.T, r *rand.Rand, e *Engine, paths []string, root string, queries int) {
	t.Helper()
	ctx := context.Background()
	ex := *e
	ex.exhaustive = true
	for range queries {
		req := ResolveRequest{Path: genResolveQuery(r, paths, root)}
		if r.IntN(2) == 0 {
			req.Current = filepath.Join(root, paths[r.IntN(len(paths))])
			req.History = []Visit{{File: filepath.Join(root, paths[r.IntN(len(paths))]), Weight: 1}}
		}
		if r.IntN(4) == 0 {
			req.From = filepath.Join(root, paths[r.IntN(len(paths))])
		}
		for _, limit := range []int{1, contradictionWindow, 7, 10} { // the shortlist keeps max(limit, contradictionWindow)
			req.Limit = limit
			got, err1 := e.Resolve(ctx, req)
			want, err2 := ex.Resolve(ctx, req)
			if fmt.Sprint(err1) != fmt.Sprint(err2) {
				t.Fatalf("%q: errors %v and %v", req.Path, err1, err2)
			}
			if err1 != nil {
				break
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%+v (history %v):\nshortlist  %+v\nexhaustive %+v", req, e.repo != nil, got, want)
			}
		}
	}
}

// TestDirTermsMemoIsMatchDirTerms: over generated trees and directory
// terms (words of the trees' directories, their prefixes, pieces and
// typos, repeated or not), the memo reads every directory exactly as
// matchDirTerms does, to the last bit — asked in any order, and again
// after a reset for other terms.
func TestDirTermsMemoIsMatchDirTerms(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var memo dirTermsMemo
	term := func() string {
		w := squash(pruneWords[r.IntN(len(pruneWords))])
		switch r.IntN(4) {
		case 0:
			return w[:1+r.IntN(len(w))] // a prefix
		case 1:
			if len(w) > 3 {
				return w[:1] + w[2:3] + w[1:2] + w[3:] // a typo
			}
		case 2:
			if len(w) > 4 {
				return w[1:] // a piece
			}
		}
		return w
	}
	for tree := range 30 {
		e := New(workspace.NewIndex([]string{"/ws"}, genTree(r, 50+r.IntN(300))))
		for range 10 {
			terms := make([]string, 1+r.IntN(5))
			for i := range terms {
				terms[i] = term()
			}
			memo.reset(e, terms)
			order := r.Perm(len(e.dirInfos))
			for _, d := range order {
				var buf pathBuf
				want := matchDirTerms(terms, e.pathOf(int32(d), buf[:]).sq)
				if got := memo.of(e, int32(d)); got != want {
					t.Fatalf("tree %d, terms %q, %s: %v, want %v", tree, terms, strings.Join(e.pathOf(int32(d), nil).comps, "/"), got, want)
				}
			}
		}
	}
}
