package rank

import "runtime"

// resolveScratch is the memory a resolve of many candidates works in —
// its candidates, their scores, their directories' alignments — kept
// for the next resolve rather than left to the collector: a common
// name's tens of thousands of candidates made megabytes of garbage a
// question, and under the server's memory limit the collections that
// followed slowed the questions after it.
type resolveScratch struct {
	cands        []candidateFile
	lower, upper []scoredFile
	dirs         []int32
	aligned      []dirAlignment
	priced       []dirAlign
	at           []int32       // zero but where a resolve set it (release clears those)
	atSet        []int32       // the directories whose at a resolve set
	columns      [2]columnMemo // alignColumns', one a half
}

// resolveScratches keeps a scratch for each of as many resolves as run at
// once on the server's cores, and for longer than a sync.Pool would (its
// idle objects go at the second collection, and the server's memory
// limit collects often): a common name's first question after a pause
// would otherwise make its megabytes again.
var resolveScratches = make(chan *resolveScratch, runtime.GOMAXPROCS(0))

// takeScratch is a scratch for one resolve.
func takeScratch() *resolveScratch {
	select {
	case s := <-resolveScratches:
		return s
	default:
		return &resolveScratch{}
	}
}

// release returns s for the next resolve, its index by directory
// cleared where it was set.
func (s *resolveScratch) release() {
	for _, d := range s.atSet {
		s.at[d] = 0
	}
	s.atSet = s.atSet[:0]
	select {
	case resolveScratches <- s:
	default: // as many kept as run at once
	}
}

// grow is buf emptied, with room for n.
func grow[T any](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, 0, n)
	}
	return buf[:0]
}
