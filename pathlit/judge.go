package pathlit

import (
	"path"
	"path/filepath"
	"strings"

	"wayfind/rank"
	"wayfind/workspace"
)

// Ref is what one literal of a document leads to.
type Ref struct {
	Literal Literal
	// Result is the engine's reading of the literal; Target is the file
	// it names, or the best reading of it (Best).
	Result *rank.ResolveResult
	Target *rank.Candidate
	// Broken: the literal names no file, but Target is what it most
	// likely meant; Fix is the literal rewritten to name it, in its own
	// style — a suggestion a person accepts, not a rewrite done for them.
	Broken bool
	Fix    string
}

// Best is the file res names or reads clearly best (ResolveResult.Clear),
// or nil.
func Best(res *rank.ResolveResult) *rank.Candidate {
	switch {
	case res == nil || !res.Clear():
		return nil
	case res.Resolved != nil:
		return res.Resolved
	}
	return &res.Candidates[0]
}

// Judge decides what lit, found in the document at docPath (absolute; ""
// when the document is not a file), leads to, given res: the request
// layer's reading of lit.Text from that document (service.Literal: the
// same request as find/resolvePath's, history and all), over the index
// ix. ok is false when it leads nowhere a person would follow — no clear
// best reading (Best), or a real file the index leaves out. The rules,
// in order:
//
//   - a literal the engine resolves exactly is a link;
//   - one without an extension ("./util/helpers") names a module: a link
//     when the first candidate is that path plus an extension (or
//     /index), never broken;
//   - one naming an existing file inside the roots that the index leaves
//     out (ignored) is neither;
//   - one that is the tail of the first candidate's path is an include
//     read against a search path (#include "net/socket.h" for
//     include/net/socket.h): a link, not broken — but not a link's
//     target, which is read from its document's directory alone;
//   - anything else the engine reads clearly (Best) is broken, with Fix.
func Judge(ix *workspace.Index, res *rank.ResolveResult, docPath string, lit Literal) (Ref, bool) {
	if res == nil || len(res.Candidates) == 0 || res.Gone != nil {
		return Ref{}, false
	}
	first := &res.Candidates[0]
	if res.Resolved != nil {
		first = res.Resolved
	}
	r := Ref{Literal: lit, Result: res, Target: first}
	if res.Exact {
		return r, true
	}
	// The literal without its :line suffix, read as the engine read it.
	q, err := rank.ParsePath(lit.Text)
	if err != nil {
		return Ref{}, false
	}
	bare := strings.TrimSuffix(lit.Text, q.Suffix)
	// A literal is read beside its document first, then from the roots,
	// as the engine reads a referring file's paths (Engine.exact).
	w := q.Written()
	w.Relative = true
	dr, drel, dok := docPlace(ix, docPath)
	places := ix.Places(w, dr, drel, dok)
	if !HasExt(bare) {
		return r, moduleOf(places, first.Root, first.Path)
	}
	for _, p := range places {
		if !ix.Contains(p.Root, p.Rel) && ix.FileAt(p.Root, p.Rel) {
			return Ref{}, false // a real file the index leaves out
		}
	}
	if q.Up == 0 && !strings.HasPrefix(strings.TrimSpace(bare), ".") && strings.HasSuffix("/"+first.Path, "/"+q.Path) && !lit.Link {
		return r, true
	}
	best := Best(res)
	if best == nil {
		return Ref{}, false
	}
	r.Target, r.Broken = best, true
	r.Fix = Rewrite(lit.Text, bare, docPath, ix.Roots[best.Root], best.Path)
	return r, true
}

// moduleOf reports whether target (root-relative, in root) is the module
// the literal names at one of its places, plus an extension (or /index
// and one).
func moduleOf(places []workspace.Place, root int, target string) bool {
	noExt := strings.TrimSuffix(target, path.Ext(target))
	for _, p := range places {
		if p.Root == root && (p.Rel == noExt || path.Join(p.Rel, "index") == noExt) {
			return true
		}
	}
	return false
}

// docPlace is the document's root and root-relative path, for reading its
// literals beside it (ok false when it is no file inside a root).
func docPlace(ix *workspace.Index, docPath string) (root int, rel string, ok bool) {
	if docPath == "" {
		return 0, "", false
	}
	return ix.RootOf(docPath)
}

// Rewrite writes target (root-relative, under root) in the literal's own
// style: relative to the document when it was ("./", "../"), absolute when
// it was, root-relative otherwise; backslashes kept; the line suffix (what
// follows bare in lit) kept.
func Rewrite(lit, bare, docPath, root, target string) string {
	suffix := lit[len(bare):]
	targetAbs := filepath.Join(root, filepath.FromSlash(target))
	slashed := strings.ReplaceAll(bare, "\\", "/")
	var out string
	switch {
	case (strings.HasPrefix(slashed, "./") || strings.HasPrefix(slashed, "../")) && docPath != "":
		rel, err := filepath.Rel(filepath.Dir(docPath), targetAbs)
		if err != nil {
			rel = target
		}
		out = filepath.ToSlash(rel)
		if !strings.HasPrefix(out, "../") {
			out = "./" + out
		}
	case path.IsAbs(slashed) || filepath.IsAbs(bare):
		out = filepath.ToSlash(targetAbs)
	default:
		out = target
	}
	if strings.Contains(bare, "\\") && !strings.Contains(bare, "/") {
		out = strings.ReplaceAll(out, "/", "\\")
	}
	return out + suffix
}
