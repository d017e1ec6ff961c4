// Package workspace owns what the engine searches: the roots, the ignore
// rules that decide which files belong to them, and the file index built by
// walking them. It never ranks; package rank does.
package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

// AlwaysSkipped are directory names never indexed unless IncludeDirs names
// them: version-control metadata and dependency or cache trees that would
// drown the user's own files.
var AlwaysSkipped = map[string]bool{
	".git": true, ".hg": true, ".svn": true, ".bzr": true, ".jj": true, "_darcs": true,
	"node_modules": true, "__pycache__": true, ".mypy_cache": true,
	".pytest_cache": true, ".ruff_cache": true, ".tox": true,
}

// Options tune a walk.
type Options struct {
	// IncludeDirs forces directories back in, whatever the ignore rules and
	// AlwaysSkipped say (".git" excepted): either a root-relative path
	// ("vendor/lib") or a bare name ("node_modules") matched at any depth.
	IncludeDirs []string
	// ExcludeGlobs are extra gitignore-style patterns applied from the root,
	// above every ignore file.
	ExcludeGlobs []string
	// NoIgnoreFiles turns off .gitignore and .git/info/exclude (AlwaysSkipped
	// and ExcludeGlobs still apply).
	NoIgnoreFiles bool
	// Workers bounds concurrent directory reads; 0 means 2×GOMAXPROCS.
	Workers int
	// Logf receives one line per skipped oddity (unreadable directory,
	// non-UTF-8 name, symlink leaving the root). Nil discards them.
	Logf func(format string, args ...any)
}

// File is one indexed file. Path is relative to its root, '/'-separated.
type File struct {
	Root int
	Path string
}

// Index is an immutable snapshot of the files under a set of roots.
type Index struct {
	Roots []string // absolute, cleaned
	Files []File   // sorted by (Root, Path)
}

// ErrNoRoot reports a root that does not exist or is not a directory.
var ErrNoRoot = errors.New("root does not exist or is not a directory")

// CleanRoots makes roots absolute, resolves symlinks, checks they are
// directories and drops duplicates and roots nested in another root.
func CleanRoots(roots []string) ([]string, error) {
	var out []string
	for _, r := range roots {
		abs, err := filepath.Abs(r)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r, ErrNoRoot)
		}
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
		st, err := os.Stat(abs)
		if err != nil || !st.IsDir() {
			return nil, fmt.Errorf("%s: %w", r, ErrNoRoot)
		}
		out = append(out, filepath.Clean(abs))
	}
	sort.Strings(out)
	kept := out[:0]
	for _, r := range out {
		if len(kept) > 0 && within(kept[len(kept)-1], r) {
			continue
		}
		kept = append(kept, r)
	}
	return kept, nil
}

// within reports whether p is root or below it.
func within(root, p string) bool {
	return p == root || strings.HasPrefix(p, root+string(filepath.Separator)) || root == string(filepath.Separator)
}

// Build walks roots (already cleaned by CleanRoots) and returns the index.
func Build(roots []string, opt Options) *Index {
	w := &walker{opt: opt, roots: roots}
	w.sem = make(chan struct{}, max(opt.Workers, 2*runtime.GOMAXPROCS(0)))
	w.include = map[string]bool{}
	for _, d := range opt.IncludeDirs {
		w.include[strings.Trim(filepath.ToSlash(d), "/")] = true
	}
	for _, g := range opt.ExcludeGlobs {
		if p, ok := parsePattern(g, ""); ok {
			w.excludes = append(w.excludes, p)
		}
	}
	var wg sync.WaitGroup
	for i, root := range roots {
		rules := &Rules{}
		if !opt.NoIgnoreFiles {
			rules = rules.With(readIgnoreFile(filepath.Join(root, ".git", "info", "exclude"), ""))
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.dir(i, "", rules, false, &wg)
		}()
	}
	wg.Wait()
	sort.Slice(w.files, func(a, b int) bool {
		fa, fb := w.files[a], w.files[b]
		if fa.Root != fb.Root {
			return fa.Root < fb.Root
		}
		return fa.Path < fb.Path
	})
	return &Index{Roots: roots, Files: w.files}
}

type walker struct {
	opt      Options
	roots    []string
	sem      chan struct{}
	include  map[string]bool
	excludes []Pattern

	mu    sync.Mutex
	files []File
}

func (w *walker) logf(format string, args ...any) {
	if w.opt.Logf != nil {
		w.opt.Logf(format, args...)
	}
}

func (w *walker) forced(rel, name string) bool {
	return w.include[rel] || w.include[name]
}

// dir indexes one directory. forced is true below an IncludeDirs entry,
// where ignore rules no longer exclude anything.
func (w *walker) dir(root int, rel string, rules *Rules, forced bool, wg *sync.WaitGroup) {
	abs := filepath.Join(w.roots[root], filepath.FromSlash(rel))
	w.sem <- struct{}{}
	entries, err := os.ReadDir(abs)
	<-w.sem
	if err != nil && len(entries) == 0 {
		if !errors.Is(err, fs.ErrNotExist) { // a directory vanishing mid-walk is normal churn
			w.logf("skip directory %s: %v", abs, err)
		}
		return
	}
	if !w.opt.NoIgnoreFiles {
		for _, e := range entries {
			if e.Name() == ".gitignore" && !e.IsDir() {
				rules = rules.With(readIgnoreFile(filepath.Join(abs, ".gitignore"), rel))
				break
			}
		}
	}
	var local []File
	for _, e := range entries {
		name := e.Name()
		if !utf8.ValidString(name) {
			w.logf("skip non-UTF-8 name in %s: %q", abs, name)
			continue
		}
		childRel := name
		if rel != "" {
			childRel = rel + "/" + name
		}
		typ := e.Type()
		if typ&fs.ModeSymlink != 0 {
			if w.symlinkedFile(root, abs, name) && !w.excluded(childRel, false, rules, forced) {
				local = append(local, File{Root: root, Path: childRel})
			}
			continue
		}
		if e.IsDir() {
			if name == ".git" {
				continue
			}
			childForced := forced || w.forced(childRel, name)
			if !childForced && (AlwaysSkipped[name] || w.excluded(childRel, true, rules, false)) {
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				w.dir(root, childRel, rules, childForced, wg)
			}()
			continue
		}
		if !typ.IsRegular() {
			continue // sockets, devices, fifos: nothing to open
		}
		if w.excluded(childRel, false, rules, forced) {
			continue
		}
		local = append(local, File{Root: root, Path: childRel})
	}
	if len(local) > 0 {
		w.mu.Lock()
		w.files = append(w.files, local...)
		w.mu.Unlock()
	}
}

func (w *walker) excluded(rel string, isDir bool, rules *Rules, forced bool) bool {
	for i := len(w.excludes) - 1; i >= 0; i-- {
		p := &w.excludes[i]
		if p.match(rel, isDir) {
			if !p.negate {
				return true
			}
			break
		}
	}
	if forced {
		return false
	}
	return rules.Ignored(rel, isDir)
}

// symlinkedFile reports whether the link dir/name is a regular file inside
// one of the roots. Links to directories are never followed: their targets
// are either inside a root (and indexed there already) or outside (and not
// ours to read), and not following them rules out loops.
func (w *walker) symlinkedFile(root int, dir, name string) bool {
	target, err := filepath.EvalSymlinks(filepath.Join(dir, name))
	if err != nil {
		return false // dangling or looping link
	}
	inside := false
	for _, r := range w.roots {
		if within(r, target) {
			inside = true
			break
		}
	}
	if !inside {
		w.logf("skip symlink %s: target outside the roots", filepath.Join(dir, name))
		return false
	}
	st, err := os.Stat(target)
	return err == nil && st.Mode().IsRegular()
}

func readIgnoreFile(path, base string) []Pattern {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return ParseIgnore(string(data), base)
}

// Lookup returns the file's position for a root-relative path, or -1.
func (ix *Index) Lookup(root int, rel string) int {
	i := sort.Search(len(ix.Files), func(i int) bool {
		f := ix.Files[i]
		return f.Root > root || (f.Root == root && f.Path >= rel)
	})
	if i < len(ix.Files) && ix.Files[i].Root == root && ix.Files[i].Path == rel {
		return i
	}
	return -1
}

// Abs returns the absolute filesystem path of f.
func (ix *Index) Abs(f File) string {
	return filepath.Join(ix.Roots[f.Root], filepath.FromSlash(f.Path))
}

// RootOf returns the root containing the absolute path p and p relative to
// it ('/'-separated), or ok=false when p is outside every root.
func (ix *Index) RootOf(p string) (root int, rel string, ok bool) {
	p = filepath.Clean(p)
	for i, r := range ix.Roots {
		if within(r, p) {
			rel, err := filepath.Rel(r, p)
			if err != nil {
				continue
			}
			if rel == "." {
				rel = ""
			}
			return i, filepath.ToSlash(rel), true
		}
	}
	return 0, "", false
}
