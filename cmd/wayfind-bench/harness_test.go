package main

import (
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"wayfind/hook/claudetest"
)

func TestReadCases(t *testing.T) {
	cases, err := readCases("testdata/cases.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 3 || cases[0].ID != "f1" || cases[2].Expected != nil || *cases[1].Expected != "a/b.go" {
		t.Fatalf("cases: %+v", cases)
	}
	names, by := groupCases(cases, "")
	if !slices.Equal(names, []string{"a", "b"}) || len(by["a"]) != 2 || len(by["b"]) != 1 {
		t.Errorf("grouped: %v %v", names, by)
	}
	if names, _ := groupCases(cases, "b"); !slices.Equal(names, []string{"b"}) {
		t.Errorf("only b: %v", names)
	}
	if _, err := readJSONLines[benchCase](strings.NewReader("{\"id\":1}\n"), "x.jsonl"); err == nil || !strings.Contains(err.Error(), "x.jsonl") {
		t.Errorf("a bad line: %v, want an error naming the file", err)
	}
}

func TestReadCalibrationData(t *testing.T) {
	cases, err := readCalCases("testdata/stale.jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 2 || cases[1].Category != "real_renamed" || *cases[1].Expected != "new/z.go" || cases[1].DeletedIn != nil {
		t.Errorf("cases: %+v", cases)
	}
	repos, err := readSplit("testdata/split.tsv")
	if err != nil {
		t.Fatal(err)
	}
	want := []calRepo{{repo: "owner/one", lang: "Go", head: "abc", half: "tuning"}, {repo: "owner/two", lang: "Rust", head: "def", half: "held-out"}}
	if !slices.Equal(repos, want) || repos[0].name() != "owner__one" {
		t.Errorf("split: %+v", repos)
	}
	if _, err := readSplit("testdata/split-bad.tsv"); err == nil {
		t.Error("a short line of the split was read")
	}
}

func TestReadCorpus(t *testing.T) {
	for _, c := range []struct {
		base string
		want []string
	}{
		{"testdata/tiny", []string{"a/b.go", "src/x.py"}},
		{"testdata/zipped", []string{"docs/a.md"}},
	} {
		got, err := readCorpus(c.base)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%s: %v %v, want %v", c.base, got, err, c.want)
		}
	}
	if _, err := readCorpus("testdata/none"); err == nil {
		t.Error("a missing corpus was read")
	}
}

// TestTallyOutcomes pins what each column counts: top-1 is the resolved
// file (or nothing resolved when nothing is meant), first the resolved
// file else the first candidate.
func TestTallyOutcomes(t *testing.T) {
	meant := "a/b.go"
	c := func(kind, cat string, expected *string) benchCase {
		return benchCase{Kind: kind, Category: cat, Expected: expected}
	}
	all := []outcome{
		{c: c("resolve", "typo", &meant), first: "a/b.go", at5: true, elapsed: time.Millisecond},                                // offered first, not resolved
		{c: c("resolve", "typo", &meant), top1: true, first: "a/b.go", got: "a/b.go", at5: true, elapsed: 3 * time.Millisecond}, // resolved right
		{c: c("resolve", "typo", &meant), wrong: true, got: "c/b.go", first: "c/b.go", elapsed: 2 * time.Millisecond},           // resolved wrong
		{c: c("resolve", "nonexistent", nil), top1: true, at5: true},                                                            // nothing, rightly
		{c: c("find", "words", &meant), top1: true, first: "a/b.go", at5: true, fzfTop1: true},                                  // find's first match
		{c: c("find", "words", &meant), first: "x.go", at5: true},                                                               // in the top 5 only
	}
	cats, kinds := tallyOutcomes(all)
	if !slices.Equal(cats.keys, []string{"resolve/typo", "resolve/nonexistent", "find/words"}) {
		t.Errorf("order %v", cats.keys)
	}
	typo := cats.by["resolve/typo"]
	if typo.n != 3 || typo.right != 1 || typo.first != 2 || typo.wrong != 1 || typo.at5 != 2 || quantile(typo.lat, 0.5) != 2*time.Millisecond {
		t.Errorf("resolve/typo: %+v", *typo)
	}
	if r := kinds.by["resolve"]; r.n != 4 || r.right != 2 || r.first != 3 || r.wrong != 1 {
		t.Errorf("resolve: %+v", *r)
	}
	if f := kinds.by["find"]; f.n != 2 || f.right != 1 || f.first != 1 || f.at5 != 2 || f.fzf != 1 {
		t.Errorf("find: %+v", *f)
	}
}

// TestTally pins each column: acted-on precision counts what was acted on
// and not wrong; a row's keys keep the order they were first met unless
// sorted.
func TestTally(t *testing.T) {
	var ts tallies[string]
	ts.add(mark{right: true, first: true, acted: true}, "b", "all")
	ts.add(mark{wrong: true, acted: true}, "a", "all")
	ts.add(mark{right: true, first: true}, "a", "all") // right with nothing acted on: nothing was meant
	ts.add(mark{none: true, first: true}, "b", "all")
	all := ts.by["all"]
	if all.n != 4 || all.right != 2 || all.wrong != 1 || all.first != 3 || all.acted != 2 || all.actedRight != 1 || all.none != 1 {
		t.Errorf("all: %+v", *all)
	}
	if all.precision() != "50.0%" {
		t.Errorf("precision %s", all.precision())
	}
	if !slices.Equal(ts.keys, []string{"b", "all", "a"}) || !slices.Equal(ts.sorted(cmp.Compare[string]), []string{"a", "all", "b"}) {
		t.Errorf("keys %v", ts.keys)
	}
}

func TestParseSizes(t *testing.T) {
	if got, err := parseSizes("56970, 250000,1000000"); err != nil || !slices.Equal(got, []int{56970, 250000, 1000000}) {
		t.Errorf("%v %v", got, err)
	}
	for _, bad := range []string{"", "10,x", "-5", "0"} {
		if _, err := parseSizes(bad); err == nil {
			t.Errorf("%q read as sizes", bad)
		}
	}
}

func TestJudgeAgent(t *testing.T) {
	for _, c := range []struct {
		read, result string
		want         agentOutcome
	}{
		{"/t/new/x.go", "", agentRead},
		{"/t/other.go", "", agentOther},
		{"", "wayfind: old/x.go is not there. Candidates, best first:\n1. /t/new/x.go (name:exact)\n2. /t/y.go (…)", agentNamed},
		{"", "wayfind: old/x.go is not there. Candidates, best first:\n1. /t/y.go (name:exact)", agentNothing},
		{"", "File does not exist.", agentNothing},
		// Said after a refusal (Gemini CLI's BeforeModel): the file named.
		{"", `{"error":"Path not in workspace"}` + noteMark + "wayfind: /home/u/old/x.go moved to /t/new/x.go in abc1234 (2024-01-01) \"m\" (the path was refused)", agentNamed},
		{"", `{"error":"Path not in workspace"}` + noteMark + "wayfind: /home/u/old/x.go is /t/y.go (the path was refused)", agentNothing},
		// The same words in the call's own answer are no note.
		{"", "wayfind: /home/u/old/x.go moved to /t/new/x.go", agentNothing},
	} {
		if got := judgeAgent("/t", "new/x.go", c.read, c.result); got != c.want {
			t.Errorf("read %q, result %q: %v, want %v", c.read, c.result, got, c.want)
		}
	}
}

func TestSampleByCategory(t *testing.T) {
	s := func(v string) *string { return &v }
	var cases []calCase
	for i := range 5 {
		cases = append(cases, calCase{ID: "m" + string(rune('0'+i)), Category: "moved", Expected: s("x")})
	}
	cases = append(cases, calCase{ID: "r0", Category: "renamed", Expected: s("y")}, calCase{ID: "d0", Category: "deleted", Expected: s("")})
	got := sampleByCategory(cases, 4)
	cats := map[string]int{}
	for _, c := range got {
		cats[c.Category]++
	}
	if len(got) != 4 || cats["renamed"] != 1 || cats["moved"] != 3 || cats["deleted"] != 0 {
		t.Errorf("sample: %+v", got)
	}
	if again := sampleByCategory(cases, 4); !slices.EqualFunc(got, again, func(a, b calCase) bool { return a.ID == b.ID }) {
		t.Error("the sample is not the same twice")
	}
}

// TestEverySubcommandParsesHelp: each subcommand has its own flags and
// answers -h without running.
func TestEverySubcommandParsesHelp(t *testing.T) {
	for name, sc := range subcommands {
		if sc.help == "" {
			t.Errorf("%s has no help", name)
		}
		if err := sc.run([]string{"-h"}); err == nil {
			t.Errorf("%s -h ran", name)
		}
	}
}

// TestImagesRead: an image a Read returned is the file the hook
// rewrote that Read to; other reads stand.
func TestImagesRead(t *testing.T) {
	script := []claudetest.Call{
		{Name: "Read", Input: map[string]any{"file_path": "/t/old.png"}},
		{Name: "Read", Input: map[string]any{"file_path": "/t/old.go"}},
		{Name: "Read", Input: map[string]any{"file_path": "/t/asis.png"}},
	}
	read := []string{claudetest.ImageRead, "/t/new.go", claudetest.ImageRead}
	got := imagesRead(script, read, map[string]string{"/t/old.png": "/t/new.png", "/t/old.go": "/t/new.go"})
	if want := []string{"/t/new.png", "/t/new.go", ""}; !slices.Equal(got, want) {
		t.Errorf("imagesRead = %q, want %q", got, want)
	}
}

// TestChatReads: an opencode or Copilot CLI read reads the file the
// hook rewrote it to when the message shows one of that file's lines,
// numbered as the harness numbers them, from wherever its range began;
// not when the message is a refusal or shows none of them.
func TestChatReads(t *testing.T) {
	dir := t.TempDir()
	to := filepath.Join(dir, "new.go")
	os.WriteFile(to, []byte("package a\n\nfunc A() {\n\treturn\n}\n"), 0o644)
	bin := filepath.Join(dir, "b.bin")
	os.WriteFile(bin, []byte("\x00\x01 binary\n"), 0o644)
	script := []claudetest.Call{}
	rewrote := map[string]string{}
	for _, p := range []string{"/old/a.go", "/old/a.go:3", "/old/b.go", "/old/c.go", "/old/d.bin", "/old/e.go"} {
		script = append(script, claudetest.Call{Name: "Read", Input: map[string]any{"file_path": p}})
		rewrote[p] = to
	}
	rewrote["/old/d.bin"] = bin
	delete(rewrote, "/old/e.go")
	results := []string{
		"00001| package a\n00002| \n00003| func A() {",              // opencode's numbering
		"3. func A() {\n4. \treturn\n5. }",                          // Copilot's, from line 3
		"Path /new.go does not exist. Please provide a valid path.", // a refusal
		"some other file's text",
		"(binary)",
		"package a", // not rewritten: nothing read
	}
	got := chatReads(script, results, rewrote)
	want := []string{to, to, "", "", bin, ""}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
