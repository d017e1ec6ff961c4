package rank

import "slices"

// A candidate is a file as a reading of a question ranks it: made here,
// ordered here (RanksBefore is the one order of equal scores for every
// request), judged by confidence.go.

// Candidate is one ranked file.
type Candidate struct {
	File    int32    `json:"-"`
	Root    int      `json:"-"`
	Path    string   `json:"path"`
	Score   float64  `json:"score"`
	Reasons []string `json:"reasons"`

	lexical, prox float64
	// act: its activity as weighed beside nearness (activityShare ×
	// activity, activity.go), where it was weighed.
	act float64
	// co: how much of where the user works it was committed together
	// with (affinity.coChange).
	co float64
	ev evidence
}

// evidence is what a reading of a path rests on, typed, for the rules
// that judge it (standsAlone, outlivesDeletion); reasons are for display.
type evidence struct {
	// dirsWritten: the directories the query wrote, past another
	// machine's prefix; dirsMatched: how many the candidate keeps;
	// dirsKnown: one of them names a directory of the tree; dirs: how the
	// candidate's directories stand to the ones written.
	dirsWritten, dirsMatched int
	dirsKnown                bool
	dirs                     dirReading
	// otherKind: its extension is of another kind, one the tree has;
	// stemKept: its stem is the one written (case and separators aside)
	// and its extension the same or of its family; stemSame: the stem is
	// the one written exactly; distinctName: its name, written exactly,
	// identifies a file by itself.
	otherKind, stemKept, stemSame, distinctName bool
}

func (e *Engine) candidate(id int32, score float64, reasons []string) Candidate {
	f := e.file(id)
	return Candidate{File: id, Root: int(f.root), Path: e.filePath(id), Score: score, Reasons: reasons}
}

// sortedCandidates puts cs in result order (better). It sorts their
// indices and moves each candidate once: a name shared by thousands of
// files (package-info.java) had sort.Slice swap thousands of
// hundred-byte candidates through reflection, a large part of the
// resolve.
func sortedCandidates(cs []Candidate) []Candidate {
	order := make([]int32, len(cs))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		switch {
		case a == b:
			return 0
		case better(&cs[a], &cs[b]):
			return -1
		default:
			return 1 // one file a candidate: no two are equal
		}
	})
	out := make([]Candidate, len(cs))
	for i, k := range order {
		out[i] = cs[k]
	}
	return out
}

// RanksBefore is the one result order of every listing: score, then the
// shorter path (less left unexplained), then byte order so that answers are
// deterministic.
func RanksBefore(scoreA, scoreB float64, pathA, pathB string, rootA, rootB int) bool {
	if scoreA != scoreB {
		return scoreA > scoreB
	}
	if len(pathA) != len(pathB) {
		return len(pathA) < len(pathB)
	}
	if pathA != pathB {
		return pathA < pathB
	}
	return rootA < rootB
}

// better: a comes before b in a listing (RanksBefore).
func better(a, b *Candidate) bool {
	return RanksBefore(a.Score, b.Score, a.Path, b.Path, a.Root, b.Root)
}
