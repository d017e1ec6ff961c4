package rank

import (
	"cmp"
	"context"
	"slices"
	"sync"
)

// A question for a common name with a typo (a million-file tree's
// input.js, ipnut.js written) names tens of thousands of files; the rest
// of Resolve reads only a few of them. Every candidate is scored as a
// scoredFile — the numbers the order and those rules read, with no path,
// reasons or evidence — and only the shortlist becomes Candidates:
//
//   - the first shortlistKeep in result order: what is listed, and what
//     the rules after scoring read from the front (lead, contradiction's
//     window, the model's band); a candidate a rule moves ahead of them
//     is one of the others kept below, or the history's own;
//   - the best lexical reading, which the rules measure ties against;
//   - among those lexically tied with it, the two nearest where the user
//     works, which nearestFirst weighs against each other;
//   - the file the query's path ends in, which the lexical rule puts
//     first wherever it stands.
//
// Scored so, Resolve answers exactly as when every candidate is a
// Candidate, on one core (e.exhaustive; TestResolveShortlistChangesNothing).

// scoredFile is one candidate's score before it is a Candidate.
type scoredFile struct {
	id        int32
	dist      int32 // its typo distance, as resolveCandidates gives it
	score     float64
	lex, prox float64
	act       float64
}

// shortlistKeep is how many candidates in result order the shortlist
// keeps: the listing (limit), contradiction's window, and, when there is
// a model, its band (the first rerankK) and one more, so that the list is
// longer than the band whenever every candidate's would be.
func (e *Engine) shortlistKeep(limit int) int {
	keep := max(limit, contradictionWindow)
	if e.rr != nil {
		keep = max(keep, e.rerankK()+1)
	}
	return keep
}

// scoreAll scores every candidate but skip and returns the shortlist's
// Candidates in result order, activity weighed (activity.go).
func (e *Engine) scoreAll(ctx context.Context, rq *resolveQuery, cands []candidateFile, symHits map[int32]nameMatch, aff *affinity, skip int32, keep int, tail int32) ([]Candidate, error) {
	var all []scoredFile
	if len(cands) < alignSplit || e.exhaustive {
		var err error
		if all, err = e.scoreFiles(ctx, rq, cands, symHits, aff, skip, grow(rq.scratch.lower, len(cands))); err != nil {
			return nil, err
		}
		rq.scratch.lower = all
	} else {
		// Two halves on two cores. Every candidate's directory was
		// aligned (alignAll), so neither aligns one on demand.
		half := len(cands) / 2
		var upper []scoredFile
		var upperErr error
		var wg sync.WaitGroup
		wg.Go(func() {
			upper, upperErr = e.scoreFiles(ctx, rq, cands[half:], symHits, aff, skip, grow(rq.scratch.upper, len(cands)-half))
		})
		lower, err := e.scoreFiles(ctx, rq, cands[:half], symHits, aff, skip, grow(rq.scratch.lower, len(cands))) // room for upper
		wg.Wait()
		if err = cmp.Or(err, upperErr); err != nil {
			return nil, err
		}
		all = append(lower, upper...)
		rq.scratch.lower, rq.scratch.upper = all, upper
	}
	e.weighActivity(all, aff)
	short := all
	if !e.exhaustive && len(all) > keep {
		short = e.shortlist(all, keep, tail)
	}
	out := make([]Candidate, len(short))
	for i, s := range short {
		c, _ := e.scoreCandidate(rq, s.id, int(s.dist), symHits, aff)
		c.Score, c.act = s.score, s.act
		out[i] = c
	}
	return sortedCandidates(out), nil
}

// scoreFiles appends to all the scores of cands but skip.
func (e *Engine) scoreFiles(ctx context.Context, rq *resolveQuery, cands []candidateFile, symHits map[int32]nameMatch, aff *affinity, skip int32, all []scoredFile) ([]scoredFile, error) {
	read := newNamesRead()
	for n, c := range cands {
		if c.id == skip {
			continue
		}
		if n%1024 == 1023 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		nr := e.nameOf(rq, c.id, int(c.dist), symHits, read)
		if nr.nm.score == 0 {
			continue
		}
		lex, _ := e.lexicalScore(rq, c.id, nr.nm)
		prox := aff.of(e, c.id).value
		all = append(all, scoredFile{id: c.id, dist: c.dist, score: lex + proxWeight*prox, lex: lex, prox: prox})
	}
	return all, nil
}

// ranksBefore is better (the one result order) for two scored files;
// their paths are read only when the scores tie (the shortlist compares
// tens of thousands of files, each path read a cache miss).
func (e *Engine) ranksBefore(a, b *scoredFile) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return RanksBefore(a.score, b.score, e.filePath(a.id), e.filePath(b.id), int(e.file(a.id).root), int(e.file(b.id).root))
}

// shortlist is what of all the rules after scoring can read (see the
// top of this file), in no particular order.
func (e *Engine) shortlist(all []scoredFile, keep int, tail int32) []scoredFile {
	// The first keep in result order: a sorted window, each file
	// compared with its worst, which most files do not beat.
	first := make([]scoredFile, 0, keep+1)
	for i := range all {
		s := &all[i]
		if len(first) == keep && !e.ranksBefore(s, &first[keep-1]) {
			continue
		}
		at, _ := slices.BinarySearchFunc(first, s, func(x scoredFile, s *scoredFile) int {
			if e.ranksBefore(&x, s) {
				return -1
			}
			return 1
		})
		first = slices.Insert(first, at, *s)
		if len(first) > keep {
			first = first[:keep]
		}
	}
	// The best lexical reading, and the two nearest of those tied with
	// it, each the first in result order of its kind (as the rules
	// that read them take it).
	bestLex := -1
	for i := range all {
		if bestLex < 0 || all[i].lex > all[bestLex].lex || all[i].lex == all[bestLex].lex && e.ranksBefore(&all[i], &all[bestLex]) {
			bestLex = i
		}
	}
	lexTop := all[bestLex].lex
	nearest, runner := -1, -1
	for i := range all {
		s := &all[i]
		if s.lex <= lexTop-ResolveMargin {
			continue
		}
		switch {
		case nearest < 0 || nearOrder(s, &all[nearest], e):
			nearest, runner = i, nearest
		case runner < 0 || nearOrder(s, &all[runner], e):
			runner = i
		}
	}
	out := first
	for _, i := range []int{bestLex, nearest, runner} {
		if i >= 0 && !slices.ContainsFunc(out, func(s scoredFile) bool { return s.id == all[i].id }) {
			out = append(out, all[i])
		}
	}
	if k := slices.IndexFunc(all, func(s scoredFile) bool { return s.id == tail }); k >= 0 && !slices.ContainsFunc(out, func(s scoredFile) bool { return s.id == tail }) {
		out = append(out, all[k])
	}
	return out
}

// nearOrder: a is ahead of b in nearness and activity together (nearKey),
// the first in result order among equals.
func nearOrder(a, b *scoredFile, e *Engine) bool {
	ka, kb := nearValue(a.prox, a.act), nearValue(b.prox, b.act)
	if ka != kb {
		return ka > kb
	}
	return e.ranksBefore(a, b)
}
