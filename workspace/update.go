package workspace

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Update returns ix with the paths in changed (absolute, in any order, each
// created, modified, renamed or deleted) brought up to date by reading the
// filesystem as it is now, so replaying a change is harmless and the kind
// of event does not matter. A changed ignore file re-walks its whole root:
// it can re-include or exclude anything below it. Paths outside the roots
// and inside .git are ignored. ok is false when the file set is unchanged.
func Update(ix *Index, opt Options, changed []string) (next *Index, ok bool) {
	w := newWalker(ix.Roots, opt)
	rewalk := map[int]bool{}
	touched := map[File]bool{}
	for _, p := range changed {
		root, rel, in := ix.RootOf(p)
		if !in {
			continue
		}
		base := path.Base(rel)
		switch {
		case rel == "" || base == ".gitignore" || rel == ".git/info/exclude":
			rewalk[root] = true
		case rel == ".git" || strings.HasPrefix(rel, ".git/") || strings.Contains(rel, "/.git/") || strings.HasSuffix(rel, "/.git"):
			// git's own bookkeeping churns on every command
		default:
			touched[File{root, rel}] = true
		}
	}
	// A touched path below another touched path or a re-walked root is
	// covered by that one's walk.
	var todo []File
	for f := range touched {
		if rewalk[f.Root] || coveredBy(touched, f) {
			continue
		}
		todo = append(todo, f)
	}
	if len(todo) == 0 && len(rewalk) == 0 {
		return ix, false
	}

	for root := range rewalk {
		w.queue(w.rootJob(root))
	}
	for _, f := range todo {
		w.rewalk(f.Root, f.Path)
	}
	w.run()

	gone := func(f File) bool {
		return rewalk[f.Root] || touched[f] || coveredBy(touched, f)
	}
	var fresh run
	fresh.files, fresh.abs = w.collect()
	files, abs := mergeKept(ix, gone, fresh)
	dirs := merge(ix.Dirs, w.dirs, gone)
	skipped := merge(ix.Skipped, w.skipped, gone)
	next = (&Index{Roots: ix.Roots, Files: files, abs: abs, Dirs: dirs, Skipped: skipped}).shareTails()
	next.backing = append(slices.Clip(ix.segs), ix.backing...)
	return next, !sameFiles(ix.Files, files)
}

// coveredBy reports whether an ancestor directory of f is also touched.
func coveredBy(touched map[File]bool, f File) bool {
	for p := f.Path; strings.Contains(p, "/"); {
		p = parentOf(p)
		if touched[File{f.Root, p}] {
			return true
		}
	}
	return false
}

func parentOf(rel string) string {
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		return rel[:i]
	}
	return ""
}

// rewalk indexes what now exists at rel: nothing, a file, or a directory
// tree, admitted by the same rules a full walk would apply on the way down.
func (w *walker) rewalk(root int, rel string) {
	rules := w.rootRules(root)
	forced := false
	rootAbs := w.roots[root]
	if !w.opt.NoIgnoreFiles {
		rules = rules.With(readIgnoreFile(filepath.Join(rootAbs, ".gitignore"), ""))
	}
	comps := strings.Split(rel, "/")
	dirAbs, dirRel := rootAbs, ""
	for i, name := range comps {
		childAbs, childRel := w.child(root, dirAbs, name)
		st, err := os.Lstat(childAbs)
		if err != nil {
			return // deleted (or unreadable): nothing to add
		}
		kind, childForced := w.admit(root, dirAbs, childRel, name, st.Mode().Type(), rules, forced)
		last := i == len(comps)-1
		switch {
		case kind == entrySkip:
			if last && st.IsDir() && !vcsDirs[name] {
				w.mu.Lock()
				w.skipped = append(w.skipped, File{root, childRel})
				w.mu.Unlock()
			}
			return
		case last && kind == entryFile:
			w.mu.Lock()
			w.singles, w.singleAbs = append(w.singles, File{root, childRel}), append(w.singleAbs, childAbs)
			w.mu.Unlock()
			w.nfiles.Add(1)
			return
		case kind != entryDir:
			return // an ancestor is not a directory any more
		case last:
			w.mu.Lock()
			w.dirs = append(w.dirs, File{root, childRel})
			w.mu.Unlock()
			w.queue(dirJob{root: root, abs: childAbs, rel: childRel, rules: rules, forced: childForced, node: w.tree()})
			return
		}
		forced = childForced
		dirAbs, dirRel = childAbs, childRel
		if !w.opt.NoIgnoreFiles {
			rules = rules.With(readIgnoreFile(filepath.Join(dirAbs, ".gitignore"), dirRel))
		}
	}
}

// mergeKept merges what Update keeps of ix (the files gone does not
// report) with what it read again, in Index order, a file in both kept
// once. It reads the kept files where they are: copied into a list of
// their own first, a million files' list was as large again in garbage,
// for one file added.
func mergeKept(ix *Index, gone func(File) bool, fresh run) ([]File, []string) {
	n := len(ix.Files) + len(fresh.files)
	files, abs := make([]File, 0, n), make([]string, 0, n)
	i, j := 0, 0
	for i < len(ix.Files) || j < len(fresh.files) {
		if i < len(ix.Files) && gone(ix.Files[i]) {
			i++
			continue
		}
		c := 1
		if j == len(fresh.files) {
			c = -1
		} else if i < len(ix.Files) {
			c = compareFiles(ix.Files[i], fresh.files[j])
		}
		if c <= 0 {
			files, abs = append(files, ix.Files[i]), append(abs, ix.AbsAt(i))
			i++
			if c == 0 {
				j++
			}
		} else {
			files, abs = append(files, fresh.files[j]), append(abs, fresh.abs[j])
			j++
		}
	}
	return slices.Clip(files), slices.Clip(abs)
}

// merge drops the old entries gone reports and adds the fresh ones, keeping
// the order and dropping duplicates.
func merge(old, fresh []File, gone func(File) bool) []File {
	out := make([]File, 0, len(old)+len(fresh))
	for _, f := range old {
		if !gone(f) {
			out = append(out, f)
		}
	}
	out = append(out, fresh...)
	SortFiles(out)
	return slices.Compact(out)
}

func sameFiles(a, b []File) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Affected lists, once each, the files (absolute) at or under paths: the
// files of ix that want accepts (nil: all), in index order, and the known
// paths (files an index kept before, which may have left ix; sorted).
// Both are found by search (the files under a directory are one run of a
// sorted list), not by reading every path: at a million files, each
// change re-checked read the whole index's pages and tested a million
// known paths.
func Affected(ix *Index, paths, known []string, want func(rel string) bool) []string {
	var at []int
	for _, p := range paths {
		p = filepath.Clean(p)
		for r, root := range ix.Roots {
			switch {
			case within(p, root): // a root inside p: all of it
				at = ix.appendRun(at, r, "", true)
			case within(root, p):
				rel, err := filepath.Rel(root, p)
				if err != nil {
					continue
				}
				rel = filepath.ToSlash(rel)
				if i := ix.Lookup(r, rel); i >= 0 {
					at = append(at, i)
				}
				at = ix.appendRun(at, r, rel+"/", false)
			}
		}
	}
	slices.Sort(at)
	at = slices.Compact(at)
	seen := map[string]bool{}
	var out []string
	for _, i := range at {
		if want == nil || want(ix.Files[i].Path) {
			abs := ix.AbsAt(i)
			seen[abs] = true
			out = append(out, abs)
		}
	}
	var kn []int
	for _, p := range paths {
		p = filepath.Clean(p)
		i, _ := slices.BinarySearch(known, p)
		if i < len(known) && known[i] == p {
			kn = append(kn, i)
		}
		dir := p
		if !strings.HasSuffix(dir, string(filepath.Separator)) {
			dir += string(filepath.Separator)
		}
		for i, _ = slices.BinarySearch(known, dir); i < len(known) && strings.HasPrefix(known[i], dir); i++ {
			kn = append(kn, i)
		}
	}
	slices.Sort(kn)
	for _, i := range slices.Compact(kn) {
		if abs := known[i]; !seen[abs] {
			seen[abs] = true
			out = append(out, abs)
		}
	}
	return out
}

// appendRun appends the positions of root's files whose path starts with
// prefix (every file of the root when whole) to at.
func (ix *Index) appendRun(at []int, root int, prefix string, whole bool) []int {
	for i := ix.search(root, prefix); i < len(ix.Files) && ix.Files[i].Root == root && (whole || strings.HasPrefix(ix.Files[i].Path, prefix)); i++ {
		at = append(at, i)
	}
	return at
}

// Diff lists the files (absolute) in one index and not the other: what
// an Update added or removed. Both must have the same roots.
func Diff(a, b *Index) []string {
	var out []string
	i, j := 0, 0
	for i < len(a.Files) || j < len(b.Files) {
		switch {
		case j >= len(b.Files) || (i < len(a.Files) && less(a.Files[i], b.Files[j])):
			out = append(out, a.AbsAt(i))
			i++
		case i >= len(a.Files) || less(b.Files[j], a.Files[i]):
			out = append(out, b.AbsAt(j))
			j++
		default:
			i++
			j++
		}
	}
	return out
}

// mtimeSlack is how much older than a time a directory's modification
// time may read and still have changed after it: file systems keep
// coarse times (FAT two seconds, ext3 one).
const mtimeSlack = 2 * time.Second

// ChangedSince lists the roots and walked directories of ix (absolute)
// whose entries may have changed at or after t, by their modification
// time, and those gone: what a walk that began at t can have missed
// before a watcher was watching. Re-walking only these, not the roots
// whole, costs a stat a directory and no file list; pace, when set, is
// called before each batch (a quarter of a million directories take a
// second or more of system time). It is polling's first look
// (DirTimes.Changed).
func ChangedSince(ix *Index, t time.Time, pace func()) []string {
	var first DirTimes
	return first.Changed(ix, t, pace)
}
