package symbols

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"wayfind/pathtable"
	"wayfind/workspace"
)

// Table is an immutable snapshot of a workspace's symbols, by file.
type Table struct {
	// The entries by absolute path, by value: as a map they cost more
	// bytes a file, and as pointers a small object a file for the
	// collector to mark. A change is an overlay on the last compaction's
	// arrays (pathtable): it costs the files changed, not a copy of all.
	files *pathtable.Table[Entry]
	count int
	// mapped are the files the paths may lie in (read from an index
	// loaded where it lies): held so that they stay mapped.
	mapped workspace.Mapped
}

// Len is the number of symbols.
func (t *Table) Len() int {
	if t == nil {
		return 0
	}
	return t.count
}

// Get returns a file's symbols (absolute path).
func (t *Table) Get(file string) ([]Symbol, bool) {
	if e := t.entry(file); e != nil {
		return e.Symbols, true
	}
	return nil, false
}

func (t *Table) entry(file string) *Entry {
	if t == nil {
		return nil
	}
	return t.files.Get(file)
}

// cursor is entry for files asked in ascending order: one merge pass
// instead of a search a file.
func (t *Table) cursor() func(file string) *Entry {
	if t == nil {
		return func(string) *Entry { return nil }
	}
	return t.files.Cursor()
}

// under is the files the table holds at or under path (absolute).
func (t *Table) under(path string) []string {
	if t == nil {
		return nil
	}
	return t.files.Under(path, filepath.Separator)
}

// Each calls f for every file with symbols, in path order.
func (t *Table) Each(f func(file string, syms []Symbol)) {
	if t == nil {
		return
	}
	for p, e := range t.files.All() {
		if len(e.Symbols) > 0 {
			f(p, e.Symbols)
		}
	}
}

// IndexerOptions configure an Indexer.
type IndexerOptions struct {
	// CacheDir holds the per-root caches; "" means workspace.DefaultCacheDir, and
	// "-" turns the cache off.
	CacheDir string
	MaxBytes int // per file; 0 means DefaultMaxBytes
	Workers  int // 0: one per core
	Logf     func(string, ...any)
	// Progress hears parsing progress: files parsed of total to parse.
	Progress func(done, total int)
	// Pace, when set, is called before each file is parsed, and before
	// each planBatch files are stat'ed.
	Pace func()
}

// Indexer keeps a workspace's symbol table current: it reuses what the
// cache or an earlier pass knows of a file with the same size and
// modification time and parses the rest. It is safe for concurrent use;
// passes are serialised.
type Indexer struct {
	opts   IndexerOptions
	mu     sync.Mutex
	table  *Table
	caches map[string]*Cache // by root; present once loaded
}

// NewIndexer returns an indexer with an empty table.
func NewIndexer(opts IndexerOptions) *Indexer {
	if opts.Logf == nil {
		opts.Logf = func(string, ...any) {}
	}
	opts.CacheDir = workspace.CacheDirOf(opts.CacheDir, opts.Logf)
	return &Indexer{opts: opts, table: &Table{}, caches: map[string]*Cache{}}
}

// Table returns the current table.
func (x *Indexer) Table() *Table {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.table
}

// SyncStats describes a pass.
type SyncStats struct {
	Files, Parsed, FromCache, Symbols int
}

// Sync makes the table match ix: every file of a supported language is
// kept, loaded from its root's cache or parsed; files that left ix are
// dropped; the caches are brought up to date.
func (x *Indexer) Sync(ctx context.Context, ix *workspace.Index) (*Table, SyncStats, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	// A root's cache is read once, by the first Sync that holds the root.
	load := !workspace.CachesOff(x.opts.CacheDir) && slices.ContainsFunc(ix.Roots, func(root string) bool { return x.caches[root] == nil })
	var files []string
	var rels [][]string // with load, files' root-relative paths, by root
	if load {
		rels = make([][]string, len(ix.Roots))
	}
	for i, f := range ix.Files() {
		if LanguageOf(f.Path) != nil {
			files = append(files, ix.AbsAt(i))
			if load {
				rels[f.Root] = append(rels[f.Root], f.Path)
			}
		}
	}
	// What the caches read now hold of the files (ix holds them root by
	// root, so each root's run of files lines up with its rels); nil when
	// none holds any.
	var cached *fromCache
	if load {
		cached = &fromCache{entries: make([]Entry, len(files)), ok: make([]bool, len(files)), gone: make([][]string, len(ix.Roots))}
		held := false
		at := 0
		for r, root := range ix.Roots {
			n := len(rels[r])
			if x.caches[root] == nil {
				c := OpenCache(x.opts.CacheDir, root, x.opts.Logf)
				x.caches[root] = c
				cached.gone[r] = c.Load(rels[r], cached.entries[at:at+n], cached.ok[at:at+n])
				held = held || len(cached.gone[r]) > 0 || slices.Contains(cached.ok[at:at+n], true)
			}
			at += n
		}
		if !held {
			cached = nil
		}
	}
	return x.refresh(ctx, ix, files, cached, true)
}

// Refresh re-checks paths (absolute files or directories that changed,
// appeared or vanished) against ix and returns the new table.
func (x *Indexer) Refresh(ctx context.Context, ix *workspace.Index, paths []string) (*Table, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	files := workspace.Affected(ix, paths, x.table.under, func(rel string) bool { return LanguageOf(rel) != nil })
	next, _, err := x.refresh(ctx, ix, files, nil, false)
	return next, err
}

// Forget drops every symbol known, in memory and in the caches of the
// roots seen so far, so that the next Sync parses everything again.
func (x *Indexer) Forget() {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, c := range x.caches {
		c.remove()
	}
	x.table = &Table{}
}

// Repoint points the table's paths at ix's own strings of them
// (workspace.Index.Repoint), its entries shared: the table no longer
// holds, nor reads, the paths of the index it was built from. It returns
// the table, repointed or, when ix keeps no strings to point at, as it
// was.
func (x *Indexer) Repoint(ix *workspace.Index) *Table {
	x.mu.Lock()
	defer x.mu.Unlock()
	repoint := func(paths []string) ([]string, bool) { return ix.Repoint(paths) }
	files, mapped := x.table.files.Repointed(repoint), x.table.mapped
	if files != x.table.files {
		mapped = ix.Mapped() // every path ix's or a copy
	}
	x.table = &Table{files: files, count: x.table.count, mapped: mapped}
	return x.table
}

// SetContent replaces a file's symbols with those of its unsaved content
// in an editor. They are not cached: the next Refresh of the file reads
// the disk again.
func (x *Indexer) SetContent(ctx context.Context, file string, src []byte) (*Table, error) {
	if LanguageOf(file) == nil {
		return x.Table(), nil
	}
	syms, err := ExtractSource(ctx, file, src, x.opts.MaxBytes)
	if err != nil && err != ErrTooLarge && err != ErrBinary {
		return x.Table(), err
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	x.table = x.table.merged([]string{file}, []Entry{{Size: -1, Symbols: syms}}, []bool{true})
	return x.table, nil
}

// fromCache is what the roots' caches hold of a Sync's files, in their
// order (entries[i] is files[i]'s when ok[i]), and the cached paths no
// longer among them, by root (root-relative).
type fromCache struct {
	entries []Entry
	ok      []bool
	gone    [][]string
}

// refresh brings the entries of files (absolute) up to date, starting
// from the table and, for files it does not hold, cached (in files'
// order; nil when none). With all set, files is every
// supported file of ix and entries of any other file are dropped;
// otherwise only the named files change.
func (x *Indexer) refresh(ctx context.Context, ix *workspace.Index, files []string, cached *fromCache, all bool) (*Table, SyncStats, error) {
	st := SyncStats{Files: len(files)}
	// got[i] is files[i]'s entry in the new table when keep[i].
	got, keep := make([]Entry, len(files)), make([]bool, len(files))
	toParse, gone, del := x.plan(ctx, ix, files, cached, got, keep, all, &st)
	if err := ctx.Err(); err != nil {
		return x.table, st, err // plan stopped part-way
	}
	if !all && len(toParse) == 0 && gone == 0 {
		// Nothing parsed and nothing dropped: the table again (a poll's
		// re-check of files that did not change).
		return x.table, st, nil
	}
	parse := make([]string, len(toParse))
	for k, i := range toParse {
		parse[k] = files[i]
	}
	done := 0
	parsed := make([]bool, len(files)) // files[i] parsed, for the caches
	ExtractFiles(ctx, parse, ExtractOptions{Workers: x.opts.Workers, MaxBytes: x.opts.MaxBytes, Pace: x.opts.Pace}, func(k int, p Parsed) {
		done++
		if x.opts.Progress != nil {
			x.opts.Progress(done, len(toParse))
		}
		i := toParse[k]
		f := files[i]
		if p.Err != nil && p.Err != ErrTooLarge && p.Err != ErrBinary {
			if os.IsNotExist(p.Err) {
				return // not kept
			}
			x.opts.Logf("symbols: %s: %v", f, p.Err)
		}
		got[i], keep[i] = Entry{Size: p.Size, ModTime: p.ModTime, Symbols: p.Symbols}, true
		st.Parsed++
		parsed[i] = true
	})
	if err := ctx.Err(); err != nil {
		return x.table, st, err
	}
	if err := x.saveCaches(ctx, ix, files, got, parsed, del); err != nil {
		return x.table, st, err
	}
	if all {
		x.table = kept(files, got, keep)
		x.table.mapped = ix.Mapped() // files are ix's
	} else {
		x.table = x.table.merged(files, got, keep)
		x.table.mapped = x.table.mapped.With(ix)
	}
	st.Symbols = x.table.count
	return x.table, st, nil
}

// kept is a table of the files kept (got[i] for files[i] when keep[i]),
// made of files and got themselves: the kept are moved to their fronts,
// where a copy of both was as much again at a full pass's peak. The
// caller gives both up.
func kept(files []string, got []Entry, keep []bool) *Table {
	n := 0
	for i, k := range keep {
		if k {
			files[n], got[n] = files[i], got[i]
			n++
		}
	}
	clear(files[n:]) // what left holds nothing alive
	clear(got[n:])
	paths, entries := files[:n:n], got[:n:n]
	t := &Table{files: pathtable.Of(paths, entries)}
	for i := range entries {
		t.count += len(entries[i].Symbols)
	}
	return t
}

// merged is t with files changed: each takes got[i] when keep[i], else
// leaves the table; a file given twice takes its last. It costs the
// files changed and the overlay, not the table (pathtable.Table.With);
// the symbols are counted by what changed.
func (t *Table) merged(files []string, got []Entry, keep []bool) *Table {
	var base *pathtable.Table[Entry]
	var mapped workspace.Mapped
	if t != nil {
		base, mapped = t.files, t.mapped
	}
	count := t.Len()
	next := base.With(files, got, keep, func(was, now *Entry) {
		if was != nil {
			count -= len(was.Symbols)
		}
		if now != nil {
			count += len(now.Symbols)
		}
	})
	return &Table{files: next, count: count, mapped: mapped}
}

// TableOf makes a table from symbols by absolute file path (for callers
// that extract files themselves, and tests).
func TableOf(files map[string][]Symbol) *Table {
	var paths []string
	var entries []Entry
	for f, syms := range files {
		paths, entries = append(paths, f), append(entries, Entry{Size: -1, Symbols: syms})
	}
	return kept(paths, entries, slices.Repeat([]bool{true}, len(paths)))
}

// plan sorts files into those to parse (toParse, their places in files)
// and those whose entry in the table or the cache still holds (got and
// keep set, counted in st.FromCache when from the cache). Files gone from
// the index are not kept (gone: those the table held) and, with all,
// known files no longer indexed leave the cache: del lists them by root.
// It stops part-way once ctx is done (a pass cancelled as its session
// closes does not stat the rest of a large tree).
func (x *Indexer) plan(ctx context.Context, ix *workspace.Index, files []string, cached *fromCache, got []Entry, keep []bool, all bool, st *SyncStats) (toParse []int, gone int, del map[string][]string) {
	known := x.table
	knownOf := known.entry
	sorted := slices.IsSorted(files)
	if sorted {
		knownOf = known.cursor()
	}
	del = map[string][]string{}
	for i, f := range files {
		if i%planBatch == 0 {
			if ctx.Err() != nil {
				return nil, 0, nil
			}
			if x.opts.Pace != nil {
				x.opts.Pace() // a re-check of every file stats them all
			}
		}
		k := knownOf(f)
		if !all && !ix.Has(f) { // with all, files are ix's
			if k != nil {
				gone++
			}
			if root, rel, ok := ix.RootOf(f); ok {
				del[ix.Roots[root]] = append(del[ix.Roots[root]], rel)
			}
			continue
		}
		var e Entry
		ok, fromCache := k != nil, false
		if ok {
			e = *k
		} else if cached != nil && cached.ok[i] {
			e, ok, fromCache = cached.entries[i], true, true
		}
		if ok && e.Size >= 0 {
			if fs := workspace.StatFile(f); fs.OK && fs.Size == e.Size && fs.ModTime == e.ModTime {
				got[i], keep[i] = e, true
				if fromCache {
					st.FromCache++
				}
				continue
			}
		}
		toParse = append(toParse, i)
	}
	if all {
		j := 0
		for k := range known.files.All() {
			if sorted {
				for j < len(files) && files[j] < k {
					j++
				}
				if j < len(files) && files[j] == k {
					continue // still a file of ix
				}
			}
			if !ix.Has(k) {
				if root, rel, ok := ix.RootOf(k); ok {
					del[ix.Roots[root]] = append(del[ix.Roots[root]], rel)
				}
			}
		}
		if cached != nil {
			for r, gone := range cached.gone {
				del[ix.Roots[r]] = append(del[ix.Roots[r]], gone...)
			}
		}
	}
	return toParse, gone, del
}

// planBatch is how many files plan stats between calls to Pace: a short
// stretch of work.
const planBatch = 64

// saveCaches writes each root's new and gone entries to its cache, one
// transaction a root (unless caching is off): the files parsed
// (files[i] when parsed[i]) with their entries (got[i]), in files'
// order, which is each root's paths' own for a full pass. It returns
// ctx's error when ctx ended the saves (SaveSorted); a cache it cannot
// write is logged, not returned: the entries are parsed all the same.
func (x *Indexer) saveCaches(ctx context.Context, ix *workspace.Index, files []string, got []Entry, parsed []bool, del map[string][]string) error {
	if workspace.CachesOff(x.opts.CacheDir) {
		return nil
	}
	// Each root's keys, and where each key's entry lies in got: a save
	// reads the entries there, not from a copy of every one (a full
	// pass's save of a large tree held both at its peak).
	n := make([]int, len(ix.Roots))
	roots := make([]int32, len(files))
	for i, p := range parsed {
		roots[i] = -1
		if p {
			if root, _, ok := ix.RootOf(files[i]); ok {
				roots[i] = int32(root)
				n[root]++
			}
		}
	}
	keys, at := make([][]string, len(ix.Roots)), make([][]int32, len(ix.Roots))
	for r := range ix.Roots {
		keys[r], at[r] = make([]string, 0, n[r]), make([]int32, 0, n[r])
	}
	for i, r := range roots {
		if r >= 0 {
			_, rel, _ := ix.RootOf(files[i])
			keys[r], at[r] = append(keys[r], rel), append(at[r], int32(i))
		}
	}
	for r, root := range ix.Roots {
		c := x.caches[root]
		if c == nil {
			c = OpenCache(x.opts.CacheDir, root, x.opts.Logf)
			x.caches[root] = c
		}
		c.pace = x.opts.Pace
		ks, pos := inOrder(keys[r], at[r])
		if err := c.SaveSorted(ctx, ks, func(i int) *Entry { return &got[pos[i]] }, del[root]); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			x.opts.Logf("symbol cache %s not saved: %v", c.File(), err)
		}
	}
	return nil
}

// inOrder is keys with the positions of their entries, ascending, each
// key once (its last entry): as given when they are (a full pass's, in
// the index's order), else sorted (a refresh's, of paths in any order).
func inOrder(keys []string, at []int32) ([]string, []int32) {
	for i := 1; i < len(keys); i++ {
		if keys[i-1] >= keys[i] {
			last := make(map[string]int32, len(keys))
			for j, k := range keys {
				last[k] = at[j]
			}
			sorted := slices.Sorted(maps.Keys(last))
			pos := make([]int32, len(sorted))
			for j, k := range sorted {
				pos[j] = last[k]
			}
			return sorted, pos
		}
	}
	return keys, at
}
