package rank

import (
	"slices"
	"strings"
)

// Kin readings: when no file of the tree is read by the path's name — no
// name within a typo's distance, no symbol of that name — the asker is
// still best served by the files nearest in kind to what they wrote,
// listed, never resolved (they do not stand alone: BasisUnsupported).
// Agents guess names (tests/test_domain_python.py for test_domain_py.py,
// tests/test_sessions.py for the tests of sessions.py), and a reading of
// letters finds nothing there; a person reading the directory would.
//
//   - words: the files of the directory written (when the tree has it)
//     whose names share the written name's words — a word abbreviated
//     counting for half (py for python), a word most names of the
//     directory have (handler in handlers/) for nothing, a test's affix
//     (test_) not at all — each file's share of the words the two names
//     hold apart from those;
//   - tests of a module: a name read as a test's (test_X, X_test, XTest,
//     X.test, X_spec …) whose X is the stem of a source file of the
//     tree: the tests the repository's history committed with it, most
//     often first.
//
// Words come first, then tests; each list at most the limit.

// kinReadings are the kin readings of rq (limit at most each) when no
// file was read by its name (scored: those that were), else none.
func (e *Engine) kinReadings(rq *resolveQuery, scored []Candidate, limit int) []Candidate {
	if len(scored) > 0 {
		return nil
	}
	out := e.wordKin(rq, limit)
	for _, c := range e.testKin(rq, limit) {
		if !slices.ContainsFunc(out, func(o Candidate) bool { return o.File == c.File }) {
			out = append(out, c)
		}
	}
	return out
}

// wordKin is the words reading: the directory written's files by the
// words their names share with the name written.
func (e *Engine) wordKin(rq *resolveQuery, limit int) []Candidate {
	d, ok := e.writtenDir(rq)
	if !ok {
		return nil
	}
	qWords := nameWords(rq.stem)
	if len(qWords) == 0 {
		return nil
	}
	files := e.dirFiles(int(d))
	names := make([][]string, len(files))
	held := make([]int, len(qWords)) // how many names hold each written word
	for i, id := range files {
		stem, _ := splitExt(e.baseName(id))
		names[i] = nameWords(stem)
		for k, w := range qWords {
			if slices.ContainsFunc(names[i], func(c string) bool { return kinWord(w, c) > 0 }) {
				held[k]++
			}
		}
	}
	ubiquitous := make([]bool, len(qWords)) // by written word, decided once
	for k := range qWords {
		ubiquitous[k] = len(files) >= kinUbiquitousFrom && float64(held[k]) > kinUbiquitous*float64(len(files))
	}
	// saysNothing: a name's word c is one of the ubiquitous written words.
	saysNothing := func(c string) bool {
		for k, w := range qWords {
			if ubiquitous[k] && kinWord(w, c) > 0 {
				return true
			}
		}
		return false
	}
	var out []Candidate
	for i, id := range files {
		shared, whole, apart := 0.0, false, 0
		used := make([]bool, len(names[i]))
		for k, w := range qWords {
			if ubiquitous[k] {
				continue
			}
			best, at := 0.0, -1
			for j, c := range names[i] {
				if m := kinWord(w, c); !used[j] && m > best {
					best, at = m, j
				}
			}
			if at >= 0 {
				used[at] = true
				shared += best
				whole = whole || best == 1
			} else {
				apart++
			}
		}
		for j, c := range names[i] {
			if !used[j] && !saysNothing(c) {
				apart++
			}
		}
		if !whole {
			continue // an abbreviation alone is too little to go on
		}
		out = append(out, e.candidate(id, kinScale*shared/(shared+float64(apart)), []string{"name:words"}))
	}
	return kinFirst(out, limit)
}

// nameWords are a stem's words as the words reading compares them: a
// test's, its module's (the test affix is what every test of a
// directory shares, not what tells one from another).
func nameWords(stem string) []string {
	if module, ok := testedName(stem); ok {
		stem = module
	}
	return words(stem)
}

// writtenDir is the directory of the tree the path names: its
// directories as written, or, for an absolute path, their longest tail
// that is one (the root's own path, another machine's, in front). None
// for a bare name.
func (e *Engine) writtenDir(rq *resolveQuery) (int32, bool) {
	for i := range rq.dirs {
		if i > 0 && !rq.absolute {
			break
		}
		tail := rq.dirs[i:]
		if d, ok := e.dirAt(strings.Join(tail, "/")); ok && e.dirName(d) == tail[len(tail)-1] {
			return d, true
		}
	}
	return -1, false
}

// kinWord is how a written word w reads as a name's word c: 1 alike, an
// abbreviation of one by the other kinAbbreviated, else 0.
func kinWord(w, c string) float64 {
	switch {
	case w == c:
		return 1
	case len(c) >= kinShortest && len(w) > len(c) && strings.HasPrefix(w, c),
		len(w) >= kinShortest && len(c) > len(w) && strings.HasPrefix(c, w):
		return kinAbbreviated
	}
	return 0
}

// testKin is the tests-of-a-module reading: the tests the history
// committed with the source files whose stem the written test's name
// names.
func (e *Engine) testKin(rq *resolveQuery, limit int) []Candidate {
	module, ok := testedName(rq.stem)
	if !ok || e.repo == nil {
		return nil
	}
	sid, ok := e.stemIndex(squash(module))
	if !ok {
		return nil
	}
	counts := map[int32]int{}
	for _, src := range e.stemFiles(sid) {
		f := e.file(src)
		if f.flags&fileAux != 0 {
			continue
		}
		rec := e.repo.Record(int(f.root))
		if rec == nil {
			continue
		}
		for _, p := range slices.Concat(rec.CoChanged(e.filePath(src)), rec.CoChangedBy(e.filePath(src))) {
			if id, ok := e.fileID(int(f.root), p.Path); ok && e.file(id).flags&fileAux != 0 && isTestName(e.baseName(id)) {
				counts[id] += p.Count
			}
		}
	}
	most := 0
	for _, n := range counts {
		most = max(most, n)
	}
	var out []Candidate
	for id, n := range counts {
		out = append(out, e.candidate(id, kinScale*float64(n)/float64(most), []string{"name:tests-of " + module}))
	}
	return kinFirst(out, limit)
}

// testAffixes are how a test's name says what it tests: test_X, X_test,
// X.test, X_spec, XTest, XTests.
var (
	testPrefixes = []string{"test_", "tests_", "test-"}
	testSuffixes = []string{"_test", "_tests", "-test", ".test", "_spec", ".spec", "-spec", "Test", "Tests"}
)

// testedName is the module a test's stem names (sessions for
// test_sessions), when it reads as a test's.
func testedName(stem string) (string, bool) {
	for _, p := range testPrefixes {
		if rest, ok := strings.CutPrefix(stem, p); ok && rest != "" {
			return rest, true
		}
	}
	for _, s := range testSuffixes {
		if rest, ok := strings.CutSuffix(stem, s); ok && rest != "" {
			return rest, true
		}
	}
	return "", false
}

// isTestName reports whether a file's name reads as a test's.
func isTestName(base string) bool {
	stem, _ := splitExt(base)
	_, ok := testedName(stem)
	return ok || strings.HasPrefix(stem, "test") || strings.HasSuffix(stem, "test")
}

// kinFirst orders kin readings best first (the index's order between
// equals) and keeps limit.
func kinFirst(cs []Candidate, limit int) []Candidate {
	slices.SortFunc(cs, func(a, b Candidate) int {
		if a.Score != b.Score {
			if a.Score > b.Score {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Path, b.Path)
	})
	return cs[:min(len(cs), limit)]
}
