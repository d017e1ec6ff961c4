package service

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"wayfind/rank"
	"wayfind/workspace"
)

// Paths outside the roots. An absolute path that is not inside a root
// on this machine (judged by its real location) is usually the writer's
// own — an agent's scratch file in /tmp, a file of another project — and
// nothing of this project may be offered for it on its name alone:
// main.go under /tmp is not the project's main.go. Two kinds are read
// all the same:
//   - another checkout of this project: a directory of the path is named
//     as a root is (/home/dev/src/proj/pkg/x.go for a root …/proj), read
//     as the engine reads any path (its tail rules, its history) — unless
//     a longer tail, through that directory, is the project's too;
//   - a foreign prefix before an exact tail (/app/pkg/x.go, /workspace/…,
//     a CI runner's checkout): the longest tail of two or more components
//     that is a file of today, or a path the repository's history had, is
//     asked for instead, its answer of its own class (rank.ClassForeignTail,
//     whose held-out precision says whether it resolves) — a one-component
//     tail (main.go, README.md) is anybody's.
// A path inside a root that names the root from inside it
// (testbed/sympy/core.py in a root …/testbed with no testbed of its own)
// is read the same way: the root's name the foreign prefix, what follows
// it the tail (placeInside).
// Anything else outside the roots gets no answer at all. A path written
// in a document (a request's From) that begins with '/' is not this
// machine's: it names the document's site from its top (a Markdown link
// on GitHub, a web page's href), and the engine reads it so; a file://
// URI is this machine's wherever it is written.

// ResolvePlaced answers req as the request layer reads its path, before
// its guard of the disk: a directory's path, or an absolute one outside
// the roots, as the rules above say; anything else as the engine reads
// it. The calibration measures the product through it.
func ResolvePlaced(ctx context.Context, eng *rank.Engine, req rank.ResolveRequest) (*rank.ResolveResult, error) {
	res, _, _, err := resolvePlaced(ctx, eng, req)
	return res, err
}

// resolvePlaced is ResolvePlaced, with where the path stands and the path
// the engine was asked (a link's real location for one inside a root
// through it).
func resolvePlaced(ctx context.Context, eng *rank.Engine, req rank.ResolveRequest) (*rank.ResolveResult, placement, string, error) {
	q, err := rank.ParsePath(req.Path)
	if err != nil {
		res, err := eng.Resolve(ctx, req) // the engine's own words for bad input
		return res, placedInside, req.Path, err
	}
	if q.Dir {
		// A directory asked for is answered with a directory or nothing
		// (MovedDir), never with a file of a similar name.
		return nothingFor(q), placedNowhere, req.Path, nil
	}
	placed, ask := placedInside, ""
	switch {
	case q.Absolute && !sitePath(req, q):
		placed, ask = place(eng, q)
		if placed == placedNowhere {
			return nothingFor(q), placed, req.Path, nil
		}
	case !q.Absolute && q.Up == 0 && req.From == "":
		// A relative path is read from the roots' tops (a document's,
		// From, from the document).
		for r := range eng.Index().Roots {
			if placed, ask = placeInside(eng, r, q.Path); placed != placedInside {
				break
			}
		}
	}
	if ask != "" {
		req.Path = ask + q.Suffix
		if q.Fragment != "" {
			req.Path += "#" + q.Fragment
		}
	}
	start := time.Now()
	res, err := eng.Resolve(ctx, req)
	noteEngine(ctx, start)
	if err != nil {
		return nil, placed, req.Path, err
	}
	if placed == placedForeign {
		foreignOnly(res)
	}
	return res, placed, req.Path, nil
}

// sitePath reports whether an absolute path is a document's site path
// (above): written in a document, beginning with '/', not a file:// URI.
func sitePath(req rank.ResolveRequest, q rank.PathQuery) bool {
	return req.From != "" && !q.Drive && !strings.HasPrefix(strings.ToLower(strings.TrimSpace(req.Path)), "file:")
}

// placement is where an absolute path stands with respect to the roots.
type placement int

const (
	placedInside   placement = iota // inside a root (as written, or through a link to it)
	placedCheckout                  // another checkout of a root: read as written
	placedForeign                   // a foreign prefix before an exact tail: its tail asked for
	placedNowhere                   // outside, and nothing of the project's: no answer
)

// minForeignTail: the fewest components of a tail read behind a foreign
// prefix. One component is a name any project has.
const minForeignTail = 2

// place reads an absolute query q against the roots: where it stands,
// and for placedInside through a link or placedForeign the path to ask
// the engine instead (root-relative, or absolute inside a root; "" to
// ask as written).
func place(eng *rank.Engine, q rank.PathQuery) (placement, string) {
	ix := eng.Index()
	if !q.Drive {
		local := string(filepath.Separator) + filepath.FromSlash(q.Path)
		if r, rel, ok := ix.RootOf(local); ok {
			return placeInside(eng, r, rel)
		}
		if real, ok := realLocation(local); ok {
			if _, _, in := ix.RootOf(real); in {
				return placedInside, filepath.ToSlash(real)
			}
		}
	}
	comps := strings.Split(q.Path, "/")
	checkout := -1 // the first directory named as a root is
	for j, c := range comps[:len(comps)-1] {
		if slices.ContainsFunc(ix.Roots, func(r string) bool { return c == filepath.Base(r) }) {
			checkout = j
			break
		}
	}
	for k := 1; len(comps)-k >= minForeignTail; k++ {
		if checkout >= 0 && k > checkout {
			break // read behind the checkout's directory: the engine's reading
		}
		tail := strings.Join(comps[k:], "/")
		// A tail through the directory named as the root is read only
		// when it is a file of today (tokio/src/lib.rs in a root named
		// tokio); an old path there (fmt/format.cc) is the checkout's
		// reading's to weigh.
		if r, ok := hadPath(eng, tail, k < checkout || checkout < 0); ok {
			// The longest tail the project has, and no shorter one behind
			// a directory named as the root (/app/tokio/src/lib.rs in a
			// root named tokio is tokio/src/lib.rs before src/lib.rs).
			return placedForeign, filepath.ToSlash(filepath.Join(ix.Roots[r], filepath.FromSlash(tail)))
		}
	}
	if checkout >= 0 {
		return placedCheckout, ""
	}
	return placedNowhere, ""
}

// placeInside reads a path inside root r (rel, root-relative): as
// written, unless it names the root from inside it (rootNamedAgain) and
// what follows the root's name is a file of today or a path the
// repository's history had — then that, as the tail behind a foreign
// prefix (placedForeign): the root's own path is the prefix written
// twice.
func placeInside(eng *rank.Engine, r int, rel string) (placement, string) {
	if rest, ok := rootNamedAgain(eng.Index(), r, rel); ok && hadIn(eng, r, rest, true) {
		return placedForeign, filepath.ToSlash(filepath.Join(eng.Index().Roots[r], filepath.FromSlash(rest)))
	}
	return placedInside, ""
}

// rootNamedAgain is what follows the root's own name in rel
// (testbed/sympy/core/basic.py in a root /x/testbed: sympy/core/basic.py)
// where rel names it at the root's top or under a directory of the root
// (scratch/testbed/sympy: written from scratch/), and the root holds
// nothing by that name there: a path written from inside the root as if
// from its parent (an agent whose `cd` into its checkout, or into a
// directory of it, carried over to the next command), which is read as
// the path after the name. Only the name's first place in rel counts.
// ok is false for any other path.
func rootNamedAgain(ix *workspace.Index, r int, rel string) (rest string, ok bool) {
	name := filepath.Base(ix.Roots[r])
	comps := strings.Split(rel, "/")
	j := slices.Index(comps[:len(comps)-1], name)
	if j < 0 {
		return "", false
	}
	at, from := strings.Join(comps[:j+1], "/"), strings.Join(comps[:j], "/")
	if ix.Contains(r, at) || ix.HoldsUnder(r, at) || (from != "" && !ix.HoldsUnder(r, from)) {
		return "", false // the name is the root's own there, or written from a directory it does not have
	}
	return strings.Join(comps[j+1:], "/"), true
}

// realLocation is the real location of a local absolute path that may
// not exist: its deepest existing directory's real path, joined with the
// rest (a project reached through a link: /home/u/proj → /data/proj).
func realLocation(p string) (string, bool) {
	dir, rest := p, ""
	for {
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = parent
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil || real == dir {
		return "", false // nothing along it is a link: it is where it says
	}
	return filepath.Join(real, rest), true
}

// hadPath is the root in which rel is a file of today, or (old) a path
// the repository's history had.
func hadPath(eng *rank.Engine, rel string, old bool) (int, bool) {
	ix := eng.Index()
	for r := range ix.Roots {
		if hadIn(eng, r, rel, old) {
			return r, true
		}
	}
	return 0, false
}

// hadIn reports whether root-relative rel is a file of today in root r,
// or (old) a path r's repository history had.
func hadIn(eng *rank.Engine, r int, rel string, old bool) bool {
	if eng.Index().Contains(r, rel) {
		return true
	}
	_, had := eng.RepoHistory().Record(r).Fate(rel)
	return had && old
}

// nothingFor is the answer to a path outside the roots that is nothing
// of the project's: no file, no candidate.
func nothingFor(q rank.PathQuery) *rank.ResolveResult {
	return &rank.ResolveResult{Line: q.Line, Col: q.Col, Fragment: q.Fragment, Basis: rank.BasisTie}
}

// foreignOnly makes the answer for an exact tail behind a foreign prefix
// what its class allows (rank.ClassForeignTail), its candidates marked
// path:foreign-prefix.
func foreignOnly(res *rank.ResolveResult) {
	res.ReadForeign()
	for i := range res.Candidates {
		res.Candidates[i].Reasons = append(res.Candidates[i].Reasons, "path:foreign-prefix")
	}
}
