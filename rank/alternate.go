package rank

import (
	"path"
	"strings"
)

// Header and implementation extensions of C-family code, each list in
// order of preference: the one definition alternate, find's --impl and
// locate use.
var (
	headerExts = []string{"h", "hpp", "hh", "hxx", "h++", "inl", "inc"}
	implExts   = []string{"c", "cc", "cpp", "cxx", "c++", "m", "mm"}
)

// isHeader reports whether ext (without the dot, any case) is a header's.
func isHeader(ext string) bool {
	ext = strings.ToLower(ext)
	for _, h := range headerExts {
		if ext == h {
			return true
		}
	}
	return false
}

// Alternate returns the header for an implementation file or the
// implementation for a header (file: absolute path, file:// URI or
// root-relative path): the same stem with the other kind's extension,
// nearest by directory (same directory, then siblings such as include/ and
// src/). ok is false when file is not indexed or has no counterpart.
func (e *Engine) Alternate(file string) (c Candidate, ok bool) {
	root, rel, ok := e.refFile(file)
	if !ok {
		return Candidate{}, false
	}
	if _, indexed := e.fileID(root, rel); !indexed {
		return Candidate{}, false
	}
	stem, ext := splitExt(path.Base(rel))
	var want []string
	switch lext := strings.ToLower(ext); {
	case isHeader(lext):
		want = implExts
	case extFamily[lext] == "c":
		want = headerExts
	default:
		return Candidate{}, false
	}
	from := splitDirs(parentDir(rel))
	best, bestScore := int32(-1), -1.0
	for rank, x := range want {
		for _, id := range e.named(strings.ToLower(stem + "." + x)) {
			f := e.file(id)
			if int(f.root) != root {
				continue
			}
			// Directory nearness decides; the extension order breaks ties.
			var buf pathBuf
			s := mirrored(e.pathOf(f.dir, buf[:]).comps, from) - alternateExtStep*float64(rank)
			if s > bestScore || (s == bestScore && e.filePath(id) < e.filePath(best)) {
				best, bestScore = id, s
			}
		}
	}
	if best < 0 {
		return Candidate{}, false
	}
	return e.candidate(best, round3(max(bestScore, 0)), []string{"alternate"}), true
}

// mirrored measures how alike two directories are from both ends: shared
// leading components (same tree) and shared trailing ones (include/foo
// mirroring src/foo).
func mirrored(a, b []string) float64 {
	deeper := max(len(a), len(b))
	if deeper == 0 {
		return 1
	}
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	m := 0
	for m < len(a)-n && m < len(b)-n && a[len(a)-1-m] == b[len(b)-1-m] {
		m++
	}
	return float64(n+m) / float64(deeper)
}
