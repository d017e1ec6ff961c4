package main

// Real coding agents' failed file accesses, replayed at each task's commit:
//
//	wayfind-bench agentfail -cases testdata/agentfail/cases.jsonl.gz -mirrors DIR [-bin bin/wayfind]
//
// Each case (scripts/genagentfail.py, testdata/agentfail/README.md) is a
// path a public agent trajectory tried to read, list or write and was told
// does not exist. Every repository is checked out at the task's base commit
// (checkoutTree: files whose blobs the store lacks left empty), into a
// directory named as the agent's root was (testbed), and each
// path is asked of the built binary as the agent's harness would meet it:
// `wayfind resolve --root CHECKOUT PATH`, the path joined with the agent's
// cwd and moved from the agent's repository root (/testbed, …) to the
// checkout; a path outside that root is asked as written.
//
// Judged against the agent's own fix (the next access that succeeded for
// the same intent): right (resolved to it), told (not resolved, but it is
// the first candidate), wrong (resolved to anything else: to a file for a
// directory question, or to anything when nothing is meant), left alone
// (nothing resolved). The agent's own scratch files and every write must
// be left alone.

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"wayfind/wire"
)

// afCase is one failed access (one line of cases.jsonl.gz).
type afCase struct {
	ID          string   `json:"id"`
	Repo        string   `json:"repo"`
	Commit      string   `json:"commit"`
	Agent       string   `json:"agent"`
	Root        string   `json:"root"`
	RootAliases []string `json:"root_aliases"`
	Cwd         string   `json:"cwd"`
	Tool        string   `json:"tool"`
	Command     string   `json:"command"`
	Path        string   `json:"path"`
	Kind        string   `json:"kind"` // read, list or write
	Scratch     bool     `json:"scratch"`
	Truth       *string  `json:"truth"`
	TruthKind   *string  `json:"truth_kind"`
	Source      string   `json:"source"`
	TruthFrom   string   `json:"truth_from"` // the rule that read the truth from the agent's next steps
	Error       string   `json:"error"`      // what the agent was told: the failure
	// Half: tuning (read to make a rule) or held-out (never read).
	Half string `json:"half"`
}

func (c afCase) truth() string {
	if c.Truth == nil {
		return ""
	}
	return *c.Truth
}

// readAgentFailCases reads the cases, gzipped (.gz) or not.
func readAgentFailCases(p string) ([]afCase, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = bufio.NewReader(f)
	if strings.HasSuffix(p, ".gz") {
		gz, err := gzip.NewReader(r)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		defer gz.Close()
		r = gz
	}
	cases, err := readJSONLines[afCase](r, p)
	if err != nil {
		return nil, err
	}
	for _, c := range cases {
		if c.ID == "" || c.Repo == "" || c.Commit == "" || c.Path == "" {
			return nil, fmt.Errorf("%s: case %q lacks its id, repo, commit or path", p, c.ID)
		}
		switch c.Kind {
		case "read", "list", "write":
		default:
			return nil, fmt.Errorf("%s: case %s: kind %q is not read, list or write", p, c.ID, c.Kind)
		}
	}
	return cases, nil
}

// joinKeep is p joined with dir when relative, cleaned, its trailing /
// kept (a directory question stays one).
func joinKeep(dir, p string) string {
	slash := strings.HasSuffix(p, "/") && p != "/"
	if !path.IsAbs(p) {
		p = path.Join(dir, p)
	}
	p = path.Clean(p)
	if slash && p != "/" {
		p += "/"
	}
	return p
}

// afQuery is the path asked of wayfind for c on a checkout at tree, and the
// directory it is asked from: the agent's path at its cwd, moved from the
// agent's repository root to tree; outside that root, as the agent had it.
func afQuery(c afCase, tree string) (query, dir string) {
	roots := append([]string{c.Root}, c.RootAliases...)
	under := func(p string) (string, bool) {
		for _, r := range roots {
			r = strings.TrimRight(r, "/")
			if r == "" {
				continue
			}
			if p == r || p == r+"/" {
				return tree, true
			}
			if strings.HasPrefix(p, r+"/") {
				return tree + p[len(r):], true
			}
		}
		return "", false
	}
	query = joinKeep(c.Cwd, c.Path)
	if q, ok := under(query); ok {
		query = q
	}
	dir = tree
	if d, ok := under(path.Clean(c.Cwd)); ok {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			dir = d
		}
	}
	return query, dir
}

// afAnswer is what wayfind said of one case.
type afAnswer struct {
	resolved, first string // root-relative; "" for none
	gone            bool   // said to be deleted (nothing resolved)
	class           string // the answer's class (rank.Class)
}

// afOutcome judges an answer: right, told (the truth first but not
// resolved), wrong, or left alone (none).
type afOutcome struct{ right, told, wrong, none bool }

// judgeAgentFail judges a against the agent's fix, or, for a read it
// fixed nothing after, against recorded: where git records the path went
// ("" for nowhere). The agent's own files and writes have no such truth.
func judgeAgentFail(c afCase, a afAnswer, recorded string) afOutcome {
	truth := c.truth()
	switch {
	case a.resolved == "":
		return afOutcome{none: true, told: truth != "" && a.first == truth}
	case truth != "" && a.resolved == truth:
		return afOutcome{right: true}
	case truth == "" && recordable(c) && recorded != "" && a.resolved == recorded:
		return afOutcome{right: true}
	default:
		return afOutcome{wrong: true}
	}
}

// How an agent's fix was found (testdata/agentfail/README.md): by the
// path's file name or its stem, or only as the next access by the same
// program, which may be another errand altogether.
const (
	fixSameName = "the fix of the same name or stem"
	fixOther    = "the next access by the same program"
)

// fixByName says how c's fix was found.
func fixByName(c afCase) string {
	stem := func(p string) string {
		b := path.Base(p)
		return strings.TrimSuffix(b, path.Ext(b))
	}
	if c.TruthFrom == "fix" && stem(c.truth()) != stem(c.Path) {
		return fixOther
	}
	return fixSameName
}

// recordable: a read of a path the agent did not make, whose move git may
// have recorded.
func recordable(c afCase) bool { return c.Kind == "read" && !c.Scratch }

// askHookDir asks a directory question (a list case) as an agent's
// harness would, through `wayfind hook`: the program's call as Claude
// Code makes it — a shell command for the programs named below (the
// hook reads `ls`, `cd`, `find`, `grep -r`, `pytest` …; the others run
// as they are, unread), else a Glob of the directory (SWE-agent's
// find_file and search_dir, an editor's view) — with the file name the
// agent's call searched for (seek: find's -name, find_file's name) as
// find's -name or the Glob's pattern, and what the hook rewrote the path
// to is the answer. Not rewritten, what the hook named is told: the first
// of the directories named so, said beside a Glob, or after a shell
// command failed with the agent's own error (errText).
func askHookDir(bin, tree, dir, query, cache, tool, seek, errText string) (afAnswer, error) {
	var input map[string]any
	name, pathWord := "Bash", -1 // the word of the command that holds the path: its last
	switch program, _, _ := strings.Cut(tool, " "); program {
	case "find":
		pathWord = 1 // find's starting point, before -name
		command := "find " + shellQuote(query)
		if seek != "" {
			command += " -name " + shellQuote(seek)
		}
		input = map[string]any{"command": command}
	case "ls", "cd", "pushd", "tree", "stat", "pytest", "py.test", "du", "git":
		input = map[string]any{"command": program + " " + shellQuote(query)}
	case "grep", "egrep", "rg":
		input = map[string]any{"command": program + " -rn x " + shellQuote(query)}
	default:
		pattern := "*"
		if seek != "" {
			pattern = seek
		}
		name, input = "Glob", map[string]any{"pattern": pattern, "path": query}
	}
	ev, _ := json.Marshal(map[string]any{"session_id": "agentfail", "cwd": dir, "hook_event_name": "PreToolUse",
		"tool_name": name, "tool_input": input})
	out, err := runHook(bin, cache, tree, dir, ev)
	if err != nil {
		return afAnswer{}, fmt.Errorf("wayfind hook %q: %v", query, err)
	}
	var o struct {
		Specific struct {
			UpdatedInput map[string]any `json:"updatedInput"`
			Context      string         `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if len(bytes.TrimSpace(out)) > 0 {
		if err := json.Unmarshal(out, &o); err != nil {
			return afAnswer{}, fmt.Errorf("wayfind hook %q: %v", query, err)
		}
	}
	told := o.Specific.Context
	if o.Specific.UpdatedInput == nil && name == "Bash" {
		// Run as written, the command failed: what the hook says after it.
		ev, _ := json.Marshal(map[string]any{"session_id": "agentfail", "cwd": dir, "hook_event_name": "PostToolUseFailure",
			"tool_name": name, "tool_input": input, "error": errText})
		out, err := runHook(bin, cache, tree, dir, ev)
		if err != nil {
			return afAnswer{}, fmt.Errorf("wayfind hook %q: %v", query, err)
		}
		var after struct {
			Specific struct {
				Context string `json:"additionalContext"`
			} `json:"hookSpecificOutput"`
		}
		if len(bytes.TrimSpace(out)) > 0 && json.Unmarshal(out, &after) == nil {
			told = after.Specific.Context
		}
	}
	to := ""
	switch v := o.Specific.UpdatedInput; {
	case v == nil:
	case name == "Glob":
		to, _ = v["path"].(string)
	default:
		command, _ := v["command"].(string)
		to = shellWord(command, pathWord)
	}
	a := afAnswer{}
	rel := func(p string) string {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if r, err := filepath.Rel(tree, p); err == nil {
			return filepath.ToSlash(r)
		}
		return ""
	}
	if to != "" {
		a.resolved = rel(to)
	} else if first := namedFirst(told); first != "" {
		a.first = rel(first)
	}
	return a, nil
}

// namedFirst is the first of the directories a hook's line names for a
// directory that is not there ("wayfind: no directory X; those named so:
// A, B"), "" when it names none.
func namedFirst(context string) string {
	_, rest, ok := strings.Cut(context, "; those named so: ")
	if !ok {
		return ""
	}
	rest, _, _ = strings.Cut(rest, "\n")
	first, _, _ := strings.Cut(rest, ", ")
	return first
}

// shellWord is a command's word i (-1: its last) as the shell reads it,
// its quotes read ("" when it does not parse, or has no such word).
func shellWord(command string, i int) string {
	f, err := syntax.NewParser().Parse(strings.NewReader(command), "")
	if err != nil || len(f.Stmts) != 1 {
		return ""
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 {
		return ""
	}
	if i < 0 {
		i = len(call.Args) - 1
	}
	if i >= len(call.Args) {
		return ""
	}
	w, err := expand.Literal(nil, call.Args[i])
	if err != nil {
		return ""
	}
	return w
}

// seekOf is the file name a list case's call searched its directory for:
// SWE-agent's `find_file NAME [DIR]`'s name, find's one -name; "" for
// none (a listing, a text search).
func seekOf(c afCase) string {
	program, _, _ := strings.Cut(c.Tool, " ")
	switch program {
	case "find_file":
		return shellWord(c.Command, 1)
	case "find":
		f, err := syntax.NewParser().Parse(strings.NewReader(c.Command), "")
		if err != nil || len(f.Stmts) == 0 {
			return ""
		}
		call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
		if !ok {
			return ""
		}
		seek := ""
		for i := 0; i+1 < len(call.Args); i++ {
			if call.Args[i].Lit() == "-name" {
				if seek != "" {
					return "" // several names
				}
				seek, _ = expand.Literal(nil, call.Args[i+1])
			}
		}
		return seek
	}
	return ""
}

// askWayfind runs `wayfind resolve` on one query.
func askWayfind(bin, tree, dir, query, cache string) (afAnswer, error) {
	cmd := exec.Command(bin, "resolve", "--root", tree, "--format", "json", "--limit", "5", "--", query)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "WAYFIND_CACHE_DIR="+cache)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 100) {
		return afAnswer{}, fmt.Errorf("wayfind resolve %q: %v: %s", query, err, firstLineOf(stderr.String()))
	}
	var env struct {
		Result wire.Resolve `json:"result"`
	}
	if err := json.Unmarshal(out, &env); err != nil {
		return afAnswer{}, fmt.Errorf("wayfind resolve %q: %v", query, err)
	}
	rel := func(p string) string {
		if filepath.IsAbs(p) {
			if r, err := filepath.Rel(tree, p); err == nil {
				return filepath.ToSlash(r)
			}
		}
		return strings.TrimSuffix(p, "/")
	}
	a := afAnswer{class: env.Result.Class}
	if env.Result.Resolved != nil {
		a.resolved = rel(env.Result.Resolved.Path)
	}
	if len(env.Result.Candidates) > 0 && env.Result.Gone == nil {
		a.first = rel(env.Result.Candidates[0].Path)
	}
	a.gone = env.Result.Gone != nil
	return a, nil
}

func agentfailCmd(args []string) error {
	fs := flag.NewFlagSet("agentfail", flag.ContinueOnError)
	casesPath := fs.String("cases", "testdata/agentfail/cases.jsonl.gz", "the failed accesses (scripts/genagentfail.py)")
	mirrors := fs.String("mirrors", "", "git directories of the repositories (OWNER+NAME/repo or OWNER+NAME)")
	bin := fs.String("bin", "bin/wayfind", "the wayfind binary")
	work := fs.String("work", filepath.Join(os.TempDir(), "wayfind-agentfail"), "checkouts and the binary's cache")
	only := fs.String("repo", "", "only this repository (OWNER/NAME)")
	keep := fs.Bool("keep", false, "keep the checkouts (else each is removed once its cases are asked)")
	verbose := fs.Bool("v", false, "print every answer to a case with a truth (standard error)")
	half := fs.String("half", "held-out", "the cases of this half: tuning (read to make rules), held-out (quoted), or all")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *mirrors == "" {
		return fmt.Errorf("agentfail: -mirrors is needed")
	}
	wayfind, err := filepath.Abs(*bin)
	if err != nil {
		return err
	}
	cases, err := readAgentFailCases(*casesPath)
	if err != nil {
		return err
	}
	// By repository, then commit: one checkout a commit and a name of the
	// agent's root — the checkout's directory is named as the agent's
	// root was (testbed), so that a path naming the root from inside it
	// reads as it did for the agent.
	type key struct{ repo, commit, rootName string }
	by := map[key][]afCase{}
	var keys []key
	if *half != "tuning" && *half != "held-out" && *half != "all" {
		return fmt.Errorf("agentfail: -half tuning, held-out or all")
	}
	if *verbose && *half != "tuning" {
		// What is read of an answer to fix something is no longer held
		// out: its answers are for the tuning half.
		return fmt.Errorf("agentfail: -v prints answers, which only the tuning half may show (-half tuning)")
	}
	for _, c := range cases {
		if *only != "" && c.Repo != *only || *half != "all" && c.Half != *half {
			continue
		}
		k := key{c.Repo, c.Commit, path.Base(path.Clean("/" + c.Root))}
		if by[k] == nil {
			keys = append(keys, k)
		}
		by[k] = append(by[k], c)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].repo != keys[j].repo {
			return keys[i].repo < keys[j].repo
		}
		if keys[i].commit != keys[j].commit {
			return keys[i].commit < keys[j].commit
		}
		return keys[i].rootName < keys[j].rootName
	})
	cache := filepath.Join(*work, "cache")
	n := 0
	for _, k := range keys {
		n += len(by[k])
	}
	header("agents' failed file accesses", fmt.Sprintf(", %d cases (half %s), %s", n, *half, filepath.Base(*casesPath)))
	var rows tallies[string]
	for _, r := range []string{"read", "list", "write", "scratch (the agent's own)", "with the agent's fix", "no fix, a move git records", "nothing meant (no fix)", "**all**"} {
		rows.row(r)
	}
	type wrongAnswer struct {
		c      afCase
		answer string
	}
	var wrongs []wrongAnswer
	wrongBy := map[string]int{} // the wrong answers' classes
	scratchN, scratchAlone := 0, 0
	// Reads with a fix and a recorded move, by how the fix was found
	// (fixByName); those whose move is the fix.
	recordChecked, recordAgrees := map[string]int{}, map[string]int{}
	noMirror := map[string]int{}
	failed := 0
	for _, k := range keys {
		git := mirrorOf(*mirrors, k.repo)
		if git == "" {
			noMirror[k.repo] += len(by[k])
			continue
		}
		tree := filepath.Join(*work, "trees", strings.ReplaceAll(k.repo, "/", "+")+"@"+k.commit[:12], k.rootName)
		if _, err := checkoutTree(git, k.commit, tree); err != nil {
			fmt.Fprintf(os.Stderr, "%s@%.12s: %v\n", k.repo, k.commit, err)
			failed += len(by[k])
			continue
		}
		// The repository seen before, as an agent's is after its first
		// calls: its history read whole (a one-shot resolve leaves a long
		// log to a background reader and answers without it meanwhile,
		// which made the figure depend on the machine's load).
		if err := historyRead(wayfind, cache, tree); err != nil {
			fmt.Fprintf(os.Stderr, "%s@%.12s: %v\n", k.repo, k.commit, err)
			failed += len(by[k])
			continue
		}
		for _, c := range by[k] {
			query, dir := afQuery(c, tree)
			ask := askWayfind
			if c.Kind == "list" {
				ask = func(bin, tree, dir, query, cache string) (afAnswer, error) {
					return askHookDir(bin, tree, dir, query, cache, c.Tool, seekOf(c), c.Error)
				}
			}
			a, err := ask(wayfind, tree, dir, query, cache)
			if err != nil {
				fmt.Fprintf(os.Stderr, "%s: %v\n", c.ID, err)
				failed++
				continue
			}
			// Where git records the path went: the truth of a read the
			// agent fixed nothing after, and, where it fixed one, checked
			// against the fix.
			recorded := ""
			if rel, err := filepath.Rel(tree, query); err == nil && recordable(c) && filepath.IsLocal(rel) && (c.truth() != "" || a.resolved != "") {
				if recorded, err = recordedMove(git, k.commit, tree, filepath.ToSlash(rel)); err != nil {
					fmt.Fprintf(os.Stderr, "%s: %v\n", c.ID, err)
				}
			}
			if recorded != "" && c.truth() != "" {
				by := fixByName(c)
				recordChecked[by]++
				if recorded == c.truth() {
					recordAgrees[by]++
				}
				if *verbose {
					fmt.Fprintf(os.Stderr, "record check %s %q: recorded %q, the agent's fix %q (%s, %s)\n", c.ID, c.Path, recorded, c.truth(), c.TruthFrom, by)
				}
			}
			o := judgeAgentFail(c, a, recorded)
			if *verbose && c.truth() != "" {
				fmt.Fprintf(os.Stderr, "%s %q: resolved %q, first %q, truth %q\n", c.ID, c.Path, a.resolved, a.first, c.truth())
			}
			m := mark{right: o.right, wrong: o.wrong, first: o.right || o.told, acted: a.resolved != "", none: o.none}
			keys := []string{c.Kind, "**all**", "agent " + c.Agent}
			if c.Scratch {
				keys = append(keys, "scratch (the agent's own)")
			}
			switch {
			case c.truth() != "":
				keys = append(keys, "with the agent's fix")
			case recorded != "":
				keys = append(keys, "no fix, a move git records")
			default:
				keys = append(keys, "nothing meant (no fix)")
			}
			rows.add(m, keys...)
			if c.Scratch || c.Kind == "write" {
				scratchN++
				if o.none {
					scratchAlone++
				}
			}
			if o.wrong {
				wrongs = append(wrongs, wrongAnswer{c, a.resolved})
				wrongBy[a.class]++
			}
		}
		if !*keep {
			os.RemoveAll(tree)
			os.Remove(tree + ".done")
			os.Remove(filepath.Dir(tree)) // the commit's, once none of its roots' names is left
		}
	}
	fmt.Println("| cases | asked | right | told (the fix first, not resolved) | **wrong** | left alone |")
	fmt.Println("|---|---:|---:|---:|---:|---:|")
	for _, r := range rows.sorted(nil) {
		t := rows.by[r]
		fmt.Printf("| %s | %d | %s | %s | **%s** | %s |\n", r, t.n, pct(t.right, t.n), pct(t.first-t.right, t.n), pct(t.wrong, t.n), pct(t.none, t.n))
	}
	fmt.Println()
	fmt.Printf("Scratch files and writes left alone: %d of %d (%s; must be 100%%).\n", scratchAlone, scratchN, pct(scratchAlone, scratchN))
	fmt.Print("The moves git records, against the agents' own fixes (the record's check: reads with a fix whose path git records a move of):")
	for _, by := range []string{fixSameName, fixOther} {
		fmt.Printf(" %s, %d of %d agree (%s);", by, recordAgrees[by], recordChecked[by], pct(recordAgrees[by], recordChecked[by]))
	}
	fmt.Println()
	if len(noMirror) > 0 {
		var names []string
		for r, n := range noMirror {
			names = append(names, fmt.Sprintf("%s (%d)", r, n))
		}
		sort.Strings(names)
		fmt.Printf("Not asked, no mirror: %s.\n", strings.Join(names, ", "))
	}
	if failed > 0 {
		fmt.Printf("Not asked, an error: %d (see standard error).\n", failed)
	}
	fmt.Println()
	if len(wrongs) > 0 {
		fmt.Print("Wrong answers by their class:")
		for _, cl := range slices.Sorted(maps.Keys(wrongBy)) {
			fmt.Printf(" %s %d;", cl, wrongBy[cl])
		}
		fmt.Println()
		fmt.Println()
		if *half == "held-out" {
			// Read, a held-out answer is no longer held out: only the
			// tuning half lists them.
			return nil
		}
		fmt.Println("Wrong answers:")
		fmt.Println()
		fmt.Println("| id | path | cwd | answer | truth |")
		fmt.Println("|---|---|---|---|---|")
		for _, w := range wrongs {
			truth := w.c.truth()
			if truth == "" {
				truth = "(nothing: left alone is right)"
				if w.c.Scratch {
					truth = "(nothing: the agent's own file)"
				}
			}
			fmt.Printf("| %s | `%s` | `%s` | `%s` | %s |\n", w.c.ID, w.c.Path, w.c.Cwd, w.answer, truth)
		}
		fmt.Println()
	}
	return nil
}
