package service

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"wayfind/rank"
	"wayfind/workspace"
)

// The guard: every answer and candidate a request returns, and every
// file it reads, is a regular file whose real path is inside a root
// (workspace.RealIn). Listings made on demand never enter a directory
// whose real path leaves its root (inSkipped), so what they rank is
// inside; the index's own files were admitted by the walk under the same
// rule, but the tree may have changed since (a file replaced by a link
// out of it), so an engine's result is guarded once more before anything
// of it is read (a line clamped, an anchor found) or returned. Every
// front end — the LSP, the MCP server, the CLI, the hook — answers
// through this layer, and so through this guard.

// guardResult drops from res every candidate that is not a regular file
// inside the roots by its real path; an answer dropped is no longer
// resolved, nor moved.
func guardResult(roots []string, res *rank.ResolveResult) {
	if res == nil {
		return
	}
	in := func(c *rank.Candidate) bool {
		_, ok := workspace.FileInside(roots, filepath.Join(roots[c.Root], filepath.FromSlash(c.Path)))
		return ok
	}
	kept := make([]rank.Candidate, 0, len(res.Candidates))
	for i := range res.Candidates {
		if in(&res.Candidates[i]) {
			kept = append(kept, res.Candidates[i])
		}
	}
	res.Candidates = kept
	if res.Resolved != nil && !in(res.Resolved) {
		res.Resolved, res.Moved, res.Exact = nil, nil, false
		res.Withhold()
	}
}

// openInside opens the file at rel in root r by its real path, when that
// is a regular file inside the roots, with its size.
func openInside(roots []string, r int, rel string) (*os.File, int64, error) {
	real, ok := workspace.FileInside(roots, filepath.Join(roots[r], filepath.FromSlash(rel)))
	if !ok {
		return nil, 0, fmt.Errorf("%s: not a regular file inside the roots", rel)
	}
	f, err := os.Open(real)
	if err != nil {
		return nil, 0, err
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, 0, fmt.Errorf("%s: not a regular file", rel)
	}
	return f, st.Size(), nil
}

// readInside is the whole text of the file at rel in root r (openInside),
// when it is at most limit bytes.
func readInside(roots []string, r int, rel string, limit int64) ([]byte, bool) {
	f, size, err := openInside(roots, r, rel)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	if size > limit {
		return nil, false
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil || int64(len(b)) > limit {
		return nil, false
	}
	return b, true
}
