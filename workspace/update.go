package workspace

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
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

	// What the walks above read again replaces, in each list, the runs
	// of entries at or under the paths touched (each a run of the sorted
	// list, found by search): testing each entry against the paths
	// hashed every file's path and its parents', the whole tree's work
	// for one file added.
	var fresh run
	fresh.files, fresh.abs = w.collect()
	dirs := spliceList(ix.Dirs, goneSpans(ix.Dirs, rewalk, touched), w.dirs)
	skipped := spliceList(ix.Skipped, goneSpans(ix.Skipped, rewalk, touched), w.skipped)
	// The files: the flat base's and the delta's (delta.go), each less
	// what it held at or under a path read again, with what was read.
	base := ix
	var was fileDelta
	if d := ix.delta; d != nil {
		base, was = d.base, fileDelta{added: d.added, addedAbs: d.addedAbs, removed: d.removed}
	}
	baseSpans := goneSpans(base.files, rewalk, touched)
	var removed []int32
	k := 0
	for _, i := range was.removed { // those outside the spans stay removed
		for k < len(baseSpans) && baseSpans[k].hi <= int(i) {
			k++
		}
		if k == len(baseSpans) || int(i) < baseSpans[k].lo {
			removed = append(removed, i)
		}
	}
	for _, sp := range baseSpans { // those inside are removed unless read again
		for i := sp.lo; i < sp.hi; i++ {
			if positionIn(fresh.files, base.files[i]) < 0 {
				removed = append(removed, int32(i))
			}
		}
	}
	slices.Sort(removed)
	var added run
	for j, f := range fresh.files { // what was read that base lacks
		if positionIn(base.files, f) < 0 {
			added.files, added.abs = append(added.files, f), append(added.abs, fresh.abs[j])
		}
	}
	var keptAdded run // the delta's added outside the spans
	lo := 0
	for _, sp := range goneSpans(was.added, rewalk, touched) {
		keptAdded.files, keptAdded.abs = append(keptAdded.files, was.added[lo:sp.lo]...), append(keptAdded.abs, was.addedAbs[lo:sp.lo]...)
		lo = sp.hi
	}
	keptAdded.files, keptAdded.abs = append(keptAdded.files, was.added[lo:]...), append(keptAdded.abs, was.addedAbs[lo:]...)
	all := mergeRuns(keptAdded, added)
	changedFiles := !slices.Equal(all.files, was.added) || !slices.Equal(removed, was.removed)
	if !changedFiles && slices.Equal(dirs, ix.Dirs) && slices.Equal(skipped, ix.Skipped) {
		// Read again as it was (a poll or a watcher reporting what a
		// walk already saw): the same index, so that its holder keeps
		// what it serves — a new one would replace a snapshot being
		// compacted, and leave the heap's copy served.
		return ix, false
	}
	return withDelta(base, all.files, all.abs, removed, dirs, skipped), changedFiles
}

// mergeRuns merges two runs sorted in the Index order, with no file in
// both.
func mergeRuns(a, b run) run {
	if len(b.files) == 0 {
		return a
	}
	out := run{files: make([]File, 0, len(a.files)+len(b.files)), abs: make([]string, 0, len(a.files)+len(b.files))}
	i, j := 0, 0
	for i < len(a.files) || j < len(b.files) {
		if j == len(b.files) || i < len(a.files) && less(a.files[i], b.files[j]) {
			out.files, out.abs = append(out.files, a.files[i]), append(out.abs, a.abs[i])
			i++
		} else {
			out.files, out.abs = append(out.files, b.files[j]), append(out.abs, b.abs[j])
			j++
		}
	}
	return out
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

// span is a run of a sorted list, from lo up to hi.
type span struct{ lo, hi int }

// goneSpans are the runs of list (sorted, Index order) that Update reads
// again: every entry of a root re-walked, and each touched path with
// everything under it — in order, overlaps joined.
func goneSpans(list []File, rewalk map[int]bool, touched map[File]bool) []span {
	var spans []span
	for root := range rewalk {
		lo, hi := spanOf(list, root, "")
		spans = append(spans, span{lo, hi})
	}
	for f := range touched {
		if rewalk[f.Root] {
			continue
		}
		// The entry itself, then its tree (entries between, "a-b" after
		// "a", stay).
		if lo := positionIn(list, f); lo >= 0 {
			spans = append(spans, span{lo, lo + 1})
		}
		lo, hi := spanOf(list, f.Root, f.Path+"/")
		spans = append(spans, span{lo, hi})
	}
	slices.SortFunc(spans, func(a, b span) int { return a.lo - b.lo })
	var out []span
	for _, sp := range spans {
		if sp.lo >= sp.hi {
			continue
		}
		if n := len(out); n > 0 && sp.lo <= out[n-1].hi {
			out[n-1].hi = max(out[n-1].hi, sp.hi)
			continue
		}
		out = append(out, sp)
	}
	return out
}

// splice merges list less its gone spans with fresh (sorted, Index
// order, without repeats), an entry in both taken once, from list:
// keep(lo, hi) for each run of list kept, add(j) for each of fresh, in
// order. The kept runs go whole: between two fresh entries any number
// of files are one copy.
func splice(list []File, gone []span, fresh []File, keep func(lo, hi int), add func(j int)) {
	j, lo := 0, 0
	for k := 0; k <= len(gone); k++ {
		hi := len(list)
		if k < len(gone) {
			hi = gone[k].lo
		}
		for lo < hi {
			if j == len(fresh) {
				keep(lo, hi)
				lo = hi
				break
			}
			at := lo + sort.Search(hi-lo, func(i int) bool { return CompareFiles(list[lo+i], fresh[j]) >= 0 })
			if at > lo {
				keep(lo, at)
				lo = at
			}
			if lo < hi {
				if list[lo] == fresh[j] {
					keep(lo, lo+1)
					lo++
				} else {
					add(j)
				}
				j++
			}
		}
		if k < len(gone) {
			lo = gone[k].hi
		}
	}
	for ; j < len(fresh); j++ {
		add(j)
	}
}

// spliceList is splice into a new list (the walked or skipped
// directories; fresh in any order).
func spliceList(list []File, gone []span, fresh []File) []File {
	if len(gone) == 0 && len(fresh) == 0 {
		return list // nothing read again: the same list, not a copy
	}
	fresh = slices.Clone(fresh)
	SortFiles(fresh)
	fresh = slices.Compact(fresh)
	out := make([]File, 0, len(list)+len(fresh))
	splice(list, gone, fresh,
		func(lo, hi int) { out = append(out, list[lo:hi]...) },
		func(j int) { out = append(out, fresh[j]) })
	return out
}

// spliceFiles is splice of ix's files with fresh, and their absolute
// paths: none (nil) when every Path kept and fresh is the tail of its
// absolute path (the index reads it in front of the Path, AbsAt), as
// those of a walk and of a saved index are; and the runs of ix's files
// kept whole.
func spliceFiles(ix *Index, gone []span, fresh run) ([]File, []string, []keptRun) {
	n := len(ix.files) + len(fresh.files)
	files := make([]File, 0, n)
	var abs []string
	var kept []keptRun
	if !ix.sharesTails() || !fresh.tails(ix.Roots) {
		abs = make([]string, 0, n)
	}
	splice(ix.files, gone, fresh.files,
		func(lo, hi int) {
			kept = append(kept, keptRun{lo, hi, len(files)})
			files = append(files, ix.files[lo:hi]...)
			if abs != nil {
				for i := lo; i < hi; i++ {
					abs = append(abs, ix.AbsAt(i))
				}
			}
		},
		func(j int) {
			files = append(files, fresh.files[j])
			if abs != nil {
				abs = append(abs, fresh.abs[j])
			}
		})
	return files, abs, kept
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
// files of ix that want accepts (nil: all), in index order, and then the
// known ones in path order (files an index kept before, which may have
// left ix: known lists those at or under a path). Both are found by
// search (the files under a directory are one run of a sorted list),
// not by reading every path, which for each change re-checked read the
// whole index's pages and tested every known path.
func Affected(ix *Index, paths []string, known func(path string) []string, want func(rel string) bool) []string {
	type hit struct {
		f   File
		abs func() string
	}
	var at []hit
	for _, p := range paths {
		p = filepath.Clean(p)
		for r, root := range ix.Roots {
			switch {
			case within(p, root): // a root inside p: all of it
				for f, abs := range ix.under(r, "") {
					at = append(at, hit{f, abs})
				}
			case within(root, p):
				rel, err := filepath.Rel(root, p)
				if err != nil {
					continue
				}
				rel = filepath.ToSlash(rel)
				for f, abs := range ix.under(r, rel) { // rel, its tree, and names that begin like it
					if f.Path == rel || f.Path[len(rel)] == '/' {
						at = append(at, hit{f, abs})
					}
				}
			}
		}
	}
	slices.SortFunc(at, func(a, b hit) int { return CompareFiles(a.f, b.f) })
	at = slices.CompactFunc(at, func(a, b hit) bool { return a.f == b.f })
	seen := map[string]bool{}
	var out []string
	for _, h := range at {
		if want == nil || want(h.f.Path) {
			abs := h.abs()
			seen[abs] = true
			out = append(out, abs)
		}
	}
	var kn []string
	for _, p := range paths {
		kn = append(kn, known(filepath.Clean(p))...)
	}
	slices.Sort(kn)
	for _, abs := range slices.Compact(kn) {
		if !seen[abs] {
			seen[abs] = true
			out = append(out, abs)
		}
	}
	return out
}

// Diff lists the files (absolute) in one index and not the other: what
// an Update added or removed. Both must have the same roots.
func Diff(a, b *Index) []string {
	added, gone := Delta(a, b)
	out := make([]string, 0, len(gone)+len(added))
	for _, f := range gone {
		out = append(out, a.Abs(f))
	}
	for _, f := range added {
		out = append(out, b.Abs(f))
	}
	return out
}

// Kept lines next up with prev, an index it was updated from (Update):
// from[j] is the position in prev of next's file j, or -1 for a file
// added; gone are the positions in prev of the files next lacks, in
// order. Both must have the same roots. It is how arrays kept by file
// carry over a change (rank.Engine.layOut).
func Kept(prev, next *Index) (from, gone []int32) {
	prev, next = prev.flat(), next.flat()
	from = make([]int32, len(next.files))
	if prev.serial != 0 && next.parent == prev.serial {
		// Update recorded the runs it kept: no path is compared.
		for j := range from {
			from[j] = -1
		}
		lo := 0
		for _, r := range next.kept {
			for k := r.lo; k < r.hi; k++ {
				from[r.at+k-r.lo] = int32(k)
			}
			for g := lo; g < r.lo; g++ {
				gone = append(gone, int32(g))
			}
			lo = r.hi
		}
		for g := lo; g < len(prev.files); g++ {
			gone = append(gone, int32(g))
		}
		// A file read again where Update re-walked is the same file:
		// the few added and gone, both in path order, compared.
		var added []int32
		for j, i := range from {
			if i < 0 {
				added = append(added, int32(j))
			}
		}
		left := gone[:0]
		a := 0
		for _, g := range gone {
			for a < len(added) && less(next.files[added[a]], prev.files[g]) {
				a++
			}
			if a < len(added) && next.files[added[a]] == prev.files[g] {
				from[added[a]] = g
				a++
				continue
			}
			left = append(left, g)
		}
		return from, left
	}
	mergeFiles(prev.files, next.files, func(i, j int) {
		switch {
		case j < 0:
			gone = append(gone, int32(i))
		default:
			from[j] = int32(i) // -1 when added
		}
	})
	return from, gone
}

// Delta is what changed from prev to next, an index updated from it
// (Update): the files next has and prev lacks, and those prev has and
// next lacks, each in the Index order. Of one base, their deltas are
// compared; when Update laid next flat from prev, the files outside the
// runs it kept — a change's few, not the tree.
func Delta(prev, next *Index) (added, gone []File) {
	var a, b []File // the lists that differ by what changed, compared below
	ofOneBase := false
	switch pb := prev.flatBase(); {
	case pb == next.flatBase() && (prev.delta != nil || next.delta != nil):
		// Of one base: the deltas compared — the files each added, and
		// the base's each removed (gone, or back).
		ofOneBase = true
		var pr, nr []int32
		if d := prev.delta; d != nil {
			a, pr = d.added, d.removed
		}
		if d := next.delta; d != nil {
			b, nr = d.added, d.removed
		}
		for i, j := 0, 0; i < len(pr) || j < len(nr); {
			switch {
			case j == len(nr) || i < len(pr) && pr[i] < nr[j]:
				added = append(added, pb.files[pr[i]])
				i++
			case i == len(pr) || nr[j] < pr[i]:
				gone = append(gone, pb.files[nr[j]])
				j++
			default:
				i, j = i+1, j+1
			}
		}
	case prev.serial != 0 && next.parent == prev.serial:
		// Update recorded the runs of prev it kept: only the files
		// outside them are compared.
		lo, at := 0, 0
		for _, r := range next.kept {
			a, b = append(a, prev.files[lo:r.lo]...), append(b, next.files[at:r.at]...)
			lo, at = r.hi, r.at+r.hi-r.lo
		}
		a, b = append(a, prev.files[lo:]...), append(b, next.files[at:]...)
	default:
		a, b = prev.Files(), next.Files()
	}
	mergeFiles(a, b, func(i, j int) {
		switch {
		case j < 0:
			gone = append(gone, a[i])
		case i < 0:
			added = append(added, b[j])
		}
	})
	if ofOneBase {
		SortFiles(added)
		SortFiles(gone)
	}
	return added, gone
}

// mergeFiles walks two sorted lists of files in step, calling step with
// the positions of each file in both (i, j), in a only (i, -1) or in b
// only (-1, j).
func mergeFiles(a, b []File, step func(i, j int)) {
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j >= len(b) || (i < len(a) && less(a[i], b[j])):
			step(i, -1)
			i++
		case i >= len(a) || less(b[j], a[i]):
			step(-1, j)
			j++
		default:
			step(i, j)
			i++
			j++
		}
	}
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
// called before each batch (a large tree's directories take noticeable
// system time). It is polling's first look (DirTimes.Changed).
func ChangedSince(ix *Index, t time.Time, pace func()) []string {
	var first DirTimes
	return first.Changed(ix, t, pace)
}
