// Package vcs is the repository's own record of its paths, read once per
// root from git and kept current: every path a file has had → the path it
// has today (rename chains followed to the end), every deleted path → the
// commit that deleted it, and which files are committed together. The
// engine reads a Record (in memory) to answer stale paths; this package
// runs git and persists records, and ranks nothing.
//
// The fold (Record.apply) takes commits oldest first. A file is a
// lineage: born by an add, carried along by renames, ended by a delete.
// Each path name remembers the last lineage that carried it and the commit
// where the lineage left it, so a name reused later means its latest
// owner, and a chain a → b → c leads from a to wherever c is today.
package vcs

import (
	"maps"
	"path"
	"slices"
	"sort"
	"strings"
)

// Commit is one commit the record names: where a path was left behind.
type Commit struct {
	Hash    string
	Time    int64 // committer time, Unix seconds
	Subject string
}

// Short is the hash as people quote it.
func (c Commit) Short() string {
	if len(c.Hash) > 7 {
		return c.Hash[:7]
	}
	return c.Hash
}

// Fate is what became of a path that is not there today.
type Fate struct {
	// Path is where the file is today; "" when it was deleted.
	Path string
	// Commit left the old path behind: renamed it away, or deleted it.
	Commit Commit
	// Deleted is set when the file has no successor; LastPath is the path
	// it had when it was deleted (the old path itself, or a later name).
	// Unsure: git could not tell the delete from a rename (the store
	// lacked a blob it would have compared).
	Deleted, Unsure bool
	LastPath        string
	// LaterDeleted, for a file that lives on: a later file given the old
	// path was deleted in this commit (zero: none).
	LaterDeleted Commit
	// Split: a rename on the way changed the file's name while its commit
	// added other files beside the new one (a file split in parts: Path
	// is the part git paired it with).
	Split bool
	// Kin, for a file deleted: where the one file its deleting commit
	// added with the same name or stem is today ("": none, or it is gone
	// too). Such a delete may be a move git could not pair.
	Kin string
}

// Partner is a file committed together with another, and how often.
type Partner struct {
	Path  string
	Count int
}

// lineage is one file through time.
type lineage struct {
	path string // its path now (or when it ended)
	end  int32  // the commit that deleted it (index into commits), -1 while it lives
	// unsure: git could not tell its delete from a rename (op.unsure).
	unsure bool
	// changes: the commits read that touched it, under any of its names.
	changes uint32
	// kin, for a file deleted: 1 + the lineage of the one file its
	// deleting commit added with the same name or stem (0: none). git
	// found too little text in common for a rename, but a commit that
	// deletes x/rn.py and adds y/rn.py has likely moved it all the same:
	// the history cannot say "gone" of it.
	kin int32
}

// name is what a path name last meant: its latest lineage, and the commit
// where that lineage left the name (-1: it still has it); and the latest
// lineage that left it by a rename, with that commit (-1: none), which
// outlives a later file of the same name that was deleted.
type name struct {
	lin, left      int32
	moved, movedAt int32
	// movedTo: the path the last rename away from this one went to.
	movedTo string
	// split: that rename changed the file's name, and its commit added
	// other files beside the new one: the file was likely split, and git
	// paired it with one of the parts.
	split bool
}

// owned is n with lineage l now carrying the name (left: the commit where
// it left it, -1 while it has it); what moved away from it before stays.
func (n name) owned(l, left int32) name {
	n.lin, n.left = l, left
	return n
}

// nameOf is what the record knows of path, or an empty name.
func (r *Record) nameOf(path string) name {
	if n, ok := r.names[path]; ok {
		return n
	}
	return name{lin: -1, left: -1, moved: -1, movedAt: -1}
}

// Record is one repository's history as seen from one root. Immutable once
// built (apply makes a new one); safe for concurrent reads.
type Record struct {
	// Head is the newest commit read; Commits and Renames count what was
	// read (commits without merges, renames followed).
	Head    string
	Commits int
	Renames int
	Shallow bool
	// Detection: how renames were detected (exact only, or mixed, where
	// the store lacks blobs git's similarity detection compares).
	Detection Detection
	// Prefix is the root's place below the repository's top ("" at the
	// top, else "sub/dir/"): the fold keeps the repository's paths, and
	// the answers speak the root's.
	Prefix   string
	lineages []lineage
	names    map[string]name
	commits  []Commit // only the commits a name or a lineage points at
	live     map[string]int32
	// co: for each live lineage, the files most often committed with it;
	// coBy, co read backwards: the lineages whose partners name it (so
	// that who was committed with a visited file is a lookup per visit,
	// not one per file a request scores).
	co   map[int32][]coCount
	coBy map[int32][]coCount
	// pairs counts co-changes while building; dropped once co is chosen.
	pairs map[uint64]uint32
	// line: while building, the line to HEAD of the span read (nil: no
	// merges in it, every commit is on the line).
	line *line
	// Author is the user the record follows: the e-mail address git
	// would write as the author of their next commit ("" when it knows
	// none). mine holds their latest AuthoredCommits commits, oldest
	// first, each the lineages it touched (nil: the whole tree's,
	// AuthoredCommitFiles).
	Author string
	mine   [][]int32
	// recent: the latest RecentCommits commits, oldest first (Recent).
	recent []recentCommit
}

const (
	// AuthoredCommits: the user's latest commits the record keeps
	// (Authored). The ranking weighs each by its recency, and past this
	// many a commit weighs next to nothing (rank.authoredHalfLife).
	AuthoredCommits = 128
	// AuthoredCommitFiles: a commit of the user's touching more files is
	// the whole tree's (a reformat, a license header) and names none of
	// them — where a sweep of co-change's size (maxCoChangeFiles) still says
	// where its author works (a language's translations, a regenerated
	// package): on the tuning half's sessions leaving out commits of more
	// than 12 files did worse than more than 256, and that than 1000. It
	// bounds the record's share of the user at AuthoredCommits × this.
	AuthoredCommitFiles = 1000
)

type coCount struct {
	lin   int32
	count uint32
}

// Co-change bounds.
const (
	// maxCoChangeFiles: a commit touching more files than this is a sweep
	// (a reformat, a rename of a directory), not work done together; its
	// pairs would drown the signal and cost n² counts.
	maxCoChangeFiles = 12
	// coPartners: the partners kept per file, the most frequent.
	coPartners = 16
	// minCoChange: a pair committed together once is chance.
	minCoChange = 2
)

func newRecord() *Record {
	return &Record{names: map[string]name{}, live: map[string]int32{}, co: map[int32][]coCount{}}
}

// op is one entry of a commit's name-status.
type op struct {
	status   byte // 'A', 'M', 'D', 'R', 'C', 'T'
	old, new string
	// similarity: of a rename or a copy, the share of the file git found
	// alike, in percent (100 for an exact one; 0 when not given).
	similarity int
	// unsure: a delete git could not compare with every file the commit
	// adds (a blob the store lacks): it may have been a rename.
	unsure bool
}

// commitOps is one commit as the fold takes it.
type commitOps struct {
	commit Commit
	author string // the author's e-mail address
	ops    []op
}

// apply folds one commit into r.
func (r *Record) apply(c commitOps) {
	r.Commits++
	r.Head = c.commit.Hash
	ci := int32(-1)
	commitIndex := func() int32 {
		if ci < 0 {
			r.commits = append(r.commits, c.commit)
			ci = int32(len(r.commits) - 1)
		}
		return ci
	}
	touched := make([]int32, 0, len(c.ops))
	var edited []int32         // modified in place (Recent)
	var deleted, added []int32 // this commit's, for kinOf
	for _, o := range c.ops {
		switch o.status {
		case 'M', 'T':
			if _, ok := r.live[o.new]; !ok {
				if n, known := r.names[o.new]; known && n.left >= 0 {
					// An edit of a path the file had already left: a
					// branch begun before the move, whose merge (left
					// out of the log) carried the edit to the new path.
					continue
				}
			}
			l := r.bring(o.new)
			touched, edited = append(touched, l), append(edited, l)
		case 'A':
			l := r.bring(o.new)
			touched, added = append(touched, l), append(added, l)
		case 'C':
			// A copy is a new file; its source carries on.
			touched = append(touched, r.bring(o.new))
		case 'D':
			if kept, side := r.line.after(o.new, c.commit.Hash); side && kept {
				// A side branch's delete that the line to HEAD never took.
				continue
			}
			r.end(o.new, commitIndex())
			deleted = append(deleted, r.names[o.new].lin)
			if o.unsure {
				r.lineages[r.names[o.new].lin].unsure = true
			}
		case 'R':
			if kept, side := r.line.after(o.old, c.commit.Hash); side && kept {
				if reached, _ := r.line.after(o.new, c.commit.Hash); !reached {
					// A side branch's rename that the line to HEAD never
					// took: there the old path lived on; the new one is
					// a copy, a file of its own.
					touched = append(touched, r.bring(o.new))
					continue
				}
			}
			l, ok := r.live[o.old]
			if !ok {
				if n, known := r.names[o.old]; known && n.left >= 0 {
					// A branch's rename of a path the file had already
					// left: the old name keeps its first successor; the
					// branch's new path is a file of its own.
					touched = append(touched, r.bring(o.new))
					continue
				}
				l = r.born(o.old)
			}
			delete(r.live, o.old)
			if prev, ok := r.live[o.new]; ok && prev != l {
				// Renamed over a file that was there: that one ends.
				r.lineages[prev].end = commitIndex()
			}
			r.live[o.new] = l
			r.lineages[l].path = o.new
			old := r.nameOf(o.old).owned(l, commitIndex())
			old.moved, old.movedAt, old.movedTo = l, commitIndex(), o.new
			r.names[o.old] = old
			r.names[o.new] = r.nameOf(o.new).owned(l, -1)
			r.Renames++
			touched = append(touched, l)
		}
	}
	for _, d := range deleted {
		r.lineages[d].kin = r.kinOf(d, added)
	}
	r.markSplits(c.ops, added, ci)
	for i, l := range touched {
		if !slices.Contains(touched[:i], l) {
			r.lineages[l].changes++
		}
	}
	if r.Author != "" && c.author == r.Author {
		r.keepMine(touched)
	}
	r.keepRecent(c.author, touched, edited)
	if n := len(touched); n >= 2 && n <= maxCoChangeFiles {
		if r.pairs == nil {
			r.pairs = map[uint64]uint32{}
		}
		for i, a := range touched {
			for _, b := range touched[i+1:] {
				if a == b {
					continue
				}
				lo, hi := min(a, b), max(a, b)
				r.pairs[uint64(lo)<<32|uint64(uint32(hi))]++
			}
		}
	}
}

// keepMine adds one of the user's commits, the lineages it touched, to
// their latest (the whole tree's left out: AuthoredCommitFiles).
func (r *Record) keepMine(touched []int32) {
	var ls []int32
	for i, l := range touched {
		if !slices.Contains(touched[:i], l) {
			ls = append(ls, l)
		}
	}
	if len(ls) > AuthoredCommitFiles {
		ls = nil
	}
	if len(r.mine) == AuthoredCommits {
		r.mine = slices.Delete(r.mine, 0, 1)
	}
	r.mine = append(r.mine, ls)
}

// Authored is the files of the user's latest commits (Author), the
// latest first, each commit its files as they are named today (relative
// to the root); a file since deleted, or outside the root, is left out,
// and a commit of the whole tree has none.
func (r *Record) Authored() [][]string {
	if r == nil {
		return nil
	}
	out := make([][]string, 0, len(r.mine))
	for i := len(r.mine) - 1; i >= 0; i-- {
		var fs []string
		for _, l := range r.mine[i] {
			if r.lineages[l].end >= 0 {
				continue
			}
			if rel, ok := within(r.Prefix, r.lineages[l].path); ok {
				fs = append(fs, rel)
			}
		}
		out = append(out, fs)
	}
	return out
}

// markSplits marks the renames of commit ci (ops; added: the lineages it
// added) that changed a file's name and kept less than splitSimilarity
// of it while the commit added another file in the new one's directory:
// a split (name.split; testing/test_python.py, R052 to
// testing/python/fixture.py beside a new collect.py and metafunc.py).
// A rename that kept most of the file is the file, whatever was added
// beside it (a package's new __init__.py).
func (r *Record) markSplits(ops []op, added []int32, ci int32) {
	if ci < 0 || len(added) == 0 {
		return
	}
	dirs := make(map[string]bool, len(added))
	for _, a := range added {
		dirs[path.Dir(r.lineages[a].path)] = true
	}
	for _, o := range ops {
		if o.status != 'R' || o.similarity <= 0 || o.similarity >= splitSimilarity || path.Base(o.old) == path.Base(o.new) || !dirs[path.Dir(o.new)] {
			continue
		}
		if n, ok := r.names[o.old]; ok && n.movedTo == o.new && n.movedAt == ci {
			n.split = true
			r.names[o.old] = n
		}
	}
}

// splitSimilarity: below it a renamed file kept less than the share of
// its text that makes it the same file (dirMoveShare's two thirds).
const splitSimilarity = 67

// kinOf is 1 + the one lineage of added whose path has the deleted
// lineage d's name or stem (case aside), or 0 when none or several do.
func (r *Record) kinOf(d int32, added []int32) int32 {
	name := strings.ToLower(path.Base(r.lineages[d].path))
	stem := strings.TrimSuffix(name, path.Ext(name))
	kin := int32(0)
	for _, a := range added {
		n := strings.ToLower(path.Base(r.lineages[a].path))
		if n != name && strings.TrimSuffix(n, path.Ext(n)) != stem {
			continue
		}
		if kin != 0 {
			return 0 // two files of that name added: no telling which
		}
		kin = a + 1
	}
	return kin
}

// end ends the file at path in commit ci (an index into r.commits).
func (r *Record) end(path string, ci int32) {
	l, ok := r.live[path]
	if !ok {
		l = r.born(path)
	}
	delete(r.live, path)
	r.lineages[l].end, r.lineages[l].unsure = ci, false
	r.names[path] = r.nameOf(path).owned(l, ci)
}

// bring is the live lineage at path, born there if there is none (an add,
// or a change to a file whose birth is older than the history read).
func (r *Record) bring(path string) int32 {
	if l, ok := r.live[path]; ok {
		return l
	}
	return r.born(path)
}

func (r *Record) born(path string) int32 {
	if n, ok := r.names[path]; ok && n.lin >= 0 {
		if dead := &r.lineages[n.lin]; dead.end >= 0 && dead.path == path {
			// A path deleted and given a file again is the same path:
			// what led to it (older names renamed into it) leads on to
			// the file it holds now. A branch's delete and a merge's
			// return often look like this in a log without merges.
			dead.end, dead.unsure, dead.kin = -1, false, 0
			r.live[path] = n.lin
			r.names[path] = n.owned(n.lin, -1)
			return n.lin
		}
	}
	l := int32(len(r.lineages))
	r.lineages = append(r.lineages, lineage{path: path, end: -1})
	r.live[path] = l
	r.names[path] = r.nameOf(path).owned(l, -1)
	return l
}

// finish turns the pair counts into each live file's partners (merged
// with what an earlier fold chose) and drops the counts.
func (r *Record) finish() {
	if len(r.pairs) == 0 {
		return
	}
	all := map[int32]map[int32]uint32{}
	add := func(a, b int32, n uint32) {
		if r.lineages[a].end >= 0 || r.lineages[b].end >= 0 {
			return
		}
		m := all[a]
		if m == nil {
			m = map[int32]uint32{}
			all[a] = m
		}
		m[b] += n
	}
	for k, n := range r.pairs {
		a, b := int32(k>>32), int32(uint32(k))
		add(a, b, n)
		add(b, a, n)
	}
	for a, ps := range r.co {
		for _, p := range ps {
			add(a, p.lin, p.count)
		}
	}
	r.pairs = nil
	r.co = make(map[int32][]coCount, len(all))
	for a, m := range all {
		list := make([]coCount, 0, len(m))
		for b, n := range m {
			if n >= minCoChange {
				list = append(list, coCount{lin: b, count: n})
			}
		}
		if len(list) == 0 {
			continue
		}
		sortCo(list)
		if len(list) > coPartners {
			list = list[:coPartners]
		}
		r.co[a] = list
	}
	r.invertCo()
}

// invertCo builds coBy from co.
func (r *Record) invertCo() {
	r.coBy = make(map[int32][]coCount, len(r.co))
	for a, ps := range r.co {
		for _, p := range ps {
			r.coBy[p.lin] = append(r.coBy[p.lin], coCount{lin: a, count: p.count})
		}
	}
	for _, list := range r.coBy {
		sortCo(list)
	}
}

// sortCo orders partners most frequent first, then by lineage, so that
// answers do not depend on a map's order.
func sortCo(list []coCount) {
	sort.Slice(list, func(i, j int) bool {
		if list[i].count != list[j].count {
			return list[i].count > list[j].count
		}
		return list[i].lin < list[j].lin
	})
}

// Fate says what became of path (root-relative, as the repository spells
// it), when the record knows it as a path that was left behind. A path a
// live file still has is no stale path: ok is false.
//
// A path leads where its last rename away from it went, and on through
// that path's later renames, to a path a file has today: the path is
// what people held (a file rewritten away whose path another file took
// and carried on leads to that file; a path renamed away and given a new
// file since is that file). A path whose last departure was a delete,
// with no rename after it, leads nowhere: deleted, in that commit.
func (r *Record) Fate(path string) (Fate, bool) {
	if r == nil {
		return Fate{}, false
	}
	n, ok := r.names[r.Prefix+path]
	if !ok || n.left < 0 {
		return Fate{}, false
	}
	if n.moved < 0 {
		return r.deleted(n)
	}
	f := Fate{Commit: r.commits[n.movedAt], Split: n.split}
	if n.lin != n.moved && r.lineages[n.lin].end >= 0 {
		// A later file of this name was deleted, but the one that had it
		// before moved on: that is where what people knew by this name
		// went.
		f.LaterDeleted = r.commits[r.lineages[n.lin].end]
	}
	// Each hop is a later commit's rename (movedAt grows), so the walk
	// ends.
	p, at := n.movedTo, n.movedAt
	for {
		m, ok := r.names[p]
		if !ok || m.left < 0 {
			rel, inside := within(r.Prefix, p)
			if !inside {
				return Fate{}, false // moved out of this root: not the root's to answer
			}
			f.Path = rel
			return f, true
		}
		if m.moved >= 0 && m.movedAt > at {
			p, at = m.movedTo, m.movedAt
			f.Split = f.Split || m.split
			continue
		}
		d, _ := r.deleted(m)
		d.Commit, d.LaterDeleted = r.commits[m.left], f.LaterDeleted
		return d, true
	}
}

// deleted is the fate of a name whose file ended where the name was
// left: the lineage's delete.
func (r *Record) deleted(n name) (Fate, bool) {
	l := r.lineages[n.lin]
	f := Fate{Deleted: true, Unsure: l.unsure, Commit: r.commits[n.left], LastPath: l.path}
	if l.end >= 0 {
		f.Commit = r.commits[l.end]
	}
	if l.kin > 0 {
		if k := r.lineages[l.kin-1]; k.end < 0 {
			if rel, inside := within(r.Prefix, k.path); inside {
				f.Kin = rel
			}
		}
	}
	if rel, inside := within(r.Prefix, l.path); inside {
		f.LastPath = rel
	}
	return f, true
}

// Gone lists the path names the history left behind (renamed away or
// deleted), sorted: what a stale path is matched against.
func (r *Record) Gone() []string {
	if r == nil {
		return nil
	}
	out := make([]string, 0, len(r.names)-len(r.live))
	for p, n := range r.names {
		if n.left < 0 {
			continue
		}
		if rel, ok := within(r.Prefix, p); ok {
			out = append(out, rel)
		}
	}
	sort.Strings(out)
	return out
}

// Changes is how many of the commits read touched the file at path
// today (under any of its names): how much of the repository's work it
// draws, which orders files the question cannot tell apart (rank's
// activity). 0 for a path no file of the record has.
func (r *Record) Changes(path string) int {
	if r == nil {
		return 0
	}
	l, ok := r.live[r.Prefix+path]
	if !ok {
		return 0
	}
	return int(r.lineages[l].changes)
}

// CoChanged lists the files most often committed together with path (as
// it is today), most often first.
func (r *Record) CoChanged(path string) []Partner {
	if r == nil {
		return nil
	}
	return r.partners(r.co, path)
}

// CoChangedBy is CoChanged read backwards: the files whose own partners
// name path (a pair may be among one file's most frequent and not the
// other's).
func (r *Record) CoChangedBy(path string) []Partner {
	if r == nil {
		return nil
	}
	return r.partners(r.coBy, path)
}

func (r *Record) partners(m map[int32][]coCount, path string) []Partner {
	l, ok := r.live[r.Prefix+path]
	if !ok {
		return nil
	}
	var out []Partner
	for _, p := range m[l] {
		if rel, ok := within(r.Prefix, r.lineages[p.lin].path); ok {
			out = append(out, Partner{Path: rel, Count: int(p.count)})
		}
	}
	return out
}

// Len is the number of path names the record knows.
func (r *Record) Len() int {
	if r == nil {
		return 0
	}
	return len(r.names)
}

// withoutAuthor is r following no user's commits.
func (r *Record) withoutAuthor() *Record {
	c := *r
	c.Author, c.mine = "", nil
	return &c
}

// clone copies r so that a fold of newer commits leaves r as it was.
func (r *Record) clone() *Record {
	c := &Record{Head: r.Head, Commits: r.Commits, Renames: r.Renames, Shallow: r.Shallow, Prefix: r.Prefix, Detection: r.Detection}
	c.lineages = append([]lineage(nil), r.lineages...)
	c.commits = append([]Commit(nil), r.commits...)
	c.names = make(map[string]name, len(r.names))
	for k, v := range r.names {
		c.names[k] = v
	}
	c.live = make(map[string]int32, len(r.live))
	for k, v := range r.live {
		c.live[k] = v
	}
	c.co = maps.Clone(r.co) // the lists are never changed in place
	c.coBy = maps.Clone(r.coBy)
	c.Author, c.mine = r.Author, slices.Clone(r.mine) // and neither are mine's
	c.recent = slices.Clone(r.recent)                 // nor recent's
	return c
}

// within keeps what lies under prefix (a root below the repository's top,
// "sub/dir/"), as paths relative to it.
func within(prefix, p string) (string, bool) {
	if prefix == "" {
		return p, true
	}
	if !strings.HasPrefix(p, prefix) {
		return "", false
	}
	return p[len(prefix):], true
}
