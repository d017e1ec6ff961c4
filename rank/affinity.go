package rank

import (
	"path/filepath"
	"strings"
	"sync"

	"wayfind/vcs"
)

// Affinity: how near a file is to where the user is working. It is the
// one measure behind every history signal — resolve's proximity, find's
// and locate's tie-breaks — and it never outweighs a better match (each
// caller gives it a weight below its smallest lexical gap).
//
//	affinity(c) = max(proximity(c, current),
//	                  Σ wᵢ × proximity(c, visitᵢ) ÷ Σ wᵢ)
//
// where proximity (score.go) measures the steps between two directories
// through their common ancestor.
//
// The current document (resolve's `from`, find's `current`) is where the
// user is now, so it counts on its own. The history is a weighted mean,
// not a maximum: one excursion to another corner of the tree — the
// latest visit, say — must not outvote twenty visits to the package the
// user works in, and a file near most of the visits beats one near a
// single visit. Weights are the history's frecency (history/frecency.go)
// or, for a list a request brings, its order (Recency).

// Visit is a file the user has been to and how much it says about where
// they work.
type Visit struct {
	// File is an absolute path, file:// URI or root-relative path.
	File   string
	Weight float64
}

// MaxVisits bounds the visits a question weighs: the mean is settled by
// the weightiest few dozen, and each costs time on every candidate.
const MaxVisits = 32

// Recency weighs a list of files, most recent last, by their order.
func Recency(files []string) []Visit {
	out := make([]Visit, 0, min(len(files), MaxVisits))
	w := 1.0
	for i := len(files) - 1; i >= 0 && len(out) < MaxVisits; i-- {
		out = append(out, Visit{File: files[i], Weight: w})
		w *= recencyStep
	}
	return out
}

// affinity is one request's view of where the user works, with each
// directory's value remembered (candidates share directories).
type affinity struct {
	current *reference
	// currentRoot, currentRel: the current file itself (find's
	// FindRequest.InCurrent).
	currentRoot int
	currentRel  string
	visits      []reference // one per directory, weights summing to 1
	// mean remembers the visits' weighted mean of each directory asked
	// about (root<<32 | dir): candidates share directories. Under meanMu:
	// the halves of a big tree's path readings ask at once.
	meanMu sync.Mutex
	mean   map[int64]float64
	// amongAux: the user works among tests and fixtures (the current
	// file is one, or most of the visits' weight is): then a test is
	// what they look for, and find's prior for source files is off.
	amongAux bool
	// co: the files the repository's history committed together with the
	// current file or the visits (coChange), by fileKey.
	co map[int64]float64
	// mine: the files of the user's own latest commits (Authored); nil
	// when neither the request nor the record brings any.
	mine Authored
}

type near struct {
	value  float64
	reason string  // near:from, near:history, near:cochange or near:authored
	co     float64 // the co-change it counts (coChange)
}

// newAffinity maps the current file, the visits and the user's own
// commits' files onto the roots; files outside them say nothing. A nil
// affinity (none of them) gives 0 everywhere.
func (e *Engine) newAffinity(current string, history []Visit, authored Authored) *affinity {
	a := &affinity{}
	if root, rel, ok := e.refFile(current); ok {
		a.current = &reference{root, splitDirs(parentDir(rel)), 1, "near:from"}
		a.currentRoot, a.currentRel = root, rel
		a.amongAux = isAuxiliary(rel)
		e.addCoChange(a, root, rel, 1)
	}
	total, aux := 0.0, 0.0
	type place struct {
		root int
		dir  string
	}
	at := map[place]int{} // visits in one directory weigh as one
	type visitedFile struct {
		root int
		rel  string
		w    float64
	}
	var visited []visitedFile
	for _, v := range history[:min(len(history), MaxVisits)] {
		if v.Weight <= 0 {
			continue
		}
		root, rel, ok := e.visitFile(v.File)
		if !ok {
			continue
		}
		total += v.Weight
		visited = append(visited, visitedFile{root, rel, v.Weight})
		if isAuxiliary(rel) {
			aux += v.Weight
		}
		p := place{root, parentDir(rel)}
		if i, ok := at[p]; ok {
			a.visits[i].weight += v.Weight
			continue
		}
		at[p] = len(a.visits)
		a.visits = append(a.visits, reference{root, splitDirs(p.dir), v.Weight, "near:history"})
	}
	for i := range a.visits {
		a.visits[i].weight /= total
	}
	for _, v := range visited {
		e.addCoChange(a, v.root, v.rel, v.w/total)
	}
	if a.current == nil && aux > total/2 {
		a.amongAux = true
	}
	if authored == nil && e.repo != nil {
		authored = e.repo.authored // the record's (vcs.Record.Author)
	}
	for _, m := range authored {
		if len(m) > 0 {
			a.mine = authored
			break
		}
	}
	if a.current == nil && len(a.visits) == 0 && a.mine == nil {
		return nil
	}
	return a
}

// Authored is what the user committed lately: by root (the engine's
// numbering), each root-relative file of their latest commits with its
// weight (Authorship). It is built once for a history, not per request:
// a request reads only its candidates' entries.
type Authored []map[string]float64

// of is file id's weight among the user's commits' files.
func (m Authored) of(e *Engine, id int32) float64 {
	if r := int(e.file(id).root); r < len(m) {
		return m[r][e.filePath(id)]
	}
	return 0
}

// Authorship weighs the files of the user's latest commits, latest
// first, each commit its files: a file weighs the sum of its commits'
// weights.
func Authorship(commits [][]string) map[string]float64 {
	out := map[string]float64{}
	w := 1.0
	for _, c := range commits[:min(len(commits), vcs.AuthoredCommits)] {
		if len(c) <= vcs.AuthoredCommitFiles {
			for _, f := range c {
				out[f] += w
			}
		}
		w *= authoredStep
	}
	return out
}

// addCoChange credits the files the history committed together with
// file rel of root with weight w — both ways: a file's own partners may
// name the visit while the visit's most frequent partners leave it out
// (a pair counts for each side, and real sessions' answers were better
// for counting both).
func (e *Engine) addCoChange(a *affinity, root int, rel string, w float64) {
	rec := e.repo.Record(root)
	if rec == nil {
		return
	}
	if a.co == nil {
		a.co = map[int64]float64{}
	}
	for _, ps := range coPartners(rec, rel) {
		for _, p := range ps {
			if id, ok := e.fileID(root, p.Path); ok {
				a.co[fileKey(root, id)] += w
			}
		}
	}
}

// coChange is the weight of the current file and the visits that file
// id was committed together with (the current file counts 1, the visits
// 1 together, a pair once for each file whose partners name the other;
// of caps it at 1).
func (a *affinity) coChange(e *Engine, id int32) float64 {
	if a == nil || a.co == nil {
		return 0
	}
	return a.co[fileKey(int(e.file(id).root), id)]
}

// fileKey keys a file of a root in the affinity's maps.
func fileKey(root int, id int32) int64 { return int64(root)<<32 | int64(id) }

// visitFile is refFile for the history's files, which are clean absolute
// paths as a rule: those skip the parsing a typed path needs (a request
// weighs dozens of them).
func (e *Engine) visitFile(f string) (int, string, bool) {
	for i, r := range e.ix.Roots {
		if len(f) > len(r)+1 && f[len(r)] == filepath.Separator && strings.HasPrefix(f, r) && !unclean(f[len(r):]) {
			return i, filepath.ToSlash(f[len(r)+1:]), true
		}
	}
	return e.refFile(f)
}

// unclean: a path Clean would change ("//", "/./", "/../", a trailing
// slash) — cheaper to ask than to Clean it.
func unclean(p string) bool {
	sep := string(filepath.Separator)
	return strings.Contains(p, sep+sep) || strings.Contains(p, sep+".") || strings.HasSuffix(p, sep)
}

// of is the affinity of file id, and which reference gave it.
func (a *affinity) of(e *Engine, id int32) near {
	n := a.proximity(e, id)
	if n.co = a.coChange(e, id); n.co > 0 && n.reason == "" {
		n.reason = "near:cochange"
	}
	mine := 0.0
	if a != nil && a.mine != nil {
		if mine = a.mine.of(e, id); mine > 0 && n.reason == "" {
			n.reason = "near:authored"
		}
	}
	n.value = affinityValue(n.value, n.co, mine, a != nil && a.mine != nil)
	return n
}

// affinityValue is a file's affinity from its proximity, its co-change
// with where the user works and its weight among the user's own commits
// (counted, and in the divisor, only when the request brings them:
// withMine) — the one formula of the header's sum.
func affinityValue(prox, co, mine float64, withMine bool) float64 {
	sum, den := prox+coWeight*min(co, 1), 1+coWeight
	if withMine {
		sum += authoredWeight * min(mine, 1)
		den += authoredWeight
	}
	return sum / den
}

// coPartners are the files the history committed together with file rel,
// both ways (addCoChange's reading).
func coPartners(rec workHistory, rel string) [2][]vcs.Partner {
	return [2][]vcs.Partner{rec.CoChanged(rel), rec.CoChangedBy(rel)}
}

// proximity is the directory proximity of file id to the current file and
// the visits, and which reference gave it.
func (a *affinity) proximity(e *Engine, id int32) near {
	if a == nil {
		return near{}
	}
	n := a.currentProximity(e, id)
	if m := a.visitsProximity(e, id); m > n.value {
		n = near{value: m, reason: "near:history"}
	}
	return n
}

// currentProximity is the directory proximity of file id to the current
// file (none without one, or in another root).
func (a *affinity) currentProximity(e *Engine, id int32) near {
	c := a.current
	if c == nil || c.root != int(e.file(id).root) {
		return near{}
	}
	var buf pathBuf
	return near{value: proximity(e.pathOf(e.file(id).dir, buf[:]).comps, c.dirs), reason: c.reason}
}

// visitsProximity is the visits' weighted mean of file id's directory
// proximity to each (0 without visits), remembered by directory.
func (a *affinity) visitsProximity(e *Engine, id int32) float64 {
	if len(a.visits) == 0 {
		return 0
	}
	f := e.file(id)
	k := int64(f.root)<<32 | int64(f.dir)
	a.meanMu.Lock()
	m, ok := a.mean[k]
	a.meanMu.Unlock()
	if ok {
		return m
	}
	var buf pathBuf
	comps := e.pathOf(f.dir, buf[:]).comps
	for _, v := range a.visits {
		if v.root == int(f.root) {
			m += v.weight * proximity(comps, v.dirs)
		}
	}
	a.meanMu.Lock()
	if a.mean == nil {
		a.mean = make(map[int64]float64, 64)
	}
	a.mean[k] = m
	a.meanMu.Unlock()
	return m
}
