package rank

// Confidence: what `resolved` promises. Every answer of find/resolvePath
// says on what basis its first candidate is first, of which class of
// answers it is, and how often an answer of that class is the file the
// asker meant — measured, not assumed, on real work in repositories no
// rule was tuned on: real stale paths from their own histories, real
// broken links from their documents, real sessions replayed from their
// commits (docs/BENCHMARKS.md, "Resolve a stale, mistyped or foreign path"). `resolved` is set only when
// that share is at least ResolvedConfidence; below it the candidates come
// in their best order and nothing is resolved — a confident wrong answer
// costs an agent or an editor's gf more than a list.

// Basis is the rule that put the first candidate first.
type Basis string

const (
	// BasisExact: the path names the file as written (from a root, from
	// the referring document, absolute) and no other file shares a bare
	// name's reading.
	BasisExact Basis = "exact"
	// BasisSharedName: a bare name that a root's file has exactly, but
	// other files of the tree have too (package.json in a monorepo), and
	// nothing says the user works near another copy.
	BasisSharedName Basis = "shared-name"
	// BasisHistory: the repository's history followed an old path to
	// today's file, or says it was deleted (rank/stale.go).
	BasisHistory Basis = "history"
	// BasisLexical: the path reads clearly better as this file than as
	// any other (by ResolveMargin).
	BasisLexical Basis = "lexical"
	// BasisUnsupported: it is first, by its reading or its nearness, but
	// its reading does not stand alone (standsAlone: another kind of
	// file, or none of the written directories kept).
	BasisUnsupported Basis = "unsupported"
	// BasisNearer: the path reads as well as this file as another; it is
	// clearly nearer where the user works.
	BasisNearer Basis = "nearer"
	// BasisTie: nothing separates it from the runner-up, or it reads too
	// poorly to be meant.
	BasisTie Basis = "tie"
)

// Class is a kind of answer: its basis and, where a basis has several
// strengths, which. Its confidence is the share of its answers whose
// first candidate was the file meant (for history/gone: whose deleting
// commit was the one named), measured on the held-out half of the
// calibration repositories (testdata/calibration/split.tsv; every rule
// was chosen on the other half), rounded down.
type Class string

const (
	ClassExact Class = "exact"
	// ClassHistoryMoved: the history followed an old path to today's file.
	ClassHistoryMoved Class = "history/moved"
	// ClassHistoryNear: the history followed an old path to today's
	// file, but the path as read was a near name of that old path (a
	// typo of it), not the path itself: what the history promises holds
	// for the paths it had.
	ClassHistoryNear Class = "history/near"
	// ClassHistoryTwoLives: the history followed an old path to today's
	// file, but the path was given to a later file since, deleted in
	// turn: which life the writer meant is when they wrote it.
	ClassHistoryTwoLives Class = "history/two-lives"
	// ClassHistorySplit: the history followed an old path to today's
	// file, but the rename that took it there changed its name while the
	// commit added other files beside it: the file was split, and the
	// part git paired it with is one of several.
	ClassHistorySplit Class = "history/split"
	// ClassHistoryGone: the history says the file was deleted.
	ClassHistoryGone Class = "history/gone"
	// ClassHistoryDocument: the reference, read from an earlier place of
	// the document it is written in (the document moved), names a file.
	ClassHistoryDocument Class = "history/document"
	// ClassLexical: clearly the best reading, in the directories written
	// (all, their tail, all but a prefix) or with none written.
	ClassLexical Class = "lexical"
	// ClassLexicalElsewhere: clearly the best reading, in other
	// directories than the ones written.
	ClassLexicalElsewhere Class = "lexical/elsewhere"
	// ClassLexicalExtension: clearly the best reading, the same
	// directories and stem with another extension of the family.
	ClassLexicalExtension Class = "lexical/extension"
	// ClassLexicalTail: the path written is the file's whole path behind
	// a prefix of the writer's (another machine's checkout).
	ClassLexicalTail Class = "lexical/tail"
	// ClassForeignTail: an absolute path outside the roots, behind a
	// prefix that names no root (/app/…, /workspace/…), read as its
	// longest tail of two or more components that is a file of today or
	// a path the history had (the request layer's rule: service/outside.go).
	ClassForeignTail Class = "foreign/tail"
	// ClassNearerCoCommitted: a lexical tie broken by a clear lead in
	// nearness (nearLead), the first committed with where the user works
	// and the runner-up not.
	ClassNearerCoCommitted Class = "nearer/co-committed"
	// ClassNearerLead: a lexical tie broken by a clear lead in nearness.
	ClassNearerLead Class = "nearer/lead"
	// ClassNearer: a lexical tie broken by a lead in nearness.
	ClassNearer Class = "nearer"
	// ClassSharedName: a bare name a root's file has, other files too.
	ClassSharedName Class = "shared-name"
	// ClassUnsupported: first, but its reading does not stand alone.
	ClassUnsupported Class = "unsupported"
	// ClassUnsupportedKin: no file read by the name; the first of its
	// kin (kin.go).
	ClassUnsupportedKin Class = "unsupported/kin"
	// ClassTie: nothing separates the first from the next.
	ClassTie Class = "tie"
)

// classConfidence is each class's held-out precision, rounded down
// (docs/BENCHMARKS.md, "Resolve a stale, mistyped or foreign path").
// history/gone names a deletion, never a
// file to act on; below ResolvedConfidence it is still said, with what
// was observed.
var classConfidence = map[Class]float64{
	ClassExact:           1,
	ClassHistoryMoved:    0.99,
	ClassHistoryDocument: 0.99,
	ClassHistoryNear:     0.99,
	// history/two-lives and history/split: too few answers on the
	// held-out half to promise anything (the calibration's truth reads
	// renames as git pairs them, blind to a split), and people's own
	// fixes found against them (docs/BENCHMARKS.md, "Resolve"): each
	// confidence is the lower end of the Wilson 95% interval of all the
	// evidence there is.
	ClassHistoryTwoLives:   0.34,
	ClassHistorySplit:      0.09,
	ClassLexicalTail:       0.99,
	ClassForeignTail:       0.99,
	ClassHistoryGone:       0.98,
	ClassLexicalExtension:  0.98,
	ClassLexical:           0.88,
	ClassNearerCoCommitted: 0.88,
	ClassLexicalElsewhere:  0.81,
	ClassSharedName:        0.77,
	ClassUnsupported:       0.71,
	// unsupported/kin: measured when it was made (issue 54), on the
	// held-out half's stale paths read without history.
	ClassUnsupportedKin: 0.55,
	ClassNearer:         0.62,
	ClassNearerLead:     0.51,
	ClassTie:            0.33,
}

// settle gives res its class (its verdict's, or ReadForeign's) and the
// class's confidence, and withdraws Resolved below ResolvedConfidence. It
// returns res.
func (res *ResolveResult) settle(class Class) *ResolveResult {
	res.class = class
	res.Confidence = classConfidence[class]
	if len(res.Candidates) == 0 && res.Gone == nil {
		res.Confidence = 0
	}
	if res.Confidence < ResolvedConfidence {
		res.Resolved = nil
	}
	return res
}

// Clear reports whether res's first answer (the resolved file, else the
// first candidate) is first for a reason of the path itself — its reading
// or the repository's history — rather than a tie, nearness alone, or a
// reading that does not stand alone: a best guess worth offering as one
// (a quick fix, the file listed from a skipped directory), resolved or
// not.
func (res *ResolveResult) Clear() bool {
	if res.Resolved != nil {
		return true
	}
	return len(res.Candidates) > 0 && res.Gone == nil && (res.Basis == BasisLexical || res.Basis == BasisHistory)
}

// Class is the class of answers res belongs to: a result no reading
// settled (the request layer's answer of nothing) is a tie's.
func (res *ResolveResult) Class() Class {
	if res.class == "" {
		return ClassTie
	}
	return res.class
}

// class is the class of the answers verdict v gives: by its basis, and
// the reading or the nearness it rests on.
func (v *verdict) class() Class {
	switch v.basis {
	case BasisExact:
		return ClassExact
	case BasisHistory:
		switch {
		case v.gone != nil:
			return ClassHistoryGone
		case v.reading == readDocument:
			return ClassHistoryDocument
		case v.reading == readNearOld:
			return ClassHistoryNear
		case v.reading == readTwoLives:
			return ClassHistoryTwoLives
		case v.reading == readSplit:
			return ClassHistorySplit
		}
		return ClassHistoryMoved
	case BasisLexical:
		switch v.reading {
		case readElsewhere:
			return ClassLexicalElsewhere
		case readExtension:
			return ClassLexicalExtension
		case readTail:
			return ClassLexicalTail
		}
		return ClassLexical
	case BasisNearer:
		n := v.nearness
		switch {
		case n.top-n.runner >= nearLead && n.topCo > 0 && n.runnerCo == 0:
			return ClassNearerCoCommitted
		case n.top-n.runner >= nearLead:
			return ClassNearerLead
		}
		return ClassNearer
	case BasisSharedName:
		return ClassSharedName
	case BasisUnsupported:
		if v.reading == readKin {
			return ClassUnsupportedKin
		}
		return ClassUnsupported
	}
	return ClassTie
}

// nearness is what a proximity decision rests on: the first candidate's
// affinity and the runner-up's, and how much of where the user works
// each was committed together with (affinity.go).
type nearness struct {
	top, runner     float64
	topCo, runnerCo float64
}

func nearnessOf(top, runner *Candidate) nearness {
	return nearness{top.prox, runner.prox, top.co, runner.co}
}

// Nearness is, for an answer on BasisNearer, the affinity of the first
// candidate and of the runner-up (0 otherwise): what benchmarks
// calibrate it by.
func (res *ResolveResult) Nearness() (top, runner, topCo, runnerCo float64) {
	n := res.nearness
	return n.top, n.runner, n.topCo, n.runnerCo
}

// ReadForeign makes res the answer for the tail of a path outside the
// roots read behind a foreign prefix: of ClassForeignTail, its
// confidence that class's.
func (res *ResolveResult) ReadForeign() {
	res.Exact = false
	res.settle(ClassForeignTail)
}

// Withhold takes back the answer for a reason the engine could not weigh
// (the repository's history still being read, a listing cut short):
// nothing is resolved, and the confidence is at most a tie's.
func (res *ResolveResult) Withhold() {
	res.Resolved = nil
	res.Confidence = min(res.Confidence, classConfidence[ClassTie])
}

// confident: the best of the sorted candidates is first for a reason,
// lexical or proximity — what a competing reading (the history's) must
// be measured against.
func confident(sorted []Candidate) bool {
	b, _ := lead(sorted)
	return b != BasisTie
}

// standsAlone reports whether a reading of a path that names no file may
// be the answer by itself, however far it leads: a stale path is as often
// a file renamed or rewritten as a file moved, and a same-named file
// elsewhere is then a confident wrong answer (measured on real renames:
// docs/BENCHMARKS.md, "Resolve a stale, mistyped or foreign path"). It may not when
//   - its extension is of another kind, one the tree has too
//     (gitweb.js is not gitweb.css; login.pyy is a typo of login.py);
//   - the query wrote directories that are places of this tree, it
//     keeps none of them, and its name — written exactly — is not one
//     that identifies a file by itself (distinctive): a name alone,
//     testing/tests/macros.rs, is not serde_core/src/macros.rs, while
//     services/StaticResourceJars.java is the one StaticResourceJars.java
//     wherever it went. Another machine's prefix of an absolute path is
//     not written by the user and does not count; directories the tree
//     has nowhere (a whole layer renamed away) say nothing against it.
//
// It stays a candidate; only history (rank/stale.go) or the user's
// nearness to it can then decide. (A third rule was measured and left
// out: a name many files share, not in the directory written — main.c,
// __init__.py — cost as many right answers as wrong ones it saved.)
func standsAlone(c *Candidate) bool {
	switch {
	case c.ev.otherKind:
		return false
	case c.ev.dirsWritten > 0 && c.ev.dirsMatched == 0 && c.ev.dirsKnown && !c.ev.distinctName:
		return false
	}
	return true
}

// lead says why the best of the sorted candidates is first (see
// score.go): a lexical lead of ResolveMargin, a lexical tie broken by
// being clearly nearer where the user works, or nothing (a tie, or a
// reading too poor to be meant).
func lead(sorted []Candidate) (Basis, nearness) {
	if len(sorted) == 0 {
		return BasisTie, nearness{}
	}
	top := sorted[0]
	if top.lexical < ResolveMin {
		return BasisTie, nearness{}
	}
	if len(sorted) == 1 {
		return BasisLexical, nearness{}
	}
	next := sorted[1]
	gapLex := top.lexical - next.lexical
	if gapLex >= ResolveMargin {
		return BasisLexical, nearness{}
	}
	if gapLex > -ResolveMargin && clearlyNearer(top.prox, next.prox) {
		return BasisNearer, nearnessOf(&top, &next)
	}
	return BasisTie, nearness{}
}
