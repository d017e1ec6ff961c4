package rank

import (
	"math"
	"slices"
	"sort"
	"strings"
)

// A copy's reading: what find's tie-break reads of one copy of a shared
// name against where the user works — its nearness to the current file
// and to the visits, its co-change with them, its weight among the
// user's own commits, its activity, whether the test penalty falls on
// it, and its places in find's formula orders with and without where the
// user works. They are the inputs a fitted order of the copies reads
// (copyorder.go; fitted by scripts/fit-session-order.py on the rows
// WAYFIND_BENCH_SESSION_FEATURES writes), read by the same code find's
// tie-break reads them with (affinity.go, activity.go), so that the order
// is fitted on what the engine sees when it runs it.

// CopyReading is one copy's reading.
type CopyReading struct {
	// Path is the copy, root-relative; Root its root.
	Path string
	Root int
	// Current is the directory proximity to the current file (0 without
	// one); Visits the visits' weighted mean proximity.
	Current, Visits float64
	// CoChange is the weight of the current file and the visits the
	// history committed it with; Mine its weight among the user's own
	// commits.
	CoChange, Mine float64
	// Changes is how many commits of the history touched it.
	Changes int
	// Penalized: a test, fixture or generated file, the user not among
	// them (find's test penalty falls on it).
	Penalized bool
	// Place is the copy's place among the copies (0 first) in find's
	// formula order with the request's current file, visits and commits
	// (settle without a fitted order); Alone its place with none of them.
	Place, Alone int
}

// ReadCopies reads each copy of the name req.Query asks for against
// req's current file, visits and the user's commits, as find's tie-break
// reads them; nil when the query is not a bare file name that 2 to
// maxReplayCopies files share (the questions the order is fitted on).
func (e *Engine) ReadCopies(req FindRequest) []CopyReading {
	q, err := ParseFind(req.Query)
	if err != nil {
		return nil
	}
	_, rs := e.readCopies(&q, e.newAffinity(req.Current, req.History, req.Authored))
	return rs
}

// readCopies is ReadCopies for a parsed query, with the copies' file ids.
func (e *Engine) readCopies(q *FindQuery, aff *affinity) ([]int32, []CopyReading) {
	name := strings.TrimSpace(q.Raw)
	if len(q.Dirs) > 0 || strings.ContainsAny(name, "/\\") {
		return nil, nil
	}
	ids := e.named(strings.ToLower(name))
	if len(ids) < 2 || len(ids) > maxReplayCopies {
		return nil, nil
	}
	out := make([]CopyReading, len(ids))
	with, alone := make([]float64, len(ids)), make([]float64, len(ids))
	for i, id := range ids {
		p := e.filePath(id)
		c := CopyReading{Path: p, Root: int(e.file(id).root), Penalized: e.auxPenaltyOf(id, aff) > 0}
		if aff != nil {
			c.Current = aff.currentProximity(e, id).value
			c.Visits = aff.visitsProximity(e, id)
			c.CoChange = aff.coChange(e, id)
			if aff.mine != nil {
				c.Mine = aff.mine.of(e, id)
			}
		}
		if rec := e.repo.Record(c.Root); rec != nil {
			c.Changes = rec.Changes(p)
		}
		out[i] = c
		with[i] = e.tieBreak(q, id, 0, aff) + e.nearness(id, aff)
		alone[i] = e.tieBreak(q, id, 0, nil) + e.nearness(id, nil)
	}
	for _, o := range []struct {
		score []float64
		place func(*CopyReading) *int
	}{
		{with, func(c *CopyReading) *int { return &c.Place }},
		{alone, func(c *CopyReading) *int { return &c.Alone }},
	} {
		order := make([]int, len(ids))
		for i := range order {
			order[i] = i
		}
		sort.Slice(order, func(i, j int) bool {
			a, b := order[i], order[j]
			return RanksBefore(o.score[a], o.score[b], out[a].Path, out[b].Path, out[a].Root, out[b].Root)
		})
		for k, i := range order {
			*o.place(&out[i]) = k
		}
	}
	return ids, out
}

// CopyFeatureNames name the columns of CopyFeatures' rows: the fitted
// order's inputs, in its order.
var CopyFeatureNames = []string{
	"place", "place0", "alone", "alone0", "current", "visits", "co", "mine", "mine1", "act", "aux", "len", "depth",
	"act-best", "current-best", "visits-best", "co-best", "mine-best", "len-best", "copies",
}

// copyRelative are the columns of CopyFeatures read against the other
// copies: each "x-best" name's x.
var copyRelative = func() []int {
	var out []int
	for _, n := range CopyFeatureNames {
		if x, ok := strings.CutSuffix(n, "-best"); ok {
			out = append(out, slices.Index(CopyFeatureNames, x))
		}
	}
	return out
}()

// CopyFeatures are the fitted order's inputs for a name's copies, one row
// a copy: each reading as CopyFeatureNames lists them, then each of
// those a copy is read by against the other copies less the largest of
// the copies' (its standing among them: a copy of the most activity, or
// the nearest, reads 0), then how many copies there are. A place p reads
// 1/(1+p), so that the first place stands apart and the last fade alike.
func CopyFeatures(rs []CopyReading) [][]float32 {
	b := func(v bool) float64 {
		if v {
			return 1
		}
		return 0
	}
	rows := make([][]float64, len(rs))
	for i, c := range rs {
		rows[i] = []float64{
			1 / (1 + float64(c.Place)), b(c.Place == 0), 1 / (1 + float64(c.Alone)), b(c.Alone == 0),
			c.Current, c.Visits, c.CoChange, c.Mine, b(c.Mine > 0), math.Log1p(float64(c.Changes)), -b(c.Penalized),
			-float64(len(c.Path)) / 20, -float64(strings.Count(c.Path, "/")),
		}
	}
	best := make([]float64, len(copyRelative)) // each relative column's largest
	for j, k := range copyRelative {
		best[j] = math.Inf(-1)
		for _, r := range rows {
			best[j] = max(best[j], r[k])
		}
	}
	out := make([][]float32, len(rs))
	for i, r := range rows {
		row := make([]float32, 0, len(CopyFeatureNames))
		for _, v := range r {
			row = append(row, float32(v))
		}
		for j, k := range copyRelative {
			row = append(row, float32(r[k]-best[j]))
		}
		out[i] = append(row, float32(len(rs)))
	}
	return out
}
