package rank

import (
	"slices"
	"sync"
)

// The directories written in a query are aligned with each candidate's
// once per directory (alignDirs, pathmatch.go); a common name's tens of
// thousands of candidates share far fewer directory sequences, so the
// alignment is memoised per sequence of directory names and priced once
// per sequence.

// alignAll aligns the query's directories with the directories of many
// candidates ahead of foreignPrefix and the scoring, which then find them
// in rq.alignedAll: a name shared by thousands of files
// (package-info.java in a large Java monorepo) made the alignments most
// of the slowest resolves. The directories are taken in path order, each
// reusing the componentMatch columns of the upper directories it shares
// with the one before (alignColumns), in two halves on two cores. Few
// candidates are left to alignment on demand.
func (e *Engine) alignAll(rq *resolveQuery, cands []candidateFile) {
	if len(rq.dirs) == 0 || len(cands) < alignSplit {
		return
	}
	sc := rq.scratch
	dirs := grow(sc.dirs, len(cands))
	for _, c := range cands {
		dirs = append(dirs, e.file(c.id).dir)
	}
	slices.Sort(dirs) // path order: neighbours share their upper directories
	dirs = slices.Compact(dirs)
	sc.dirs = dirs
	out := grow(sc.aligned, len(dirs))[:len(dirs)]
	sc.aligned = out
	seqs := grow(sc.seqs, len(dirs))[:len(dirs)]
	sc.seqs = seqs
	half := len(dirs) / 2
	var wg sync.WaitGroup
	wg.Go(func() { e.alignColumns(rq, dirs[half:], out[half:], seqs[half:], &sc.columns[1]) })
	e.alignColumns(rq, dirs[:half], out[:half], seqs[:half], &sc.columns[0])
	wg.Wait()
	// The upper half's sequences are numbered after the lower's.
	for k, upper := half, int32(len(sc.columns[0].aligned)); k < len(seqs); k++ {
		if seqs[k] >= 0 {
			seqs[k] += upper
		}
	}
	rq.alignedDirs, rq.alignedAll, rq.alignedSeq = dirs, out, seqs
	if len(dirs) >= len(e.dirInfos)/alignedAtShare {
		if len(sc.at) < len(e.dirInfos) {
			sc.at = make([]int32, len(e.dirInfos))
		}
		for k, d := range dirs {
			sc.at[d] = int32(k + 1)
		}
		sc.atSet = dirs
		rq.alignedAt = sc.at
	}
}

// alignedAtShare: alignAll indexes the directories it aligned by
// directory, rather than leave them to a binary search, when they are at
// least this share of the tree's (a common name's), each of the many
// candidates then finding its own at once: below it, the index would cost
// more to clear than the searches.
const alignedAtShare = 16

// alignColumns sets out[k] to the alignment of the query's directories
// with directory dirs[k], dirs in path order: the componentMatch column of
// each of its directories is computed only where its chain of directories
// leaves the previous one's, and once for each name (a name interned
// once, the column is kept by its strRef: a vendored copy's directories,
// every package's src/ and test/). An alignment depends only on its
// columns: directories whose names match the query's alike (the
// thousands of test fixtures of one package, the copies of a package in
// other places, where only a few names match) are aligned once.
//
// memo is where it keeps the columns and alignments (nil: one of its
// own); what it held before is cleared. seqs[k], when seqs is not nil,
// is the sequence of directory dirs[k]'s columns, whose alignment is
// memo.aligned[seqs[k]]: -1 for a directory deeper than a sequence goes.
func (e *Engine) alignColumns(rq *resolveQuery, dirs []int32, out []dirAlignment, seqs []int32, memo *columnMemo) {
	nq := len(rq.dirs)
	if memo == nil {
		memo = &columnMemo{}
	}
	memo.reset()
	// chain[:prevN] are the previous directory's directories, top first,
	// and chainSeqs[j] the sequence of the columns of chain[:j+1]: a directory
	// overwrites them below the first it shares with it.
	var chain [maxDepth]int32
	var chainSeqs [maxDepth]uint32
	prevN := 0
	cols := make([]float64, maxDepth*nq) // column j: cols[j*nq : (j+1)*nq]
	var dpBuf [32 * 32]float64
	for k, d := range dirs {
		nc := int(e.dirInfos[d].depth)
		if nc > maxDepth {
			p := e.pathOf(d, nil)
			out[k], prevN = alignDirs(&rq.dir, &p), 0
			if seqs != nil {
				seqs[k] = -1
			}
			continue
		}
		// Up from d until a directory the previous chain has at the same
		// depth: the ones above it are its too.
		j, c := nc-1, d
		for ; j >= 0 && (j >= prevN || chain[j] != c); j, c = j-1, e.dirLinks[c].parent {
			chain[j] = c
		}
		same := j + 1
		for j := same; j < nc; j++ {
			col := cols[j*nq : (j+1)*nq]
			di := &e.dirInfos[chain[j]]
			c, ok := memo.byName[di.name]
			if ok {
				copy(col, memo.arena[c.off:int(c.off)+nq])
			} else {
				name, sq := e.str(di.name), e.str(di.sq)
				for i := range nq {
					col[i] = componentMatch(rq.dir.comps[i], name, rq.dir.sq[i], sq)
				}
				c.off = int32(len(memo.arena))
				memo.arena = append(memo.arena, col...)
				if slices.ContainsFunc(col, func(m float64) bool { return m > 0 }) {
					c.id = uint32(len(memo.byName) + 1)
				}
				memo.byName[di.name] = c
			}
			var before uint32
			if j > 0 {
				before = chainSeqs[j-1]
			}
			chainSeqs[j] = memo.extend(before, c.id)
		}
		prevN = nc
		var seq uint32
		if nc > 0 {
			seq = chainSeqs[nc-1]
		}
		if seqs != nil {
			seqs[k] = int32(seq)
		}
		if a := &memo.aligned[seq]; a.ok {
			out[k] = a.alignment
			continue
		}
		out[k] = alignMatched(nq, nc, cols[:nc*nq], alignTable(dpBuf[:], nq, nc))
		memo.aligned[seq] = seqAlignment{out[k], true}
	}
}

// columnMemo is what alignColumns keeps as it aligns: the columns of the
// names it read, the sequences of columns of the directories it met, and
// the alignment of each sequence it aligned.
type columnMemo struct {
	byName  map[strRef]columnRef
	arena   []float64         // the columns, end to end
	next    map[uint64]uint32 // a sequence's id and a column's → the sequence it extends to
	aligned []seqAlignment    // by sequence id, 0 the empty sequence
}

// columnRef is a name's column: where it lies in the arena, and its id
// (0 for a column that matches nothing, so that such names are alike).
type columnRef struct {
	off int32
	id  uint32
}

type seqAlignment struct {
	alignment dirAlignment
	ok        bool
}

func (m *columnMemo) reset() {
	if m.byName == nil {
		m.byName, m.next = map[strRef]columnRef{}, map[uint64]uint32{}
	}
	clear(m.byName)
	clear(m.next)
	m.arena = m.arena[:0]
	m.aligned = append(m.aligned[:0], seqAlignment{})
}

// extend is the id of sequence seq followed by column id col.
func (m *columnMemo) extend(seq, col uint32) uint32 {
	key := uint64(seq)<<32 | uint64(col)
	if s, ok := m.next[key]; ok {
		return s
	}
	s := uint32(len(m.aligned))
	m.aligned = append(m.aligned, seqAlignment{})
	m.next[key] = s
	return s
}

// alignSplit is the fewest candidates a resolve aligns and scores on two
// cores: below it, they are quick on one.
const alignSplit = 2048

// alignment aligns the query's directories with candidate directory d,
// once per query.
func (e *Engine) alignment(rq *resolveQuery, d int32) dirAlignment {
	if k, ok := rq.alignedIndex(d); ok {
		return rq.alignedAll[k]
	}
	a, ok := rq.aligned[d]
	if !ok {
		if rq.aligned == nil {
			rq.aligned = map[int32]dirAlignment{}
		}
		var buf pathBuf
		p := e.pathOf(d, buf[:])
		a = alignDirs(&rq.dir, &p)
		rq.aligned[d] = a
	}
	return a
}

// alignedIndex is where alignAll put directory d's alignment.
func (rq *resolveQuery) alignedIndex(d int32) (int, bool) {
	if rq.alignedAt != nil {
		k := rq.alignedAt[d]
		return int(k) - 1, k > 0
	}
	return slices.BinarySearch(rq.alignedDirs, d)
}

// priceAll prices alignAll's alignments past the foreign prefix: each
// sequence of columns once — a common name's directories are tens of
// thousands, their sequences far fewer — and each directory deeper than
// a sequence goes on its own.
func (rq *resolveQuery) priceAll() {
	if rq.alignedAll == nil {
		return
	}
	sc := rq.scratch
	bySeq := grow(sc.seqPriced, len(sc.columns[0].aligned)+len(sc.columns[1].aligned))
	for _, m := range sc.columns {
		for _, a := range m.aligned {
			var p dirAlign
			if a.ok {
				p = a.alignment.score(rq.foreign)
			}
			bySeq = append(bySeq, p)
		}
	}
	sc.seqPriced = bySeq
	sc.priced = grow(sc.priced, len(rq.alignedAll))[:len(rq.alignedAll)]
	rq.pricedAll = sc.priced
	for k, seq := range rq.alignedSeq {
		if seq < 0 {
			rq.pricedAll[k] = rq.alignedAll[k].score(rq.foreign)
			continue
		}
		rq.pricedAll[k] = bySeq[seq]
	}
}
