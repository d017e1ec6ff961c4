// Package content answers "which files mention these words": the recovery
// step of locate when neither file names nor symbols know the thing asked
// for (a name only mentioned in a document or a string).
//
// Design: a Bloom filter of each file's words, not a trigram or posting
// index. A query names whole words (identifiers and their camel/snake
// parts), so words are the right unit, and a filter per file makes the
// index trivially incremental (a changed file replaces its filter; no
// posting lists to patch), bounded in memory (sixteen bits per distinct
// word or word pair) and fast to test (a query probes every filter in a few
// milliseconds). Filters give false positives,
// never false negatives, so every candidate is then verified against the
// file's text with the query's pattern, bounded in bytes and time.
//
// The index never ranks: rank/ orders what Search returns.
package content

import (
	"bytes"
	"context"
	"hash/maphash"
	"os"
	"sort"
	"sync"

	"wayfind/pool"
	"wayfind/workspace"

	"wayfind/ident"
)

// DefaultMaxBytes bounds the files whose text is searched. Files are read
// a chunk at a time, so the bound is not memory but time: a match in a
// file this large costs a quarter of a second to read and verify. Binary
// files are never searched, whatever their size.
const DefaultMaxBytes = 256 << 20

// filter is one file's words.
type filter struct {
	bits    []uint64
	size    int64
	modTime int64
}

var seed = maphash.MakeSeed()

// hashes of a word: two halves of one 64-bit hash, combined as in Kirsch
// and Mitzenmacher's double hashing.
func hashes(w []byte) (uint32, uint32) {
	h := maphash.Bytes(seed, w)
	return uint32(h), uint32(h>>32) | 1
}

const (
	probes      = 6
	bitsPerWord = 16
)

func (f *filter) add(w []byte) {
	a, b := hashes(w)
	n := uint32(len(f.bits) * 64)
	for i := uint32(0); i < probes; i++ {
		k := (a + i*b) % n
		f.bits[k/64] |= 1 << (k % 64)
	}
}

func (f *filter) has(w []byte) bool {
	a, b := hashes(w)
	n := uint32(len(f.bits) * 64)
	for i := uint32(0); i < probes; i++ {
		k := (a + i*b) % n
		if f.bits[k/64]&(1<<(k%64)) == 0 {
			return false
		}
	}
	return true
}

// Words calls fn with every word of text as the index knows it: each
// identifier ([A-Za-z0-9_]+) lower-cased with underscores dropped
// ("cursor_binary" → "cursorbinary"), each of its parts at underscores
// and camel humps ("cursor", "binary"), and each pair of adjacent parts
// joined — inside an identifier ("MyCommandRouter" → "mycommand",
// "commandrouter") and across one space or hyphen ("cursor binary",
// "cursor-binary" → "cursorbinary") — so that a query of several words
// can ask for them side by side, not merely somewhere in the file.
func Words(text []byte, fn func(w []byte)) {
	var buf, part, prev, pair []byte
	prevEnd := -2 // where the previous identifier ended
	emitPair := func(a, b []byte) {
		pair = append(append(pair[:0], a...), b...)
		fn(pair)
	}
	for i := 0; i < len(text); {
		if !isWord(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isWord(text[j]) {
			j++
		}
		tok := text[i:j]
		if hasNonASCII(tok) {
			// Unicode case folding, as the query's strings.ToLower does;
			// humps are then ASCII-only.
			tok = bytes.ToLower(tok)
		}
		// One space or hyphen between two identifiers makes them neighbours.
		joined := prevEnd == i-1 && (text[i-1] == ' ' || text[i-1] == '-')
		buf = buf[:0]
		part = part[:0]
		parts := 0
		flush := func() {
			if len(part) == 0 {
				return
			}
			if parts > 0 || joined {
				emitPair(prev, part)
			}
			joined = false
			fn(part)
			prev = append(prev[:0], part...)
			parts++
			part = part[:0]
		}
		for k, c := range tok {
			if c == '_' {
				flush()
				continue
			}
			// A hump starts at an upper-case letter after a lower-case one
			// or a digit, or before a lower-case one after upper-case ones.
			if len(part) > 0 && ident.HumpAt(tok, k) {
				flush()
			}
			lc := lower(c)
			part = append(part, lc)
			buf = append(buf, lc)
		}
		flush()
		if parts > 2 {
			fn(buf) // with two parts, the pair already is the whole
		}
		prevEnd = j
		i = j
	}
}

func hasNonASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return true
		}
	}
	return false
}

func isWord(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
}
func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func lower(c byte) byte {
	if isUpper(c) {
		return c + 'a' - 'A'
	}
	return c
}

// newFilter sizes a filter for the distinct words of text (each chunk
// of a file) and fills it; nil for a binary file or one unreadable.
func newFilter(file string) *filter {
	distinct := map[string]struct{}{}
	err := eachChunk(file, func(chunk []byte) bool {
		Words(chunk, func(w []byte) {
			if _, ok := distinct[string(w)]; !ok {
				distinct[string(w)] = struct{}{}
			}
		})
		return true
	})
	if err != nil {
		return nil
	}
	// Sixteen bits per word and six probes: about one false positive in a
	// thousand. At ten bits (1%) a query read ~300 needless files of 57k;
	// the extra six bits cost 2 bytes a word and save those reads.
	f := &filter{bits: make([]uint64, (len(distinct)*bitsPerWord+63)/64+1)}
	for w := range distinct {
		f.add([]byte(w))
	}
	return f
}

// Index is an immutable snapshot: the filters of a workspace's text files,
// in path order (searches need no sort and stop early in a stable order).
type Index struct {
	paths   []string // absolute, sorted
	filters []*filter
}

// Len is the number of files indexed.
func (ix *Index) Len() int {
	if ix == nil {
		return 0
	}
	return len(ix.paths)
}

func (ix *Index) lookup(file string) *filter {
	i := sort.SearchStrings(ix.paths, file)
	if i < len(ix.paths) && ix.paths[i] == file {
		return ix.filters[i]
	}
	return nil
}

// Indexer keeps an Index current. Safe for concurrent use.
type Indexer struct {
	MaxBytes int
	Workers  int // 0: one per core
	// Pace, when set, is called before each file is read.
	Pace func()
	mu   sync.Mutex
	cur  *Index
}

// Index returns the current snapshot.
func (x *Indexer) Index() *Index {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.cur == nil {
		return &Index{}
	}
	return x.cur
}

// Sync indexes every file of ix, reusing the filter of a file whose size
// and modification time are unchanged, and drops files that left.
func (x *Indexer) Sync(ctx context.Context, ix *workspace.Index) (*Index, error) {
	files := make([]string, len(ix.Files))
	for i, f := range ix.Files {
		files[i] = ix.Abs(f)
	}
	return x.update(ctx, files, true)
}

// Refresh re-reads the files of ix at or under paths (absolute files or
// directories that changed, appeared or vanished); files indexed before
// and gone now are dropped.
func (x *Indexer) Refresh(ctx context.Context, ix *workspace.Index, paths []string) (*Index, error) {
	return x.update(ctx, workspace.Affected(ix, paths, x.Index().paths, nil), false)
}

func (x *Indexer) update(ctx context.Context, files []string, all bool) (*Index, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	old := x.cur
	if old == nil {
		old = &Index{}
	}
	next := map[string]*filter{}
	if !all {
		for i, p := range old.paths {
			next[p] = old.filters[i]
		}
	}
	max := x.MaxBytes
	if max <= 0 {
		max = DefaultMaxBytes
	}
	pool.Map(ctx, len(files), x.Workers,
		func() (struct{}, func()) { return struct{}{}, nil },
		nil,
		func(_ struct{}, i int) *filter {
			if x.Pace != nil {
				x.Pace()
			}
			return readFilter(files[i], old.lookup(files[i]), max)
		},
		func(i int, f *filter) {
			if f == nil {
				delete(next, files[i])
			} else {
				next[files[i]] = f
			}
		})
	if err := ctx.Err(); err != nil {
		return x.cur, err
	}
	ix := &Index{paths: make([]string, 0, len(next))}
	for p := range next {
		ix.paths = append(ix.paths, p)
	}
	sort.Strings(ix.paths)
	ix.filters = make([]*filter, len(ix.paths))
	for i, p := range ix.paths {
		ix.filters[i] = next[p]
	}
	x.cur = ix
	return ix, nil
}

// readFilter builds a file's filter, or keeps prev when the file has not
// changed; nil for a file gone, unreadable, too large or binary.
func readFilter(file string, prev *filter, max int) *filter {
	st, err := os.Stat(file)
	if err != nil || !st.Mode().IsRegular() || st.Size() > int64(max) {
		return nil
	}
	if prev != nil && prev.size == st.Size() && prev.modTime == st.ModTime().UnixNano() {
		return prev
	}
	f := newFilter(file)
	if f == nil {
		return nil
	}
	f.size, f.modTime = st.Size(), st.ModTime().UnixNano()
	return f
}
