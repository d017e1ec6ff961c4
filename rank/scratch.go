package rank

import "runtime"

// resolveScratch is the memory a resolve of many candidates works in —
// its candidates, their scores, their directories' alignments — kept
// for the next resolve (freeList) rather than left to the collector: a
// common name's tens of thousands of candidates made megabytes of
// garbage a question, and under the server's memory limit the
// collections that followed slowed the questions after it.
type resolveScratch struct {
	cands        []candidateFile
	lower, upper []scoredFile
	dirs         []int32
	aligned      []dirAlignment
	seqs         []int32 // alignColumns', by directory aligned
	priced       []dirAlign
	seqPriced    []dirAlign    // priceAll's, by sequence
	at           []int32       // zero but where a resolve set it (release clears those)
	atSet        []int32       // the directories whose at a resolve set
	columns      [2]columnMemo // alignColumns', one a half
}

// freeList keeps memory a question works in for the next, one for each
// of as many questions as run at once on the server's cores, and for
// longer than a sync.Pool would (its idle objects go at the second
// collection, and the server's memory limit collects often): a common
// name's first question after a pause would otherwise make its megabytes
// again, and the collection they set off.
type freeList[T any] chan *T

func newFreeList[T any]() freeList[T] { return make(freeList[T], runtime.GOMAXPROCS(0)) }

// take is a T kept, or a new one.
func (l freeList[T]) take() *T {
	select {
	case t := <-l:
		return t
	default:
		return new(T)
	}
}

// put keeps t, unless as many are kept as run at once.
func (l freeList[T]) put(t *T) {
	select {
	case l <- t:
	default:
	}
}

// release drops what l keeps.
func (l freeList[T]) release() {
	for {
		select {
		case <-l:
		default:
			return
		}
	}
}

var resolveScratches = newFreeList[resolveScratch]()

// takeScratch is a scratch for one resolve.
func takeScratch() *resolveScratch { return resolveScratches.take() }

// release returns s for the next resolve, its index by directory
// cleared where it was set.
func (s *resolveScratch) release() {
	for _, d := range s.atSet {
		s.at[d] = 0
	}
	s.atSet = s.atSet[:0]
	resolveScratches.put(s)
}

// grow is buf emptied, with room for n.
func grow[T any](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, 0, n)
	}
	return buf[:0]
}

// dirTermsMemos are find's, kept as resolve's scratches are.
var dirTermsMemos = newFreeList[dirTermsMemo]()

// ReleaseScratch drops the memory kept for the next questions (resolve's
// scratches, find's memos and typo states): for the memory's owner to
// call when the questions pause.
func ReleaseScratch() {
	resolveScratches.release()
	dirTermsMemos.release()
	typoScratches.release()
}

// typoScratches keep find's typo fallback's states of its first token
// over every directory (pathTypos) for the next question: sixteen bytes
// a directory, megabytes a question in a large tree.
var typoScratches = newFreeList[[]typoState]()
