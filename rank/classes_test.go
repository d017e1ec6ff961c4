package rank

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// headerClasses reads the class ladder of a header comment: the lines of
// file between the line containing from and the one containing to that
// begin with a score ("1.00", "0.80 + 0.15×cover", "0.54 – 0.74"), as
// floor and ceiling.
func headerClasses(t *testing.T, file, from, to string) [][2]float64 {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	i := strings.Index(s, from)
	j := strings.Index(s[max(i, 0):], to)
	if i < 0 || j < 0 {
		t.Fatalf("%s: no header between %q and %q", file, from, to)
	}
	line := regexp.MustCompile(`(?m)^//\t(?:\d)?\s*(\d\.\d\d)(?:\s+\+\s+(\d\.\d\d)×cover|\s+–\s+(\d\.\d\d))?\s`)
	var out [][2]float64
	for _, m := range line.FindAllStringSubmatch(s[i:i+j], -1) {
		floor, _ := strconv.ParseFloat(m[1], 64)
		ceil := floor
		if m[2] != "" {
			w, _ := strconv.ParseFloat(m[2], 64)
			ceil = floor + w
		} else if m[3] != "" {
			ceil, _ = strconv.ParseFloat(m[3], 64)
		}
		out = append(out, [2]float64{floor, ceil})
	}
	return out
}

// checkHeader fails when the header's ladder is not the table, to the
// header's two decimals.
func checkHeader(t *testing.T, header [][2]float64, table []scoreClass) {
	t.Helper()
	if len(header) != len(table) {
		t.Fatalf("the header lists %d classes, the table %d", len(header), len(table))
	}
	for i, c := range table {
		got := fmt.Sprintf("%.2f–%.2f", header[i][0], header[i][1])
		want := fmt.Sprintf("%.2f–%.2f", c.floor, c.ceiling)
		if got != want {
			t.Errorf("class %d (%s): the header says %s, the table %s", i, c.label, got, want)
		}
	}
}

func TestFindHeaderIsTheTable(t *testing.T) {
	checkHeader(t, headerClasses(t, "find.go", "The name classes, best first", "cover = len"), findClasses)
}

// Every ordering find.go's header states, from the constants.
func TestFindClassRules(t *testing.T) {
	literal := []scoreClass{findPrefix, findWords, findWordStart, findWordsInside, findInitials, findInner}
	minStep := 1.0
	for i := 1; i < len(literal); i++ {
		minStep = min(minStep, literal[i-1].floor-literal[i].floor)
	}
	checkRules(t, []rule{
		{"exact above all", findExact.floor > max(findPrefix.ceiling, pathCeiling, typoCeiling, findFuzzy.ceiling)},
		{"literal classes in order at equal cover", func() bool {
			for i := 1; i < len(literal); i++ {
				for _, cover := range []float64{0, 0.5, 1} {
					if literal[i-1].at(cover) <= literal[i].at(cover) {
						return false
					}
				}
			}
			return true
		}()},
		{"cover wider than the steps between floors", findCover > findPrefix.floor-findWordsInside.floor},
		{"a path reading never passes a name the query begins", pathCeiling <= findPrefix.floor},
		{"a path reading may pass a word-start substring of a long name", pathCeiling > findWordStart.floor},
		{"a typo never passes a word-start substring", typoCeiling < findWordStart.floor},
		{"a typo within budget scores the typo class", findTypo.floor > 0 && findTypo.floor < findTypo.ceiling},
		{"a subsequence is the last resort", findFuzzy.ceiling < min(findTypo.floor, findInner.floor)},
		{"the default threshold keeps every subsequence", DefaultThreshold <= findFuzzy.floor},
		{"tie-breaks never cross a class", caseBonus+auxPenalty+affinityBonus < minStep},
	})
}

func TestSymbolHeaderIsTheTable(t *testing.T) {
	checkHeader(t, headerClasses(t, "symbols.go", "orders matches by class, best first", "The class decides first"), symClassTable)
}

// Every ordering symbols.go's header states, from the constants.
func TestSymbolClassRules(t *testing.T) {
	checkRules(t, []rule{
		{"the table's bands are in the order of their classes", slices.IsSorted(symBandClass) && len(symBandClass) == len(symClassTable)},
		{"every class has a band", symBandClass[len(symBandClass)-1] == symClasses-1},
		{"scores fall with the classes", func() bool {
			for i := 1; i < len(symClassTable); i++ {
				if symClassTable[i].floor >= symClassTable[i-1].floor || symClassTable[i].ceiling > symClassTable[i-1].ceiling {
					return false
				}
			}
			return true
		}()},
		{"typos need minOneTypo letters, as the header says (4)", minOneTypo == 4},
	})
}

// The orderings score.go's header states for resolve's name ladder.
func TestResolveLadderRules(t *testing.T) {
	checkRules(t, []rule{
		{"stem: exact over case over style over any typo", 1 > stemCase && stemCase > stemStyle && stemStyle > typoTop},
		{"extension: same over case over family over none written over another language over anything else",
			1 > extCaseAffinity && extCaseAffinity > extFamilyAffinity && extFamilyAffinity > extAdded && extAdded > extLanguage && extLanguage > extOther},
		{"a file found through a symbol stays in the extension family asked for", symbolExtFloor > extLanguage && symbolExtFloor <= extAdded},
		{"nearness never overturns a lexical lead", proxWeight < ResolveMargin},
		{"nearness never crosses the step from exact to case", proxWeight < (1-stemCase)*bareNameWeight},
	})
}

// headerSays fails unless file's text holds each phrase, written from the
// constants: the numbers the header comments quote stay the code's.
func headerSays(t *testing.T, file string, phrases ...string) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range phrases {
		if !strings.Contains(string(src), p) {
			t.Errorf("%s does not say %q", file, p)
		}
	}
}

func TestResolveHeaderIsTheConstants(t *testing.T) {
	headerSays(t, "score.go",
		fmt.Sprintf("%.2f  identical but for case", stemCase),
		fmt.Sprintf("%.2f  identical once squashed", stemStyle),
		fmt.Sprintf("%.2f − %.2f×(d−1) − %.2f×d/len", typoTop, typoEditCost, typoLengthCost),
		fmt.Sprintf("%.2f case; %.2f same family", extCaseAffinity, extFamilyAffinity),
		fmt.Sprintf("%.2f the query had none; %.2f any two", extAdded, extLanguage),
		fmt.Sprintf("%.2f otherwise", extOther),
	)
}

func TestLocateHeaderIsTheConstants(t *testing.T) {
	headerSays(t, "locate.go",
		fmt.Sprintf("a type %.2f, a function %.2f, a member %.2f", symTypeScore+locateSymbolLift, symFuncScore+locateSymbolLift, symMemberScore+locateSymbolLift),
		fmt.Sprintf("defines a type's methods %.2f", symImplScore+locateSymbolLift),
		fmt.Sprintf("as good as a definition (%.2f)", fileNamed),
		fmt.Sprintf("(%.2f: a rival", fileNamed-rivalBelow),
		fmt.Sprintf("%.2f + %.2f per match up to five", contentMention, contentPerMatch),
	)
}

// Every ordering locate.go states of its evidence, from the constants.
func TestLocateLadderRules(t *testing.T) {
	typeDef, fnDef, memberDef := symTypeScore+locateSymbolLift, symFuncScore+locateSymbolLift, symMemberScore+locateSymbolLift
	implDef := symImplScore + locateSymbolLift
	checkRules(t, []rule{
		{"a type over a function over a member", typeDef > fnDef && fnDef > memberDef},
		{"the file defining a type's methods over the type, asked for the implementation", implDef > typeDef},
		{"a file named the term is as good as a type's definition, below the implementation", fileNamed > typeDef && fileNamed < implDef},
		{"a rival's file goes under the definition", fileNamed-rivalBelow < typeDef},
		{"a file merely named like the term never stops the cascade", fileLike < DefaultMinConfidence},
		{"a definition in another case is never confident alone", otherCase*typeDef < DefaultMinConfidence},
		{"a definition in a test is still the answer alone", definedInTest*memberDef >= DefaultMinConfidence},
		{"a reading that dropped words goes below a phrase as written", droppedWords*typeDef < phraseUnquoted},
		{"quoted text in its context over the quotation alone", phraseInContext > phraseQuoted && phraseQuoted > phraseUnquoted},
		{"a mention alone is not confident", contentMention+contentPerMatch < DefaultMinConfidence},
		{"five mentions tie a declaration", contentMention+contentPerMatch*contentMatches == contentDeclares},
		{"use never makes a declaration confident over a rival", contentDeclaresUse*contentMatches < 0.1},
		{"a header under its implementation", implHeader < 1 && implHeader*typeDef < typeDef},
		{"the implementation found from its header goes above it", implementationLift > 0 && implHeader < 1},
	})
}

// orderRule is one documented ordering as a case: for query, first is
// listed before second.
type orderRule struct{ rule, query, first, second string }

// check fails unless first is listed (first of all, when top) and second
// is not listed before it (and is listed, when listed; second "" asks
// nothing of it).
func (c orderRule) check(t *testing.T, got []string, top, listed bool) {
	t.Helper()
	i, j := slices.Index(got, c.first), slices.Index(got, c.second)
	if i < 0 || top && i != 0 || c.second != "" && (j >= 0 && j < i || listed && j < 0) {
		t.Errorf("%s: %q = %v, want %s first, before %s", c.rule, c.query, got, c.first, c.second)
	}
}

// rule is one documented ordering, read from the constants.
type rule struct {
	name string
	ok   bool
}

// checkRules fails naming each rule that does not hold.
func checkRules(t *testing.T, rules []rule) {
	t.Helper()
	for _, r := range rules {
		if !r.ok {
			t.Errorf("rule broken: %s", r.name)
		}
	}
}
