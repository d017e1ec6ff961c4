// Package compaction writes the snapshot a live workspace serves from
// copies on the heap as a new base and has it swapped in (Compactor).
//
// A snapshot is served from its base — the saved file index (files.idx)
// and the engine written beside it (engine.seg), both immutable segments
// mapped read-only, whose pages are the kernel's page cache, shared by
// every process on the root — or, after a walk or a change, from copies
// on the heap. Its owner's one worker decides when (package session: as
// soon as a walk has built a whole tree, Owe; else once changes have
// stood and requests paused). Each write goes to a temporary file
// renamed into place (base.Write), so a killed writer leaves the last
// good base; a replaced base stays mapped while anything holds it — a
// question under way, a table of its paths not yet pointed at the new
// one — and is let go after (package segment).
package compaction

import (
	"context"
	"sync"
	"time"

	"wayfind/base"
	"wayfind/rank"
	"wayfind/workspace"
)

// Snapshot is what compaction sees of the snapshot served.
type Snapshot struct {
	Seq    uint64 // numbers the snapshots in the order they were served
	Index  *workspace.Index
	Engine *rank.Engine
	// Heap: served from copies on the heap — neither a base (mapped) nor
	// a saved index still checked by its walk.
	Heap bool
	// Overlay: on the heap only as an overlay of the few files changed
	// since a mapped base (rank.Engine.Mapped; the index's delta is
	// bounded too): the heap holds little, and compacting it when it
	// stands (Due) would write the whole tree for those few files. A
	// walk's overlay is owed all the same (Owe):
	// the full pass after a walk lays the index flat on the heap.
	Overlay bool
	// SavedAt is when Index itself was saved (base.Opened.IndexSavedAt;
	// zero: not known to be).
	SavedAt time.Time
}

// Host is the live workspace a compactor writes for.
type Host interface {
	// Swap serves ix and eng — the base written from snapshot seq, the
	// same files in the same order — in its place, unless that snapshot
	// was replaced meanwhile (a change applied); it reports whether it
	// did.
	Swap(seq uint64, ix *workspace.Index, eng *rank.Engine) bool
	// Current is the snapshot served now.
	Current() Snapshot
	// Busy marks the write under way (it reads the engine whole) until
	// done is called; Pace holds it while requests run.
	Busy(readsEngine bool) (done func())
	Pace()
}

// Compactor writes one workspace's bases. It is safe for concurrent use.
type Compactor struct {
	host     Host
	cacheDir string
	walk     workspace.Options
	logf     func(string, ...any)

	mu sync.Mutex
	// owed is closed once the compaction a walk asked for is done (nil:
	// none owed); a full pass waits for it, to read the base rather than
	// hold the heap's copy of the tree through the pass.
	owed chan struct{}
	// tried is the last snapshot a compaction was tried on: a failure is
	// not retried until the snapshot changes.
	tried uint64
}

// New is the compactor of host's roots, whose caches are in cacheDir.
func New(host Host, cacheDir string, walk workspace.Options, logf func(string, ...any)) *Compactor {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	return &Compactor{host: host, cacheDir: cacheDir, walk: walk, logf: logf}
}

// Owe records that the snapshot served is to be compacted at once (a walk
// built it whole).
func (c *Compactor) Owe() {
	c.mu.Lock()
	if c.owed == nil {
		c.owed = make(chan struct{})
	}
	c.mu.Unlock()
}

// Owed is closed once the compaction owed is done; nil when none is.
func (c *Compactor) Owed() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.owed
}

// Settle marks the owed compaction done, if one was.
func (c *Compactor) Settle() {
	c.mu.Lock()
	if c.owed != nil {
		close(c.owed)
		c.owed = nil
	}
	c.mu.Unlock()
}

// Compactable reports whether cur may be compacted — on the heap, not
// tried — and whether a walk owes its base.
func (c *Compactor) Compactable(cur Snapshot) (ok, owed bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !cur.Heap || cur.Seq == c.tried {
		return false, false
	}
	return true, c.owed != nil
}

// Due reports whether cur is to be compacted now: it may be
// (Compactable), and either a walk owes it, or it is more than an
// overlay over its base and its owner is quiet (its changes have stood,
// and requests paused). An overlay is compacted when it outgrows its
// bound: the engine is then built anew, on the heap.
func (c *Compactor) Due(cur Snapshot, quiet bool) bool {
	ok, owed := c.Compactable(cur)
	return ok && (owed || quiet && !cur.Overlay)
}

// Compact writes snap as a new base and has the host serve it in snap's
// place. Nothing is swapped when the cache is off, another process holds
// the index's lock past lockWait, or the snapshot was replaced
// meanwhile: the heap's copy stays — unless the compaction is owed, and
// the snapshot that replaced it (a change applied while the base was
// written) is on the heap too: that one is written in turn, up to
// owedRetries times, since the full pass waiting for the compaction
// would otherwise read the heap's copy of the whole tree, and hold it
// through the pass. The write gives way to requests (Host.Pace). It
// reports whether a base was swapped in.
func (c *Compactor) Compact(snap Snapshot, lockWait time.Duration) bool {
	defer c.host.Busy(true)()
	for try := 0; ; try++ {
		swapped, replaced := c.compactOnce(snap, lockWait)
		if swapped || !replaced {
			return swapped
		}
		next := c.host.Current()
		if c.Owed() == nil || try == owedRetries || !next.Heap {
			return false
		}
		snap = next
	}
}

// owedRetries bounds the writes of an owed compaction whose snapshot
// keeps being replaced: a change applied during a write (a second or two
// on a large tree) is rare, a stream of them (a build writing files) is
// not, and past a few tries the pass reads the heap's copy.
const owedRetries = 2

// compactOnce writes snap as a new base and has the host swap it in;
// replaced: the host served another snapshot by then.
func (c *Compactor) compactOnce(snap Snapshot, lockWait time.Duration) (swapped, replaced bool) {
	start := time.Now()
	c.mu.Lock()
	c.tried = snap.Seq
	c.mu.Unlock()
	paced := c.walk
	paced.Pace = c.host.Pace
	ctx, cancel := context.WithTimeout(context.Background(), lockWait)
	unlock, locked := workspace.LockIndex(ctx, c.cacheDir, snap.Index.Roots)
	cancel()
	if !locked {
		c.logf("not compacted: another process held the index's lock for %s", lockWait)
		return false, false
	}
	ix, eng, err := base.Write(c.cacheDir, snap.Index, snap.Engine, paced, snap.SavedAt)
	unlock()
	if err != nil {
		c.logf("not compacted: %v", err)
		return false, false
	}
	if !c.host.Swap(snap.Seq, ix, eng) {
		c.logf("not compacted: the snapshot was replaced while its base was written")
		return false, true
	}
	c.logf("serving %d files from their segments, mapped (%.0f ms)", ix.Len(), float64(time.Since(start).Microseconds())/1000)
	return true, false
}
