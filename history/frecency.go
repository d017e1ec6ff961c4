// Package history remembers where the user — or an agent — has been in
// each workspace root: every visit to a file, folded by age into a
// frecency weight (frequency × recency, as fff.nvim and browsers rank),
// and persisted next to the root's other caches so that a restarted
// server, the CLI, or another wayfind process on the same root knows it
// too. It ranks nothing: rank reads the weights as one signal among
// others, a tie-breaker that never outweighs a better match.
package history

import (
	"fmt"
	"math"
	"time"
)

// A visit's weight decays with two half-lives, and a file's weight is the
// sum of its visits':
//
//	weight = Σ 2^(−age/frequencyHalfLife) + workingSetWeight × Σ 2^(−age/workingSetHalfLife)
//
// The first sum is habit: the files someone comes back to over days. The
// second is the task at hand: the files of the last quarter hour or so,
// which say more about the next question than last week's do. A visit just
// made counts 1 + workingSetWeight; half an hour later, barely 2.
const (
	// frequencyHalfLife: a week — a visit counts half after seven days,
	// so last week's work still outranks files never opened, and a
	// project left for a month has faded.
	frequencyHalfLife = 7 * 24 * time.Hour
	// workingSetHalfLife: ten minutes, about one step of a task; the
	// visits of the last half hour are the working set, and it moves
	// when the user does.
	workingSetHalfLife = 10 * time.Minute
	// workingSetWeight: a visit of the last minutes counts ten times one
	// of earlier today (1 + 9), so that after a move to another area of
	// the tree the new area leads within a handful of visits — even over
	// twice as many visits to the old one half an hour before.
	workingSetWeight = 9
	// currentWithin: how long the last file a person went to stands for
	// where they are (Store.Current) — a working set's step and a half;
	// past it, they may have left the editor, and the history's weights
	// say more than one old focus.
	currentWithin = workingSetHalfLife * 3 / 2
)

// Reason says how a visit came about; it sets what the visit counts.
type Reason string

// The reasons a client reports (docs/API.md, find/visited).
const (
	// Open: the user opened the file (didOpen, a picker).
	Open Reason = "open"
	// Focus: the user switched to the file (a tab, a buffer).
	Focus Reason = "focus"
	// Agent: an agent read it (MCP read_resolved, path_resolve).
	Agent Reason = "agent"
)

// weight is what one visit of each reason counts: a person's editor shows
// what they work on, so opening and switching count alike; an agent reads
// widely to answer one question, so its reads count half, and a person's
// visits on the same root outweigh them.
func (r Reason) weight() float64 {
	if r == Agent {
		return 0.5
	}
	return 1
}

// ParseReason reads a reason as a client sends it; "" means Open.
func ParseReason(s string) (Reason, error) {
	switch r := Reason(s); r {
	case "":
		return Open, nil
	case Open, Focus, Agent:
		return r, nil
	}
	return "", fmt.Errorf("unknown visit reason %q (want open, focus or agent)", s)
}

// entry is one file's visits folded into two decayed sums, each as of
// last (UnixNano): 24 bytes a file, however often it was visited; and
// when a person last visited it (person, UnixNano; 0 when only agents
// read it), kept apart on disk (bucketPersons): a person's recent files
// are theirs, not the files an agent read beside them.
type entry struct {
	freq, work float64
	last       int64
	person     int64
}

// decay is 2^(−age/halfLife); an age below zero (a clock that stepped
// back, another process's visit merged late) counts as none.
func decay(age int64, halfLife time.Duration) float64 {
	if age <= 0 {
		return 1
	}
	return math.Exp2(-float64(age) / float64(halfLife))
}

// weight is the entry's frecency at now (UnixNano).
func (e entry) weight(now int64) float64 {
	age := now - e.last
	return e.freq*decay(age, frequencyHalfLife) + workingSetWeight*e.work*decay(age, workingSetHalfLife)
}

// add folds in a visit at t for why, counting why's weight. A visit
// older than the last one (merged from another process) is decayed to
// the entry's time instead, so the order in which visits arrive does not
// matter.
func (e entry) add(t int64, why Reason) entry {
	amount := why.weight()
	switch {
	case e.last == 0 && e.freq == 0 && e.work == 0:
		e = entry{freq: amount, work: amount, last: t}
	case t >= e.last:
		age := t - e.last
		e = entry{
			freq:   e.freq*decay(age, frequencyHalfLife) + amount,
			work:   e.work*decay(age, workingSetHalfLife) + amount,
			last:   t,
			person: e.person,
		}
	default:
		age := e.last - t
		e.freq += amount * decay(age, frequencyHalfLife)
		e.work += amount * decay(age, workingSetHalfLife)
	}
	if why != Agent {
		e.person = max(e.person, t)
	}
	return e
}
