package rank

import "math"

// Every weight of the ranking, in one place (issue 55): the scores of
// each reading, the margins that make a lead count, and the tie-breaks
// beneath them. The rules that use them are described where they are
// computed (score.go's, find.go's and pathmatch.go's headers); this file
// holds the figures, so that a change of one is read beside all the
// others it must stay under or above. Two units order the rest:
//
//   - ResolveMargin, the least lexical lead that counts: nearness
//     (proxWeight) stays below it, so that no history overturns a better
//     reading, and an old path's reading must lead by it (staleLead).
//   - tieEps, find's tie-break step: the case typed, a test's place and
//     nearness (affinityBonus, activityBonus) are fractions of it, and
//     all of them together (maxLift) stay under the least gap between
//     two name classes (orderings_test.go pins it).

// ——— resolve: the lexical score and its margins (score.go) ———

// The lexical score (score.go's header): a name's reading, its
// directories' alignment (each directory of the query or the candidate
// left out inside the alignment costs dirInnerCost, each leading one —
// another machine's prefix — a tenth of it: exp(−penalty)).
const (
	ResolveMin = 0.6
	// nameWeight is the name's share of the lexical score when the query
	// has directories (they weigh the rest: a quarter); bareNameWeight is
	// a bare name's score, as if its directories half-agreed — they say
	// nothing either way.
	nameWeight     = 0.75
	bareNameWeight = nameWeight + (1-nameWeight)*0.5
	ResolveMargin  = 0.01
	// ProxMargin and proxLead are the proximity lead that breaks a lexical
	// tie (clearlyNearer): absolute, and relative.
	ProxMargin = 0.02
	proxLead   = 1.2
	// proxWeight is below ResolveMargin, so that proximity can reorder
	// only candidates whose names are lexically tied: no history makes a
	// case or typo reading outrank an exact one (orderings_test.go).
	proxWeight = 0.8 * ResolveMargin
)

// ——— the directory ladder: one for every reading of directories ———

// How well a directory name written stands for one of the tree's, and
// what a directory left out costs: one ladder for resolve's alignment of
// the directories written (score.go) and find's directory terms
// ("hpack/static", find.go), so that a directory reads the same whichever
// question names it. Each rung is a step less sure the name meant is this
// one; a directory typed as a part of a name (find's terms: "comp" for
// components/) reads the two partial rungs too, a path's directory
// written whole (resolve) names a whole one. Names whose numbers differ
// never meet on the typo rung: team0 is not team1, nor v1 v2.
const (
	dirSame     = 1.0
	dirCase     = 0.95 // the same but for case
	dirSquashed = 0.9  // the same once squashed (separators, case)
	dirPrefix   = 0.85 // the term begins the name (partial)
	dirInside   = 0.7  // the term is inside the name, minInnerRun bytes at least (partial)
	dirTypo     = 0.7  // one edit apart, the same numbers
	// dirInnerCost: each directory left out inside a reading (between two
	// it reads, or between the last and the file) multiplies the
	// directories' agreement by exp(−dirInnerCost), about ¾ — a sum of
	// costs, not a ratio, so that one wrong directory costs as much in a
	// 15-level Java path as in a 3-level one. dirLeadCost: a leading one
	// (another machine's prefix) a tenth of it.
	dirInnerCost = 0.3
	dirLeadCost  = dirInnerCost / 10
)

// The stem ladder of score.go's header: the same but for case, the same once
// squashed.
const (
	stemCase  = 0.98
	stemStyle = 0.94
)

// typoTop is what a one-edit typo in an endlessly long name scores.
const typoTop = 0.92

// typoScore's costs: each edit past the first, and every edit spread
// over the name's length, so that longer names tolerate more.
const (
	typoEditCost   = 0.10
	typoLengthCost = 0.30
)

// extAdded is extAffinity's score when the query wrote no extension;
// extLanguage of two programming languages' extensions.
const (
	extCaseAffinity = 0.98
	extAdded        = 0.9
	extLanguage     = 0.88
)

// extOther is extAffinity's floor: two unrelated extensions.
const extOther = 0.7

// extFamilyAffinity is extAffinity's score of two extensions of one
// family (js and ts, c and h).
const extFamilyAffinity = 0.93

// staleLead: how far an old path's reading must lead today's best to
// decide — the resolve margin, the one gap below which two readings are
// a tie.
const staleLead = ResolveMargin

// dirMoveShare: the share of a directory's followed files that must have
// gone to one directory for the directory to have moved there.
const dirMoveShare = 2.0 / 3

// kinScale puts a kin reading's score below any reading of the name
// (ResolveMin): its share of the words, or of the commits, scaled.
const kinScale = 0.5

// kinAbbreviated is what a word written in full for an abbreviation (or
// the reverse: python for py) counts beside a word written alike, and
// kinShortest the fewest letters of the shorter word that make one.
const (
	kinAbbreviated = 0.5
	kinShortest    = 2
)

// kinUbiquitous: a word more than this share of the directory's names
// have says nothing of which one is meant (test in tests/), once the
// directory has kinUbiquitousFrom names or more.
const (
	kinUbiquitous     = 0.5
	kinUbiquitousFrom = 4
)

// ResolvedConfidence: the share of answers right at or above which
// `resolved` is set (docs/API.md): an answer an agent or an editor acts
// on without looking must be right 99 times in 100 on repositories
// nobody tuned to.
const ResolvedConfidence = 0.99

// nearLead: the lead in affinity that makes a proximity decision clear.
// People jump between areas, and the next file is often one they have
// not touched yet: nearness orders the candidates, and only its classes'
// measured shares say how far.
const nearLead = 0.3

// ——— where the user works: nearness, the visits, the user's commits, activity (affinity.go, activity.go) ———

// proximity (score.go): each level the candidate lies outside the
// reference's ancestry halves it, each level the reference lies below
// their common ancestor costs a fifth.
const (
	proxOutside = 0.5
	proxBelow   = 0.8
	// maxProxSteps: past this many levels proximity is all but nothing.
	maxProxSteps = 32
)

// recencyStep: in a list of files without times (a request's own
// history, most recent last), each file weighs half the next, so the
// latest counts as much as all before it together.
const recencyStep = 0.5

// coWeight: co-change's weight beside directory proximity in a file's
// affinity, (proximity + coWeight × co-change) ÷ (1 + coWeight). Chosen
// on real sessions (the weight's commit has the figures): a file
// committed with what the user touched is as telling as a third of a
// directory's nearness, not more.
const coWeight = 0.5

// The user's own commits (Authorship): the files of the latest
// vcs.AuthoredCommits commits the user made, the whole tree's left out
// (vcs.AuthoredCommitFiles); the latest weighs 1 and each before it
// authoredStep of the one after, so that the weight halves every
// authoredHalfLife commits — a file committed a month ago says less about
// today's work than one committed an hour ago, but more than a file never
// touched. A file weighs the sum of its commits' (of caps it at 1).
// authoredHalfLife: a few weeks of one person's commits; on the tuning
// half's sessions 23 and 69 did alike, 7 and 3 worse.
const authoredHalfLife = 23

var authoredStep = math.Exp2(-1.0 / authoredHalfLife)

// authoredWeight: the user's own commits' weight beside directory
// proximity and co-change in a file's affinity, when the request brings
// them: (proximity + coWeight × co-change + authoredWeight × authored) ÷
// (1 + coWeight + authoredWeight). As much as the directories' nearness:
// on the tuning half's real sessions half of it did worse, twice or four
// times no better.
const authoredWeight = 1

// activityHalf: the commits at which a file's activity is ½ (activity.go);
// on the tuning half's real sessions the order it gives barely moved
// between 2 and 32.
const activityHalf = 8

// activityWeight is activity's weight beside nearness (whose own weight
// is 1). At most 1: nearness and activity together must stay below the
// smallest gap between two name classes (proxWeight × (1 +
// activityWeight) < the exact → case gap; orderings_test.go). Chosen on
// the tuning half's real sessions, where activity alone ordered a
// lexical tie better than a slight lead in nearness did.
const activityWeight = 1

// activityNearShare is activity's share of activityWeight when the
// request says where the user works (activityShare): their own places
// are the better evidence. At full weight, activity put the copy
// everyone edits (the root's CHANGELOG.md) before the one the user had
// just committed to. On the tuning half's real sessions a half did best,
// a quarter and three quarters worse, the whole worst.
const activityNearShare = 0.5

// ——— find's tie-break among copies, learned from the repository's own work (tieweights.go) ———

// defaultTieWeights: nearness whole, activity its share where the user
// works (activityNearShare) — what a repository with too little recent
// work to replay, or none, gets.
var defaultTieWeights = tieWeights{1, activityNearShare * activityWeight}

// tieWeightsTried are the weightings a replay chooses among, the default
// first (a replay that cannot tell them apart keeps it): activity's
// share of nearness from none to all of the order, and neither (the
// shorter path first: a tree whose conventions place the live copy
// highest). Only their ratio orders copies of one name (the test
// penalty and the case bonus are larger than both together), so the
// larger of the two is 1 — and their sum stays within maxLift.
var tieWeightsTried = []tieWeights{defaultTieWeights, {1, 0}, {1, 0.25}, {1, 1}, {0.5, 1}, {0.25, 1}, {0, 1}, {0, 0}}

// minReplayQuestions: a replay of fewer questions keeps the default — a
// weighting chosen on a handful of answers is chance.
const minReplayQuestions = 30

// maxReplayCopies: a name shared by more files is a convention (every
// package's __init__.py), not a question a person asks by name — neither
// replayed (tieweights.go) nor put to the fitted order (copyorder.go),
// which was fitted on questions of 2 to this many copies.
const maxReplayCopies = 40

// maxReplayQuestions bounds a replay's questions (the latest first): a
// thousand tell weightings a few points apart, and the replay is paid
// by the first find that needs it.
const maxReplayQuestions = 1000

// replayVisitCommits: the author's previous commits that stand for their
// visits — a session's worth.
const replayVisitCommits = 3

// replayMargin is how many more of a replay's n questions a weighting
// must answer than the default to replace it: ½√n, about the spread of
// the difference between two orders' counts by chance. On the tuning
// half's sessions no margin, 1, 2, 1% or 2% of the questions followed
// noise (more repositories below their best baseline), √n kept the
// default where another weighting was better.
func replayMargin(n int) float64 { return math.Sqrt(float64(n)) / 2 }

// ——— find: the name classes and the tie-breaks (find.go, typo.go, symbols.go, pathmatch.go) ———

// findCover is the share of a literal name class that cover decides.
const findCover = 0.15

// The name classes of find.go's header table.
var (
	findExact       = scoreClass{"name:exact", 1, 1}
	findPrefix      = scoreClass{"name:prefix", 0.80, 0.80 + findCover}
	findWords       = scoreClass{"name:words", 0.78, 0.78 + findCover}
	findWordStart   = scoreClass{"name:substring", 0.75, 0.75 + findCover}
	findWordsInside = scoreClass{"name:words", 0.70, 0.70 + findCover}
	findInitials    = scoreClass{"name:initials", 0.64, 0.64 + findCover}
	findInner       = scoreClass{"name:substring", 0.60, 0.60 + findCover}
	findTypo        = scoreClass{"typo:filename", findTypoWeight * typoFloor(), typoCeiling}
	findFuzzy       = scoreClass{"name:fuzzy", 0.30, 0.50}
	// findClasses is the table, best first.
	findClasses = []scoreClass{findExact, findPrefix, findWords, findWordStart, findWordsInside,
		findInitials, findInner, findTypo, findFuzzy}
)

// initialsSkipCost is taken off an initials reading for each word of the
// stem it skips: a reading of consecutive words is the likelier one.
const initialsSkipCost = 0.03

// DefaultThreshold drops matches that only a subsequence explains.
const DefaultThreshold = 0.3

// maxLift is the most tieBreak, nearness and activity add to a score.
const maxLift = caseBonus + affinityBonus + activityBonus

// Tie-breaks between otherwise equal matches, each smaller than any gap
// the scorer means (its classes are 0.02 or more apart, and output is
// rounded to 0.001): the file whose name has the query's exact case wins
// ("Lists.php" → lib/Lists.php before lists.php), a test, fixture or
// generated file never outranks the source file it stands beside (unless
// the user works among tests: affinity.go's amongAux), and among the rest
// the file nearer where the user works comes first — weaker evidence
// than the case typed, so at most half a step.
const (
	tieEps        = 0.002
	caseBonus     = tieEps
	auxPenalty    = 2 * tieEps
	affinityBonus = tieEps / 2
)

// activityBonus: the most activity (activity.go) adds beside nearness,
// as in resolve (activityShare is at most activityWeight).
const activityBonus = activityWeight * affinityBonus

// Directory terms ("hpack/static"): a file whose directories match them
// keeps dirTermsFloor of its name's score at the least and all of it when
// they match exactly, each directory left out costing what it costs
// resolve (the directory ladder); one whose directories miss a term keeps
// dirTermsMissed (the name is still evidence). The terms weigh 0.4 of the
// score, resolve's directories a quarter (nameWeight): a term is typed to
// choose among names — "boot/simple" means SimpleMainTests.java in boot/,
// not a simple.conf two directories below another boot/, which comes
// first at a quarter.
const (
	dirTermsFloor  = 0.6
	dirTermsMissed = 0.5
	// findExtFloor is what a file with the least related extension keeps.
	findExtFloor = 0.85
)

// implHeaderFactor ranks a header just below its implementation when the
// caller asks for implementations (--impl, "where is X implemented").
const implHeaderFactor = 0.95

// typoCeiling is the best score a typo reading of a name can get in find.
const typoCeiling = findTypoWeight * typoTop

// findTypoWeight puts typo readings below literal ones in find.
const findTypoWeight = 0.8

// memberListing is the score of every member "Router." lists: the query
// names no member, so none is a better answer than another.
const memberListing = 0.5

// symCover is the share of a literal symbol class that cover decides.
const symCover = 0.15

// Symbol readings of a find query. A file that defines a type named like
// the query is nearly as good an answer as a file of that name (the seed
// design scored a file name 20 and a symbol 15–18 of 20): classes and
// other types 0.90, functions 0.85, methods 0.80. Asked for the
// implementation, a file defining the methods of a type so named scores
// 0.92: the .cpp beside the header that declares the class.
const (
	symTypeScore   = 0.90
	symFuncScore   = 0.85
	symMemberScore = 0.80
	symImplScore   = 0.92
)

const (
	pathNameBase     = 0.56
	pathSpanBase     = 0.50
	pathDirBase      = 0.48
	pathQualityWidth = 0.24
	pathDirWidth     = 0.10
	pathEntryBonus   = 0.02
	// pathMaxSkips bounds the directories between the deepest one a
	// reading reads and the file that cost it (pathSkipCost).
	pathMaxSkips = 4
	// pathTypoCost puts a reading with an edit below the same reading
	// without one by more than any quality difference between neighbours.
	pathTypoCost = 0.05
	// pathCeiling is the best score any path reading can reach.
	pathCeiling = pathNameBase + pathQualityWidth

	qWhole, qRuns, qCover, qAdjacent, qStarts = 0.30, 0.25, 0.20, 0.15, 0.10

	// cutCost is the evidence an extra chunk must make up for: a chunk is
	// a guess at which word comes next. A reading needs minEvidence bytes
	// (or the whole token, if shorter): "bibaco" read as b|i|b|a|co over
	// one long name is noise, bi|ba|co over bind/BackCompatibility… is not.
	cutCost     = 1.5
	minEvidence = 2.5

	dirMinChunk = 2
	// maxDepth bounds the directories a reading walks up through.
	maxDepth = 128
	// maxPathToken keeps a token's positions 0..n in one uint64.
	maxPathToken = 63
	// maxPathTokens: a query of more words is a sentence, not a path.
	maxPathTokens = 8
)

// pathSkipCost is taken off a path reading for each directory between the
// deepest one it reads and the file (up to pathMaxSkips of them): the
// further the name lies from the directories typed, the less likely it is
// the file meant, so that "encodingjson" lists encoding/json/ before
// encoding/json/internal/jsontest/testdata/…json.zst. It is the directory
// ladder's cost of a directory left out, as resolve's lexical score pays
// it (the directories' share, 1 − nameWeight, times 1 − exp(−dirInnerCost)),
// on the best directory reading's score: about 0.04.
var pathSkipCost = (pathDirBase + pathDirWidth) * (1 - nameWeight) * (1 - math.Exp(-dirInnerCost))

// The DP's own objective, a sum over chunks that tracks quality: bytes
// read in the name are worth more than bytes read in directories (it is
// what "a match in the name" means), whole words and component starts
// earn their share, and each chunk costs what two bytes earn, so a cut
// into fewer chunks wins.
const (
	dpDirByte   = 1.0
	dpNameByte  = 1.25
	dpWholeByte = 0.5
	dpStart     = 0.5
	dpChunk     = 2.0
	// dpTypo: an edit inside a chunk costs what two whole-word bytes earn.
	dpTypo = 2 * (dpNameByte + dpWholeByte)
)

// The score bands of symbols.go's table, in its order (the word-start class has
// two: humps and abbreviations).
var (
	symNameBand        = scoreClass{"name", 0.97, 1}
	symPrefixBand      = scoreClass{"prefix", 0.80, 0.80 + symCover}
	symHumps           = scoreClass{"humps", 0.72, 0.72 + symCover}
	symAbbrev          = scoreClass{"abbreviation", 0.66, 0.66 + symCover}
	symSubstringBand   = scoreClass{"substring", 0.62, 0.62 + symCover}
	symTypoBand        = scoreClass{"typo", 0.50, 0.50}
	symSkipping        = scoreClass{"abbreviation leaving words out", 0.40, 0.48}
	symTypoPrefixBand  = scoreClass{"typo of a prefix", 0.38, 0.38}
	symSubsequenceBand = scoreClass{"subsequence", 0.20, 0.35}
	// symClassTable is the table; symBandClass the class of each band.
	symClassTable = []scoreClass{symNameBand, symPrefixBand, symHumps, symAbbrev, symSubstringBand,
		symTypoBand, symSkipping, symTypoPrefixBand, symSubsequenceBand}
	symBandClass = []int{symTheName, symPrefix, symWords, symWords, symSubstring,
		symTypo, symSkippingAbbrev, symTypoPrefix, symSubsequence}
)

// ——— locate: the cascade's evidence (locate.go) ———

// Asked where something is implemented, a header or a test named for it
// is weaker evidence than its source file (on top of Find's own 0.95 for
// headers): "replay_test.cpp" is where replay is exercised, not written.
const (
	implHeader = 0.9
	implTest   = 0.9
)

// implementationLift: asked for the implementation, the file found as the
// header's counterpart is the answer, so it goes just above the header it
// was found from (and no further: the lift is a tie-break's size).
const implementationLift = 0.02

// DefaultMinConfidence is the evidence at which the cascade stops.
const DefaultMinConfidence = 0.7

// confidenceFloor is the share of its score the top result keeps as
// confidence when a rival scores the same; a lead of 0.1 or more keeps
// all of it (the margin is the lead × 10, at most 1).
const confidenceFloor = 0.6

// Evidence of locate's own steps, on the scale of symbolEvidence.
const (
	// locateSymbolLift puts a definition named by the term above a file
	// whose name merely resembles it: on find's scale plus this, a type
	// 0.95, a function 0.90, a member 0.85, the file defining a type's
	// methods 0.97.
	locateSymbolLift = 0.05
	// otherCase: a definition named in another case or spelling than the
	// one written ("withAttrs" asked, "WithAttrs" defined) is another
	// thing, unless the question was written as lower-case words.
	// Alone it is never confident (a type's 0.95 becomes 0.67): the
	// name as written may still be declared where no parser looks.
	otherCase = 0.7
	// definedInTest: a definition in a test file (or a stub declaring
	// what is defined elsewhere) loses ties to one in source, but alone
	// it is still the answer.
	definedInTest = 0.97
	// fileNamed is a file named the term itself (stem, or last directory
	// and stem): as good as a type's definition, ahead of one when they
	// agree (the .cpp beside the header declaring the class). When a
	// definition of that name is in another file, the file is ranked
	// rivalBelow under it: the definition first, neither confident (a
	// lead of 0.03 keeps 0.72 of the score). fileLike is the share of Find's score a file whose name
	// merely resembles the term keeps, below any confident answer.
	fileNamed  = symTypeScore + locateSymbolLift + 0.01
	rivalBelow = 0.03
	fileLike   = 0.65
	// A phrase found as written: quoted, it is exactly what was asked
	// (as good as a definition); unquoted, the question's words as they
	// stand are less certainly a quotation. In another case, each less.
	phraseQuoted   = 0.95
	phraseUnquoted = 0.9
	// phraseInContext: quoted text found with the words around it in
	// the question — more specific than the quotation alone.
	phraseInContext = phraseQuoted + 0.02
	phraseFolded    = 0.05
	// minPhraseWords: an unquoted body is searched as a phrase only when
	// it is this long — shorter, it is a name's words ("cursor binary"),
	// which the words step finds joined or apart.
	minPhraseWords = 4
	// droppedWords is what a definition matched by a reading that
	// dropped some of the body's words keeps: below a phrase found as
	// written (0.95 × 0.9 < phraseUnquoted).
	droppedWords = 0.9
)

// Content evidence: a file mentioning the name scores contentMention plus
// contentPerMatch a match up to contentMatches (0.80 at most, tied with a
// declaration only by a file that uses the name five times or more); a
// file whose match declares it, contentDeclares — what a parser would
// have found, had it looked (a struct's field, a YAML key).
const (
	contentMention  = 0.55
	contentPerMatch = 0.05
	contentMatches  = 5
	contentDeclares = 0.8
	// contentDeclaresUse breaks ties between declarations by use, too
	// little to make a rival's declaration confident by itself.
	contentDeclaresUse = 0.005
)

// symbolNameShare: resolve reads a file found through a symbol its path
// names as a name match a little below a file named exactly so.
const symbolNameShare = 0.85

// alternateExtStep orders a header's or source's alternates of equal
// directory nearness by their extension's place in the list (alternate.go):
// a step far below any difference of nearness.
const alternateExtStep = 0.001

// The rerank's band (rerank.go, RerankOptions' defaults): the model is
// asked when the top leads by less than rerankMargin, about the
// candidates within it (at most rerankRatio of the files), its score
// weighing rerankWeight beside the lexical one.
const (
	rerankMargin = 0.05
	rerankWeight = 0.3
	rerankRatio  = 0.05
)
