package workspace

import (
	"math"
	"runtime"
	"slices"
	"sync"
)

// Restat is polling's check of file contents. Without a watcher nothing
// names a file edited in place — its directory's time, which Verify
// compares, does not change — so every poll stats every file. Comparing
// those stats with the previous poll's, rather than handing every file to
// the symbol and content indexers to check against their own entries,
// keeps a poll of unchanged files to the stats: the indexers' re-check
// of every file built maps of every file and rebuilt both indexes each
// poll, taking both cores at every poll while the server answered.
type Restat struct {
	mu sync.Mutex // Seed may come from another goroutine than the polls
	// ix is the last poll's index, kept to align its files with the next
	// poll's (one file list more in memory when the tree changed between
	// polls; none when it did not, the index being the same).
	ix     *Index
	prints []uint64 // statPrint of each of ix.files, 0 for a file that could not be stat'ed
}

// Changed stats every file of ix, calling pace (when set) before each
// batch, and returns the files (absolute) whose size or modification time
// differ from the previous call's, among those both calls saw; files new
// to ix are not reported (a walk finds them). The first call has nothing
// to compare with: it records, and returns ok false.
func (r *Restat) Changed(ix *Index, pace func()) (changed []string, ok bool) {
	ix = ix.flat()
	prints := make([]uint64, len(ix.files))
	statEach(ix, pace, func(i int, st FileStat) { prints[i] = statPrint(st) })
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ix != nil {
		ok = true
		eachCommon(r.ix.files, ix.files, func(i, j int) {
			if r.prints[i] != unseen && r.prints[i] != prints[j] {
				changed = append(changed, ix.AbsAt(j))
			}
		})
	}
	r.ix, r.prints = ix, prints
	return changed, ok
}

// eachCommon calls f for each entry of two sorted lists (Index order)
// that is in both, with its place in each: how one poll's stats are
// matched with the last's when the index changed between them.
func eachCommon(a, b []File, f func(i, j int)) {
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch c := CompareFiles(a[i], b[j]); {
		case c < 0:
			i++
		case c > 0:
			j++
		default:
			f(i, j)
			i++
			j++
		}
	}
}

// Seed records stats (StatFiles of ix) as the last poll's: taken before a
// full pass reads every file, they let the first poll after it re-check
// only the files changed since, where it had nothing to compare with and
// re-checked every file (a stat a file and both indexers' maps of them
// all).
func (r *Restat) Seed(ix *Index, stats []FileStat) {
	prints := make([]uint64, len(stats))
	for i, st := range stats {
		prints[i] = statPrint(st)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ix, r.prints = ix.flat(), prints // stats are in the flat order (StatFiles)
}

// Rebase has the next poll align its stats with ix in place of the
// index they were taken of (a compaction's base, a change applied): the
// files both hold keep their stats, those new to ix are unseen — not
// compared at the next poll, as a file new to the index is not — and the
// index they were taken of, with the base its paths lie in, is let go
// (package segment). Kept whenever the files differed, it held a
// replaced base mapped until the next full poll.
func (r *Restat) Rebase(ix *Index) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ix == nil || r.ix == ix {
		return
	}
	flat := ix.flat()
	if slices.Equal(r.ix.files, flat.files) {
		r.ix = flat
		return
	}
	prints := make([]uint64, len(flat.files))
	for j := range prints {
		prints[j] = unseen
	}
	eachCommon(r.ix.files, flat.files, func(i, j int) { prints[j] = r.prints[i] })
	r.ix, r.prints = flat, prints
}

// Aligned is the index the stats are aligned with (nil before any):
// what they hold, with the base its paths lie in.
func (r *Restat) Aligned() *Index {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ix
}

// unseen is the print of a file the last poll did not stat: one new to
// the index its stats were rebased onto (statPrint never makes it).
const unseen = math.MaxUint64

// statPrint reduces a file's stat to a word that changes when its size or
// time does (0: not stat'ed).
func statPrint(st FileStat) uint64 {
	if !st.OK {
		return 0
	}
	const mix = 0x9e3779b97f4a7c15 // 2⁶⁴/φ: spreads the time's bits over the word
	if p := uint64(st.ModTime)*mix ^ uint64(st.Size); p != 0 && p != unseen {
		return p
	}
	return 1
}

// statBatch is how many files a worker stats between calls to pace: a
// short stretch of work, so a request waits for no more than that.
const statBatch = 64

// statEach stats every file of ix on a few goroutines — stats wait on the
// kernel, not the CPU — or with pace set, in the background, on
// pacedWorkers, calling pace before each statBatch files; and f with each
// file's stat (from several goroutines, each index once).
func statEach(ix *Index, pace func(), f func(i int, st FileStat)) {
	ix = ix.flat()
	statPaths(len(ix.files), func(b []byte, i int) []byte { return append(b, ix.AbsAt(i)...) }, pace, f)
}

// statPaths is statEach over any n paths: path appends the i-th to a
// worker's buffer, which is stat'ed where it lies (statBytes) — no string
// made nor copied a path.
func statPaths(n int, path func(b []byte, i int) []byte, pace func(), f func(i int, st FileStat)) {
	workers := 2 * runtime.GOMAXPROCS(0)
	if pace != nil {
		workers = pacedWorkers
	}
	chunk := (n + workers - 1) / workers
	var wg sync.WaitGroup
	for lo := 0; lo < n; lo += chunk {
		hi := min(lo+chunk, n)
		wg.Add(1)
		go func() {
			defer wg.Done()
			var b []byte
			for i := lo; i < hi; i++ {
				if pace != nil && (i-lo)%statBatch == 0 {
					pace()
				}
				b = append(path(b[:0], i), 0)
				f(i, statBytes(b))
			}
		}()
	}
	wg.Wait()
}
