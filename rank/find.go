package rank

import (
	"context"
	"math"
	"sort"
	"strings"
)

// A find query is matched against each distinct squashed stem first (file
// names repeat: babel has 27k files and 1.2k names), then against
// directories. The name classes, best first:
//
//	1.00                 exact: the squashed query is the squashed stem
//	0.80 + 0.15×cover    prefix of the stem ("authmid" → auth_middleware)
//	0.78 + 0.15×cover    every query word is a word of the stem, in order
//	0.75 + 0.15×cover    substring starting at a word of the stem
//	0.70 + 0.15×cover    every query word inside the stem, in order
//	0.64 + 0.15×cover    initials: consecutive prefixes of the stem's words
//	                     ("stametexpautcontes" → StatsdMetricsExportAuto…);
//	                     −0.03 for each stem word skipped in between
//	0.60 + 0.15×cover    substring inside a word
//	typo × 0.8           the squashed query within the edit budget of the
//	                     stem (see score.go): "librrycontentfiltertests"
//	0.30 + 0.20×cover    any subsequence (fzf's notion), the last resort
//
// cover = len(query)/len(stem) prefers the name the query explains most of.
// Each class's floor sits above the next class's ceiling as far as
// possible, so a more literal reading of the query always wins.
//
// Directory terms ("hpack/static") must each match a directory of the
// path, innermost term nearest the file, as equal (1), prefix (0.85),
// substring (0.7) or one typo (0.6), each directory skipped costing 40%
// (the query reads as a path fragment); the file's score is then
// name × (0.7 + 0.3 × dirs). Files whose directories miss a term keep
// half their score: the name is still evidence.

// FindRequest is find/files' input.
type FindRequest struct {
	Query     string
	Limit     int
	Threshold float64
	// Exact turns off typo, initials and subsequence matching.
	Exact bool
	// Impl prefers implementation files over headers.
	Impl bool
}

// Match is one find result.
type Match struct {
	File      int32    `json:"-"`
	Root      int      `json:"-"`
	Path      string   `json:"path"`
	Score     float64  `json:"score"`
	MatchedIn []string `json:"matchedIn"`
	Reason    string   `json:"reason,omitempty"`
}

// FindResult is find/files' output.
type FindResult struct {
	Matches       []Match
	TotalSearched int
	Truncated     bool
}

// DefaultThreshold drops matches that only a subsequence explains.
const DefaultThreshold = 0.3

// Find is the typo-tolerant fuzzy file search.
func (e *Engine) Find(ctx context.Context, req FindRequest) (*FindResult, error) {
	q, err := ParseFind(req.Query)
	if err != nil {
		return nil, err
	}
	limit := req.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	threshold := req.Threshold
	if threshold <= 0 {
		threshold = DefaultThreshold
	}
	qmask := charMask(q.Squashed)
	var typos map[int32]int
	if !req.Exact {
		if b := typoBudget(len(q.Squashed)); b > 0 {
			typos = e.typoStems(q.Squashed, b)
		}
	}
	var out []Match
	for sid := range e.stems {
		if sid%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		st := &e.stems[sid]
		var nm nameMatch
		if st.mask&qmask == qmask {
			nm = e.matchStem(&q, st, req.Exact)
		}
		if d, ok := typos[int32(sid)]; ok && !req.Exact {
			n := max(len(q.Squashed), len(st.text))
			if s := 0.8 * (0.92 - 0.10*float64(d-1) - 0.30*float64(d)/float64(n)); s > nm.score {
				nm = nameMatch{s, "typo:filename"}
			}
		}
		if nm.score == 0 {
			continue
		}
		for _, id := range st.files {
			if m, ok := e.scoreFile(&q, id, nm, req.Impl); ok && m.Score >= threshold {
				out = append(out, m)
			}
		}
	}
	if len(q.Words) > 1 {
		out = e.wordsAcrossPath(ctx, &q, out, threshold, req.Impl)
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].Score != out[b].Score {
			return out[a].Score > out[b].Score
		}
		if len(out[a].Path) != len(out[b].Path) {
			return len(out[a].Path) < len(out[b].Path)
		}
		return out[a].Path < out[b].Path
	})
	res := &FindResult{TotalSearched: len(e.files)}
	if len(out) > limit {
		out = out[:limit]
		res.Truncated = true
	}
	for i := range out {
		out[i].Score = round3(min(out[i].Score, 1))
	}
	res.Matches = out
	return res, nil
}

// scoreFile applies directory terms, the extension and the impl preference
// to a name match.
func (e *Engine) scoreFile(q *FindQuery, id int32, nm nameMatch, impl bool) (Match, bool) {
	f := &e.files[id]
	score := nm.score
	in := []string{"filename"}
	if len(q.Dirs) > 0 {
		d := matchDirTerms(q.Dirs, splitDirs(f.dir()))
		if d > 0 {
			score *= 0.7 + 0.3*d
			in = append(in, "directory")
		} else {
			score *= 0.5
		}
	}
	if q.Ext != "" {
		_, ext := splitExt(f.baseName())
		if a, _ := extAffinity(q.Ext, ext); a < 1 {
			score *= 0.85 + 0.15*(a-0.7)/0.3
		}
	}
	if impl {
		_, ext := splitExt(f.baseName())
		if isHeader(ext) {
			score *= 0.95
		}
	}
	return Match{File: id, Root: int(f.root), Path: f.path, Score: score, MatchedIn: in, Reason: nm.reason}, true
}

func isHeader(ext string) bool {
	switch strings.ToLower(ext) {
	case "h", "hh", "hpp", "hxx", "h++", "inc":
		return true
	}
	return false
}

// matchStem scores the name part of q against one distinct stem.
func (e *Engine) matchStem(q *FindQuery, st *stemInfo, exact bool) nameMatch {
	Q, S := q.Squashed, st.text
	cover := float64(len(Q)) / float64(max(len(S), 1))
	if cover > 1 {
		cover = 1
	}
	if Q == S {
		return nameMatch{1, "name:exact"}
	}
	if strings.HasPrefix(S, Q) {
		return nameMatch{0.80 + 0.15*cover, "name:prefix"}
	}
	w := e.stemWords(st)
	if len(q.Words) > 1 && wordsInOrder(q.Words, w) {
		return nameMatch{0.78 + 0.15*cover, "name:words"}
	}
	if i := strings.Index(S, Q); i >= 0 {
		if atWordStart(w, i) {
			return nameMatch{0.75 + 0.15*cover, "name:substring"}
		}
		if len(q.Words) <= 1 {
			return nameMatch{0.60 + 0.15*cover, "name:substring"}
		}
	}
	if len(q.Words) > 1 && substringsInOrder(q.Words, S) {
		return nameMatch{0.70 + 0.15*cover, "name:words"}
	}
	if exact {
		return nameMatch{}
	}
	if skips, ok := initials(Q, w); ok {
		return nameMatch{0.64 + 0.15*cover - 0.03*float64(skips), "name:initials"}
	}
	if strings.Contains(S, Q) {
		return nameMatch{0.60 + 0.15*cover, "name:substring"}
	}
	if isSubsequence(Q, S) {
		return nameMatch{0.30 + 0.20*cover, "name:fuzzy"}
	}
	return nameMatch{}
}

// stemWords returns the words of a stem, taken from the first file that
// has it (files sharing a squashed stem share its words).
func (e *Engine) stemWords(st *stemInfo) []string {
	f := &e.files[st.files[0]]
	stem, _ := splitExt(f.baseName())
	w := words(stem)
	if len(w) == 0 {
		w = []string{st.text}
	}
	return w
}

func wordsInOrder(q, w []string) bool {
	j := 0
	for _, qw := range q {
		for j < len(w) && w[j] != qw {
			j++
		}
		if j == len(w) {
			return false
		}
		j++
	}
	return true
}

func substringsInOrder(q []string, s string) bool {
	at := 0
	for _, qw := range q {
		i := strings.Index(s[at:], qw)
		if i < 0 {
			return false
		}
		at += i + len(qw)
	}
	return true
}

// atWordStart reports whether byte offset i of the squashed stem is the
// first byte of one of its words.
func atWordStart(w []string, i int) bool {
	at := 0
	for _, x := range w {
		if at == i {
			return true
		}
		at += len(x)
		if at > i {
			return false
		}
	}
	return false
}

// initials reports whether q can be read as non-empty prefixes of words of
// w, in order, starting with the first word; skips counts words left out
// between used ones. Words are few, so a memoised search is cheap.
func initials(q string, w []string) (skips int, ok bool) {
	if len(w) < 2 || len(q) == 0 {
		return 0, false
	}
	best := -1
	var walk func(qi, wi, sk int)
	steps := 0
	walk = func(qi, wi, sk int) {
		if steps++; steps > 4000 || (best >= 0 && sk >= best) {
			return
		}
		if qi == len(q) {
			best = sk
			return
		}
		for j := wi; j < len(w); j++ {
			word := w[j]
			skip := sk + (j - wi)
			if wi == 0 && j > 0 {
				return // the first word must be used: initials start there
			}
			for l := min(len(word), len(q)-qi); l >= 1; l-- {
				if q[qi:qi+l] == word[:l] {
					walk(qi+l, j+1, skip)
				}
			}
		}
	}
	walk(0, 0, 0)
	return best, best >= 0
}

func isSubsequence(q, s string) bool {
	j := 0
	for i := 0; i < len(s) && j < len(q); i++ {
		if s[i] == q[j] {
			j++
		}
	}
	return j == len(q)
}

// matchDirTerms matches directory terms (outermost first) against the
// path's directories from the innermost outwards; 0 when one is missing.
// "boot/simple" reads as a path fragment, so every directory skipped
// between two terms, or between the last term and the file, costs 40%.
func matchDirTerms(terms, dirs []string) float64 {
	total, skipped := 0.0, 0
	j := len(dirs) - 1
	for i := len(terms) - 1; i >= 0; i-- {
		best := 0.0
		for ; j >= 0; j-- {
			if m := dirTermMatch(terms[i], squash(dirs[j])); m > 0 {
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
	return total / float64(len(terms)) * math.Pow(0.6, float64(skipped))
}

func dirTermMatch(t, d string) float64 {
	switch {
	case t == d:
		return 1
	case strings.HasPrefix(d, t):
		return 0.85
	case strings.Contains(d, t):
		return 0.7
	case len(t) >= 5 && osa(t, d, 1) <= 1:
		return 0.6
	}
	return 0
}

// wordsAcrossPath finds files where a multi-word query's words spread over
// directories and name ("auth middleware" → auth/middleware.py): the last
// word in the name, the others in directories, in order. Such matches rank
// below any match within the name.
func (e *Engine) wordsAcrossPath(ctx context.Context, q *FindQuery, out []Match, threshold float64, impl bool) []Match {
	seen := make(map[int32]bool, len(out))
	for _, m := range out {
		seen[m.File] = true
	}
	last := q.Words[len(q.Words)-1]
	for sid := range e.stems {
		st := &e.stems[sid]
		if !strings.Contains(st.text, last) {
			continue
		}
		for _, id := range st.files {
			if seen[id] {
				continue
			}
			f := &e.files[id]
			dirs := splitDirs(f.dir())
			if matchDirTerms(q.Words[:len(q.Words)-1], dirs) == 0 {
				continue
			}
			cover := float64(len(last)) / float64(max(len(st.text), 1))
			nm := nameMatch{0.55 + 0.15*cover, "path:words"}
			if m, ok := e.scoreFile(q, id, nm, impl); ok && m.Score >= threshold {
				m.MatchedIn = []string{"directory", "filename"}
				out = append(out, m)
			}
		}
	}
	return out
}
