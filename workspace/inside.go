package workspace

import (
	"os"
	"path/filepath"
)

// The one rule of what the product may name, read or return: a path is
// inside the roots when its real location — every link along it
// followed (filepath.EvalSymlinks) — is inside one of the roots, which
// are real paths themselves (CleanRoots). A path spelled inside a root
// can lead out of it through a link to a directory (rootfs -> /), and a
// link inside the tree that points inside it is as good as its target:
// only the real location says which. Every place that reads the disk at
// a path it did not walk itself (a listing made on demand, a file
// resolved or read) asks this first.

// RealIn is abs's real location and the root it is inside; ok is false
// when abs does not exist, or lies outside every root.
func RealIn(roots []string, abs string) (real string, root int, ok bool) {
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", 0, false
	}
	for i, r := range roots {
		if within(r, real) {
			return real, i, true
		}
	}
	return "", 0, false
}

// FileInside is abs's real location when it is a regular file inside
// the roots.
func FileInside(roots []string, abs string) (real string, ok bool) {
	real, _, ok = RealIn(roots, abs)
	if !ok {
		return "", false
	}
	st, err := os.Stat(real)
	return real, err == nil && st.Mode().IsRegular()
}

// DirInside is abs's real location when it is a directory inside the
// roots.
func DirInside(roots []string, abs string) (real string, ok bool) {
	real, _, ok = RealIn(roots, abs)
	if !ok {
		return "", false
	}
	st, err := os.Stat(real)
	return real, err == nil && st.IsDir()
}
