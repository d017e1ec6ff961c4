package history

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"wayfind/workspace"
)

// Defaults.
const (
	// DefaultLimit bounds the files remembered per root: ten thousand is
	// more than anyone visits in months, and costs about a megabyte.
	DefaultLimit = 10000
	// flushDelay: visits reach the disk this long after the first one
	// not yet written — often enough that a crash loses seconds of
	// history, seldom enough that switching tabs never waits on a write.
	flushDelay = 2 * time.Second
	// lockWait bounds how long a write waits for another wayfind process
	// holding the file (bbolt locks it); past it the visits stay pending
	// for the next flush.
	lockWait = time.Second
	// topRefresh: how old the ranked list may grow before it is computed
	// again from every entry. Between refreshes a visit updates it in
	// place; only decay reorders the rest, and decay is slow.
	topRefresh = 30 * time.Second
	// topSize: the files the ranked list keeps, more than any question
	// uses (rank weighs the first few dozen).
	topSize = 256
)

// fileVersion changes whenever the encoding does; a file of another
// version is discarded.
const fileVersion = "wayfind history 1"

var (
	bucketMeta   = []byte("meta")
	bucketVisits = []byte("visits")
	// bucketPersons: each file's latest visit by a person (entry.person,
	// 8 bytes), beside its weights so that a wayfind from before it was
	// kept reads the file as it was.
	bucketPersons = []byte("persons")
	keyVersion    = []byte("version")
)

// Options configure a Store.
type Options struct {
	// CacheDir is the cache directory (workspace.CacheDirOf); "" or "-"
	// keeps the history in memory only.
	CacheDir string
	// Limit bounds the files remembered per root; 0 means DefaultLimit.
	Limit int
	Logf  func(format string, args ...any)
	// Now is the clock (tests, the replay benchmark); nil means time.Now.
	Now func() time.Time
}

// Visit is a remembered file.
type Visit struct {
	Root, Rel string // the root, and the file's path inside it ('/'-separated)
	Weight    float64
	Last      time.Time
	// Person is when a person (open, focus) last visited it; zero when
	// only agents have read it.
	Person time.Time
}

// Path is the visited file's absolute path.
func (v Visit) Path() string { return filepath.Join(v.Root, filepath.FromSlash(v.Rel)) }

// Store is the history of every root of a workspace. It is safe for
// concurrent use.
type Store struct {
	opts Options

	mu     sync.Mutex
	roots  map[string]*rootLog
	timer  *time.Timer
	closed bool
	top    []Visit // the ranked list, best first (Frecent)
	// current is the last file a person (not an agent) opened or switched
	// to, in this process: where they are (Current).
	current Visit
	topAt   int64 // when top was computed, UnixNano; 0: compute again
	flushMu sync.Mutex
}

// rootLog is one root's history: what is known (entries, which includes
// pending visits) and what the file has not seen yet.
type rootLog struct {
	at      place // where its visits are kept (no file when nothing persists)
	entries map[string]entry
	pending map[string]entry // visits since the last flush, folded
	gone    map[string]bool  // files pruned since the last flush
	// stamp is the file's modification time when this process last read
	// or wrote it: another time means another process wrote since.
	stamp time.Time
}

// New returns a store with no roots; SetRoots gives it some.
func New(opts Options) *Store {
	if opts.Limit <= 0 {
		opts.Limit = DefaultLimit
	}
	if opts.Logf == nil {
		opts.Logf = func(string, ...any) {}
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Store{opts: opts, roots: map[string]*rootLog{}}
}

func (s *Store) persists() bool { return !workspace.CachesOff(s.opts.CacheDir) }

// File is where root's history is kept ("" in memory only).
func (s *Store) File(root string) string { return s.place(root).file }

// place is where root's visits are kept (no file in memory only).
func (s *Store) place(root string) place {
	if !s.persists() {
		return place{}
	}
	return placeOf(s.opts.CacheDir, root)
}

// place is where a root's visits are kept: the history file of the
// project the root is in (workspace.ProjectOf), under the root's path
// from there (prefix: "" for the project itself, else "dir/"). One file a
// project, whatever root a front end opened inside it: an agent's hook
// notes into the repository its harness names while the MCP server beside
// it searches the directory the session started in, and each hears the
// other.
type place struct{ file, prefix string }

// placeOf is root's place under the cache directory cacheDir.
func placeOf(cacheDir, root string) place {
	project := workspace.ProjectOf(root)
	pl := place{file: filepath.Join(workspace.RootCacheDir(cacheDir, project), "history.db")}
	if rel, err := filepath.Rel(project, root); err == nil && rel != "." && filepath.IsLocal(rel) {
		pl.prefix = filepath.ToSlash(rel) + "/"
	}
	return pl
}

// inFile is of (the root's files, by their paths in the root) by their
// paths in the file.
func inFile[V any](p place, of map[string]V) map[string]V {
	if p.prefix == "" {
		return of
	}
	out := make(map[string]V, len(of))
	for rel, v := range of {
		out[p.prefix+rel] = v
	}
	return out
}

// ofRoot is what the file holds (all, by their paths in the file) of the
// root's files, by their paths in the root.
func (p place) ofRoot(all map[string]entry) map[string]entry {
	if p.prefix == "" {
		return all
	}
	out := map[string]entry{}
	for rel, e := range all {
		if r, ok := strings.CutPrefix(rel, p.prefix); ok {
			out[r] = e
		}
	}
	return out
}

// SetRoots makes roots the workspace's: a new root's history is read from
// its file, a root no longer there is written out and forgotten.
func (s *Store) SetRoots(roots []string) {
	_ = s.Flush()
	s.mu.Lock()
	defer s.mu.Unlock()
	keep := map[string]*rootLog{}
	for _, r := range roots {
		if l, ok := s.roots[r]; ok {
			keep[r] = l
			continue
		}
		l := &rootLog{at: s.place(r), pending: map[string]entry{}, gone: map[string]bool{}}
		l.entries, l.stamp = l.at.ofRoot(s.load(l.at.file)), modTime(l.at.file)
		keep[r] = l
	}
	s.roots = keep
	s.topAt = 0
}

// Visit records a visit to rel inside root, now. A root the store does
// not hold is ignored: nothing outside the workspace is remembered.
func (s *Store) Visit(root, rel string, why Reason) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, ok := s.roots[root]
	if !ok || rel == "" || s.closed {
		return
	}
	now := s.opts.Now().UnixNano()
	e := l.entries[rel].add(now, why)
	l.entries[rel] = e
	l.pending[rel] = l.pending[rel].add(now, why)
	delete(l.gone, rel)
	v := e.visit(root, rel, now)
	s.updateTop(v, now)
	if why != Agent {
		s.current = v
	}
	if l.at.file != "" {
		s.scheduleFlush()
	}
}

// scheduleFlush writes what is pending flushDelay from now, unless a write
// is scheduled already or the store is closed. s.mu is held.
func (s *Store) scheduleFlush() {
	if s.timer != nil || s.closed {
		return
	}
	s.timer = time.AfterFunc(flushDelay, func() {
		if err := s.Flush(); err != nil {
			s.opts.Logf("history: %v", err)
		}
	})
}

// adopt makes entries (what the file holds of the root's files) the
// root's, with what this process visited or pruned since and has not
// written yet on top.
func (l *rootLog) adopt(entries map[string]entry, stamp time.Time) {
	for rel, e := range l.pending {
		entries[rel] = mergeEntries(entries[rel], e)
	}
	for rel := range l.gone {
		delete(entries, rel)
	}
	l.entries, l.stamp = entries, stamp
}

// updateTop puts v in the ranked list in place, when the list is fresh.
func (s *Store) updateTop(v Visit, now int64) {
	if s.topAt == 0 || now-s.topAt > int64(topRefresh) {
		s.topAt = 0
		return
	}
	i := slices.IndexFunc(s.top, func(t Visit) bool { return t.Root == v.Root && t.Rel == v.Rel })
	if i >= 0 {
		s.top = slices.Delete(s.top, i, i+1)
	}
	j := sort.Search(len(s.top), func(k int) bool { return s.top[k].Weight < v.Weight })
	s.top = slices.Insert(s.top, j, v)
	if len(s.top) > topSize {
		s.top = s.top[:topSize]
	}
}

// Frecent returns up to n remembered files, highest frecency first.
func (s *Store) Frecent(n int) []Visit {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.opts.Now().UnixNano()
	if s.reread() || s.topAt == 0 || now-s.topAt > int64(topRefresh) {
		s.top = s.rank(now, func(v Visit) (float64, bool) { return v.Weight, true }, topSize)
		s.topAt = now
	}
	return slices.Clone(s.top[:min(n, len(s.top))])
}

// reread takes in what other processes on the same roots wrote since this
// one last read or wrote — an agent's hook (Note) or MCP server beside
// the editor's — and says whether any did. It costs a stat a root, so
// every question asks it: the read an agent's hook noted a moment ago
// orders the agent's next question. s.mu is held.
func (s *Store) reread() bool {
	changed := false
	for _, l := range s.roots {
		if l.at.file == "" {
			continue
		}
		if t := modTime(l.at.file); !t.Equal(l.stamp) {
			l.adopt(l.at.ofRoot(s.load(l.at.file)), t)
			changed = true
		}
	}
	return changed
}

// modTime is a file's modification time (zero when it is missing).
func modTime(file string) time.Time {
	if file == "" {
		return time.Time{}
	}
	st, err := os.Stat(file)
	if err != nil {
		return time.Time{}
	}
	return st.ModTime()
}

// Current is the file a person last opened or switched to, if that was
// within the working set's time (currentWithin) and the file is still
// remembered: where they are, for a request that does not say (a plain
// LSP client reports focus but sends no current file). An agent's reads
// are not where a person is.
func (s *Store) Current() (Visit, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v := s.current
	if v.Rel == "" || s.opts.Now().Sub(v.Last) > currentWithin {
		return Visit{}, false
	}
	l, ok := s.roots[v.Root]
	if !ok {
		return Visit{}, false
	}
	if _, ok := l.entries[v.Rel]; !ok {
		return Visit{}, false
	}
	return v, true
}

// Recent returns up to n remembered files, most recently visited first:
// by a person (open, focus) — an agent reading beside them does not push
// a person's recent files out — or, with agents, by anyone, an agent's
// reads included (what an agent's own front end lists it).
func (s *Store) Recent(n int, agents bool) []Visit {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.reread() {
		s.topAt = 0
	}
	return s.rank(s.opts.Now().UnixNano(), func(v Visit) (float64, bool) {
		if agents {
			return float64(v.Last.UnixNano()), true
		}
		return float64(v.Person.UnixNano()), !v.Person.IsZero()
	}, n)
}

// rank lists the n entries with the highest key of those key keeps, ties
// by root and path, keeping only the best n as it goes: the store may
// hold ten thousand files, a question wants a few dozen.
func (s *Store) rank(now int64, key func(Visit) (float64, bool), n int) []Visit {
	type scored struct {
		Visit
		k float64
	}
	before := func(a, b *scored) bool {
		if a.k != b.k {
			return a.k > b.k
		}
		if a.Root != b.Root {
			return a.Root < b.Root
		}
		return a.Rel < b.Rel
	}
	var best []scored
	for root, l := range s.roots {
		for rel, e := range l.entries {
			c := scored{Visit: e.visit(root, rel, now)}
			var keep bool
			if c.k, keep = key(c.Visit); !keep || len(best) == n && !before(&c, &best[n-1]) {
				continue
			}
			i := sort.Search(len(best), func(i int) bool { return before(&c, &best[i]) })
			if len(best) < n {
				best = append(best, scored{})
			}
			copy(best[i+1:], best[i:])
			best[i] = c
		}
	}
	out := make([]Visit, len(best))
	for i := range best {
		out[i] = best[i].Visit
	}
	return out
}

// Len is how many files the store remembers.
func (s *Store) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, l := range s.roots {
		n += len(l.entries)
	}
	return n
}

// Prune forgets the files of root that exists says are gone (a deleted
// or renamed file is no place to go back to).
func (s *Store) Prune(root string, exists func(rel string) bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, ok := s.roots[root]
	if !ok {
		return
	}
	for rel := range l.entries {
		if !exists(rel) {
			delete(l.entries, rel)
			delete(l.pending, rel)
			l.gone[rel] = true
			s.topAt = 0
		}
	}
}

// PruneGone forgets the visited files of ix's roots that are gone: not in
// ix and not on disk (a file the index leaves out, opened anyway, stays).
func (s *Store) PruneGone(ix *workspace.Index) {
	for i, root := range ix.Roots {
		s.Prune(root, func(rel string) bool {
			if ix.Contains(i, rel) {
				return true
			}
			_, err := os.Stat(ix.Abs(workspace.File{Root: i, Path: rel}))
			return err == nil
		})
	}
}

// Flush writes what the files have not seen yet, then reads each back:
// another process's visits to the same root join this one's.
func (s *Store) Flush() error {
	s.flushMu.Lock() // one flush at a time; visits go on meanwhile
	defer s.flushMu.Unlock()
	type job struct {
		root    string
		place   place
		pending map[string]entry
		gone    map[string]bool
	}
	s.mu.Lock()
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	var jobs []job
	for root, l := range s.roots {
		if l.at.file == "" || len(l.pending) == 0 && len(l.gone) == 0 {
			continue
		}
		jobs = append(jobs, job{root, l.at, l.pending, l.gone})
		l.pending, l.gone = map[string]entry{}, map[string]bool{}
	}
	s.mu.Unlock()
	var errs []error
	for _, j := range jobs {
		merged, err := s.write(j.place.file, inFile(j.place, j.pending), inFile(j.place, j.gone))
		s.mu.Lock()
		l, ok := s.roots[j.root]
		switch {
		case !ok:
		case err != nil:
			// Kept for the next flush, folded with what came since.
			for rel, e := range j.pending {
				if !l.gone[rel] {
					l.pending[rel] = mergeEntries(l.pending[rel], e)
				}
			}
			for rel := range j.gone {
				l.gone[rel] = true
			}
		default:
			// The file's state, and what was visited while it was written.
			l.adopt(j.place.ofRoot(merged), modTime(j.place.file))
			s.topAt = 0
		}
		s.mu.Unlock()
		if err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		// Kept pending: try again later (another process held the file).
		s.mu.Lock()
		s.scheduleFlush()
		s.mu.Unlock()
	}
	return errors.Join(errs...)
}

// visit is e as the remembered file rel of root, weighed at now.
func (e entry) visit(root, rel string, now int64) Visit {
	v := Visit{Root: root, Rel: rel, Weight: e.weight(now), Last: time.Unix(0, e.last)}
	if e.person > 0 {
		v.Person = time.Unix(0, e.person)
	}
	return v
}

// mergeEntries folds two folded histories of one file into one.
func mergeEntries(a, b entry) entry {
	if a.last == 0 {
		return b
	}
	if b.last == 0 {
		return a
	}
	if b.last > a.last {
		a, b = b, a
	}
	age := a.last - b.last
	a.freq += b.freq * decay(age, frequencyHalfLife)
	a.work += b.work * decay(age, workingSetHalfLife)
	a.person = max(a.person, b.person)
	return a
}

// Close writes what is pending; the store records nothing after it.
func (s *Store) Close() {
	if err := s.Flush(); err != nil {
		s.opts.Logf("history: %v", err)
	}
	s.mu.Lock()
	s.closed = true
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	s.mu.Unlock()
}

// load reads a root's file. A missing one is empty; a corrupt or
// other-version one is deleted (and written anew by the next flush) with a
// log line; one held by another process past lockWait is read later.
func (s *Store) load(file string) map[string]entry {
	out := map[string]entry{}
	if file == "" {
		return out
	}
	if _, err := os.Stat(file); err != nil {
		return out
	}
	err := workspace.GuardMapped(func() error {
		db, err := bolt.Open(file, 0o600, &bolt.Options{Timeout: lockWait, ReadOnly: true})
		if err != nil {
			return err
		}
		defer db.Close()
		return db.View(func(tx *bolt.Tx) error {
			var err error
			out, err = readAll(tx)
			return err
		})
	})
	switch {
	case err == nil:
	case errors.Is(err, bolt.ErrTimeout):
		s.opts.Logf("history %s is held by another wayfind; it joins at the next write", file)
	default:
		s.opts.Logf("history %s discarded (%v); starting afresh", file, err)
		s.remove(file)
	}
	if err != nil || out == nil {
		return map[string]entry{}
	}
	return out
}

var errStale = errors.New("written by another version")

// readAll decodes every entry of a history file.
func readAll(tx *bolt.Tx) (map[string]entry, error) {
	meta, visits := tx.Bucket(bucketMeta), tx.Bucket(bucketVisits)
	if meta == nil || visits == nil || string(meta.Get(keyVersion)) != fileVersion {
		return nil, errStale
	}
	out := make(map[string]entry, visits.Stats().KeyN)
	persons := tx.Bucket(bucketPersons)
	err := visits.ForEach(func(k, v []byte) error {
		e, err := decodeEntry(v)
		if err != nil {
			return fmt.Errorf("entry %q: %w", k, err)
		}
		e.person = personOf(persons, k, e)
		out[string(k)] = e
		return nil
	})
	return out, err
}

// personOf is when a person last visited rel, from persons; in a file
// written before persons were kept (none), its last visit: nearly all
// were a person's then.
func personOf(persons *bolt.Bucket, rel []byte, e entry) int64 {
	if persons == nil {
		return e.last
	}
	if v := persons.Get(rel); len(v) == 8 {
		return int64(binary.LittleEndian.Uint64(v))
	}
	return 0
}

// write folds pending into the file, drops gone and anything past the
// limit, and returns the file's new state. A file bbolt cannot open or
// read is replaced, once.
func (s *Store) write(file string, pending map[string]entry, gone map[string]bool) (map[string]entry, error) {
	var out map[string]entry
	try := func() error {
		return updateFile(file, lockWait, false, func(tx *bolt.Tx) error {
			var err error
			out, err = s.update(tx, pending, gone)
			return err
		})
	}
	err := try()
	if err != nil && !errors.Is(err, bolt.ErrTimeout) {
		s.opts.Logf("history %s unusable (%v); recreating", file, err)
		s.remove(file)
		err = try()
	}
	return out, err
}

// updateFile runs fn in one write of the history file, made with its
// directory if need be, waiting at most wait for another process holding
// it; noSync leaves the write to the system's own flush.
func updateFile(file string, wait time.Duration, noSync bool, fn func(*bolt.Tx) error) error {
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return err
	}
	return workspace.GuardMapped(func() error {
		db, err := bolt.Open(file, 0o600, &bolt.Options{Timeout: wait})
		if err != nil {
			return err
		}
		defer db.Close()
		db.NoSync = noSync
		return db.Update(fn)
	})
}

func (s *Store) update(tx *bolt.Tx, pending map[string]entry, gone map[string]bool) (map[string]entry, error) {
	b, err := openBuckets(tx)
	if err != nil {
		return nil, err
	}
	for rel := range gone {
		if err := b.forget([]byte(rel)); err != nil {
			return nil, err
		}
	}
	if err := b.merge(pending); err != nil {
		return nil, err
	}
	out, err := readAll(tx)
	if err != nil {
		return nil, err
	}
	if err := b.bound(out, s.opts.Limit, s.opts.Now().UnixNano()); err != nil {
		return nil, err
	}
	return out, nil
}

// buckets are a history file's, in one write.
type buckets struct{ visits, persons *bolt.Bucket }

// forget deletes rel from the file.
func (b buckets) forget(rel []byte) error {
	if err := b.visits.Delete(rel); err != nil {
		return err
	}
	return b.persons.Delete(rel)
}

// bound deletes from the file, and from out (what it holds), the least
// weighty files past limit: they are the ones no question would use.
func (b buckets) bound(out map[string]entry, limit int, now int64) error {
	over := len(out) - limit
	if over <= 0 {
		return nil
	}
	rels := make([]string, 0, len(out))
	for rel := range out {
		rels = append(rels, rel)
	}
	sort.Slice(rels, func(i, j int) bool {
		wi, wj := out[rels[i]].weight(now), out[rels[j]].weight(now)
		if wi != wj {
			return wi < wj
		}
		return rels[i] < rels[j]
	})
	for _, rel := range rels[:over] {
		if err := b.forget([]byte(rel)); err != nil {
			return err
		}
		delete(out, rel)
	}
	return nil
}

// openBuckets are a history file's buckets, made on the first write; a
// file of another version is started over, and one written before
// persons were kept gets them from its visits (personOf).
func openBuckets(tx *bolt.Tx) (buckets, error) {
	meta, err := tx.CreateBucketIfNotExists(bucketMeta)
	if err != nil {
		return buckets{}, err
	}
	if string(meta.Get(keyVersion)) != fileVersion {
		for _, name := range [][]byte{bucketVisits, bucketPersons} {
			if tx.Bucket(name) != nil {
				if err := tx.DeleteBucket(name); err != nil {
					return buckets{}, err
				}
			}
		}
		if err := meta.Put(keyVersion, []byte(fileVersion)); err != nil {
			return buckets{}, err
		}
	}
	visits, err := tx.CreateBucketIfNotExists(bucketVisits)
	if err != nil {
		return buckets{}, err
	}
	if p := tx.Bucket(bucketPersons); p != nil {
		return buckets{visits, p}, nil
	}
	persons, err := tx.CreateBucket(bucketPersons)
	if err != nil {
		return buckets{}, err
	}
	err = visits.ForEach(func(k, v []byte) error {
		e, err := decodeEntry(v)
		if err != nil {
			return nil // read as corrupt by readAll
		}
		return persons.Put(k, encodeTime(personOf(nil, k, e)))
	})
	return buckets{visits, persons}, err
}

// merge folds pending into what the file holds of each file.
func (b buckets) merge(pending map[string]entry) error {
	for rel, e := range pending {
		key := []byte(rel)
		if old := b.visits.Get(key); old != nil {
			if d, err := decodeEntry(old); err == nil {
				d.person = personOf(b.persons, key, d)
				e = mergeEntries(d, e)
			}
		}
		if err := b.visits.Put(key, encodeEntry(e)); err != nil {
			return err
		}
		if e.person > 0 {
			if err := b.persons.Put(key, encodeTime(e.person)); err != nil {
				return err
			}
		}
	}
	return nil
}

// encodeTime is a bucketPersons value: UnixNano, little endian.
func encodeTime(t int64) []byte { return binary.LittleEndian.AppendUint64(nil, uint64(t)) }

func (s *Store) remove(file string) {
	if err := os.Remove(file); err != nil && !os.IsNotExist(err) {
		s.opts.Logf("cannot remove history %s: %v", file, err)
	}
}

// An entry on disk: freq and work as float64 bits, last as int64, little
// endian — 24 bytes.
func encodeEntry(e entry) []byte {
	b := make([]byte, 24)
	binary.LittleEndian.PutUint64(b, math.Float64bits(e.freq))
	binary.LittleEndian.PutUint64(b[8:], math.Float64bits(e.work))
	binary.LittleEndian.PutUint64(b[16:], uint64(e.last))
	return b
}

func decodeEntry(b []byte) (entry, error) {
	if len(b) != 24 {
		return entry{}, fmt.Errorf("%d bytes, want 24", len(b))
	}
	e := entry{
		freq: math.Float64frombits(binary.LittleEndian.Uint64(b)),
		work: math.Float64frombits(binary.LittleEndian.Uint64(b[8:])),
		last: int64(binary.LittleEndian.Uint64(b[16:])),
	}
	if !(e.freq >= 0 && e.work >= 0) || math.IsInf(e.freq, 0) || math.IsInf(e.work, 0) {
		return entry{}, errors.New("not a weight")
	}
	return e, nil
}
