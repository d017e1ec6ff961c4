package rank

import (
	"cmp"
	"math"
	"slices"
)

// A fitted order of a name's copies. When a bare file name several files
// share is asked for with where the user works (a current file, visits,
// the user's commits), which copy is meant is a question of habit the
// formula's weighted sum (settle's nearness, weighed as tieweights.go
// learns) answers only in part: nearness decides where it is clear,
// activity or the user's own commits where it is not. A small model of
// gradient-boosted trees, fitted on the tuning half's replayed sessions
// (make copy-order: scripts/fit-session-order.py --export) over each
// copy's reading (CopyFeatures — the formula's own places among them),
// orders the copies instead; the rerank package reads its trees from the
// ONNX file shipped in the binary and walks them.
//
// It orders only, within the room the formula's nearness has: a copy's
// lift is affinityBonus × σ(score), so the case bonus, the test penalty
// and every class above keep their order (TestCopyOrder; find's prunes
// hold with it, TestPrunesChangeNothing), and a resolved answer is never
// made or unmade by it (resolve reads it only to list a tie's copies,
// orderTiedCopies). Without the model
// (an engine not given one), when it fails, or for any other question,
// the formula orders. It was fitted where a history is read; without one
// (a tree that is not a repository) the formula orders too.

// CopyOrder scores rows of CopyFeatures, one a copy: the higher, the
// likelier the copy the user means.
type CopyOrder interface {
	Score(rows [][]float32) ([]float32, error)
}

// WithCopyOrder returns an engine over the same files whose find orders
// a shared name's copies by o (nil: by the formula).
func (e *Engine) WithCopyOrder(o CopyOrder) *Engine {
	c := *e
	c.copies = o
	return &c
}

// orderTiedCopies puts resolve's leading candidates that copies of a
// bare name are, when nothing told them apart (decide: a tie), in the
// fitted order's order, as find lists them: the verdict's basis and
// class stay what decide said (a tie is never resolved), only which copy
// is first changes.
func (e *Engine) orderTiedCopies(a *asked, cands []Candidate) {
	if !a.bare || len(cands) < 2 {
		return
	}
	q, err := ParseFind(a.qpath)
	if err != nil {
		return
	}
	lift := e.orderCopies(&q, a.aff)
	n := 0 // the leading copies, within a tie's margin of the first
	for n < len(cands) && lift[cands[n].File] > 0 && cands[n].lexical > cands[0].lexical-ResolveMargin {
		n++
	}
	// The band's scores stay, best first, so that the list still reads
	// in score order: a tie's scores are within its margin.
	scores := make([]float64, n)
	for i := range n {
		scores[i] = cands[i].Score
	}
	slices.SortStableFunc(cands[:n], func(x, y Candidate) int { return cmp.Compare(lift[y.File], lift[x.File]) })
	slices.SortFunc(scores, func(x, y float64) int { return cmp.Compare(y, x) })
	for i := range n {
		cands[i].Score = scores[i]
	}
}

// orderCopies is each copy's lift in find's answer to q, as the fitted
// order places it; nil when the order does not apply (no model, nothing
// says where the user works, not a bare name 2 to maxReplayCopies files
// share, a copy's root without a history record) or fails.
func (e *Engine) orderCopies(q *FindQuery, aff *affinity) map[int32]float64 {
	if e.copies == nil || aff == nil {
		return nil
	}
	ids, rs := e.readCopies(q, aff)
	if len(ids) == 0 {
		return nil
	}
	for _, c := range rs {
		if e.repo.Record(c.Root) == nil {
			return nil // every question it was fitted on had a history
		}
	}
	scores, err := e.copies.Score(CopyFeatures(rs))
	if err != nil || len(scores) != len(ids) {
		return nil
	}
	lift := make(map[int32]float64, len(ids))
	for i, id := range ids {
		lift[id] = affinityBonus / (1 + math.Exp(-float64(scores[i])))
	}
	return lift
}
