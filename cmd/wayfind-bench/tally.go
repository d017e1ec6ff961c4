package main

import (
	"slices"
	"time"
)

// tally counts the answers of one row of a table, every mode's: each
// answer is a mark, and each column counts one of its facts.
type tally struct {
	n int
	// right: the answer acted on was the one meant (resolve's resolved
	// file, or nothing when nothing is meant; find's first match; a
	// deleted file's commit named); wrong: acted on and not the one meant.
	right, wrong int
	// first: the answer acted on, else the first candidate, was the one
	// meant.
	first int
	// acted: an answer was acted on (resolved, a deleting commit named);
	// actedRight: acted on and right; none: nothing was.
	acted, actedRight, none int
	// at5: the one meant was among the first five; fzf: the peer's first
	// answer was (fzf's line, grep's file).
	at5, fzf int
	// lat, peerLat: each answer's time, the peer's.
	lat, peerLat []time.Duration
}

// mark is one answer as a tally counts it.
type mark struct {
	right, wrong, first, acted, none, at5, fzf bool
	elapsed, peerElapsed                       time.Duration
}

func (t *tally) add(m mark) {
	t.n++
	t.lat = append(t.lat, m.elapsed)
	t.peerLat = append(t.peerLat, m.peerElapsed)
	for _, c := range []struct {
		on  bool
		put *int
	}{{m.right, &t.right}, {m.wrong, &t.wrong}, {m.first, &t.first}, {m.acted, &t.acted},
		{m.acted && m.right, &t.actedRight}, {m.none, &t.none}, {m.at5, &t.at5}, {m.fzf, &t.fzf}} {
		if c.on {
			*c.put++
		}
	}
}

// precision is the share of what was acted on that was not wrong.
func (t *tally) precision() string { return pct(t.acted-t.wrong, t.acted) }

// tallies are a table's rows by key, in the order first met.
type tallies[K comparable] struct {
	by   map[K]*tally
	keys []K
}

// row is k's tally, begun when first asked for.
func (ts *tallies[K]) row(k K) *tally {
	if ts.by == nil {
		ts.by = map[K]*tally{}
	}
	t := ts.by[k]
	if t == nil {
		t = &tally{}
		ts.by[k] = t
		ts.keys = append(ts.keys, k)
	}
	return t
}

// add marks m on the rows of every key.
func (ts *tallies[K]) add(m mark, keys ...K) {
	for _, k := range keys {
		ts.row(k).add(m)
	}
}

// sorted are the keys in order (as first met when cmp is nil).
func (ts *tallies[K]) sorted(order func(a, b K) int) []K {
	keys := slices.Clone(ts.keys)
	if order != nil {
		slices.SortStableFunc(keys, order)
	}
	return keys
}
