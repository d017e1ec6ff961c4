package service

import (
	"os"
	"path/filepath"
	"strings"

	"wayfind/rank"
)

// Paths outside the roots. An absolute path that is not inside a root
// on this machine (judged by its real location) is usually the writer's
// own — an agent's scratch file in /tmp, a file of another project — and
// nothing of this project may be offered for it on its name alone:
// main.go under /tmp is not the project's main.go. Two kinds are read
// all the same:
//   - another checkout of this project: a directory of the path is named
//     as a root is (/home/dev/src/proj/pkg/x.go for a root …/proj), read
//     as the engine reads any path (its tail rules, its history);
//   - a foreign prefix before an exact tail (/app/pkg/x.go, /workspace/…,
//     a CI runner's checkout): the longest tail of two or more components
//     that is a file of today, or a path the repository's history had, is
//     offered as a candidate and never resolved — a one-component tail
//     (main.go, README.md) is anybody's.
// Anything else outside the roots gets no answer at all.

// placement is where an absolute path stands with respect to the roots.
type placement int

const (
	placedInside   placement = iota // inside a root (as written, or through a link to it)
	placedCheckout                  // another checkout of a root: read as written
	placedForeign                   // a foreign prefix before an exact tail: a candidate at most
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
		if _, _, ok := ix.RootOf(local); ok {
			return placedInside, ""
		}
		if real, ok := realLocation(local); ok {
			if _, _, in := ix.RootOf(real); in {
				return placedInside, filepath.ToSlash(real)
			}
		}
	}
	comps := strings.Split(q.Path, "/")
	for _, c := range comps[:len(comps)-1] {
		for _, r := range ix.Roots {
			if c == filepath.Base(r) {
				return placedCheckout, ""
			}
		}
	}
	for k := 1; len(comps)-k >= minForeignTail; k++ {
		tail := strings.Join(comps[k:], "/")
		if r, ok := hadPath(eng, tail); ok {
			return placedForeign, filepath.ToSlash(filepath.Join(ix.Roots[r], filepath.FromSlash(tail)))
		}
	}
	return placedNowhere, ""
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

// hadPath is the root in which rel is a file of today, or a path the
// repository's history had.
func hadPath(eng *rank.Engine, rel string) (int, bool) {
	ix := eng.Index()
	h := eng.RepoHistory()
	for r := range ix.Roots {
		if ix.Lookup(r, rel) >= 0 {
			return r, true
		}
		if _, ok := h.Record(r).Fate(rel); ok {
			return r, true
		}
	}
	return 0, false
}

// nothingFor is the answer to a path outside the roots that is nothing
// of the project's: no file, no candidate.
func nothingFor(q rank.PathQuery) *rank.ResolveResult {
	return &rank.ResolveResult{Line: q.Line, Col: q.Col, Fragment: q.Fragment, Basis: rank.BasisTie}
}

// foreignOnly makes the answer for an exact tail behind a foreign prefix
// what it may be: its candidates, first the file the tail names, and
// nothing resolved (reason path:foreign-prefix).
func foreignOnly(res *rank.ResolveResult) {
	res.Exact = false
	res.Withhold()
	for i := range res.Candidates {
		res.Candidates[i].Reasons = append(res.Candidates[i].Reasons, "path:foreign-prefix")
	}
}
