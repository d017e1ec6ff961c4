package rank

import "math"

// dirTermsMemo reads matchDirTerms for the directories of many files (the
// tens of thousands a common name's files lie in) without reading again
// what sibling directories share: matchDirTerms's greedy, past a
// directory's own name, goes on from its parent exactly as it would for
// any other child of that parent. What each term read is kept as a code,
// and the total summed in matchDirTerms' own order, so that the score is
// the same to the last bit (TestDirTermsMemoIsMatchDirTerms).
type dirTermsMemo struct {
	terms []string
	// values are the distinct readings of a term in a name; a term's
	// code is its reading's index + 1, four bits a term.
	values []float64
	// last is the greedy from a directory for the last term, by
	// directory; lastSet the directories where it is set.
	last    []termsRead
	lastSet []int32
	rest    map[uint64]termsRead // (directory, term) for the other terms
}

// termsRead is the greedy's reading from a directory outwards for terms
// 0..i: each term's code and the directories skipped.
type termsRead struct {
	codes   uint64
	skipped int32
	state   uint8 // 0 not read, termsMissing, termsRead
}

const (
	termsMissing = 1 // a term matches no directory left
	termsFound   = 2

	// codeBits is a term's code's width in termsRead.codes; a code is a
	// reading's index + 1, 0 for none.
	codeBits = 4
	maxCodes = 1<<codeBits - 1
	// maxMemoTerms: the terms whose codes fit termsRead.codes.
	maxMemoTerms = 64 / codeBits
)

// memoizes reports whether a memo can read terms.
func memoizes(terms []string) bool { return len(terms) > 0 && len(terms) <= maxMemoTerms }

// reset makes m ready for terms over e's directories.
func (m *dirTermsMemo) reset(e *Engine, terms []string) {
	for _, d := range m.lastSet {
		m.last[d] = termsRead{}
	}
	m.lastSet = m.lastSet[:0]
	if len(m.last) < len(e.dirInfos) {
		m.last = make([]termsRead, len(e.dirInfos))
	}
	if m.rest == nil {
		m.rest = map[uint64]termsRead{}
	}
	clear(m.rest)
	m.terms, m.values = terms, m.values[:0]
}

// of is matchDirTerms(m.terms, the squashed directories of d).
func (m *dirTermsMemo) of(e *Engine, d int32) float64 {
	r, ok := m.read(e, d, len(m.terms)-1)
	if !ok {
		var buf pathBuf
		return matchDirTerms(m.terms, e.pathOf(d, buf[:]).sq)
	}
	if r.state != termsFound {
		return 0
	}
	total := 0.0
	for i := len(m.terms) - 1; i >= 0; i-- {
		total += m.values[r.codes>>(codeBits*i)&maxCodes-1]
	}
	return dirTermsScore(total, len(m.terms), int(r.skipped))
}

// read is the greedy from directory d outwards for terms 0..i; ok false
// when a reading would not fit a code.
func (m *dirTermsMemo) read(e *Engine, d int32, i int) (termsRead, bool) {
	if i < 0 {
		return termsRead{state: termsFound}, true
	}
	if d < 0 {
		return termsRead{state: termsMissing}, true
	}
	key := uint64(d)<<8 | uint64(i)
	if i == len(m.terms)-1 {
		if r := m.last[d]; r.state != 0 {
			return r, true
		}
	} else if r, ok := m.rest[key]; ok {
		return r, true
	}
	parent := e.dirLinks[d].parent
	var r termsRead
	var ok bool
	if v := dirTermMatch(m.terms[i], e.dirSq(d)); v > 0 {
		code := m.code(v)
		if code == 0 {
			return termsRead{}, false
		}
		if r, ok = m.read(e, parent, i-1); !ok {
			return r, false
		}
		r.codes |= code << (codeBits * i)
	} else {
		if r, ok = m.read(e, parent, i); !ok {
			return r, false
		}
		r.skipped++
	}
	if i == len(m.terms)-1 {
		m.last[d] = r
		m.lastSet = append(m.lastSet, d)
	} else {
		m.rest[key] = r
	}
	return r, true
}

// code is reading v's code, 0 when no code is left for it.
func (m *dirTermsMemo) code(v float64) uint64 {
	for k, x := range m.values {
		if x == v {
			return uint64(k + 1)
		}
	}
	if len(m.values) == maxCodes {
		return 0
	}
	m.values = append(m.values, v)
	return uint64(len(m.values))
}

// matchDirTerms matches squashed directory terms (outermost first) against
// the path's squashed directories from the innermost outwards; 0 when one
// is missing.
// "boot/simple" reads as a path fragment, so every directory skipped
// between two terms, or between the last term and the file, costs what a
// directory left out costs resolve (the directory ladder, weights.go).
func matchDirTerms(terms, dirs []string) float64 {
	total, skipped := 0.0, 0
	j := len(dirs) - 1
	for i := len(terms) - 1; i >= 0; i-- {
		best := 0.0
		for ; j >= 0; j-- {
			if m := dirTermMatch(terms[i], dirs[j]); m > 0 {
				best = m
				j--
				break
			}
			skipped++
		}
		if best == 0 {
			return 0
		}
		total += best
	}
	return dirTermsScore(total, len(terms), skipped)
}

// dirTermsScore is matchDirTerms' reading: the terms' mean match, less
// for each directory skipped (see matchDirTerms).
func dirTermsScore(total float64, terms, skipped int) float64 {
	return total / float64(terms) * math.Exp(-dirInnerCost*float64(skipped))
}

// dirTermMatch is the directory ladder's rung for a term typed (squashed)
// against a squashed directory name: a part of the name may be typed.
func dirTermMatch(t, d string) float64 {
	return dirNameMatch(t, d, t, d, true)
}
