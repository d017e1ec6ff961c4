package service

import (
	"os"
	"path/filepath"
	"strings"

	"wayfind/rank"
	"wayfind/wire"
)

// onDisk answers a path that names, exactly, an existing regular file
// inside a root that the index does not hold — ignored by a .gitignore,
// in an always-skipped directory (node_modules, .git), or not indexed
// yet. The path is read as resolve reads it (./ and ../ against the
// referring file, absolute paths, file:// URIs, :line suffixes); a file
// reached through a symlink counts only when the link's target is inside
// the same root. Nothing outside the roots is ever returned.
func onDisk(eng *rank.Engine, p ResolveParams) (wire.Resolve, bool) {
	q, err := rank.ParsePath(p.Path)
	if err != nil || q.Drive {
		return wire.Resolve{}, false
	}
	ix := eng.Index()
	local := filepath.FromSlash(q.Path)
	var tries []string
	switch {
	case q.Absolute:
		tries = []string{string(filepath.Separator) + local}
	default:
		if from, ok := wire.FilePath(p.From); ok && (q.Up > 0 || strings.HasPrefix(strings.TrimSpace(p.Path), ".")) {
			dir := filepath.Dir(from)
			for range q.Up {
				dir = filepath.Dir(dir)
			}
			tries = append(tries, filepath.Join(dir, local))
		}
		if q.Up == 0 {
			for _, r := range ix.Roots {
				tries = append(tries, filepath.Join(r, local))
			}
		}
	}
	for _, t := range tries {
		root, rel, inside := ix.RootOf(t)
		if !inside || ix.Lookup(root, rel) >= 0 {
			continue // outside every root, or a file of the index (the engine's answer stands)
		}
		real, err := filepath.EvalSymlinks(t)
		if err != nil {
			continue
		}
		if rroot, _, ok := ix.RootOf(real); !ok || rroot != root {
			continue // a link that leads out of its root
		}
		if st, err := os.Stat(real); err != nil || !st.Mode().IsRegular() {
			continue
		}
		c := wire.Candidate{URI: wire.FileURI(t), Path: rel, Score: 1, Reasons: []string{"exact", "dir:excluded"}, Ignored: true}
		if q.Line > 0 {
			pos := wire.Position{Line: q.Line - 1, Character: max(q.Col-1, 0)}
			c.Range = &wire.Range{Start: pos, End: pos}
		}
		return wire.Resolve{Resolved: &c, Candidates: []wire.Candidate{c}, Exact: true}, true
	}
	return wire.Resolve{}, false
}
