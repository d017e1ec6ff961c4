package rank

// Confidence: what `resolved` promises. Every answer of find/resolvePath
// says on what basis its first candidate is first, and how often an
// answer on that basis is the file the asker meant — measured, not
// assumed, on real work: real sessions replayed from seven repositories'
// commits, real stale paths from their histories, and the public cases
// (docs/BENCHMARKS.md, "Trust"). `resolved` is set only when that share
// is at least ResolvedConfidence; below it the candidates come in their
// best order and nothing is resolved — a confident wrong answer costs an
// agent or an editor's gf more than a list.
//
// The figures are precisions observed per basis (and, for proximity, per
// strength), rounded down; each constant names its measurement.

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

// ResolvedConfidence: the share of answers right at or above which
// `resolved` is set (docs/API.md).
const ResolvedConfidence = 0.9

// Measured precisions, each the share of first candidates that were the
// file meant, on its basis.
const (
	confExact = 1.0
	// confHistory: stale paths with the repository's history, 90.2%
	// resolved and 0.3% wrong on the public set's real checkouts, none
	// wrong on five more repositories.
	confHistory = 0.99
	// confLexical: a reading clearly best that keeps the directories
	// written (all, their tail, or all but a prefix) or wrote none: real
	// stale paths read without history, 97.0% right (333 answers); the
	// public cases, 100%. confLexicalElsewhere: clearly best, but in other
	// directories than the ones written: 93.2% (309) — a same-named file
	// elsewhere is at times another file, and only the history can tell.
	confLexical          = 0.97
	confLexicalElsewhere = 0.93
	// confUnsupported: readings that do not stand alone, on real stale
	// paths without history: right about half the time.
	confUnsupported = 0.5
	// confSharedName: the root's copy of a bare name others share, asked
	// in real sessions with nothing saying where the user works.
	confSharedName = 0.85
	// confTie: the first of candidates nothing separates.
	confTie = 0.4
)

// settle sets res.Confidence from its basis and withdraws Resolved below
// ResolvedConfidence. It returns res.
func (res *ResolveResult) settle() *ResolveResult {
	switch res.Basis {
	case BasisExact:
		res.Confidence = confExact
	case BasisHistory:
		res.Confidence = confHistory
	case BasisLexical:
		res.Confidence = confLexical
		if res.elsewhere {
			res.Confidence = confLexicalElsewhere
		}
	case BasisUnsupported:
		res.Confidence = confUnsupported
	case BasisSharedName:
		res.Confidence = confSharedName
	case BasisNearer:
		res.Confidence = res.nearness.confidence()
	default:
		res.Confidence = confTie
	}
	if len(res.Candidates) == 0 && res.Gone == nil {
		res.Confidence = 0
	}
	if res.Confidence < ResolvedConfidence {
		res.Resolved = nil
	}
	return res
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

// A proximity decision is as strong as its lead in affinity and whether
// the repository's history agrees: on real sessions (visits, then visits
// with the current file) a first candidate ahead by nearLead that was
// committed with where the user works, while the runner-up was not, was
// the file meant 94.1% and 91.2% of the time (136 and 160 answers); ahead
// by nearLead alone, 83.3% and 71.2%; less, 64.0% and 60.0%. Directory
// nearness alone never reached 90% at any lead: people jump between
// areas, and the next file is often one they have not touched yet.
const (
	nearLead            = 0.3
	confNearCoCommitted = 0.9
	confNearLead        = 0.75
	confNear            = 0.6
)

// confidence of a proximity decision, by its strength.
func (n nearness) confidence() float64 {
	switch {
	case n.top-n.runner >= nearLead && n.topCo > 0 && n.runnerCo == 0:
		return confNearCoCommitted
	case n.top-n.runner >= nearLead:
		return confNearLead
	}
	return confNear
}

// Nearness is, for an answer on BasisNearer, the affinity of the first
// candidate and of the runner-up (0 otherwise): what benchmarks
// calibrate it by.
func (res *ResolveResult) Nearness() (top, runner, topCo, runnerCo float64) {
	n := res.nearness
	return n.top, n.runner, n.topCo, n.runnerCo
}

// Withhold takes back the answer for a reason the engine could not weigh
// (the repository's history still being read, a listing cut short):
// nothing is resolved, and the confidence is at most a tie's.
func (res *ResolveResult) Withhold() {
	res.Resolved = nil
	res.Confidence = min(res.Confidence, confTie)
}
