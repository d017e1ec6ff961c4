package content

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"
)

// Query is what to look for: Words (lower-case) that must appear in order,
// joined by nothing or one of space, underscore or hyphen — the pattern
// `cursor[ _-]?binary` that planners write — in any case.
type Query struct {
	Words []string
}

// Hit is a file whose text matches, with its first match.
type Hit struct {
	File  string // absolute
	Count int    // matches in the file (bounded by maxCount)
	Line  int    // 0-based line of the first match
	Col   int    // its UTF-16 column
	Text  string // that line, trimmed and capped
}

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
// probed (a few milliseconds for 50k files); candidates are read in path
// order until MaxHits, MaxRead or Budget.
func (ix *Index) Search(ctx context.Context, q Query, opt SearchOptions) ([]Hit, Stats, error) {
	var st Stats
	if ix == nil || len(q.Words) == 0 {
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
	parts := make([]string, len(q.Words))
	for i, w := range q.Words {
		parts[i] = regexp.QuoteMeta(strings.ToLower(w))
	}
	re, err := regexp.Compile(`(?i)` + strings.Join(parts, `[ _-]?`))
	if err != nil {
		return nil, st, err
	}
	// The filter test: the words side by side — all of them as one
	// identifier ("cursorbinary"), or each adjacent pair as neighbours.
	lw := make([]string, len(q.Words))
	for i, w := range q.Words {
		lw[i] = strings.ToLower(w)
	}
	joined := []byte(strings.Join(lw, ""))
	var pairs [][]byte
	for i := 0; i+1 < len(lw); i++ {
		pairs = append(pairs, []byte(lw[i]+lw[i+1]))
	}
	deadline := time.Now().Add(opt.Budget)
	var read int64
	var hits []Hit
	for i, f := range ix.filters {
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, st, err
			}
		}
		if !f.has(joined) && (len(pairs) == 0 || !hasAll(f, pairs)) {
			continue
		}
		if len(hits) >= opt.MaxHits || read >= opt.MaxRead || time.Now().After(deadline) {
			st.Truncated = true
			break
		}
		file := ix.paths[i]
		if opt.Keep != nil && !opt.Keep(file) {
			continue
		}
		st.Filtered++
		text, err := os.ReadFile(file)
		if err != nil {
			continue
		}
		read += int64(len(text))
		st.Read++
		if h, ok := verify(re, file, text); ok {
			hits = append(hits, h)
		}
	}
	return hits, st, nil
}

func hasAll(f *filter, words [][]byte) bool {
	for _, w := range words {
		if !f.has(w) {
			return false
		}
	}
	return true
}

// verify finds the matches of re in text: their count and the first one's
// line.
func verify(re *regexp.Regexp, file string, text []byte) (Hit, bool) {
	locs := re.FindAllIndex(text, maxCount)
	if len(locs) == 0 {
		return Hit{}, false
	}
	at := locs[0][0]
	lineStart := bytes.LastIndexByte(text[:at], '\n') + 1
	lineEnd := bytes.IndexByte(text[at:], '\n')
	if lineEnd < 0 {
		lineEnd = len(text)
	} else {
		lineEnd += at
	}
	line := strings.TrimSpace(string(text[lineStart:lineEnd]))
	if len(line) > maxLine {
		line = line[:maxLine]
		for !utf8.ValidString(line) {
			line = line[:len(line)-1]
		}
	}
	return Hit{
		File:  file,
		Count: len(locs),
		Line:  bytes.Count(text[:at], []byte{'\n'}),
		Col:   utf16Len(text[lineStart:at]),
		Text:  line,
	}, true
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
