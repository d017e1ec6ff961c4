package passes

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"wayfind/symbols"
	"wayfind/workspace"
)

// fakeHost serves one index; want is the generation wanted, before the
// gate BeforeFull waits on (nil: none).
type fakeHost struct {
	ix     *workspace.Index
	want   atomic.Int32
	before chan struct{}
	passes atomic.Int32 // AfterPass calls
}

func (h *fakeHost) Index() *workspace.Index { return h.ix }
func (h *fakeHost) Wanted() int             { return int(h.want.Load()) }
func (h *fakeHost) BeforeFull(ctx context.Context) error {
	if h.before == nil {
		return nil
	}
	select {
	case <-h.before:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
func (h *fakeHost) AwaitQuiet(time.Duration, time.Duration)         {}
func (h *fakeHost) PollStats(*workspace.Index) []workspace.FileStat { return nil }
func (h *fakeHost) Pace()                                           {}
func (h *fakeHost) Busy() func()                                    { return func() {} }
func (h *fakeHost) AfterPass()                                      { h.passes.Add(1) }

// tree is a host over n Go files, each declaring one function.
func tree(t *testing.T, n int) *fakeHost {
	t.Helper()
	dir := t.TempDir()
	for i := range n {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d.go", i)), []byte(fmt.Sprintf("package f\n\nfunc F%d() {}\n", i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	roots, err := workspace.CleanRoots([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	return &fakeHost{ix: workspace.Build(roots, workspace.Options{})}
}

// run starts x's loop until the test ends.
func run(t *testing.T, x *Indexes) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		x.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		wg.Wait()
	})
}

// TestFullPassWaitsForTheBase: a full pass reads nothing before its host
// says the index may be read (BeforeFull: a compaction owed); then it
// indexes every file's symbols and contents for its generation, which
// Wait and State report.
func TestFullPassWaitsForTheBase(t *testing.T) {
	h := tree(t, 5)
	h.want.Store(1)
	h.before = make(chan struct{})
	x := NewIndexes(h, Options{Symbols: symbols.IndexerOptions{CacheDir: "-"}, CacheDir: "-", Workers: 1})
	run(t, x)
	x.Full(1)
	if x.Wait(context.Background(), h.Wanted, ForSymbols, 100*time.Millisecond) {
		t.Fatal("the pass ran before its host let it read the index")
	}
	close(h.before)
	if !x.Wait(context.Background(), h.Wanted, ForContents, 10*time.Second) {
		t.Fatal("the pass did not end")
	}
	sym, content, _ := x.State(1)
	if !sym || !content || x.Symbols().Len() != 5 || x.Contents().Len() != 5 {
		t.Errorf("after the pass: symbols ready %v (%d), contents ready %v (%d); want 5 of each", sym, x.Symbols().Len(), content, x.Contents().Len())
	}
	if h.passes.Load() == 0 {
		t.Error("no moment after the pass (AfterPass)")
	}
}

// TestSupersedeStopsAnOlderPass: a full pass over a generation older
// than the one wanted stops where it is, and the next generation's pass
// (a reindex's, parsing every file again) indexes every file; what the
// stopped pass held goes back at once (AfterPass).
func TestSupersedeStopsAnOlderPass(t *testing.T) {
	const files = 20
	h := tree(t, files)
	h.want.Store(1)
	held, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	var parsed atomic.Int32
	x := NewIndexes(h, Options{NoContent: true, Workers: 1, Symbols: symbols.IndexerOptions{CacheDir: "-",
		Pace:     func() { once.Do(func() { close(held); <-release }) },
		Progress: func(int, int) { parsed.Add(1) },
	}})
	run(t, x)
	x.Full(1)
	<-held
	h.want.Store(2)
	x.Supersede(2)
	x.ForgetFrom(2) // as a reindex: the next pass parses every file again
	x.Full(2)
	close(release)
	if !x.Wait(context.Background(), h.Wanted, ForContents, 10*time.Second) { // its end
		t.Fatal("the second generation's pass did not end")
	}
	if x.Symbols().Len() != files {
		t.Errorf("%d symbols after the second pass, want %d", x.Symbols().Len(), files)
	}
	// The moment after a pass: once for the pass stopped, twice for the
	// one run whole (after its symbols, at its end).
	if n := h.passes.Load(); n != 3 {
		t.Errorf("%d moments after a pass, want 3 (the pass stopped's, then two)", n)
	}
	// The first pass may hand out a file or two before it sees it is
	// stopped; run whole, it parses every file.
	if n := parsed.Load(); n >= 2*files-files/2 {
		t.Errorf("%d files parsed over two generations of %d files: the first pass was not stopped", n, files)
	}
}

// TestAwaitSupersededWaitsForTheStoppedPass: a walk of a new generation
// waits for the full pass it superseded to end and give back what it
// held; with no older pass under way it does not wait at all.
func TestAwaitSupersededWaitsForTheStoppedPass(t *testing.T) {
	h := tree(t, 20)
	h.want.Store(1)
	held, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	x := NewIndexes(h, Options{NoContent: true, Workers: 1, Symbols: symbols.IndexerOptions{CacheDir: "-",
		Pace: func() { once.Do(func() { close(held); <-release }) },
	}})
	run(t, x)
	x.Full(1)
	<-held
	h.want.Store(2)
	x.Supersede(2)
	returned := make(chan struct{})
	go func() {
		x.AwaitSuperseded(2, time.Minute)
		close(returned)
	}()
	select {
	case <-returned:
		t.Fatal("the wait ended while the stopped pass still held its tables")
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	<-returned
	if n := h.passes.Load(); n != 1 {
		t.Errorf("%d moments after a pass when the wait ended, want 1 (the stopped pass's)", n)
	}
	start := time.Now()
	x.AwaitSuperseded(3, time.Minute) // no pass under way
	if waited := time.Since(start); waited > time.Second {
		t.Errorf("waited %v with no pass under way", waited)
	}
}
