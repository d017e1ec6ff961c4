package rank

// Typos: every rule of how far a name may be mistyped and still be
// recognised, and what a typo reading is worth, in one place.
//
//   - osa is the distance (a typing slip: insertion, deletion,
//     substitution, transposition); typoBudget how many edits a name of n
//     bytes may carry — none under minOneTypo bytes, whose neighbours are
//     too many; oneTypo the one-edit test of directory and symbol names.
//   - typoScore is a typo's stem score for resolve (score.go's ladder),
//     from typoTop down; typoFloor the least any budgeted typo scores.
//   - find weighs a name's typo by findTypoWeight, so typoCeiling stays
//     under its word-start class (classes_test.go pins it); symbols put
//     one edit of a whole name or of a prefix in classes of their own
//     (symbols.go).
//   - a typo read across a path (pathmatch.go) allows one edit per token
//     inside a word the user clearly began (typoLead, typoMinWord), costs
//     the DP dpTypo and the score pathTypoCost, and is tried only for
//     queries of minTypoToken bytes or more.

// minOneTypo is the shortest name (squashed bytes) one typo may stand in
// for: "mian" for main, but no three-letter name, which has too many
// neighbours one edit away.
const minOneTypo = 4

// typoBudget is how many edits a name of n bytes may carry and still be
// recognised: none for tiny names (too many neighbours), growing slowly.
func typoBudget(n int) int {
	switch {
	case n < minOneTypo:
		return 0
	case n <= 8:
		return 1
	case n <= 20:
		return 2
	default:
		return 3
	}
}

// typoFloor is the least a typo within the edit budget scores: the most
// edits the budget allows, in the shortest name that allows them.
func typoFloor() float64 {
	least := typoTop
	for n := minOneTypo; n <= maxTypoName; n++ {
		least = min(least, typoScore(typoBudget(n), n))
	}
	return least
}

// maxTypoName bounds typoFloor's search: past the last step of the budget
// a longer name only makes an edit cheaper.
const maxTypoName = 64

// typoScore is the stem score of a typo at edit distance d between names
// of up to n bytes (score.go's block comment): each edit past the first
// costs typoEditCost, and every edit typoLengthCost spread over the name,
// so that longer names tolerate more.
func typoScore(d, n int) float64 {
	return typoTop - typoEditCost*float64(d-1) - typoLengthCost*float64(d)/float64(n)
}

// oneTypo reports whether typed is at most one edit (osa) from name and
// long enough for typoBudget to allow one: the one typo rule of directory
// names, symbol names and (as its first step) file names.
func oneTypo(typed, name string) bool {
	return typoBudget(len(typed)) >= 1 && osa(typed, name, 1) <= 1
}

// osa is the optimal-string-alignment distance (Levenshtein plus adjacent
// transposition), the model of a typing slip. It gives up and returns
// limit+1 as soon as the distance must exceed limit.
func osa(a, b string, limit int) int {
	if limit == 1 { // the common question, in one pass (oneEdit)
		switch {
		case a == b:
			return 0
		case oneEdit(a, b):
			return 1
		}
		return 2
	}
	return osaRows(a, b, limit)
}

// oneEdit reports whether a and b, not equal, are one substitution,
// insertion, deletion or adjacent transposition apart: osa's distance 1
// found from the first difference, without its rows (resolve aligns a
// deep path's directories with thousands of candidates' in a large
// tree, a distance at a time).
func oneEdit(a, b string) bool {
	if len(a) < len(b) {
		a, b = b, a
	}
	if len(a)-len(b) > 1 {
		return false
	}
	i := 0
	for i < len(b) && a[i] == b[i] {
		i++
	}
	if len(a) != len(b) {
		return a[i+1:] == b[i:] // one deleted from the longer
	}
	if i == len(a) {
		return false // equal: no edit
	}
	return a[i+1:] == b[i+1:] || // substituted
		i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:] // swapped
}

// osaRows is osa by its dynamic programme, for any limit.
func osaRows(a, b string, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	if len(a) == 0 || len(b) == 0 {
		return max(len(a), len(b))
	}
	// Three rolling rows: two back for transpositions.
	var buf [3 * 128]int
	var prev2, prev, cur []int
	if len(b)+1 <= 128 {
		prev2, prev, cur = buf[0:len(b)+1], buf[128:128+len(b)+1], buf[256:256+len(b)+1]
	} else {
		prev2, prev, cur = make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	}
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
