package session

import (
	"context"
	"time"

	"wayfind/passes"
	"wayfind/rank"
	"wayfind/workspace"
)

// passHost is the session as the passes that follow its file index see
// it (passes.Host), and treeHost as its tracker sees it (treewatch.Host);
// both are background work (background).
type passHost struct{ background }

// background is the session as its background work sees it: held while
// requests run, busy while it reads, a pass's end (memory.go).
type background struct{ s *Session }

func (b background) Pace()               { b.s.pace() }
func (b background) Busy() (done func()) { return b.s.busy(false) }
func (b background) AfterPass()          { b.s.afterPass() }

func (h passHost) Index() *workspace.Index {
	if cur := h.s.snap.Load(); cur != nil {
		return cur.ix
	}
	return nil
}

func (h passHost) Wanted() int {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	return h.s.want
}

// BeforeFull waits for the compaction a walk owes: the snapshot to read
// is the compacted one (build).
func (h passHost) BeforeFull(ctx context.Context) error {
	owed := h.s.compactor.Owed()
	if owed == nil {
		return nil
	}
	select {
	case <-owed:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (h passHost) AwaitQuiet(quiet, maxWait time.Duration) {
	h.s.req.AwaitQuiet(quiet, maxWait, h.s.stop)
}

func (h passHost) PollStats(ix *workspace.Index) []workspace.FileStat { return h.s.tree.PollStats(ix) }

// SymbolEngine is Engine once the current roots' symbols are indexed too:
// it waits for the first full pass of the roots (bounded like Engine),
// then answers from what is indexed, which after a timeout may be part of
// the workspace.
func (s *Session) SymbolEngine(ctx context.Context) (*rank.Engine, error) {
	return s.passEngine(ctx, passes.ForSymbols)
}

// LocateEngine is SymbolEngine once the files' contents are indexed too
// (locate's recovery reads them).
func (s *Session) LocateEngine(ctx context.Context) (*rank.Engine, error) {
	return s.passEngine(ctx, passes.ForContents)
}

// passEngine is Engine once the passes cover the roots asked for
// (passes.Indexes.Wait). The request waits for background work, so it
// counts as waiting for it: pace does not hold the work up for it.
func (s *Session) passEngine(ctx context.Context, contents bool) (*rank.Engine, error) {
	eng, err := s.Engine(ctx)
	if err != nil || !s.idx.On() {
		return eng, err
	}
	// Not held through the wait: the snapshot it is of may be replaced
	// meanwhile (a walk's, by the base compacted from it), and a request
	// holding it would keep the walk's copy of the tree, and the base it
	// was over, on the heap through the whole pass.
	eng = nil
	waited := s.req.Waiting()
	ready := s.idx.Wait(ctx, passHost{background{s}}.Wanted, contents, s.opts.WaitReady)
	waited()
	if !ready {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		s.opts.Logf("still indexing symbols and contents; answering from what is indexed so far (%d symbols)", s.idx.Symbols().Len())
	}
	if eng, err = s.Engine(ctx); err != nil {
		return nil, err
	}
	return s.withIndexes(eng), nil
}

// UpdateContent queues the symbols of a document's unsaved content (the
// latest text of each file wins); Changed on the file, after a save or
// close, reads the disk again.
func (s *Session) UpdateContent(file string, text []byte) { s.idx.Edit(file, text) }

// WaitHistory waits, at most d, until the current roots' repository
// history is read (true at once when no root is in a repository).
func (s *Session) WaitHistory(ctx context.Context, d time.Duration) bool {
	return s.repo.Wait(ctx, d)
}

type treeHost struct{ background }

func (h treeHost) Served() (*workspace.Index, time.Time) {
	if cur := h.s.snap.Load(); cur != nil {
		return cur.ix, cur.walked
	}
	return nil, time.Time{}
}

func (h treeHost) Roots() []string        { return h.s.Roots() }
func (h treeHost) Changed(paths []string) { h.s.watched(paths) }
func (h treeHost) Edited(paths []string)  { h.s.idx.Recheck(paths) }
func (h treeHost) ReadsContents() bool    { return h.s.idx.On() }
