package content

import (
	"bytes"
	"context"
	"strings"
	"time"
	"unicode/utf8"
)

// Query is what to look for: either Words (lower-case) that must appear
// in order, joined by nothing or one of space, underscore or hyphen — the
// pattern `cursor[ _-]?binary` that planners write — in any case; or a
// Phrase, text to find as it is written (a quoted comment or message).
// A phrase is matched case-sensitively first: when some files hold it so,
// only they are returned; else the files holding it in another case. It
// is found where it begins and ends on a word or a part of one (what the
// filters hold), not inside a word: "wild" is not in "wildcard".
//
// Whole asks for whole words: no identifier character right before or
// after the match ("wild" is not in "wildcard").
type Query struct {
	Words  []string
	Phrase string
	Whole  bool
}

// Hit is a file whose text matches, with its first match (a phrase's
// first match as written, when there is one) and the first few others.
type Hit struct {
	File  string // absolute
	Count int    // matches in the file (bounded by maxCount)
	// Exact is true for a phrase found as written (not only in another case).
	Exact bool
	Match
	// Matches are the first maxMatches matches, in order — or, with
	// SearchOptions.Select, the first maxMatches it selects.
	Matches []Match
}

// Match is one match: where it is and its line.
type Match struct {
	Line int    // 0-based line
	Col  int    // its UTF-16 column
	Text string // the line, trimmed and capped
	// At and Len place the match in Text (Len 0 when the cap cut it off).
	At, Len int
	// Exact is true for a phrase's match as written.
	Exact bool
}

// maxMatches bounds the matches a hit lists.
const maxMatches = 50

// SearchOptions bound a search.
type SearchOptions struct {
	// Keep, when set, limits the search to files it accepts (the files of
	// the engine's snapshot: inside the roots and not ignored).
	Keep func(file string) bool
	// MaxRead bounds the bytes read to verify candidates (default 64 MB).
	MaxRead int64
	// Budget bounds the time spent (default 300 ms).
	Budget time.Duration
	// MaxHits stops after this many matching files (default 50).
	MaxHits int
	// Select, when set, picks the matches a hit lists (Hit.Matches) from
	// all of a file's: the caller's interest, such as a line declaring a
	// name among a hundred that use it, wherever it is in the file.
	Select func(file string, m Match) bool
}

// Stats says what a search did.
type Stats struct {
	Filtered  int  // files whose filter matched (and Keep accepted) before the search stopped
	Read      int  // files read to verify
	Truncated bool // a bound stopped the search before every candidate was read
}

const (
	maxCount = 1000
	maxLine  = 200
)

// Search returns the files matching q, in path order. Every filter is
// probed in one quick pass; candidates are read in path order until
// MaxHits, MaxRead or Budget.
func (ix *Index) Search(ctx context.Context, q Query, opt SearchOptions) ([]Hit, Stats, error) {
	var st Stats
	if ix == nil || len(q.Words) == 0 && strings.TrimSpace(q.Phrase) == "" {
		return nil, st, nil
	}
	if opt.MaxRead <= 0 {
		opt.MaxRead = 64 << 20
	}
	if opt.Budget <= 0 {
		opt.Budget = 300 * time.Millisecond
	}
	if opt.MaxHits <= 0 {
		opt.MaxHits = 50
	}
	m, err := newMatcher(q)
	if err != nil {
		return nil, st, err
	}
	deadline := time.Now().Add(opt.Budget)
	var read int64
	var hits []Hit
	exact := 0
	i := -1
	for file, f := range ix.all() {
		if i++; i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, st, err
			}
		}
		if !f.text() || !m.probe(f) {
			continue
		}
		if exact >= opt.MaxHits || len(hits) >= opt.MaxHits && m.phrase == nil || read >= opt.MaxRead || time.Now().After(deadline) {
			st.Truncated = true
			break
		}
		if opt.Keep != nil && !opt.Keep(file) {
			continue
		}
		st.Filtered++
		var sel func(Match) bool
		if opt.Select != nil {
			sel = func(mt Match) bool { return opt.Select(file, mt) }
		}
		h, n, ok := m.verify(file, sel)
		read += n
		st.Read++
		if ok {
			hits = append(hits, h)
			if h.Exact {
				exact++
			}
		}
	}
	if m.phrase != nil && exact > 0 {
		// As written first: the other cases' files are left out.
		kept := hits[:0]
		for _, h := range hits {
			if h.Exact {
				kept = append(kept, h)
			}
		}
		hits = kept
	}
	if len(hits) > opt.MaxHits {
		hits = hits[:opt.MaxHits]
	}
	return hits, st, nil
}

// matcher is a query compiled: the words each candidate's filter must
// hold, and the pattern its text must match.
type matcher struct {
	pat    pattern // any case
	whole  bool
	phrase []byte // as written (phrases only)
	// The filter test: all of any one of these sets of words.
	probes [][]hashed
}

func newMatcher(q Query) (*matcher, error) {
	// Whole words are checked by verify, not by the pattern: Go's \b
	// knows ASCII letters only, and the index's words are wider.
	m := &matcher{whole: q.Whole}
	if q.Phrase != "" {
		m.phrase = []byte(q.Phrase)
		m.pat = pattern{parts: [][]byte{lowerASCII(nil, m.phrase)}}
		// Every word the phrase's own text yields is in a file holding
		// it, pairs across its spaces included.
		seen := map[string]bool{}
		var all [][]byte
		Words([]byte(q.Phrase), func(w []byte) {
			if !seen[string(w)] {
				seen[string(w)] = true
				all = append(all, append([]byte(nil), w...))
			}
		})
		m.probes = [][]hashed{hashAll(all)}
		return m, nil
	}
	lw := make([]string, len(q.Words))
	m.pat.seps = true
	for i, w := range q.Words {
		lw[i] = strings.ToLower(w)
		m.pat.parts = append(m.pat.parts, lowerASCII(nil, []byte(lw[i])))
	}
	// The words side by side — all of them as one identifier
	// ("cursorbinary"), or each adjacent pair as neighbours.
	m.probes = [][]hashed{{hashOf([]byte(strings.Join(lw, "")))}}
	if len(lw) > 1 {
		var pairs [][]byte
		for i := 0; i+1 < len(lw); i++ {
			pairs = append(pairs, []byte(lw[i]+lw[i+1]))
		}
		m.probes = append(m.probes, hashAll(pairs))
	}
	return m, nil
}

func (m *matcher) probe(f *filter) bool {
	for _, set := range m.probes {
		if hasAll(f, set) {
			return true
		}
	}
	return false
}

// verify reads file a chunk at a time and finds its matches: their count
// and the first one's line (a phrase's first match as written, when there
// is one). n is the bytes read.
func (m *matcher) verify(file string, sel func(Match) bool) (h Hit, n int64, ok bool) {
	h.File = file
	lines := 0 // lines before the current chunk
	var low []byte
	placed := false
	_ = eachChunk(file, func(chunk []byte) bool {
		n += int64(len(chunk))
		low = lowerASCII(low, chunk)
		locs := m.pat.findAll(low, maxCount-h.Count)
		for _, loc := range locs {
			if m.whole && (loc[0] > 0 && isWord(chunk[loc[0]-1]) || loc[1] < len(chunk) && isWord(chunk[loc[1]])) {
				continue
			}
			exact := m.phrase != nil && bytes.Equal(chunk[loc[0]:loc[1]], m.phrase)
			at := place(chunk, loc[0], loc[1], lines)
			at.Exact = exact
			if !placed || exact && !h.Exact {
				h.Match = at
				placed = true
			}
			if len(h.Matches) < maxMatches && (sel == nil || sel(at)) {
				h.Matches = append(h.Matches, at)
			}
			h.Exact = h.Exact || exact
			h.Count++
		}
		lines += bytes.Count(chunk, []byte{'\n'})
		return h.Count < maxCount
	})
	return h, n, h.Count > 0
}

// place is the match at chunk[at:end], lines being the lines before chunk.
func place(chunk []byte, at, end, lines int) Match {
	lineStart := bytes.LastIndexByte(chunk[:at], '\n') + 1
	lineEnd := bytes.IndexByte(chunk[at:], '\n')
	if lineEnd < 0 {
		lineEnd = len(chunk)
	} else {
		lineEnd += at
	}
	raw := string(chunk[lineStart:lineEnd])
	line := strings.TrimLeft(raw, " \t")
	lead := len(raw) - len(line)
	line = strings.TrimRight(line, " \t\r")
	if len(line) > maxLine {
		line = line[:maxLine]
		for !utf8.ValidString(line) {
			line = line[:len(line)-1]
		}
	}
	m := Match{Line: lines + bytes.Count(chunk[:at], []byte{'\n'}), Col: utf16Len(chunk[lineStart:at]), Text: line, At: at - lineStart - lead}
	if m.At+(end-at) <= len(line) {
		m.Len = end - at
	}
	return m
}

func hasAll(f *filter, words []hashed) bool {
	for _, w := range words {
		if !f.has(w) {
			return false
		}
	}
	return true
}

func hashAll(words [][]byte) []hashed {
	out := make([]hashed, len(words))
	for i, w := range words {
		out[i] = hashOf(w)
	}
	return out
}

func utf16Len(b []byte) int {
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		b = b[size:]
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}
