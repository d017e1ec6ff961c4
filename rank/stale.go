package rank

import (
	"context"
	"path"
	"sort"
	"strings"

	"wayfind/vcs"
	"wayfind/workspace"
)

// Stale paths: what the repository's own history says of a path no file
// has today. A path an agent or a person holds is more often stale than
// mistyped — from an old commit, a stack trace, a doc, a model trained on
// last year's tree — and the repository recorded every move. The old
// paths are read like today's (the same Resolve, over an engine whose
// files are the paths the history left behind: typos, another machine's
// prefix and a :line suffix all work), then followed to where the file
// lives now, or to the commit that deleted it.
//
// The reading of the old paths decides when it is at least as good as
// the best reading of today's files by staleLead: an old path named
// exactly always does (it is what the writer held); a typo of an old path
// decides only over clearly worse readings of today's, and one tied with
// today's best is a tie to report, not to settle.

// readFormer reads a relative reference from each earlier place of the
// document it is written in (fromRel in root): a document moved, and
// the links written beside its old place broke (doc/book/src/publishing.md's
// images/x.png, the document now in src/reference/). The first place
// that names a file of today, or an old path the history follows to one,
// gives that file (id; -1 when none) and the fate that moved the
// document; one that names a path the history deleted (surely) gives
// that deletion — the reference read in the life it was written in. A
// module specifier without an extension names the files the module
// resolution tries (moduleExts).
func (e *Engine) readFormer(q PathQuery, root int, fromRel string) (id int32, doc vcs.Fate, gone *Gone, ok bool) {
	h := e.repo
	if h == nil || q.Absolute || root >= len(h.formerly) || h.formerly[root] == nil {
		return -1, vcs.Fate{}, nil, false
	}
	rec := h.Record(root)
	for _, old := range h.formerly[root][fromRel] {
		p, ok := workspace.Beside(old, q.Up, q.Path)
		if !ok {
			continue
		}
		names := []string{p}
		if scriptModule(fromRel) && path.Ext(p) == "" {
			for _, ext := range moduleExts {
				names = append(names, p+ext, p+"/index"+ext)
			}
		}
		doc, _ := rec.Fate(old)
		for _, p := range names {
			id, live := e.fileID(root, p)
			f, had := rec.Fate(p)
			if !live && had && !f.Deleted {
				id, live = e.fileID(root, f.Path)
			}
			if live {
				return id, doc, nil, true
			}
			if had && f.Deleted && !f.Unsure {
				return -1, doc, &Gone{Root: root, Path: p, Fate: f}, true
			}
		}
	}
	return -1, vcs.Fate{}, nil, false
}

// DirMove says where the files a directory held went.
type DirMove struct {
	Root     int
	From, To string // root-relative directories
	Commit   vcs.Commit
	// Moved of Followed: how many of the files the history followed out
	// of From, and of those deleted from it as the move came, went to To.
	Moved, Followed int
}

// MovedDir is where the history moved the files of dir (root-relative, a
// directory no file of today is under): the one directory that received
// at least dirMoveShare of the files it followed out of it and of those
// deleted from it as the move came, each in the same directory below it
// (internal/lsp/cache → gopls/internal/cache), renamed or not (babel's
// packages/babylon/test/fixtures/…/338/actual.js became
// packages/babel-parser/test/fixtures/…/338/input.js: the directory
// moved, its files renamed with it). ok is false when no such directory
// exists today.
func (e *Engine) MovedDir(root int, dir string) (DirMove, bool) {
	h := e.repo
	dir = strings.Trim(dir, "/")
	if h == nil || dir == "" || e.ix.HoldsUnder(root, dir) {
		return DirMove{}, false
	}
	rec := h.Record(root)
	files := h.gone.ix.Files()
	lo, _ := sort.Find(len(files), func(i int) int {
		if root != files[i].Root {
			return root - files[i].Root
		}
		return strings.Compare(dir+"/", files[i].Path)
	})
	to := map[string]int{}
	by := map[string]map[vcs.Commit]int{} // the commits that moved files into each directory
	followed := 0
	var deleted []int64 // when files of dir were deleted with no successor
	for i := lo; i < len(files) && files[i].Root == root && strings.HasPrefix(files[i].Path, dir+"/"); i++ {
		f, ok := rec.Fate(files[i].Path)
		switch {
		case !ok || f.Deleted && f.Unsure:
			continue
		case f.Deleted:
			deleted = append(deleted, f.Commit.Time)
			continue
		}
		followed++
		below := path.Dir(strings.TrimPrefix(files[i].Path, dir+"/")) // "." for a file directly in dir
		d, ok := path.Dir(f.Path), true
		if below != "." {
			d, ok = strings.CutSuffix(d, "/"+below)
		}
		if ok && d != "." && e.ix.HoldsUnder(root, d) {
			to[d]++
			if by[d] == nil {
				by[d] = map[vcs.Commit]int{}
			}
			by[d][f.Commit]++
		}
	}
	best, n := "", 0
	for d, k := range to {
		if k > n || k == n && d < best {
			best, n = d, k
		}
	}
	if n == 0 {
		return DirMove{}, false
	}
	// The move is the commit that moved the most of them there (a file's
	// fate names the first of its moves: _pytest/pdb.py became
	// debugging.py years before _pytest moved into src/).
	var move vcs.Commit
	for c, k := range by[best] {
		if k > by[best][move] || k == by[best][move] && c.Hash < move.Hash {
			move = c
		}
	}
	// A file deleted from dir once the move came is one it did not take
	// along (kafka's copycat/data: three of its six files deleted in the
	// commit that moved two into copycat/errors — an API rewritten, not a
	// directory moved); one deleted before says nothing of the move
	// (_pytest's files deleted over the years before it moved into src/).
	for _, t := range deleted {
		if t >= move.Time {
			followed++
		}
	}
	if float64(n) < dirMoveShare*float64(followed) {
		return DirMove{}, false
	}
	return DirMove{Root: root, From: dir, To: best, Commit: move, Moved: n, Followed: followed}, true
}

// Moved says that the path asked for is an old path of a file that lives
// elsewhere today.
type Moved struct {
	Root int
	From string // the old path, root-relative
	Fate vcs.Fate
}

// Gone says that the path asked for is a file the history deleted, with
// no successor.
type Gone struct {
	Root int
	Path string // the old path, root-relative
	Fate vcs.Fate
}

// staleReading is the best reading of the query among the old paths.
type staleReading struct {
	root    int
	old     string
	fate    vcs.Fate
	lexical float64 // 1 for an old path named exactly
	exact   bool
	reasons []string // how the old path was read (typo:filename, dir:missing-prefix…)
}

// readStale reads the query (req.Path, parsed as q) against the old
// paths; nil when the history has nothing it clearly names.
func (e *Engine) readStale(ctx context.Context, req ResolveRequest, q PathQuery) (*staleReading, error) {
	h := e.repo
	if h == nil || h.gone.Len() == 0 {
		return nil, nil
	}
	res, err := h.gone.Resolve(ctx, ResolveRequest{Path: req.Path, From: req.From, Limit: staleReadings})
	if err != nil {
		return nil, err
	}
	c := res.Resolved
	if c == nil {
		c = sameFate(h, res.Candidates)
	}
	if c == nil {
		return nil, nil
	}
	fate, ok := h.Record(c.Root).Fate(c.Path)
	if !ok || (fate.Deleted && fate.Unsure) {
		// Not an old path; or deleted where git could not tell a delete
		// from a rename (a blob the store lacks): the history says
		// nothing it can stand by.
		return nil, nil
	}
	st := &staleReading{root: c.Root, old: c.Path, fate: fate, lexical: c.lexical, exact: res.Exact || q.Absolute && endsWithPath(q, c.Path) || searchPath(req, q) && tailOf(q.Path, c.Path)}
	if !st.exact && !nearOld(q, c) {
		return nil, nil
	}
	if st.exact {
		st.lexical = 1
	} else {
		st.reasons = c.Reasons
	}
	if !fate.Deleted {
		if _, live := e.fileID(c.Root, fate.Path); !live {
			return nil, nil // not in the index now (an uncommitted delete, an ignored file)
		}
	}
	return st, nil
}

// endsWithPath reports whether the query, read as a path, ends with
// every component of p: an old path written whole behind another
// machine's checkout (/home/u/src/proj/old/path.c:12) is named as exactly
// as a path can be from elsewhere. Only an absolute path has such a
// prefix: a relative src/loader.c is another path than loader.c.
func endsWithPath(q PathQuery, p string) bool {
	return q.Path == p || strings.HasSuffix(q.Path, "/"+p)
}

// searchPath reports whether a reference is read, as its language reads
// it, against a search path as well as beside its document (#include
// "mbedtls/cmac.h", a path in a comment): written in a document, not a
// link's target, not written ./ or ../.
func searchPath(req ResolveRequest, q PathQuery) bool {
	return req.From != "" && !req.Link && !q.Absolute && !q.Written().Relative
}

// tailOf reports whether the path written is the whole-component tail of
// p (mbedtls/cmac.h of third_party/mbedtls/include/mbedtls/cmac.h).
func tailOf(written, p string) bool {
	return written == p || strings.HasSuffix(p, "/"+written)
}

// staleReadings: how many readings of the old paths are compared, enough
// for the names one file had along its way (py/plugin/x.py,
// py/test/plugin/x.py, _py/test/plugin/x.py).
const staleReadings = 8

// sameFate settles a tie among old paths that all lead to one file
// today: several names of one file, read equally well, are no doubt about
// the file. nil when the tied readings lead apart, or are too weak.
func sameFate(h *RepoHistory, cands []Candidate) *Candidate {
	if len(cands) == 0 || cands[0].lexical < ResolveMin {
		return nil
	}
	first, ok := h.Record(cands[0].Root).Fate(cands[0].Path)
	if !ok {
		return nil
	}
	for _, c := range cands[1:] {
		if c.lexical <= cands[0].lexical-ResolveMargin {
			break
		}
		f, ok := h.Record(c.Root).Fate(c.Path)
		if !ok || c.Root != cands[0].Root || f.Deleted != first.Deleted || f.Path != first.Path ||
			(f.Deleted && f.Commit.Hash != first.Commit.Hash) {
			return nil
		}
	}
	return &cands[0]
}

// staleVerdict is what the old path's reading does to today's answer.
type staleVerdict int

const (
	staleIgnored staleVerdict = iota // today's reading is clearly better
	staleDecides                     // the history's answer is the answer
	staleTie                         // as good as today's best: a candidate, nothing resolved
)

// judgeStale weighs the old path's reading against today's best lexical
// score. A reading as good as today's best decides when today's readings
// decide nothing among themselves (ra_syntax/src/lib.rs: twenty lib.rs
// files read equally well by their src/, one old path by all it says);
// against one that would decide, it is a tie.
func judgeStale(st *staleReading, todayBest float64, todayDecides bool) staleVerdict {
	switch {
	case st == nil:
		return staleIgnored
	case st.exact || st.lexical >= todayBest+staleLead:
		return staleDecides
	case st.lexical > todayBest-staleLead && !todayDecides:
		return staleDecides
	case st.lexical > todayBest-staleLead:
		return staleTie
	}
	return staleIgnored
}

// outlivesDeletion: today's best reading of a path the history says was
// deleted still stands when it is the same file in all but git's eyes —
// the directories as written and the name's stem, its case, separators
// and extension's family aside (a file rewritten in place in another
// language, runTest.js → runTest.ts, is a delete and an add to git when
// too little text survived).
func outlivesDeletion(today Candidate) bool {
	return today.lexical >= ResolveMin && today.ev.dirs == dirExact && today.ev.stemKept
}

// nearOld reports whether c, an old path read from q but not as q
// wrote it, is a near name of it (history/near): what a typo of a path
// keeps — its extension (case aside, or one of its family; none for
// none) and the directories written (all, their tail, or one mistyped).
// A guess at a layout is near an old path by its stem alone
// (sphinx/ext/napoleon.py and doc/ext/napoleon.rst, tests/roots/linkcheck
// and sphinx/linkcheck.py): the history never had it.
func nearOld(q PathQuery, c *Candidate) bool {
	written, old := pathExt(q.Path), pathExt(c.Path)
	a, _ := extAffinity(written, old)
	ext := written == old || written != "" && a >= extFamilyAffinity
	return ext && (c.ev.dirsWritten == 0 || c.ev.dirs.keepsWritten() || c.ev.dirs == dirClose)
}

// staleCandidate is today's file an old path leads to, scored by the
// reading of the old path.
func (e *Engine) staleCandidate(st *staleReading) Candidate {
	id, _ := e.fileID(st.root, st.fate.Path)
	why := "history:renamed"
	if path.Base(st.old) == path.Base(st.fate.Path) {
		why = "history:moved"
	}
	reasons := append([]string{why + " " + st.fate.Commit.Short()}, st.reasons...)
	if ld := st.fate.LaterDeleted; ld.Hash != "" {
		// The old path was given to another file later, since deleted.
		reasons = append(reasons, "history:later-deleted "+ld.Short())
	}
	c := e.candidate(id, st.lexical, reasons)
	c.lexical = st.lexical
	return c
}

// applyStale lets the history's reading speak in v over today's sorted
// candidates. It returns the candidates in their new order, and whether
// the answer is settled (nothing else may resolve it).
func (e *Engine) applyStale(v *verdict, st *staleReading, scored []Candidate, bare bool) ([]Candidate, bool) {
	if st == nil {
		return scored, false
	}
	best := 0.0
	if len(scored) > 0 {
		best = scored[0].lexical
	}
	if bare && !st.exact && st.lexical < best+staleLead {
		// A bare name that today's files read as well as an old path is
		// a name they share, not a stale path: an old copy of lib.rs
		// says nothing of which lib.rs is meant (in real sessions the
		// history's answer for such names was mostly wrong).
		return scored, false
	}
	if bare && st.fate.Deleted && len(e.named(strings.ToLower(path.Base(st.old)))) > 0 {
		// A deleted copy of a name files of today have: one lib.rs gone
		// says nothing of the others.
		return scored, false
	}
	j := judgeStale(st, best, len(scored) > 0 && confident(scored) && standsAlone(&scored[0]))
	if j == staleIgnored {
		return scored, false
	}
	if st.fate.Deleted {
		if len(scored) > 0 && outlivesDeletion(scored[0]) {
			return scored, false
		}
		if j == staleDecides && st.exact {
			// Gone is said only of the path the history had, as read (as
			// written, or as its language reads it against a search
			// path): a near name of a deleted path is not that path.
			v.gone = &Gone{Root: st.root, Path: st.old, Fate: st.fate}
		}
		if id, ok := e.fileID(st.root, st.fate.Kin); ok && st.fate.Kin != "" {
			// The deleting commit added a file of the same name or stem:
			// perhaps a move git could not pair. The history cannot tell
			// the two lives apart: both are said, that file first among
			// the candidates, nothing resolved.
			c := e.candidate(id, st.lexical, []string{"history:deleted-beside " + st.fate.Commit.Short()})
			c.lexical = st.lexical
			return prependCandidate(scored, c), true
		}
		// Deleted, or as likely as today's best: nothing is resolved.
		return scored, true
	}
	c := e.staleCandidate(st)
	out := prependCandidate(scored, c)
	if j == staleDecides || (len(scored) > 0 && scored[0].File == c.File && scored[0].Root == c.Root) {
		// Decided, or today's best reading is the same file.
		r := c
		v.resolved = &r
		v.moved = &Moved{Root: st.root, From: st.old, Fate: st.fate}
		switch {
		case !st.exact:
			v.reading = readNearOld // a near name of an old path: its own class
		case st.fate.Split:
			// The file was split in parts: the one git paired it with
			// is one reading of several.
			v.reading = readSplit
		case st.fate.LaterDeleted.Hash != "":
			// The path had two lives: the file that moved away, and a
			// later one given the path and deleted since. Which one a
			// writer held depends on when they wrote it: its own class.
			v.reading = readTwoLives
		}
		return out, true
	}
	sort.SliceStable(out, func(a, b int) bool { return better(&out[a], &out[b]) })
	return out, true
}

// prependCandidate puts c first, leaving out another reading of the same
// file.
func prependCandidate(scored []Candidate, c Candidate) []Candidate {
	return prependOnce(scored, c, func(s Candidate) bool { return s.File == c.File && s.Root == c.Root })
}

// prependOnce is first before list, without list's entries that are
// first's (same).
func prependOnce[T any](list []T, first T, same func(T) bool) []T {
	out := make([]T, 0, len(list)+1)
	out = append(out, first)
	for _, e := range list {
		if !same(e) {
			out = append(out, e)
		}
	}
	return out
}

// oldPathMatch is today's file for a find query that is, whole, a path
// the repository's history left behind (packages/babylon/src/index.js):
// what a person pastes from an old doc expects the file it became.
func (e *Engine) oldPathMatch(query string) (Match, bool) {
	h := e.repo
	if h == nil || !strings.ContainsAny(query, `/\`) {
		return Match{}, false
	}
	q, err := ParsePath(query)
	if err != nil || q.Absolute || q.Up > 0 {
		return Match{}, false
	}
	for r, rec := range h.records {
		f, ok := rec.Fate(q.Path)
		if !ok || f.Deleted {
			continue
		}
		id, live := e.fileID(r, f.Path)
		if !live {
			continue
		}
		c := e.staleCandidate(&staleReading{root: r, old: q.Path, fate: f})
		return Match{File: id, Root: r, Path: f.Path, Score: 1, MatchedIn: []string{"history"}, Reason: c.Reasons[0]}, true
	}
	return Match{}, false
}

// prependMatch puts m first, leaving out another match of the same file.
func prependMatch(out []Match, m Match) []Match {
	return prependOnce(out, m, func(o Match) bool { return o.File == m.File && o.Root == m.Root })
}
