package rank

import (
	"fmt"
	"path"
	"strings"
	"sync"

	"wayfind/vcs"
)

// Find's order among the copies of a name, learned from the repository's
// own work. When a name is shared, find's tie-break weighs two things
// beside the name: how near each copy is to where the user works
// (affinity) and how much of the repository's work touches it
// (activity). How much each says is the repository's habit, not a
// constant: where people work package by package the copy beside their
// last files is the one (a monorepo's crates), where every change goes
// through one live copy and its frozen siblings the busy copy is (a
// generated SDK, a source file beside its same-named test). The
// repository's history holds the answer: its latest commits
// (vcs.Record.Recent) are replayed as the questions find is asked —
// each file a commit edits whose name 2–maxReplayCopies files share is
// asked for by that name, the author's previous commits standing for
// their visits (the last file for the current one) and their earlier
// commits for their own — and the weighting of tieWeightsTried that
// puts the edited copy first most often is this repository's.
//
// It orders only: the copies keep their name's score, and the most
// nearness and activity add stays below a name class's gap (both
// weights at most 1). Resolve keeps its measured share (activityShare):
// its classes' confidence was measured with it.

// tieWeights are nearness's and activity's weights in find's tie-break
// (settle) when the request says where the user works.
type tieWeights struct{ near, act float64 }

// replayCopy is one copy of a replayed question's name, as the tie-break
// reads it.
type replayCopy struct {
	path      string
	aff, act  float64
	penalized bool // a test, fixture or generated file, the user not among them
}

// learnedTies is one root's learned weighting, learned once a history
// on the files of the engine that first asks (the replay asks a few
// hundred names of the index, a few milliseconds): a server's, when the
// history is attached (LearnTieWeights); otherwise the first find that
// needs it.
type learnedTies struct {
	once  sync.Once
	tw    tieWeights
	asked int
}

// tieWeights is find's tie-break weighting for the files of root r: its
// history's (learned on first need), or the default without one.
func (e *Engine) tieWeights(r int) tieWeights {
	tw, _ := e.learnedTies(r)
	return tw
}

// LearnTieWeights starts learning every root's weighting in the
// background, once a history (later calls return at once): a server
// calls it as it hands out an engine, so that no request waits for it.
func (e *Engine) LearnTieWeights() {
	if e.repo == nil || !e.repo.learning.CompareAndSwap(false, true) {
		return
	}
	go func() {
		for r := range e.repo.ties {
			e.learnedTies(r)
		}
	}()
}

// TieWeights is the weighting root r's recent work chose (nearness's,
// activity's) and how many replayed questions chose it: for the bench.
func (e *Engine) TieWeights(r int) (near, act float64, replayed int) {
	tw, n := e.learnedTies(r)
	return tw.near, tw.act, n
}

func (e *Engine) learnedTies(r int) (tieWeights, int) {
	h := e.repo
	if h == nil || r < 0 || r >= len(h.ties) || h.records[r] == nil {
		return defaultTieWeights, 0
	}
	t := &h.ties[r]
	t.once.Do(func() {
		t.tw, t.asked = learnTieWeights(h.records[r], func(base string) []string { return e.namedIn(r, base) })
	})
	return t.tw, t.asked
}

// namedIn lists the root-relative paths of root r's files named base.
func (e *Engine) namedIn(r int, base string) []string {
	var out []string
	for _, id := range e.named(strings.ToLower(base)) {
		if int(e.file(id).root) == r && e.baseName(id) == base {
			out = append(out, e.filePath(id))
		}
	}
	return out
}

// workHistory is what a replay reads of a repository's history
// (vcs.Record): its recent work, each file's commits, and co-change.
type workHistory interface {
	Recent() []vcs.Work
	Changes(path string) int
	CoChanged(path string) []vcs.Partner
	CoChangedBy(path string) []vcs.Partner
}

// learnTieWeights replays rec's recent work (the header) over the files
// copiesOf says have each name, and returns the weighting that answered it
// best and how many questions it asked.
func learnTieWeights(rec workHistory, copiesOf func(base string) []string) (tieWeights, int) {
	work := rec.Recent()
	copiesMemo := map[string][]string{} // a name is edited again and again
	// prev[i]: the author's commits before commit i, oldest first.
	prev := make([][]int, len(work))
	byAuthor := map[uint64][]int{}
	for i, w := range work {
		prev[i] = byAuthor[w.Author]
		byAuthor[w.Author] = append(byAuthor[w.Author], i)
	}
	right := make([]int, len(tieWeightsTried))
	asked := 0
	later := map[string]int{} // touched by the commit asked about or after it
	for i := len(work) - 1; i >= 0 && asked < maxReplayQuestions; i-- {
		w := work[i]
		for _, f := range w.Touched {
			later[f]++
		}
		before := prev[i]
		var visits []string
		for _, j := range before[max(0, len(before)-replayVisitCommits):] {
			visits = append(visits, work[j].Touched...)
		}
		if len(visits) == 0 {
			continue
		}
		named := map[string]int{}
		for _, f := range w.Edited {
			named[path.Base(f)]++
		}
		var authored [][]string // the author's own commits, latest first
		for k := len(before) - 1; k >= 0; k-- {
			authored = append(authored, work[before[k]].Touched)
		}
		var q *replayQuestion
		for _, f := range w.Edited {
			copies, ok := copiesMemo[path.Base(f)]
			if !ok {
				copies = copiesOf(path.Base(f))
				copiesMemo[path.Base(f)] = copies
			}
			if len(copies) < 2 || len(copies) > maxReplayCopies {
				continue // no question, or a convention's name
			}
			if named[path.Base(f)] > 1 {
				continue // several files of the name edited: as many right answers
			}
			if q == nil {
				q = newReplayQuestion(rec, visits, Authorship(authored))
			}
			cs := q.copies(rec, copies, later)
			asked++
			for k, tw := range tieWeightsTried {
				if replayFirst(cs, tw) == f {
					right[k]++
				}
			}
		}
	}
	if asked < minReplayQuestions {
		return defaultTieWeights, asked
	}
	best := 0
	for k := range tieWeightsTried {
		if right[k] > right[best] {
			best = k
		}
	}
	if float64(right[best]-right[0]) < replayMargin(asked) {
		return defaultTieWeights, asked // within chance of the default
	}
	return tieWeightsTried[best], asked
}

// replayQuestion is where a replayed author works, as newAffinity reads a
// request's current file and visits.
type replayQuestion struct {
	current  []string // the last visit's directories
	visits   []reference
	amongAux bool
	co       map[string]float64
	mine     map[string]float64
}

// newReplayQuestion reads visits (oldest first; the last stands for the
// current file, as a server takes the last focus) and the author's own
// commits' weights (Authorship) as newAffinity reads a request's.
func newReplayQuestion(rec workHistory, visits []string, mine map[string]float64) *replayQuestion {
	last := visits[len(visits)-1]
	q := &replayQuestion{current: splitDirs(parentDir(last)), amongAux: isAuxiliary(last), co: map[string]float64{}, mine: mine}
	credit := func(rel string, w float64) {
		for _, ps := range coPartners(rec, rel) {
			for _, p := range ps {
				q.co[p.Path] += w
			}
		}
	}
	credit(last, 1)
	hist := Recency(visits)
	total := 0.0
	for _, v := range hist {
		total += v.Weight
	}
	for _, v := range hist {
		q.visits = append(q.visits, reference{dirs: splitDirs(parentDir(v.File)), weight: v.Weight / total})
		credit(v.File, v.Weight/total)
	}
	return q
}

// copies reads each copy of the name: its affinity (affinityValue, the
// proximity the larger of the current file's and the visits' mean) and
// its activity as it was before the commit asked about (later: the
// touches from it on).
func (q *replayQuestion) copies(rec workHistory, paths []string, later map[string]int) []replayCopy {
	out := make([]replayCopy, len(paths))
	for i, p := range paths {
		dirs := splitDirs(parentDir(p))
		mean := 0.0
		for _, v := range q.visits {
			mean += v.weight * proximity(dirs, v.dirs)
		}
		prox := max(proximity(dirs, q.current), mean)
		out[i] = replayCopy{
			path:      p,
			aff:       affinityValue(prox, q.co[p], q.mine[p], len(q.mine) > 0),
			act:       activityOf(max(0, rec.Changes(p)-later[p])),
			penalized: isAuxiliary(p) && !q.amongAux,
		}
	}
	return out
}

// replayFirst is the copy find's tie-break (settle) puts first under
// weighting tw.
func replayFirst(cs []replayCopy, tw tieWeights) string {
	best, bestScore := "", 0.0
	for _, c := range cs {
		s := affinityBonus * (tw.near*c.aff + tw.act*c.act)
		if c.penalized {
			s -= auxPenalty
		}
		if best == "" || RanksBefore(s, bestScore, c.path, best, 0, 0) {
			best, bestScore = c.path, s
		}
	}
	return best
}

// TieWeightings is how many weightings a replay chooses among.
func TieWeightings() int { return len(tieWeightsTried) }

// FixTieWeights gives every root of h weighting k of those a replay
// chooses among (0 the default), in place of the one its recent work
// would choose — for the bench, which asks the same questions under each
// to measure how much a better choice could give. A root whose weighting
// was already learned (a find over h came first) keeps it, and the
// answer is an error.
func (h *RepoHistory) FixTieWeights(k int) error {
	if k < 0 || k >= len(tieWeightsTried) {
		return fmt.Errorf("tie weighting %d: there are %d (0–%d)", k, len(tieWeightsTried), len(tieWeightsTried)-1)
	}
	for r := range h.ties {
		t := &h.ties[r]
		t.once.Do(func() { t.tw = tieWeightsTried[k] })
		if t.tw != tieWeightsTried[k] || t.asked > 0 {
			return fmt.Errorf("tie weighting %d: root %d's was learned first", k, r)
		}
	}
	return nil
}
