package symbols

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	bolt "go.etcd.io/bbolt"

	"wayfind/workspace"
)

// Ref is one definition: its file (absolute) and the symbol.
type Ref struct {
	File   string
	Symbol Symbol
}

// Lookup answers where a name is defined straight from the roots' caches,
// reading only the entries of the files filed under that name: what a
// one-shot process (the CLI's locate) needs, at once, where loading
// every file's symbols and indexing them takes far longer. Close it
// when done.
type Lookup struct {
	roots []string
	dbs   []*bolt.DB // by root; nil where a cache could not be opened
}

// ErrNoCache reports an indexer whose cache is off: Lookup needs one.
var ErrNoCache = errors.New("the symbol cache is off")

// Lookup brings each root's cache up to date with ix — files whose size
// or modification time changed, and files new to the cache, are parsed
// and saved; files gone leave it — and opens the caches for lookups. Only
// each entry's size and time are read to decide.
//
// stats are ix's files' stats (workspace.StatFiles), nil to stat here.
func (x *Indexer) Lookup(ctx context.Context, ix *workspace.Index, stats []workspace.FileStat) (*Lookup, SyncStats, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	var st SyncStats
	if workspace.CachesOff(x.opts.CacheDir) {
		return nil, st, ErrNoCache
	}
	var stale []string
	del := map[string][]string{}
	for r, root := range ix.Roots {
		c := x.caches[root]
		if c == nil {
			c = OpenCache(x.opts.CacheDir, root, x.opts.Logf)
			x.caches[root] = c
		}
		heads := c.heads()
		for i, f := range ix.Files() {
			if f.Root != r || LanguageOf(f.Path) == nil {
				continue
			}
			st.Files++
			h, ok := heads[f.Path]
			delete(heads, f.Path)
			abs := ix.AbsAt(i)
			if ok {
				var fs workspace.FileStat
				if stats != nil {
					fs = stats[i]
				} else {
					fs = workspace.StatFile(abs) // as plan checks an entry
				}
				if fs.OK && fs.Size == h.size && fs.ModTime == h.modTime {
					st.FromCache++
					continue
				}
			}
			stale = append(stale, abs)
		}
		for rel := range heads {
			del[root] = append(del[root], rel)
		}
	}
	got, parsed := make([]Entry, len(stale)), make([]bool, len(stale))
	ExtractFiles(ctx, stale, ExtractOptions{Workers: x.opts.Workers, MaxBytes: x.opts.MaxBytes, Pace: x.opts.Pace}, func(i int, p Parsed) {
		if p.Err != nil && p.Err != ErrTooLarge && p.Err != ErrBinary {
			if !os.IsNotExist(p.Err) {
				x.opts.Logf("symbols: %s: %v", stale[i], p.Err)
			}
			return
		}
		st.Parsed++
		got[i], parsed[i] = Entry{Size: p.Size, ModTime: p.ModTime, Symbols: p.Symbols}, true
	})
	if err := ctx.Err(); err != nil {
		return nil, st, err
	}
	if err := x.saveCaches(ctx, ix, stale, got, parsed, del); err != nil {
		return nil, st, err
	}
	l := &Lookup{roots: ix.Roots, dbs: make([]*bolt.DB, len(ix.Roots))}
	for r, root := range ix.Roots {
		c := x.caches[root]
		err := c.guard(func() error {
			db, err := bolt.Open(c.file, 0o600, &bolt.Options{Timeout: lockWait, ReadOnly: true})
			l.dbs[r] = db
			return err
		})
		if err != nil {
			x.opts.Logf("symbol cache %s: %v", c.file, err)
			l.dbs[r] = nil
		}
	}
	return l, st, nil
}

// head is what decides whether a cached entry still holds.
type head struct {
	size, modTime int64
}

// heads reads every entry's size and time (not its symbols); empty when
// the cache is missing, held or of another version.
func (c *Cache) heads() map[string]head {
	out := map[string]head{}
	err := c.eachEntry(func(k, v []byte) error {
		d := decoder{b: v}
		if h := (head{size: int64(d.uvarint()), modTime: d.varint()}); d.err == nil {
			out[string(k)] = h
		}
		return nil
	})
	if err != nil {
		c.logf("symbol cache %s not read (%v)", c.file, err)
		return map[string]head{}
	}
	return out
}

// Named returns the definitions filed under key (a NameKey).
func (l *Lookup) Named(key string) []Ref {
	return l.find(bucketNames, key, func(s *Symbol) bool { return s.NameKey() == key })
}

// Members returns the members of the types filed under key (a
// ContainerKey).
func (l *Lookup) Members(key string) []Ref {
	return l.find(bucketMembers, key, func(s *Symbol) bool { return s.ContainerKey() == key })
}

func (l *Lookup) find(bucket []byte, key string, keep func(*Symbol) bool) []Ref {
	var out []Ref
	if key == "" {
		return nil
	}
	for r, db := range l.dbs {
		if db == nil {
			continue
		}
		_ = db.View(func(tx *bolt.Tx) error {
			b, files := tx.Bucket(bucket), tx.Bucket(bucketFiles)
			if b == nil || files == nil {
				return nil
			}
			for _, rel := range decodePaths(b.Get([]byte(key))) {
				e, err := decodeEntry(files.Get([]byte(rel)))
				if err != nil {
					continue
				}
				for i := range e.Symbols {
					if keep(&e.Symbols[i]) {
						out = append(out, Ref{File: filepath.Join(l.roots[r], filepath.FromSlash(rel)), Symbol: e.Symbols[i]})
					}
				}
			}
			return nil
		})
	}
	return out
}

// Close releases the caches.
func (l *Lookup) Close() {
	for _, db := range l.dbs {
		if db != nil {
			db.Close()
		}
	}
}
