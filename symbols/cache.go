package symbols

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
	"unsafe"

	bolt "go.etcd.io/bbolt"

	"wayfind/segment"
	"wayfind/workspace"
)

// cacheVersion changes whenever the encoding or what extraction produces
// changes; a cache of another version is discarded. The query files are
// hashed in as well, so editing a query invalidates old caches by itself.
const cacheVersion = 2 // 2: the names and members buckets

var (
	bucketMeta  = []byte("meta")
	bucketFiles = []byte("files")
	keyVersion  = []byte("version")
	// bucketNames files the paths defining a name under its NameKey, and
	// bucketMembers the paths defining members of a type under its
	// ContainerKey: where Lookup finds a name without reading every entry.
	bucketNames   = []byte("names")
	bucketMembers = []byte("members")
)

// lockWait bounds how long a cache waits for another wayfind process that
// holds it (bbolt takes a file lock); past it, this process goes on
// without the cache rather than block.
const lockWait = 3 * time.Second

// Entry is one file's cached symbols, valid while the file keeps its size
// and modification time.
type Entry struct {
	Size    int64
	ModTime int64 // UnixNano
	Symbols []Symbol
}

// Cache is the on-disk symbol cache of one workspace root: a bbolt file
// under the user cache directory, keyed by the root's path. bbolt makes
// every write one atomic transaction and locks the file, so a crash leaves
// the previous state and two servers on one root take turns.
type Cache struct {
	file string
	logf func(string, ...any)
	// pace, when set (the indexer's Pace), is called between a save's
	// transactions: a save gives way to requests as the pass that made
	// it does, and a server's pace drops the pages the save read (the
	// saved index's, by the paths it keys).
	pace func()
}

// OpenCache returns the cache of root under dir (a directory per root,
// named by a hash of the root's path). Nothing is read until Load.
func OpenCache(dir, root string, logf func(string, ...any)) *Cache {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	return &Cache{file: filepath.Join(workspace.RootCacheDir(dir, root), "symbols.db"), logf: logf}
}

// File is the cache's path.
func (c *Cache) File() string { return c.file }

// version is what a cache must carry to be read.
var version = func() []byte {
	h := sha256.New()
	fmt.Fprintf(h, "wayfind symbols cache %d\n", cacheVersion)
	ents, _ := queryFiles.ReadDir("queries")
	for _, e := range ents {
		b, _ := queryFiles.ReadFile("queries/" + e.Name())
		h.Write([]byte(e.Name()))
		h.Write(b)
	}
	return h.Sum(nil)
}()

// errStale marks a cache written by another version.
var errStale = errors.New("cache written by another version")

// Load reads the entries of rels (root-relative paths, ascending as the
// index holds them) into entries and ok, as long as rels: entries[i] is
// rels[i]'s when ok[i]; gone are the cached paths not among rels. The
// cache's keys come in the same order, so the two are merged in one pass
// and no key is copied but those gone (a map of every cached path held
// a copy of every key at once). A missing cache is empty; an unreadable,
// corrupt or other-version one is deleted (and rebuilt by the next Save)
// with a log line. A cache held by another process past lockWait is
// skipped for now.
func (c *Cache) Load(rels []string, entries []Entry, ok []bool) (gone []string) {
	order := make([]int, len(rels)) // rels' places, ascending by path
	for i := range order {
		order[i] = i
	}
	if !slices.IsSorted(rels) {
		slices.SortFunc(order, func(a, b int) int { return strings.Compare(rels[a], rels[b]) })
	}
	j := 0
	err := c.eachEntry(func(k, v []byte) error {
		for j < len(order) && rels[order[j]] < string(k) {
			j++
		}
		if j == len(order) || rels[order[j]] != string(k) {
			gone = append(gone, string(k))
			return nil
		}
		e, err := decodeEntry(v)
		if err != nil {
			return fmt.Errorf("entry %q: %w", k, err)
		}
		entries[order[j]], ok[order[j]] = e, true
		j++
		return nil
	})
	switch {
	case err == nil:
		return gone
	case errors.Is(err, bolt.ErrTimeout):
		c.logf("symbol cache %s is held by another wayfind; indexing without it", c.file)
	default:
		c.logf("symbol cache %s discarded (%v); rebuilding", c.file, err)
		c.remove()
	}
	clear(entries)
	clear(ok)
	return nil
}

// eachEntry calls fn with every entry's key and encoding (valid only
// during the call), in a read-only transaction; a missing cache has none,
// one of another version is errStale.
func (c *Cache) eachEntry(fn func(k, v []byte) error) error {
	st, err := os.Stat(c.file)
	if err != nil {
		return nil
	}
	return c.guard(func() error {
		db, err := bolt.Open(c.file, 0o600, &bolt.Options{Timeout: lockWait, ReadOnly: true})
		if err != nil {
			return err
		}
		defer db.Close()
		return db.View(func(tx *bolt.Tx) error {
			meta, files := tx.Bucket(bucketMeta), tx.Bucket(bucketFiles)
			if meta == nil || files == nil || string(meta.Get(keyVersion)) != string(version) {
				return errStale
			}
			n := 0
			return files.ForEach(func(k, v []byte) error {
				if n++; n%releaseEvery == 0 {
					releaseRead(db, st.Size(), k)
				}
				return fn(k, v)
			})
		})
	})
}

// releaseEvery is how many entries a scan of the cache reads between
// drops of the pages read (releaseRead): entries are small, so a few
// megabytes at a time.
const releaseEvery = 1 << 14

// releaseRead drops the pages of db's mapping of its file (size bytes)
// from the process: bbolt maps the whole file and a scan of every entry
// made all of it resident at once, beside the index's pages and the
// passes' heap, at the peak of a warm start.
// k is a key just read: a read-only transaction's keys lie in the
// mapping, which is found from it (bbolt gives its start only as a
// number). Read again, a page comes back from the page cache. It
// reports whether k lay in the mapping (else nothing is dropped).
func releaseRead(db *bolt.DB, size int64, k []byte) bool {
	p := unsafe.Pointer(unsafe.SliceData(k))
	start := db.Info().Data
	off := uintptr(p) - start
	if uintptr(p) < start || off >= uintptr(size) {
		return false
	}
	segment.ReleaseMapped(unsafe.Slice((*byte)(unsafe.Add(p, -int(off))), size))
	return true
}

// Save writes put and deletes del, saveBatch entries a transaction.
func (c *Cache) Save(put map[string]Entry, del []string) error {
	keys := slices.Sorted(maps.Keys(put))
	return c.SaveSorted(context.Background(), keys, func(i int) *Entry {
		e := put[keys[i]]
		return &e
	}, del)
}

// EntryAt is the entry of a save's i-th key. A save reads its entries
// where their indexer holds them, a transaction's worth at a time,
// rather than from a copy of them all.
type EntryAt func(i int) *Entry

// SaveSorted is Save of keys (ascending, distinct) with their entries:
// what an indexer has in order already, without a map of every entry
// and a sort of their paths (a cold pass's save of every entry held
// both at its peak). It stops between transactions once ctx is done (a
// pass a reindex replaced does not hold its entries beside the next
// walk while they are written), returning ctx's error: what it wrote
// stands (each entry stands alone: saveBatch).
func (c *Cache) SaveSorted(ctx context.Context, keys []string, entry EntryAt, del []string) error {
	if len(keys) == 0 && len(del) == 0 {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(c.file), 0o700); err != nil {
		return err
	}
	err := c.guard(func() error { return c.save(ctx, keys, entry, del) })
	if err != nil && !errors.Is(err, bolt.ErrTimeout) && ctx.Err() == nil {
		// A file bbolt cannot open or write is replaced, once.
		c.logf("symbol cache %s unusable (%v); recreating", c.file, err)
		c.remove()
		err = c.guard(func() error { return c.save(ctx, keys, entry, del) })
	}
	return err
}

// save writes keys in order: bbolt inserts into one in-memory node per
// leaf until commit, so keys out of order shift that node's entries on
// every put — quadratic in a first save of a large tree.
func (c *Cache) save(ctx context.Context, keys []string, entry EntryAt, del []string) error {
	db, err := bolt.Open(c.file, 0o600, &bolt.Options{Timeout: lockWait, InitialMmapSize: mmapFor(c.file, keys, entry)})
	if err != nil {
		return err
	}
	defer db.Close()
	first := true
	for from := 0; from < len(keys) || first; {
		if c.pace != nil {
			c.pace()
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		n := min(len(keys)-from, saveBatch)
		batch, at := keys[from:from+n], func(i int) *Entry { return entry(from + i) }
		if err := db.Update(func(tx *bolt.Tx) error { return saveBatchTx(tx, batch, at, del, first) }); err != nil {
			return err
		}
		from += n
		first, del = false, nil
	}
	return nil
}

// saveBatch is how many entries one transaction of a save writes: bbolt
// holds every page a transaction touches, and a copy of every key and
// value put, until it commits — for the first save of a large tree's
// entries in one, the largest part of a cold start's peak.
// Each entry stands alone (its stats say whether it is current), so a
// save cut short by a crash leaves a smaller cache, not a wrong one.
var saveBatch = 1 << 16 // a variable for tests

// saveBatchTx writes keys with their entries and, in the first
// transaction of a save, deletes del, with the name and member buckets'
// links of those files.
func saveBatchTx(tx *bolt.Tx, keys []string, entry EntryAt, del []string, first bool) error {
	meta, err := tx.CreateBucketIfNotExists(bucketMeta)
	if err != nil {
		return err
	}
	if first && string(meta.Get(keyVersion)) != string(version) {
		// First write, or another version's data: start over.
		for _, b := range [][]byte{bucketFiles, bucketNames, bucketMembers} {
			if tx.Bucket(b) != nil {
				if err := tx.DeleteBucket(b); err != nil {
					return err
				}
			}
		}
		if err := meta.Put(keyVersion, version); err != nil {
			return err
		}
	}
	files, err := tx.CreateBucketIfNotExists(bucketFiles)
	if err != nil {
		return err
	}
	links := newLinks()
	// The names a file defined before leave with its old entry.
	unlink := func(k string) {
		if old := files.Get([]byte(k)); old != nil {
			if e, err := decodeEntry(old); err == nil {
				links.file(k, e.Symbols, false)
			}
		}
	}
	for _, k := range slices.Sorted(slices.Values(del)) {
		unlink(k)
		if err := files.Delete([]byte(k)); err != nil {
			return err
		}
	}
	for i, k := range keys {
		e := entry(i)
		unlink(k)
		links.file(k, e.Symbols, true)
		// A fresh buffer each: bbolt keeps the slice until commit.
		if err := files.Put([]byte(k), encodeEntry(nil, *e)); err != nil {
			return err
		}
	}
	return links.apply(tx)
}

// mmapFor is the mapping a save of keys (with entries) into file starts
// with: room for what the file holds and thrice what they add (the tree's pages are half
// full and more; the name buckets list each path again). bbolt maps the
// file anew whenever it outgrows the mapping, and first copies every
// page the transaction has touched off the old one: a first save of a
// large tree did that over and over, allocating far more and taking
// longer than with the file mapped once. The mapping is address space
// only.
func mmapFor(file string, keys []string, entry EntryAt) int {
	n := 0
	if fi, err := os.Stat(file); err == nil {
		n = int(fi.Size())
	}
	add := 0
	for i, k := range keys {
		e := entry(i)
		add += len(k) + 32 // the key, its stats and the count of symbols
		for i := range e.Symbols {
			// Its encoding, and the path again under its name.
			add += len(e.Symbols[i].Name) + len(e.Symbols[i].Container) + 24 + len(k)
		}
	}
	return n + 3*add
}

// links are the changes to the name and member buckets of one save: per
// bucket and key, the paths to add (true) or remove (false), applied
// once a key however many files change it.
type links map[string]map[string]map[string]bool

func newLinks() links {
	return links{string(bucketNames): {}, string(bucketMembers): {}}
}

// file records that file defines (add) or no longer defines syms' names.
func (l links) file(file string, syms []Symbol, add bool) {
	for i := range syms {
		l.set(bucketNames, syms[i].NameKey(), file, add)
		if c := syms[i].ContainerKey(); c != "" {
			l.set(bucketMembers, c, file, add)
		}
	}
}

func (l links) set(bucket []byte, key, file string, add bool) {
	if key == "" {
		return // bbolt keys cannot be empty; nothing is filed under no name
	}
	m := l[string(bucket)]
	if m[key] == nil {
		m[key] = map[string]bool{}
	}
	// An add wins over a remove of the same file (a changed file that
	// keeps the name); removes come first within one save.
	if add || !m[key][file] {
		m[key][file] = add
	}
}

func (l links) apply(tx *bolt.Tx) error {
	for _, name := range [][]byte{bucketNames, bucketMembers} {
		b, err := tx.CreateBucketIfNotExists(name)
		if err != nil {
			return err
		}
		for _, key := range slices.Sorted(maps.Keys(l[string(name)])) { // in order, as in save
			change := l[string(name)][key]
			set := map[string]bool{}
			for _, f := range decodePaths(b.Get([]byte(key))) {
				set[f] = true
			}
			for f, add := range change {
				if add {
					set[f] = true
				} else {
					delete(set, f)
				}
			}
			if len(set) == 0 {
				err = b.Delete([]byte(key))
			} else {
				err = b.Put([]byte(key), encodePaths(set))
			}
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// encodePaths writes a set of paths sorted, each length-prefixed.
func encodePaths(set map[string]bool) []byte {
	paths := make([]string, 0, len(set))
	for p := range set {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var b []byte
	for _, p := range paths {
		b = appendString(b, p)
	}
	return b
}

func decodePaths(b []byte) []string {
	var out []string
	d := decoder{b: b}
	for len(d.b) > 0 && d.err == nil {
		out = append(out, d.string())
	}
	return out
}

// guard reads or writes the cache under workspace.GuardMapped: a corrupt
// file is an error, never a crash.
func (c *Cache) guard(f func() error) error { return workspace.GuardMapped(f) }

func (c *Cache) remove() {
	if err := os.Remove(c.file); err != nil && !os.IsNotExist(err) {
		c.logf("cannot remove symbol cache %s: %v", c.file, err)
	}
}

// The entry encoding: uvarint size, varint mtime, uvarint count, then per
// symbol the name and container (uvarint length + bytes), the kind, and
// the two ranges as eight uvarints.
func encodeEntry(b []byte, e Entry) []byte {
	b = binary.AppendUvarint(b, uint64(e.Size))
	b = binary.AppendVarint(b, e.ModTime)
	b = binary.AppendUvarint(b, uint64(len(e.Symbols)))
	for i := range e.Symbols {
		s := &e.Symbols[i]
		b = appendString(b, s.Name)
		b = appendString(b, s.Container)
		b = append(b, byte(s.Kind))
		for _, v := range [...]uint32{
			s.Range.Start.Line, s.Range.Start.Col, s.Range.End.Line, s.Range.End.Col,
			s.Select.Start.Line, s.Select.Start.Col, s.Select.End.Line, s.Select.End.Col,
		} {
			b = binary.AppendUvarint(b, uint64(v))
		}
	}
	return b
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

var errShort = errors.New("truncated entry")

func decodeEntry(b []byte) (Entry, error) {
	d := decoder{b: b}
	e := Entry{Size: int64(d.uvarint()), ModTime: d.varint()}
	n := d.uvarint()
	if d.err != nil || n > uint64(len(b)) {
		return e, errShort
	}
	e.Symbols = make([]Symbol, n)
	for i := range e.Symbols {
		s := &e.Symbols[i]
		s.Name = d.string()
		s.Container = d.string()
		s.Kind = Kind(d.byte())
		for _, p := range [...]*uint32{
			&s.Range.Start.Line, &s.Range.Start.Col, &s.Range.End.Line, &s.Range.End.Col,
			&s.Select.Start.Line, &s.Select.Start.Col, &s.Select.End.Line, &s.Select.End.Col,
		} {
			*p = uint32(d.uvarint())
		}
	}
	if d.err != nil || len(d.b) != 0 {
		return e, errShort
	}
	return e, nil
}

type decoder struct {
	b   []byte
	err error
}

// advance moves past n bytes, or marks the entry truncated when a varint
// could not be read (n ≤ 0).
func (d *decoder) advance(n int) bool {
	if n <= 0 {
		d.err, d.b = errShort, nil
		return false
	}
	d.b = d.b[n:]
	return true
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if !d.advance(n) {
		return 0
	}
	return v
}

func (d *decoder) varint() int64 {
	v, n := binary.Varint(d.b)
	if !d.advance(n) {
		return 0
	}
	return v
}

func (d *decoder) byte() byte {
	if len(d.b) == 0 {
		d.err = errShort
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *decoder) string() string {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.err = errShort
		d.b = nil
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}
