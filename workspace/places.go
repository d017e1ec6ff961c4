package workspace

import (
	"os"
	"path/filepath"
	"strings"
)

// Written is a path as a person or a document wrote it, parsed: Path
// '/'-separated and cleaned, its leading ".." counted in Up; Relative when
// it was written relative to the file it appears in ("./x", "../x");
// Absolute when Path is a local absolute path.
type Written struct {
	Path               string
	Up                 int
	Relative, Absolute bool
}

// Place is one file a written path may name: a root and a root-relative,
// '/'-separated path in it.
type Place struct {
	Root int
	Rel  string
}

// Places lists where a written path may name a file, most specific first:
// an absolute path inside a root; a relative one beside the referring file
// (fromRoot, fromRel: root-relative; fromOK false when there is none),
// never climbing out of that root; and one that does not climb, from each
// root. Nothing outside the roots. It is the one reading of "relative to
// the referring file" — the engine's exact match, the disk's and a
// document's links all read paths through it.
func (ix *Index) Places(w Written, fromRoot int, fromRel string, fromOK bool) []Place {
	if w.Absolute {
		if w.Path == "" {
			return nil // another machine's drive
		}
		if r, rel, ok := ix.RootOf(filepath.FromSlash(w.Path)); ok {
			return []Place{{r, rel}}
		}
		return nil
	}
	var out []Place
	if fromOK && (w.Relative || w.Up > 0) {
		if rel, ok := Beside(fromRel, w.Up, w.Path); ok {
			out = append(out, Place{fromRoot, rel})
		}
	}
	if w.Up == 0 {
		for r := range ix.Roots {
			if p := (Place{r, w.Path}); len(out) == 0 || out[0] != p {
				out = append(out, p)
			}
		}
	}
	return out
}

// Beside is p written in the file fromRel (root-relative) after climbing
// up levels from that file's directory: the root-relative path it names,
// false when it climbs out of the root.
func Beside(fromRel string, up int, p string) (string, bool) {
	dir := ""
	if i := strings.LastIndexByte(fromRel, '/'); i >= 0 {
		dir = fromRel[:i]
	}
	for ; up > 0; up-- {
		if dir == "" {
			return "", false
		}
		if i := strings.LastIndexByte(dir, '/'); i >= 0 {
			dir = dir[:i]
		} else {
			dir = ""
		}
	}
	if dir == "" {
		return p, true
	}
	return dir + "/" + p, true
}

// FileAt reports whether rel in root r is an existing regular file whose
// real location, links followed, is inside the same root (RealIn): the
// one rule for reading the disk at a place a path names (a link out of
// the root names nothing).
func (ix *Index) FileAt(r int, rel string) bool {
	real, rr, ok := RealIn(ix.Roots, filepath.Join(ix.Roots[r], filepath.FromSlash(rel)))
	if !ok || rr != r {
		return false
	}
	st, err := os.Stat(real)
	return err == nil && st.Mode().IsRegular()
}
