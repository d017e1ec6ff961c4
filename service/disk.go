package service

import (
	"context"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"wayfind/rank"
	"wayfind/wire"
	"wayfind/workspace"
)

// offIndex answers, from the disk, a path the index did not hold exactly
// (see onDisk, inSkipped, inSkippedDirs, tried in that order; the last
// only when the index had no candidate at all). The path is parsed once.
//
// doubt is set when the path leads into a skipped directory whose listing
// a bound cut short before anything there resolved it: the file meant may
// lie in the part not listed, so the index's answer, elsewhere, must not
// be given as resolved.
func offIndex(ctx context.Context, eng *rank.Engine, p ResolveParams, noCandidates bool, listed *skippedListing) (out wire.Resolve, ok, doubt bool) {
	q, err := rank.ParsePath(p.Path)
	if err != nil {
		return wire.Resolve{}, false, false
	}
	// The disk is the truth for existence: a path naming a file the
	// index leaves out is that file.
	if out, ok := onDisk(eng, q, p.From); ok {
		return out, true, false
	}
	if q.Up > 0 {
		return wire.Resolve{}, false, false // climbing: only an existing file counts
	}
	// A path into a directory the index skips is resolved there.
	if out, ok, cut := inSkipped(ctx, eng, q, p); ok || cut {
		return out, ok, cut && !ok
	}
	// A path the index has nothing for may be in one it skipped.
	if noCandidates {
		out, ok := inSkippedDirs(ctx, eng, q, p, listed)
		return out, ok, false
	}
	return wire.Resolve{}, false, false
}

// onDisk answers a path that names, exactly, an existing regular file
// inside a root that the index does not hold — ignored by a .gitignore,
// in an always-skipped directory (node_modules, .git), or not indexed
// yet. The path is read as resolve reads it (./ and ../ against the
// referring file, absolute paths, file:// URIs, :line suffixes); a file
// reached through a symlink counts only when the link's target is inside
// the same root. Nothing outside the roots is ever returned.
func onDisk(eng *rank.Engine, q rank.PathQuery, from string) (wire.Resolve, bool) {
	ix := eng.Index()
	fromRoot, fromRel, fromOK := 0, "", false
	if abs, ok := wire.FilePath(from); ok {
		fromRoot, fromRel, fromOK = ix.RootOf(abs)
	}
	for _, p := range ix.Places(q.Written(), fromRoot, fromRel, fromOK) {
		if ix.Contains(p.Root, p.Rel) || !ix.FileAt(p.Root, p.Rel) {
			continue // a file of the index (the engine's answer stands), or none inside its root
		}
		t := filepath.Join(ix.Roots[p.Root], filepath.FromSlash(p.Rel))
		c := wire.Candidate{URI: wire.FileURI(t), Path: p.Rel, Score: 1, Reasons: []string{"exact", "dir:excluded"}, Ignored: true}
		if q.Line > 0 {
			pos := wire.Position{Line: q.Line - 1, Character: max(q.Col-1, 0)}
			c.Range = &wire.Range{Start: pos, End: pos}
		}
		return wire.Resolve{Resolved: &c, Candidates: []wire.Candidate{c}, Exact: true}, true
	}
	return wire.Resolve{}, false
}

// Bounds of listing a skipped directory on demand (variables so that a
// test can make a listing run out).
var (
	maxSkippedFiles = 200_000
	maxSkippedWalk  = 200 * time.Millisecond
)

// inSkipped resolves a path whose directories lead into a directory the
// index leaves out (node_modules/semver/packge.json): the deepest
// directory the path names that exists on disk but holds no file of the
// index is listed (bounded: maxSkippedFiles, maxSkippedWalk; a listing cut
// short says so in the reasons) and the path resolved among its files.
// ok is false when the path names no such directory or nothing there
// resolves it (a stale directory left behind by a move, holding only
// caches); then the index's answer stands. Links are not followed:
// nothing outside the roots.
func inSkipped(ctx context.Context, eng *rank.Engine, q rank.PathQuery, p ResolveParams) (out wire.Resolve, ok, cut bool) {
	ix := eng.Index()
	for r, root := range ix.Roots {
		rel, ok := relIn(ix, r, q)
		if !ok {
			continue
		}
		comps := strings.Split(rel, "/")
		for k := len(comps) - 1; k >= 1; k-- {
			dir := strings.Join(comps[:k], "/")
			abs := filepath.Join(root, filepath.FromSlash(dir))
			if _, ok := workspace.DirInside(ix.Roots, abs); !ok || ix.HoldsUnder(r, dir) {
				continue // not a directory, or one whose real path leaves the roots: never listed
			}
			sub, cut := skippedEngine(ctx, ix.Roots, []workspace.File{{Root: r, Path: dir}})
			out, ok := resolveAmong(ctx, ix.Roots, sub, cut, rel+q.Suffix, p)
			return out, ok, cut
		}
	}
	return wire.Resolve{}, false, false
}

// inSkippedDirs resolves a path the index has no candidate for at all
// among the files of every directory the walk skipped (node_modules,
// ignored build trees), listed on demand within the same bounds: their
// candidates, marked, replace the index's empty answer, resolved only
// when one is clearly right there. The listing is remembered briefly
// (listed; nil: not at all).
func inSkippedDirs(ctx context.Context, eng *rank.Engine, q rank.PathQuery, p ResolveParams, listed *skippedListing) (wire.Resolve, bool) {
	ix := eng.Index()
	if len(ix.Skipped) == 0 {
		return wire.Resolve{}, false
	}
	sub, cut := listed.engine(ctx, ix)
	out, _ := resolveAmong(ctx, ix.Roots, sub, cut, q.Path+q.Suffix, p)
	return out, len(out.Candidates) > 0
}

// skippedListing remembers, for skippedFresh, the files of every
// directory an index skipped (inSkippedDirs): every resolve with no
// candidate in the index would list them all again, a cost that grows
// with the tree and its skipped directories. Those directories are not
// watched, so a listing is trusted only briefly.
type skippedListing struct {
	mu    sync.Mutex
	ix    *workspace.Index
	at    time.Time
	sub   *rank.Engine
	cut   bool
	clear *time.Timer // lets the listing go when it is no longer fresh
}

const skippedFresh = 10 * time.Second

// engine is skippedEngine over ix.Skipped, remembered (a listing a
// cancelled request cut short is not).
func (l *skippedListing) engine(ctx context.Context, ix *workspace.Index) (*rank.Engine, bool) {
	if l == nil {
		return skippedEngine(ctx, ix.Roots, ix.Skipped)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ix == ix && time.Since(l.at) < skippedFresh {
		return l.sub, l.cut
	}
	sub, cut := skippedEngine(ctx, ix.Roots, ix.Skipped)
	if ctx.Err() != nil {
		return sub, cut
	}
	l.ix, l.at, l.sub, l.cut = ix, time.Now(), sub, cut
	if l.clear != nil {
		l.clear.Stop()
	}
	l.clear = time.AfterFunc(skippedFresh, func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		if time.Since(l.at) >= skippedFresh {
			l.ix, l.sub = nil, nil
		}
	})
	return sub, cut
}

// resolveAmong resolves path among the files of sub (skipped directories
// listed, cut when a bound stopped the listing), with p's history and
// limit, its candidates marked as coming from outside the index; ok when
// it read one of them clearly (rank.ResolveResult.Clear), resolved or
// not.
func resolveAmong(ctx context.Context, roots []string, sub *rank.Engine, cut bool, path string, p ResolveParams) (out wire.Resolve, ok bool) {
	res, err := sub.Resolve(ctx, rank.ResolveRequest{Path: path, History: p.weighed, Limit: p.Limit})
	if err != nil {
		return wire.Resolve{}, false
	}
	guardResult(roots, res)
	clear := res.Clear()
	if cut || p.historyPending {
		// Cut: clear only among what was listed, the rest may hold
		// better. Pending: a guess from the names alone, withheld as the
		// index's is while the history is read.
		res.Withhold()
	}
	clampLine(sub, res)
	out = wire.FromResolve(roots, res)
	out.HistoryPending = p.historyPending
	mark := func(c *wire.Candidate) {
		c.Ignored = true
		c.Reasons = append(c.Reasons, "dir:excluded")
		if cut {
			c.Reasons = append(c.Reasons, "listing:cut")
		}
		if p.historyPending {
			c.Reasons = append(c.Reasons, "history:pending")
		}
	}
	if out.Resolved != nil {
		mark(out.Resolved)
	}
	for i := range out.Candidates {
		mark(&out.Candidates[i])
	}
	return out, clear
}

// relIn is the query's path relative to root r: as written when relative;
// below the root when absolute inside it; and for another machine's
// absolute path (/home/dev/proj/node_modules/…, C:\src\…) from the
// component that starts the longest chain of directories existing below
// the root (C:\src\node_modules\yallist\… in a root that has src/ too is
// node_modules/yallist/…).
func relIn(ix *workspace.Index, r int, q rank.PathQuery) (string, bool) {
	if !q.Absolute && !q.Drive {
		return q.Path, true
	}
	if !q.Drive {
		if ri, rel, ok := ix.RootOf(string(filepath.Separator) + filepath.FromSlash(q.Path)); ok {
			return filepath.ToSlash(rel), ri == r
		}
	}
	comps := strings.Split(q.Path, "/")
	best, bestDepth := 0, 0
	for k := 0; k < len(comps)-1; k++ {
		depth, dir := 0, ix.Roots[r]
		for _, c := range comps[k : len(comps)-1] {
			dir = filepath.Join(dir, c)
			if st, err := os.Lstat(dir); err != nil || !st.IsDir() {
				break
			}
			depth++
		}
		if depth > bestDepth {
			best, bestDepth = k, depth
		}
	}
	if bestDepth == 0 {
		return "", false
	}
	return strings.Join(comps[best:], "/"), true
}

// skippedEngine is an engine over the files of dirs, listed on demand
// (see listSkipped); cut is set when a bound stopped the listing.
func skippedEngine(ctx context.Context, roots []string, dirs []workspace.File) (*rank.Engine, bool) {
	files, cut := listSkipped(ctx, roots, dirs)
	return rank.New(workspace.NewIndex(roots, files)), cut
}

// listSkipped lists the regular files under dirs (root-relative, each
// with its root), sorted, without following links, within one budget of
// maxSkippedFiles and maxSkippedWalk; cut is set when a bound stopped it.
func listSkipped(ctx context.Context, roots []string, dirs []workspace.File) (files []workspace.File, cut bool) {
	deadline := time.Now().Add(maxSkippedWalk)
	for _, dir := range dirs {
		root := roots[dir.Root]
		if _, ok := workspace.DirInside(roots, filepath.Join(root, filepath.FromSlash(dir.Path))); !ok {
			continue // its real path leaves the roots (a link along it): never listed
		}
		filepath.WalkDir(filepath.Join(root, filepath.FromSlash(dir.Path)), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if len(files) >= maxSkippedFiles || time.Now().After(deadline) || ctx.Err() != nil {
				cut = true
				return filepath.SkipAll
			}
			if d.Type().IsRegular() {
				if rel, err := filepath.Rel(root, path); err == nil {
					files = append(files, workspace.File{Root: dir.Root, Path: filepath.ToSlash(rel)})
				}
			}
			return nil
		})
		if cut {
			break
		}
	}
	workspace.SortFiles(files)
	return files, cut
}

// namedSkipped lists the skipped directories a find query names: one whose
// base name is a word of the query, split at spaces and slashes
// (node_modules, a .gitignored build).
func namedSkipped(ix *workspace.Index, query string) []workspace.File {
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(query, func(r rune) bool { return r == ' ' || r == '/' || r == '\\' }) {
		words[w] = true
	}
	var out []workspace.File
	for _, d := range ix.Skipped {
		if words[path.Base(d.Path)] {
			out = append(out, d)
		}
	}
	return out
}

// findInSkipped runs find over the files of dirs, listed on demand
// (bounded as for resolve), and merges its matches, marked ignored, into
// the index's in the one result order (rank.RanksBefore).
func findInSkipped(ctx context.Context, roots []string, dirs []workspace.File, p FindParams, out wire.Files) wire.Files {
	sub, cut := skippedEngine(ctx, roots, dirs)
	res, err := sub.Find(ctx, p.request())
	if err != nil {
		return out
	}
	more := wire.FromFind(roots, res)
	limit := p.Limit
	if limit <= 0 {
		limit = max(len(out.Matches), len(more.Matches))
	}
	for i := range more.Matches {
		more.Matches[i].Ignored = true
	}
	merged := append(out.Matches, more.Matches...)
	sort.SliceStable(merged, func(a, b int) bool {
		return rank.RanksBefore(merged[a].Score, merged[b].Score, merged[a].Path, merged[b].Path, 0, 0)
	})
	out.Truncated = out.Truncated || more.Truncated || cut || len(merged) > limit
	out.Matches = merged[:min(len(merged), limit)]
	out.TotalSearched += more.TotalSearched
	return out
}
