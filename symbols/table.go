package symbols

import (
	"context"
	"os"
	"sync"

	"wayfind/workspace"
)

// Table is an immutable snapshot of a workspace's symbols, by file.
type Table struct {
	// files: absolute path → its symbols, the entries by value: a
	// million files' entries were a million small objects for the
	// collector to mark, most of them without a symbol.
	files map[string]Entry
	count int
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
	if t == nil {
		return nil, false
	}
	e, ok := t.files[file]
	if !ok {
		return nil, false
	}
	return e.Symbols, true
}

// Each calls f for every file with symbols, in no set order.
func (t *Table) Each(f func(file string, syms []Symbol)) {
	if t == nil {
		return
	}
	for k, e := range t.files {
		if len(e.Symbols) > 0 {
			f(k, e.Symbols)
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
	return &Indexer{opts: opts, table: &Table{files: map[string]Entry{}}, caches: map[string]*Cache{}}
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
	var files []string
	for i, f := range ix.Files {
		if LanguageOf(f.Path) != nil {
			files = append(files, ix.AbsAt(i))
		}
	}
	// Each root's cache, loaded once, by root-relative path: what plan
	// finds of a file neither the table knows (not a second map of
	// every cached file by absolute path); nil when no cache holds any,
	// so that plan does not place every file in its root for nothing.
	var cached []map[string]Entry
	for r, root := range ix.Roots {
		if x.opts.CacheDir == "-" || x.caches[root] != nil {
			continue
		}
		c := OpenCache(x.opts.CacheDir, root, x.opts.Logf)
		x.caches[root] = c
		if loaded := c.Load(); len(loaded) > 0 {
			if cached == nil {
				cached = make([]map[string]Entry, len(ix.Roots))
			}
			cached[r] = loaded
		}
	}
	return x.refresh(ctx, ix, files, x.table.files, cached, true)
}

// Refresh re-checks paths (absolute files or directories that changed,
// appeared or vanished) against ix and returns the new table.
func (x *Indexer) Refresh(ctx context.Context, ix *workspace.Index, paths []string) (*Table, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	known := make([]string, 0, len(x.table.files))
	for abs := range x.table.files {
		known = append(known, abs)
	}
	files := workspace.Affected(ix, paths, known, func(rel string) bool { return LanguageOf(rel) != nil })
	next, _, err := x.refresh(ctx, ix, files, x.table.files, nil, false)
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
	x.table = &Table{files: map[string]Entry{}}
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
	files := cloneFiles(x.table.files)
	files[file] = Entry{Size: -1, Symbols: syms}
	x.table = newTable(files)
	return x.table, nil
}

// refresh brings the entries of files (absolute) up to date, starting
// from known and, for files it does not hold, cached (by root, then
// root-relative path; nil when none). With all set, files is every
// supported file of ix and entries of any other file are dropped;
// otherwise only the named files change.
func (x *Indexer) refresh(ctx context.Context, ix *workspace.Index, files []string, known map[string]Entry, cached []map[string]Entry, all bool) (*Table, SyncStats, error) {
	st := SyncStats{Files: len(files)}
	next := make(map[string]Entry, len(known))
	if !all {
		for k, v := range known {
			next[k] = v
		}
	}
	put := map[string]map[string]Entry{} // root → rel → entry, for the caches
	toParse, del := x.plan(ix, files, known, cached, next, all, &st)
	if !all && len(toParse) == 0 && len(next) == len(known) {
		// Nothing parsed and nothing dropped: next is known again (a
		// poll's re-check of files that did not change).
		return x.table, st, nil
	}
	done := 0
	ExtractFiles(ctx, toParse, ExtractOptions{Workers: x.opts.Workers, MaxBytes: x.opts.MaxBytes, Pace: x.opts.Pace}, func(i int, p Parsed) {
		done++
		if x.opts.Progress != nil {
			x.opts.Progress(done, len(toParse))
		}
		f := toParse[i]
		if p.Err != nil && p.Err != ErrTooLarge && p.Err != ErrBinary {
			if os.IsNotExist(p.Err) {
				delete(next, f)
				return
			}
			x.opts.Logf("symbols: %s: %v", f, p.Err)
		}
		e := Entry{Size: p.Size, ModTime: p.ModTime, Symbols: p.Symbols}
		next[f] = e
		st.Parsed++
		if root, rel, ok := ix.RootOf(f); ok {
			r := ix.Roots[root]
			if put[r] == nil {
				put[r] = map[string]Entry{}
			}
			put[r][rel] = e
		}
	})
	if err := ctx.Err(); err != nil {
		return x.table, st, err
	}
	x.saveCaches(ix, put, del)
	x.table = newTable(next)
	st.Symbols = x.table.count
	return x.table, st, nil
}

func newTable(files map[string]Entry) *Table {
	t := &Table{files: files}
	for _, e := range files {
		t.count += len(e.Symbols)
	}
	return t
}

func cloneFiles(m map[string]Entry) map[string]Entry {
	out := make(map[string]Entry, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}

// TableOf makes a table from symbols by absolute file path (for callers
// that extract files themselves, and tests).
func TableOf(files map[string][]Symbol) *Table {
	m := make(map[string]Entry, len(files))
	for f, syms := range files {
		m[f] = Entry{Size: -1, Symbols: syms}
	}
	return newTable(m)
}

// plan sorts files into those to parse and those whose known or cached
// entry still holds (kept in next, counted in st.FromCache when from the
// cache); files gone from the index leave next and, with all, known files
// no longer indexed leave the cache: del lists them by root.
func (x *Indexer) plan(ix *workspace.Index, files []string, known map[string]Entry, cached []map[string]Entry, next map[string]Entry, all bool, st *SyncStats) (toParse []string, del map[string][]string) {
	del = map[string][]string{}
	for i, f := range files {
		if x.opts.Pace != nil && i%planBatch == 0 {
			x.opts.Pace() // a re-check of every file stats a million at 1M
		}
		if !all && !ix.Has(f) { // with all, files are ix's
			delete(next, f)
			if root, rel, ok := ix.RootOf(f); ok {
				del[ix.Roots[root]] = append(del[ix.Roots[root]], rel)
			}
			continue
		}
		e, ok := known[f]
		fromCache := false
		if !ok && cached != nil {
			if root, rel, in := ix.RootOf(f); in && cached[root] != nil {
				e, ok = cached[root][rel]
				fromCache = ok
			}
		}
		if ok && e.Size >= 0 {
			if fi, err := os.Stat(f); err == nil && fi.Size() == e.Size && fi.ModTime().UnixNano() == e.ModTime {
				next[f] = e
				if fromCache {
					st.FromCache++
				}
				continue
			}
		}
		toParse = append(toParse, f)
	}
	if all {
		for k := range known {
			if _, kept := next[k]; !kept && !ix.Has(k) {
				if root, rel, ok := ix.RootOf(k); ok {
					del[ix.Roots[root]] = append(del[ix.Roots[root]], rel)
				}
			}
		}
		for r, m := range cached {
			for rel := range m {
				if ix.Lookup(r, rel) < 0 {
					del[ix.Roots[r]] = append(del[ix.Roots[r]], rel)
				}
			}
		}
	}
	return toParse, del
}

// planBatch is how many files plan stats between calls to Pace: tens of
// microseconds of work.
const planBatch = 64

// saveCaches writes each root's new and gone entries to its cache, one
// transaction a root (unless caching is off).
func (x *Indexer) saveCaches(ix *workspace.Index, put map[string]map[string]Entry, del map[string][]string) {
	if x.opts.CacheDir == "-" {
		return
	}
	for _, root := range ix.Roots {
		c := x.caches[root]
		if c == nil {
			c = OpenCache(x.opts.CacheDir, root, x.opts.Logf)
			x.caches[root] = c
		}
		if err := c.Save(put[root], del[root]); err != nil {
			x.opts.Logf("symbol cache %s not saved: %v", c.File(), err)
		}
	}
}
