// Package workspace owns what the engine searches: the roots, the ignore
// rules that decide which files belong to them, and the file index built by
// walking them. It never ranks; package rank does.
package workspace

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
	"unsafe"

	"wayfind/segment"
)

// AlwaysSkipped are directory names never indexed unless IncludeDirs names
// them: version-control metadata and dependency or cache trees that would
// drown the user's own files.
var AlwaysSkipped = map[string]bool{
	".git": true, ".hg": true, ".svn": true, ".bzr": true, ".jj": true, "_darcs": true,
	"node_modules": true, "__pycache__": true, ".mypy_cache": true,
	".pytest_cache": true, ".ruff_cache": true, ".tox": true,
}

// vcsDirs are version-control metadata: skipped, and not even listed in
// Index.Skipped, since no path a person means lives there by another name.
var vcsDirs = map[string]bool{".git": true, ".hg": true, ".svn": true, ".bzr": true, ".jj": true, "_darcs": true}

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
	// Workers bounds concurrent directory reads; 0 means 2×GOMAXPROCS,
	// or pacedWorkers for a walk with Pace.
	Workers int
	// Progress, when set, is called (from several goroutines) after each
	// directory is read, with the directories read and found so far.
	Progress func(read, found int64)
	// Pace, when set, is called before each directory is read: a walk in
	// the background (verifying a saved index that answers meanwhile)
	// gives way to requests there.
	Pace func()
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
	// files are its files sorted by (Root, Path), not written once the
	// index is made (AbsAt); with a delta, its base's (Files).
	files []File
	// delta is what Update changed since the flat index it was made from
	// (delta.go): nil for an index flat itself.
	delta *fileDelta
	// abs[i] is files[i]'s absolute path when the walk made it (AbsAt):
	// the walk makes each file's absolute path once and its Path is that
	// string's tail, so the passes that open files share the index's
	// strings instead of joining every path again each. When every
	// Path was found to be such a tail (shareTails), abs is let go and
	// tails holds the Files it was found of: AbsAt then reads the
	// absolute path in front of the Path, not a second copy of it.
	abs   []string
	tails []File
	// segs are the saved files this index was loaded from, one a root,
	// mapped (LoadIndex; SavedIDs): nil for an index walked or changed.
	segs []*segment.Segment
	// backing are the saved files an index changed since loading (Update)
	// still reads the paths it kept from: Release drops their pages too.
	backing []*segment.Segment
	// Dirs are the directories walked below each root (the roots
	// themselves excluded), sorted like Files: what a watcher must watch.
	Dirs []File
	// Skipped are the directories the walk left out (AlwaysSkipped names,
	// ignore rules; version-control metadata excepted), sorted like Files:
	// where a path the index cannot place may still be on disk.
	Skipped []File
	// serial names this index among those the process made (0: one made
	// by hand); an index Update made records its parent's and the runs of
	// the parent's files it kept whole (Kept reads them).
	serial, parent uint64
	kept           []keptRun
}

// keptRun: the parent's Files[lo:hi] are this index's Files[at:].
type keptRun struct{ lo, hi, at int }

// serials numbers the indexes the process makes (Index.serial).
var serials atomic.Uint64

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
	w := newWalker(roots, opt)
	w.found.Add(int64(len(roots)))
	for i := range roots {
		w.queue(w.rootJob(i))
	}
	w.run()
	sorted := make(chan struct{})
	go func() { // beside the files' assembly: the directories are fewer
		SortFiles(w.dirs)
		SortFiles(w.skipped)
		close(sorted)
	}()
	files, abs := w.collect()
	<-sorted
	return (&Index{Roots: roots, files: files, abs: abs, Dirs: w.dirs, Skipped: w.skipped, serial: serials.Add(1)}).shareTails()
}

// dirNode is one directory as the walk read it: its files in name order
// (os.ReadDir's) and the directories below it, each filled by the one
// worker that read it. The index's order is read off these in one pass
// (appendTree) instead of sorting every path, whose long shared prefixes
// made each comparison slow, on one core after the walk.
type dirNode struct {
	name    string
	files   []File
	abs     []string // beside files: each one's absolute path
	subdirs []*dirNode
}

// collect returns the files the walk found in Index order, and beside
// each its absolute path. A root's tree comes out in order, and the roots
// in theirs; what Update re-reads (trees and single files, in the order
// their jobs ran) is sorted, a few files against the whole index.
func (w *walker) collect() ([]File, []string) {
	n := int(w.nfiles.Load())
	files, abs := make([]File, 0, n), make([]string, 0, n)
	for _, t := range w.trees {
		files, abs = t.appendTree(files, abs)
	}
	files, abs = append(files, w.singles...), append(abs, w.singleAbs...)
	for i := 1; i < len(files); i++ {
		if CompareFiles(files[i-1], files[i]) >= 0 {
			return sortedFiles(files, abs)
		}
	}
	return files, abs
}

// run is files in Index order, beside each its absolute path.
type run struct {
	files []File
	abs   []string
}

// appendTree appends the files of n's tree to files (and their absolute
// paths to abs) in Index order. In path order a directory's entries come
// as its files' names and its directories' names each with a '/' — all
// of a directory's paths continue with one — and each directory's tree
// comes whole where it sorts: "b-c/x" before "b/x" before "b0", though
// "b" is before "b-c" by name.
func (n *dirNode) appendTree(files []File, abs []string) ([]File, []string) {
	slices.SortFunc(n.subdirs, func(a, b *dirNode) int { return compareEntries(a.name, true, b.name, true) })
	fi, di := 0, 0
	for fi < len(n.files) || di < len(n.subdirs) {
		if di == len(n.subdirs) || fi < len(n.files) && compareEntries(path.Base(n.files[fi].Path), false, n.subdirs[di].name, true) < 0 {
			files, abs = append(files, n.files[fi]), append(abs, n.abs[fi])
			fi++
			continue
		}
		files, abs = n.subdirs[di].appendTree(files, abs)
		di++
	}
	return files, abs
}

// compareEntries orders two entries of one directory as the paths at and
// below them compare: a directory's name as if followed by '/'.
func compareEntries(a string, aDir bool, b string, bDir bool) int {
	k := min(len(a), len(b))
	if c := strings.Compare(a[:k], b[:k]); c != 0 {
		return c
	}
	return cmp.Compare(entryByte(a, aDir, k), entryByte(b, bDir, k))
}

// entryByte is byte k of an entry's name, '/' just past a directory's
// name, -1 past a file's.
func entryByte(name string, dir bool, k int) int {
	switch {
	case k < len(name):
		return int(name[k])
	case dir:
		return '/'
	default:
		return -1
	}
}

// sortedFiles puts files in the Index order, each absolute path beside
// its file, and drops repeats.
func sortedFiles(files []File, abs []string) ([]File, []string) {
	type pair struct {
		f   File
		abs string
	}
	ps := make([]pair, len(files))
	for i := range files {
		ps[i] = pair{files[i], abs[i]}
	}
	slices.SortFunc(ps, func(a, b pair) int { return CompareFiles(a.f, b.f) })
	ps = slices.CompactFunc(ps, func(a, b pair) bool { return a.f == b.f })
	files, abs = make([]File, len(ps)), make([]string, len(ps))
	for i, p := range ps {
		files[i], abs[i] = p.f, p.abs
	}
	return files, abs
}

// AbsAt returns the absolute path of Files[i], the walk's own string
// when it made one.
func (ix *Index) AbsAt(i int) string {
	ix = ix.flat()
	if ix.sharesTails() {
		// Files is the array shareTails checked (not one put in its
		// place since): each Path still lies skip bytes into its
		// absolute path.
		p := ix.files[i].Path
		skip := rootSkip(ix.Roots[ix.files[i].Root])
		return unsafe.String((*byte)(unsafe.Add(unsafe.Pointer(unsafe.StringData(p)), -skip)), skip+len(p))
	}
	if i < len(ix.abs) {
		return ix.abs[i]
	}
	return ix.Abs(ix.files[i])
}

// sharesTails reports whether every Path of ix lies at the end of its
// absolute path, which AbsAt then reads in front of it: Files is the
// array shareTails checked, not one put in its place since.
func (ix *Index) sharesTails() bool {
	return ix.tails != nil && len(ix.tails) == len(ix.files) && unsafe.SliceData(ix.tails) == unsafe.SliceData(ix.files)
}

// tails reports whether each of r's Paths is the tail of its absolute
// path, a root's skip past its start (as the walk makes them, child).
func (r run) tails(roots []string) bool {
	for i, f := range r.files {
		a, skip := r.abs[i], rootSkip(roots[f.Root])
		if len(f.Path) == 0 || len(a) != skip+len(f.Path) || unsafe.StringData(a[skip:]) != unsafe.StringData(f.Path) {
			return false
		}
	}
	return true
}

// rootSkip is how many bytes of the absolute path of a file under root
// come before its root-relative path: the root and a separator (none
// after the filesystem's root).
func rootSkip(root string) int {
	if strings.HasSuffix(root, string(filepath.Separator)) {
		return len(root)
	}
	return len(root) + 1
}

// shareTails lets abs go when every file's Path is the tail of its
// absolute path, the same bytes (as the walk and a saved index make them
// where paths are '/'-separated): checked here, file by file, by where
// the strings lie, so AbsAt never reads in front of a string that is not
// such a tail.
func (ix *Index) shareTails() *Index {
	if len(ix.abs) != len(ix.files) || len(ix.files) == 0 {
		return ix
	}
	if !(run{ix.files, ix.abs}).tails(ix.Roots) {
		return ix
	}
	ix.abs, ix.tails = nil, ix.files
	return ix
}

// child is the entry name of the directory dirAbs of root: its absolute
// path and, as that string's tail, its path relative to the root
// ('/'-separated): one allocation for both.
func (w *walker) child(root int, dirAbs, name string) (abs, rel string) {
	// dirAbs is clean and name one entry: no Join (whose Clean was a
	// sizeable share of the walk) is needed.
	if strings.HasSuffix(dirAbs, string(filepath.Separator)) {
		abs = dirAbs + name
	} else {
		abs = dirAbs + string(filepath.Separator) + name
	}
	return abs, filepath.ToSlash(abs[rootSkip(w.roots[root]):])
}

// pacedWorkers is how many directories a walk in the background reads
// at once. Pace holds a worker only before a directory, so each worker's
// read in flight when a request arrives runs beside it: at 2×GOMAXPROCS
// a poll's walk of a large tree took a large share of the machine while
// requests ran (as a CPU profile of the server answering without pause
// showed). One read at a time leaves the request the cores, and the walk
// no slower than the answers allow.
const pacedWorkers = 1

func newWalker(roots []string, opt Options) *walker {
	w := &walker{opt: opt, roots: roots}
	switch {
	case opt.Workers > 0:
		w.workers = opt.Workers
	case opt.Pace != nil:
		w.workers = pacedWorkers
	default:
		w.workers = 2 * runtime.GOMAXPROCS(0) // reads wait on the kernel, not the CPU
	}
	w.more = sync.NewCond(&w.jobsMu)
	w.include = map[string]bool{}
	for _, d := range opt.IncludeDirs {
		w.include[strings.Trim(filepath.ToSlash(d), "/")] = true
	}
	for _, g := range opt.ExcludeGlobs {
		if p, ok := parsePattern(g, ""); ok {
			w.excludes = append(w.excludes, p)
		}
	}
	return w
}

// rootRules are the rules in force at a root before its own .gitignore.
func (w *walker) rootRules(root int) *Rules {
	rules := &Rules{}
	if !w.opt.NoIgnoreFiles {
		rules = rules.With(readIgnoreFile(filepath.Join(w.roots[root], ".git", "info", "exclude"), ""))
	}
	return rules
}

type walker struct {
	opt     Options
	roots   []string
	workers int // directories read at once
	// The directories to read: a fixed set of workers takes them, last in
	// first out (depth first keeps the list short). A goroutine per
	// directory cost a stack a directory.
	jobsMu   sync.Mutex
	more     *sync.Cond
	jobs     []dirJob
	pending  int // queued and not yet read
	include  map[string]bool
	excludes []Pattern

	read, found atomic.Int64 // directories, for Options.Progress

	// verify, when set, makes the walk compare each directory with an
	// index's (Verify) instead of listing what it finds.
	verify *verifying

	mu sync.Mutex
	// The files found: the trees walked (a root's, or a directory's that
	// Update re-reads), each directory's files kept in its node, and the
	// single files Update re-reads; nfiles counts them all.
	trees     []*dirNode
	singles   []File
	singleAbs []string // beside singles
	nfiles    atomic.Int64
	dirs      []File
	skipped   []File
}

func (w *walker) logf(format string, args ...any) {
	if w.opt.Logf != nil {
		w.opt.Logf(format, args...)
	}
}

func (w *walker) forced(rel, name string) bool {
	return w.include[rel] || w.include[name]
}

// dirJob is a directory to read: its absolute path and, as that string's
// tail, its root-relative rel (walker.child), the ignore rules in force
// there, and whether an IncludeDirs entry holds.
type dirJob struct {
	root     int
	abs, rel string
	rules    *Rules
	forced   bool
	node     *dirNode // where its files go; nil when none are kept (Verify)
}

// rootJob is the walk of a whole root.
func (w *walker) rootJob(root int) dirJob {
	return dirJob{root: root, abs: w.roots[root], rules: w.rootRules(root), node: w.tree()}
}

// tree is the node of a directory whose tree the walk reads whole: a
// root, or a directory Update re-reads.
func (w *walker) tree() *dirNode {
	if w.verify != nil {
		return nil
	}
	n := &dirNode{}
	w.mu.Lock()
	w.trees = append(w.trees, n)
	w.mu.Unlock()
	return n
}

func (w *walker) queue(j dirJob) {
	w.jobsMu.Lock()
	w.jobs = append(w.jobs, j)
	w.pending++
	w.jobsMu.Unlock()
	w.more.Signal()
}

// run reads the queued directories, and those they queue, until none is
// left.
func (w *walker) run() {
	var wg sync.WaitGroup
	for range w.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				w.jobsMu.Lock()
				for len(w.jobs) == 0 && w.pending > 0 {
					w.more.Wait()
				}
				if len(w.jobs) == 0 {
					w.jobsMu.Unlock()
					return
				}
				j := w.jobs[len(w.jobs)-1]
				w.jobs = w.jobs[:len(w.jobs)-1]
				w.jobsMu.Unlock()
				if w.opt.Pace != nil {
					w.opt.Pace()
				}
				w.dir(j)
				w.jobsMu.Lock()
				if w.pending--; w.pending == 0 {
					w.more.Broadcast() // every worker may stop
				}
				w.jobsMu.Unlock()
			}
		}()
	}
	wg.Wait()
}

// dir indexes one directory. forced is true below an IncludeDirs entry,
// where ignore rules no longer exclude anything.
func (w *walker) dir(j dirJob) {
	root, abs, rel, rules, forced := j.root, j.abs, j.rel, j.rules, j.forced
	entries, err := os.ReadDir(abs)
	if w.opt.Progress != nil {
		defer func() { w.opt.Progress(w.read.Add(1), w.found.Load()) }()
	}
	if err != nil && len(entries) == 0 {
		if !errors.Is(err, fs.ErrNotExist) { // a directory vanishing mid-walk is normal churn
			w.logf("skip directory %s: %v", abs, err)
		}
		if w.verify != nil && w.verify.prints.at(root, rel) != (dirPrint{}) {
			w.mu.Lock()
			w.verify.changed = append(w.verify.changed, abs) // unreadable now: its files go
			w.mu.Unlock()
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
	var local, subdirs, skipped []File
	var localAbs []string
	var print dirPrint
	for _, e := range entries {
		name := e.Name()
		if !utf8.ValidString(name) {
			w.logf("skip non-UTF-8 name in %s: %q", abs, name)
			continue
		}
		childAbs, childRel := w.child(root, abs, name)
		kind, childForced := w.admit(root, abs, childRel, name, e.Type(), rules, forced)
		if kind == entrySkip && (!e.IsDir() || vcsDirs[name]) {
			continue // not even recorded as skipped
		}
		if kind == entryDir {
			w.found.Add(1)
			var node *dirNode
			if j.node != nil {
				node = &dirNode{name: name}
				j.node.subdirs = append(j.node.subdirs, node)
			}
			w.queue(dirJob{root: root, abs: childAbs, rel: childRel, rules: rules, forced: childForced, node: node})
		}
		if w.verify != nil {
			print.add(kind, name) // and no list is kept
			continue
		}
		switch kind {
		case entrySkip:
			skipped = append(skipped, File{Root: root, Path: childRel})
		case entryFile:
			local = append(local, File{Root: root, Path: childRel})
			localAbs = append(localAbs, childAbs)
		case entryDir:
			subdirs = append(subdirs, File{Root: root, Path: childRel})
		}
	}
	if w.verify != nil {
		if print != w.verify.prints.at(root, rel) {
			w.mu.Lock()
			w.verify.changed = append(w.verify.changed, abs)
			w.mu.Unlock()
		}
		return
	}
	j.node.files, j.node.abs = local, localAbs
	w.nfiles.Add(int64(len(local)))
	if len(subdirs) > 0 || len(skipped) > 0 {
		w.mu.Lock()
		w.dirs = append(w.dirs, subdirs...)
		w.skipped = append(w.skipped, skipped...)
		w.mu.Unlock()
	}
}

type entryKind int

const (
	entrySkip entryKind = iota
	entryFile
	entryDir
)

// admit decides what the walk does with one entry of the directory dirAbs:
// index it as a file, descend into it, or skip it. childForced is true when
// an IncludeDirs entry holds for a directory.
func (w *walker) admit(root int, dirAbs, childRel, name string, typ fs.FileMode, rules *Rules, forced bool) (kind entryKind, childForced bool) {
	if typ&fs.ModeSymlink != 0 {
		if w.symlinkedFile(root, dirAbs, name) && !w.excluded(childRel, false, rules, forced) {
			return entryFile, false
		}
		return entrySkip, false
	}
	if typ.IsDir() {
		if name == ".git" {
			return entrySkip, false
		}
		childForced = forced || w.forced(childRel, name)
		if !childForced && (AlwaysSkipped[name] || w.excluded(childRel, true, rules, false)) {
			return entrySkip, false
		}
		return entryDir, childForced
	}
	if !typ.IsRegular() || w.excluded(childRel, false, rules, forced) {
		return entrySkip, false // sockets, devices, fifos: nothing to open
	}
	return entryFile, false
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
	link := filepath.Join(dir, name)
	if _, _, inside := RealIn(w.roots, link); !inside {
		w.logf("skip symlink %s: dangling, looping, or its target outside the roots", link)
		return false
	}
	_, ok := FileInside(w.roots, link)
	return ok
}

func readIgnoreFile(path, base string) []Pattern {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return ParseIgnore(string(data), base)
}

// Lookup returns the file's position for a root-relative path (in
// Files), or -1.
func (ix *Index) Lookup(root int, rel string) int {
	return positionIn(ix.flat().files, File{Root: root, Path: rel})
}

// HasDir reports whether root-relative rel is a directory of the index
// (walked: Dirs).
func (ix *Index) HasDir(root int, rel string) bool {
	return positionIn(ix.Dirs, File{Root: root, Path: rel}) >= 0
}

// RootSpan is where root r's files lie in Files: from lo to hi.
func (ix *Index) RootSpan(r int) (lo, hi int) {
	ix = ix.flat()
	return ix.search(r, ""), ix.search(r+1, "")
}

// Abs returns the absolute filesystem path of f.
func (ix *Index) Abs(f File) string {
	return filepath.Join(ix.Roots[f.Root], filepath.FromSlash(f.Path))
}

// Has reports whether the absolute path p is a file of the index: inside
// a root, not ignored, and not a link leading out.
func (ix *Index) Has(p string) bool {
	root, rel, ok := ix.RootOf(p)
	return ok && ix.Contains(root, rel)
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

// Percent is an Options.Progress that reports a walk's progress as a
// percentage of share (the walk's part of a larger job): report hears it
// at most once per interval, advanced when it grew since the last
// report. The walk finds directories as it reads them, so read/found can
// fall back; the percentage does not.
func Percent(share int64, interval time.Duration, report func(pct int, advanced bool)) func(read, found int64) {
	var last atomic.Int64
	var shown atomic.Int64
	return func(read, found int64) {
		now := time.Now().UnixNano()
		if prev := last.Load(); now-prev < int64(interval) || !last.CompareAndSwap(prev, now) {
			return
		}
		pct := share * read / max(found, 1)
		old := shown.Load()
		advanced := pct > old && shown.CompareAndSwap(old, pct)
		report(int(max(pct, old)), advanced)
	}
}
