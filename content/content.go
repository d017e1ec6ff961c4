// Package content answers "which files mention these words": the recovery
// step of locate when neither file names nor symbols know the thing asked
// for (a name only mentioned in a document or a string).
//
// Design: a Bloom filter of each file's words, not a trigram or posting
// index. A query names whole words (identifiers and their camel/snake
// parts), so words are the right unit, and a filter per file makes the
// index trivially incremental (a changed file replaces its filter; no
// posting lists to patch), bounded in memory (sixteen bits per distinct
// word or word pair) and fast to test (a query probes every filter in one
// quick pass). Filters give false positives,
// never false negatives, so every candidate is then verified against the
// file's text with the query's pattern, bounded in bytes and time.
//
// The index never ranks: rank/ orders what Search returns.
package content

import (
	"bytes"
	"context"
	"iter"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"wayfind/pathtable"
	"wayfind/pool"
	"wayfind/workspace"

	"wayfind/ident"
)

// DefaultMaxBytes bounds the files whose text is searched. Files are read
// a chunk at a time, so the bound is not memory but time: a match in a
// file this large costs noticeable time to read and verify. Binary
// files are never searched, whatever their size.
const DefaultMaxBytes = 256 << 20

// filter is one file's words; none for a file that is not text. An
// index holds its filters by value, one array of them: a filter object a
// file was that many small objects for the collector to mark, and 8
// bytes more a file for the pointer to it.
type filter struct {
	bits    []uint64
	size    int64
	modTime int64
}

// hashes of a word: two halves of one 64-bit hash, combined as in Kirsch
// and Mitzenmacher's double hashing. The hash is the same in every
// process (FNV-1a, its bits then mixed by SplitMix64's finaliser, since
// FNV's low bits are weak for short words): filters outlive the process
// that built them (cache.go).
func hashes(w []byte) (uint32, uint32) {
	h := uint64(14695981039346656037)
	for _, c := range w {
		h ^= uint64(c)
		h *= 1099511628211
	}
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	h ^= h >> 31
	return uint32(h), uint32(h>>32) | 1
}

const (
	probes      = 6
	bitsPerWord = 16
)

// text reports a filter of a text file: one that holds words.
func (f *filter) text() bool { return len(f.bits) > 0 }

func (f *filter) add(w []byte) {
	a, b := hashes(w)
	n := uint32(len(f.bits) * 64)
	for i := uint32(0); i < probes; i++ {
		k := (a + i*b) % n
		f.bits[k/64] |= 1 << (k % 64)
	}
}

// hashed is a word's hashes, computed once for all the filters a query
// probes.
type hashed struct{ a, b uint32 }

func hashOf(w []byte) hashed {
	a, b := hashes(w)
	return hashed{a, b}
}

func (f *filter) has(h hashed) bool {
	a, b := h.a, h.b
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
	if len(distinct) == 0 {
		return &filter{bits: noWords}
	}
	// Sixteen bits per word and six probes: about one false positive in a
	// thousand. At ten bits (1%) a query read many needless files;
	// the extra six bits cost 2 bytes a word and save those reads.
	f := &filter{bits: make([]uint64, (len(distinct)*bitsPerWord+63)/64+1)}
	for w := range distinct {
		f.add([]byte(w))
	}
	return f
}

// noWords is the bits of every text file without a word (empty, or only
// punctuation): one word of zeros, shared, since filters are never
// written once made.
var noWords = []uint64{0}

// same reports whether a and b are one filter: a file's kept unchanged
// (its stats, and its words where they lie), not merely equal words.
func same(a, b *filter) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.size == b.size && a.modTime == b.modTime && len(a.bits) == len(b.bits) &&
		(len(a.bits) == 0 || &a.bits[0] == &b.bits[0])
}

// Index is an immutable snapshot: the filters of a workspace's files by
// absolute path, in path order (searches need no sort and stop early in
// a stable order). A change is an overlay on the filters of the last
// compaction (pathtable), so that one file added costs its own filter,
// not a copy of every file's.
type Index struct {
	files *pathtable.Table[filter]
	text  int // files whose filters hold words (the others are not text)
	// mapped are the files the paths may lie in (read from an index
	// loaded where it lies): held so that they stay mapped.
	mapped workspace.Mapped
}

// Len is the number of text files indexed: the files a search reads.
func (ix *Index) Len() int {
	if ix == nil {
		return 0
	}
	return ix.text
}

// cursor is lookup for files asked in ascending order.
func (ix *Index) cursor() func(file string) *filter { return ix.files.Cursor() }

func (ix *Index) lookup(file string) *filter { return ix.files.Get(file) }

// under is the files the index holds at or under path (absolute).
func (ix *Index) under(path string) []string { return ix.files.Under(path, filepath.Separator) }

// Indexer keeps an Index current. Safe for concurrent use.
type Indexer struct {
	MaxBytes int
	Workers  int // 0: one per core
	// Pace, when set, is called before each file is read.
	Pace func()
	// CacheDir, when set (and not "-"), is where each root's filters
	// persist between processes (cache.go): the first Sync starts from
	// them, and every Sync saves what changed.
	CacheDir string
	// Logf, when set, hears of a cache that could not be read or saved.
	Logf func(string, ...any)
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
	return x.SyncStat(ctx, ix, nil)
}

// SyncStat is Sync deciding by stats (workspace.StatFiles of ix, nil to
// stat each file here) whether a file changed.
func (x *Indexer) SyncStat(ctx context.Context, ix *workspace.Index, stats []workspace.FileStat) (*Index, error) {
	files := make([]string, len(ix.Files()))
	for i := range ix.Files() {
		x.paced(i)
		files[i] = ix.AbsAt(i)
	}
	x.mu.Lock()
	if x.cur == nil && x.cached() {
		// A new process: start from what the last one knew.
		var paths []string
		var filters []filter
		for r, root := range ix.Roots {
			p, f, err := loadCache(x.CacheDir, ix, r, x.Pace)
			if err != nil {
				x.logf("content cache of %s not read: %v", root, err)
			}
			if paths == nil { // the first root's as read: a copy was garbage, a string a file
				paths, filters = p, f
				continue
			}
			paths, filters = append(paths, p...), append(filters, f...)
		}
		x.cur = newIndex(paths, filters)
		x.cur.mapped = ix.Mapped() // the caches' paths may be ix's
	}
	x.mu.Unlock()
	prev := x.Index()
	next, err := x.update(ctx, ix, files, stats, true)
	if err == nil && x.cached() && changed(prev, next) {
		for _, root := range ix.Roots {
			if err := saveCache(x.CacheDir, root, next, x.Pace); err != nil {
				x.logf("content cache of %s not saved: %v", root, err)
			}
		}
	}
	return next, err
}

func (x *Indexer) cached() bool { return !workspace.CachesOff(x.CacheDir) }

func (x *Indexer) logf(format string, args ...any) {
	if x.Logf != nil {
		x.Logf(format, args...)
	}
}

// changed reports whether b holds other files or filters than a.
func changed(a, b *Index) bool {
	if a.files.Len() != b.files.Len() {
		return true
	}
	next, stop := iter.Pull2(b.files.All())
	defer stop()
	for p, f := range a.files.All() {
		q, g, _ := next()
		if p != q || !same(f, g) {
			return true
		}
	}
	return false
}

// all is every file's path and filter, in path order.
func (ix *Index) all() iter.Seq2[string, *filter] { return ix.files.All() }

// with is ix with files (absolute, in any order) re-read: each set to its
// filter in got, or dropped where that is nil (gone, too large); a file
// given twice takes its last. It costs the files changed and the
// overlay, not the index (pathtable.Table.With); the text files are
// counted by what changed.
func (ix *Index) with(files []string, got []*filter) *Index {
	vals, keep := make([]filter, len(files)), make([]bool, len(files))
	for k, f := range got {
		if f != nil {
			vals[k], keep[k] = *f, true
		}
	}
	text := ix.text
	next := ix.files.With(files, vals, keep, func(was, now *filter) {
		if was != nil && was.text() {
			text--
		}
		if now != nil && now.text() {
			text++
		}
	})
	return &Index{files: next, text: text, mapped: ix.mapped}
}

// newIndex makes an index of paths and their filters, sorting them when
// they are not in order already (a workspace's files are, root by root).
func newIndex(paths []string, filters []filter) *Index {
	ix := &Index{files: pathtable.Of(paths, filters)}
	for i := range filters {
		if filters[i].text() {
			ix.text++
		}
	}
	return ix
}

// Refresh re-reads the files of ix at or under paths (absolute files or
// directories that changed, appeared or vanished); files indexed before
// and gone now are dropped.
func (x *Indexer) Refresh(ctx context.Context, ix *workspace.Index, paths []string) (*Index, error) {
	return x.update(ctx, ix, workspace.Affected(ix, paths, x.Index().under, nil), nil, false)
}

// update re-checks files (absolute, from's or copies); stats, when set,
// are their stats in order. With all, files may become the new index's
// paths: the caller gives it up.
func (x *Indexer) update(ctx context.Context, from *workspace.Index, files []string, stats []workspace.FileStat, all bool) (*Index, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	old := x.cur
	if old == nil {
		old = &Index{}
	}
	got := make([]*filter, len(files))
	max := x.MaxBytes
	if max <= 0 {
		max = DefaultMaxBytes
	}
	// Files whose stat matches their filter keep it without a read; only
	// the others go to the workers (a pass over ten thousand unchanged
	// files is then a loop, not ten thousand hand-offs).
	var toRead []int
	prevOf := old.lookup
	if sort.StringsAreSorted(files) {
		prevOf = old.cursor() // one merge pass instead of a search a file
	}
	for i, file := range files {
		x.paced(i)
		if stats != nil {
			if prev := prevOf(file); prev != nil && stats[i].OK && prev.size == stats[i].Size && prev.modTime == stats[i].ModTime {
				got[i] = prev
				continue
			}
		}
		toRead = append(toRead, i)
	}
	// differs: some file re-read did not keep what old held for it (its
	// filter, or none).
	var differs atomic.Bool
	pool.Map(ctx, len(toRead), x.Workers,
		func() (struct{}, func()) { return struct{}{}, nil },
		nil,
		func(_ struct{}, k int) *filter {
			i := toRead[k]
			if x.Pace != nil {
				x.Pace()
			}
			var st *workspace.FileStat
			if stats != nil {
				st = &stats[i]
			}
			prev := old.lookup(files[i])
			f := readFilter(files[i], prev, max, st)
			if f != prev {
				differs.Store(true)
			}
			return f
		},
		func(k int, f *filter) { got[toRead[k]] = f })
	if err := ctx.Err(); err != nil {
		return x.cur, err
	}
	if !all && !differs.Load() {
		return old, nil // a poll's re-check of files that did not change
	}
	var ix *Index
	if all && x.holdsAsIs(old, files, got) {
		// Every file re-checked and kept as old holds it (a warm start on
		// a tree unchanged): a copy of its filters and paths was as
		// much again at the start's peak, then garbage.
		return old, nil
	}
	if all {
		// Every file re-checked: the new index is files, in their order,
		// its paths files itself (the kept moved to its front: the caller
		// gives it up).
		n := 0
		for _, f := range got {
			if f != nil {
				n++
			}
		}
		filters := make([]filter, 0, n)
		paths := files[:0]
		for i, f := range got {
			if f != nil {
				paths, filters = append(paths, files[i]), append(filters, *f)
			}
		}
		clear(files[len(paths):])
		ix = newIndex(paths[:len(paths):len(paths)], filters)
		ix.mapped = from.Mapped()
	} else {
		ix = old.with(files, got)
		ix.mapped = old.mapped.With(from)
	}
	x.cur = ix
	return ix, nil
}

// Repoint points the index's paths at ix's own strings of them
// (workspace.Index.Repoint), its filters shared: the index no longer
// holds, nor reads, the paths of the index it was built from. It returns
// the index, repointed or, when ix keeps no strings to point at, as it
// was.
func (x *Indexer) Repoint(ix *workspace.Index) *Index {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.cur == nil {
		return nil
	}
	repoint := func(paths []string) ([]string, bool) { return ix.Repoint(paths) }
	files, mapped := x.cur.files.Repointed(repoint), x.cur.mapped
	if files != x.cur.files {
		mapped = ix.Mapped() // every path ix's or a copy
	}
	x.cur = &Index{files: files, text: x.cur.text, mapped: mapped}
	return x.cur
}

// paced calls Pace every paceBatch files of a loop over every file
// (i, its count so far): a loop that only compares reads every path, and
// Pace is where its caller drops what was read.
func (x *Indexer) paced(i int) {
	if x.Pace != nil && i%paceBatch == 0 {
		x.Pace()
	}
}

// paceBatch is how many files a loop over every file passes between
// calls to Pace: a short stretch of work.
const paceBatch = 1 << 10

// holdsAsIs reports whether got, the filters of every file re-checked
// (files), are old's own, one a file old holds.
func (x *Indexer) holdsAsIs(old *Index, files []string, got []*filter) bool {
	if len(got) != old.files.Len() {
		return false
	}
	prevOf := old.lookup
	if slices.IsSorted(files) {
		prevOf = old.cursor()
	}
	for i, f := range got {
		x.paced(i)
		if f == nil || f != prevOf(files[i]) {
			return false
		}
	}
	return true
}

// readFilter builds a file's filter, or keeps prev when the file has not
// changed (by st when given, else by a stat here); nil for a file gone or
// too large, a filter without words for one binary or unreadable.
func readFilter(file string, prev *filter, max int, st *workspace.FileStat) *filter {
	if st == nil {
		s := workspace.StatFile(file)
		st = &s
	}
	if !st.OK || st.Size > int64(max) {
		return nil
	}
	if prev != nil && prev.size == st.Size && prev.modTime == st.ModTime {
		return prev
	}
	f := newFilter(file)
	if f == nil {
		// Binary or unreadable: remembered as such (no words), so that
		// the next pass does not open it again while it is unchanged.
		f = &filter{}
	}
	f.size, f.modTime = st.Size, st.ModTime
	return f
}
