package rank

// Affinity: how near a file is to where the user is working. It is the
// one measure behind every history signal — resolve's proximity, find's
// and locate's tie-breaks — and it never outweighs a better match (each
// caller gives it a weight below its smallest lexical gap).
//
//	closeness(c, r) = shared leading directories of c and r
//	                  ÷ the deeper of the two                  (proximity)
//	affinity(c)     = max(closeness(c, current),
//	                      Σ wᵢ × closeness(c, visitᵢ) ÷ Σ wᵢ)
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

// recencyStep: in a list of files without times (a request's own
// history, most recent last), each file weighs half the next, so the
// latest counts as much as all before it together.
const recencyStep = 0.5

// MaxVisits bounds the visits a question weighs: the mean is settled by
// the weightiest few dozen, and each costs time on every candidate.
const MaxVisits = 64

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
	visits  []reference // weights sum to 1
	memo    map[int64]near
}

type near struct {
	value  float64
	reason string // near:from or near:history
}

// newAffinity maps the current file and the visits onto the roots; files
// outside them say nothing. A nil affinity (no current file, no visits)
// gives 0 everywhere.
func (e *Engine) newAffinity(current string, history []Visit) *affinity {
	a := &affinity{memo: map[int64]near{}}
	if root, rel, ok := e.refFile(current); ok {
		a.current = &reference{root, splitDirs(parentDir(rel)), 1, "near:from"}
	}
	total := 0.0
	for _, v := range history[:min(len(history), MaxVisits)] {
		if v.Weight <= 0 {
			continue
		}
		if root, rel, ok := e.refFile(v.File); ok {
			a.visits = append(a.visits, reference{root, splitDirs(parentDir(rel)), v.Weight, "near:history"})
			total += v.Weight
		}
	}
	for i := range a.visits {
		a.visits[i].weight /= total
	}
	if a.current == nil && len(a.visits) == 0 {
		return nil
	}
	return a
}

// of is the affinity of file id, and which reference gave it.
func (a *affinity) of(e *Engine, id int32) near {
	if a == nil {
		return near{}
	}
	f := &e.files[id]
	key := int64(f.root)<<32 | int64(f.dir)
	if n, ok := a.memo[key]; ok {
		return n
	}
	comps := e.dirInfos[f.dir].comps
	var n near
	if c := a.current; c != nil && c.root == int(f.root) {
		n = near{proximity(comps, c.dirs), c.reason}
	}
	mean := 0.0
	for _, v := range a.visits {
		if v.root == int(f.root) {
			mean += v.weight * proximity(comps, v.dirs)
		}
	}
	if mean > n.value {
		n = near{mean, "near:history"}
	}
	a.memo[key] = n
	return n
}

// references lists the current file and the visits, for the rules that
// look at each (besideReference).
func (a *affinity) references() []reference {
	if a == nil {
		return nil
	}
	out := a.visits
	if a.current != nil {
		out = append([]reference{*a.current}, out...)
	}
	return out
}
