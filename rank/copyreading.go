package rank

// A copy's reading: what find's tie-break reads of one copy of a shared
// name against where the user works — its nearness to the current file
// and to the visits, its co-change with them, its weight among the
// user's own commits, its activity, and whether the test penalty falls on
// it. They are the inputs an order of the copies is fitted on
// (WAYFIND_BENCH_SESSION_FEATURES, scripts/fit-session-order.py), read by
// the same code find's tie-break reads them with (affinity.go,
// activity.go), so that a fitted order scores what the engine sees.

// CopyReading is one copy's reading.
type CopyReading struct {
	// Path is the copy, root-relative.
	Path string
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
}

// ReadCopies reads each of paths (root-relative, of root r; a path the
// index does not hold is left out) against req's current file, visits
// and the user's commits, as find's tie-break reads them.
func (e *Engine) ReadCopies(req FindRequest, r int, paths []string) []CopyReading {
	aff := e.newAffinity(req.Current, req.History, req.Authored)
	rec := e.repo.Record(r)
	out := make([]CopyReading, 0, len(paths))
	for _, p := range paths {
		id, ok := e.fileID(r, p)
		if !ok {
			continue
		}
		c := CopyReading{Path: p, Penalized: e.auxPenaltyOf(id, aff) > 0}
		if aff != nil {
			c.Current = aff.currentProximity(e, id).value
			c.Visits = aff.visitsProximity(e, id)
			c.CoChange = aff.coChange(e, id)
			if aff.mine != nil {
				c.Mine = aff.mine.of(e, id)
			}
		}
		if rec != nil {
			c.Changes = rec.Changes(p)
		}
		out = append(out, c)
	}
	return out
}
