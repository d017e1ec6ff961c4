package main

// The hook through the real agent harness (issue 46):
//
//	wayfind-bench agent -mirrors DIR -bin bin/wayfind [-half held-out] [-per 30] [-tool read|shell]
//
// Each repository of the half is checked out at the HEAD split.tsv
// records (files whose blobs the store lacks checked out empty), and its
// real stale paths (testdata/calibration, as written and as held: another
// machine's prefix, a :line, a typo) are sent as the agent's Read calls:
// Claude Code run headless against a scripted model, once with `wayfind
// hook` installed and once without it (the peer). Each call's outcome, as
// the harness reports it: the file meant read; denied with the file meant
// named first; another file read; nothing useful. Then the time the hook
// adds, by itself: `wayfind hook` answering an existing path and a stale
// one on a repository seen before, beside a process that does nothing.
//
// -tool shell asks the same paths inside shell commands instead (Bash
// calls: cat, sed -n, head -n, grep -n in turn; a path with a :line
// suffix, and one whose file is checked out empty, are left out — no
// shell command is written so, and an empty file's output cannot tell
// which file was read): the file meant was read when the command's
// output is what the same command prints on that file.

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"wayfind/hook/chattest"
	"wayfind/hook/claudetest"
	"wayfind/hook/codextest"
	"wayfind/hook/geminitest"
)

// agentOutcome is what one Read call came to.
type agentOutcome int

const (
	agentRead    agentOutcome = iota // the file meant was read
	agentNamed                       // denied, the file meant named first
	agentOther                       // another file was read
	agentNothing                     // nothing useful
	agentOutcomes
)

var agentOutcomeNames = [agentOutcomes]string{"read the file meant", "denied, the file meant named first", "**read another file**", "nothing useful"}

func agentCmd(args []string) error {
	fs := flag.NewFlagSet("agent", flag.ContinueOnError)
	splitPath := fs.String("split", "testdata/calibration/split.tsv", "the split")
	data := fs.String("data", "testdata/calibration", "the cases, one directory a repository")
	mirrors := fs.String("mirrors", "", "git directories of the repositories (OWNER+NAME/repo or OWNER+NAME)")
	half := fs.String("half", "held-out", "tuning, held-out or all")
	only := fs.String("repos", "", "only these repositories (OWNER/NAME,…)")
	per := fs.Int("per", 30, "stale paths asked per repository")
	bin := fs.String("bin", "bin/wayfind", "the wayfind binary")
	claude := fs.String("claude", claudetest.Binary("."), "the Claude Code binary")
	work := fs.String("work", filepath.Join(os.TempDir(), "wayfind-bench-agent"), "checkouts and the hook's cache")
	runs := fs.Int("runs", 41, "hook timing: calls of each kind")
	tool := fs.String("tool", "read", "the calls: read (Read) or shell (Bash commands)")
	harness := fs.String("harness", "claude", "the harness: claude (Claude Code), codex (Codex CLI: shell commands only), gemini (Gemini CLI: read_file, run_shell_command), opencode (read, bash; the repository's plugin) or copilot (Copilot CLI: view, bash)")
	codexBin := fs.String("codex", codextest.Binary("."), "the Codex CLI binary")
	geminiBin := fs.String("gemini", geminitest.Binary("."), "the Gemini CLI binary")
	opencodeBin := fs.String("opencode", chattest.OpencodeBinary("."), "the opencode binary")
	copilotBin := fs.String("copilot", chattest.CopilotBinary("."), "the Copilot CLI binary")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *tool != "read" && *tool != "shell" {
		return fmt.Errorf("agent: -tool read or shell")
	}
	// The harnesses played through the scripted chat model: their binary
	// and the name they go by.
	type chatHarness struct{ bin, name string }
	chat := map[string]chatHarness{"opencode": {*opencodeBin, "opencode"}, "copilot": {*copilotBin, "Copilot CLI"}}
	switch ch, isChat := chat[*harness]; {
	case *harness != "claude" && *harness != "codex" && *harness != "gemini" && !isChat,
		*harness == "codex" && (*tool != "shell" || *codexBin == ""),
		*harness == "gemini" && *geminiBin == "",
		isChat && ch.bin == "":
		return fmt.Errorf("agent: -harness claude, codex with -tool shell (and a Codex binary: -codex, or make deps), gemini (and a Gemini CLI: -gemini), opencode (-opencode) or copilot (-copilot; make deps installs each)")
	}
	if *mirrors == "" || *claude == "" {
		return fmt.Errorf("agent: -mirrors and a Claude Code binary (-claude, or make deps) are needed")
	}
	wayfind, err := filepath.Abs(*bin)
	if err != nil {
		return err
	}
	repos, err := readSplit(*splitPath)
	if err != nil {
		return err
	}
	want := map[string]bool{}
	for _, r := range strings.Split(*only, ",") {
		if r != "" {
			want[r] = true
		}
	}
	cache := filepath.Join(*work, "cache")
	if *harness == "codex" {
		header("hook through Codex CLI", fmt.Sprintf(", %s, half %s, %d stale paths a repository", harnessVersion("Codex CLI", *codexBin), *half, *per))
	} else if *harness == "gemini" {
		header("hook through Gemini CLI", fmt.Sprintf(", %s, half %s, %d stale paths a repository", harnessVersion("Gemini CLI", *geminiBin), *half, *per))
	} else if ch, isChat := chat[*harness]; isChat {
		header("hook through "+ch.name, fmt.Sprintf(", %s, half %s, %d stale paths a repository", harnessVersion(ch.name, ch.bin), *half, *per))
	} else {
		header("hook through Claude Code", fmt.Sprintf(", %s, half %s, %d stale paths a repository", claudeVersion(*claude), *half, *per))
	}
	// rows: "no hook", "**wayfind hook**", then "hook, CATEGORY".
	var rows tallies[string]
	rows.row("no hook")
	rows.row("**wayfind hook**")
	var hookMs, cold []time.Duration
	var withWall, withoutWall time.Duration
	calls := 0
	var timed *calRepo
	var timedCases []calCase
	var timedTree string
	for _, r := range repos {
		if (*half != "all" && r.half != *half) || (len(want) > 0 && !want[r.repo]) {
			continue
		}
		git := mirrorOf(*mirrors, r.repo)
		if git == "" {
			fmt.Fprintf(os.Stderr, "%s: no mirror\n", r.repo)
			continue
		}
		cases, err := readCalCases(filepath.Join(*data, r.name(), "stale.jsonl.gz"))
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", r.repo, err)
			continue
		}
		tree := filepath.Join(*work, "trees", r.name())
		empty, err := checkoutTree(git, r.head, tree)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", r.repo, err)
			continue
		}
		if *tool == "shell" {
			cases = shellCases(cases, tree)
		}
		cases = sampleByCategory(cases, *per)
		// The repository seen before: the hook's first call indexes it and
		// reads its history (timed: the cold start), as an agent's first
		// stale path would.
		t0 := time.Now()
		if _, err := hookCall(wayfind, cache, tree, filepath.Join(tree, "wayfind-bench-no-such-file.go")); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", r.repo, err)
			continue
		}
		cold = append(cold, time.Since(t0))
		// A log longer than the hook reads itself is read by the
		// `wayfind history` it started in the background: the calls are
		// of a repository seen before, its history read.
		if err := historyRead(wayfind, cache, tree); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", r.repo, err)
			continue
		}
		var sh []shellCall
		var script []claudetest.Call
		if *tool == "shell" {
			sh = shellCalls(cases, tree)
			for _, s := range sh {
				script = append(script, claudetest.Call{Name: "Bash", Input: map[string]any{"command": s.asked, "description": "read"}})
			}
		} else {
			for _, c := range cases {
				p := c.Query
				if !filepath.IsAbs(p) {
					p = filepath.Join(tree, p)
				}
				script = append(script, claudetest.Call{Name: "Read", Input: map[string]any{"file_path": p}})
			}
		}
		logAt := hookLogSize(cache)
		for _, hooked := range []bool{true, false} {
			home := filepath.Join(*work, "home", r.name(), strconv.FormatBool(hooked))
			os.RemoveAll(home)
			t0 := time.Now()
			var results, read []string
			if *harness == "codex" {
				results, err = runCodexScript(*codexBin, tree, home, cache, wayfind, shellScript(sh), hooked)
			} else if *harness == "gemini" {
				var failed []bool
				results, failed, err = runGeminiScript(*geminiBin, tree, home, cache, wayfind, geminiScript(script), hooked)
				if err == nil && *tool == "read" {
					read = geminiReads(script, failed, hookReadsOf(cache, logAt))
				}
			} else if ch, isChat := chat[*harness]; isChat {
				results, err = runChatScript(*harness, ch.bin, tree, home, cache, wayfind, chatScript(*harness, script), hooked)
				if err == nil && *tool == "read" {
					rewrote := map[string]string{} // none without the hook: the log's lines are the hooked run's
					if hooked {
						rewrote = hookReadsOf(cache, logAt)
					}
					read = chatReads(script, results, rewrote)
				}
			} else {
				results, read, err = runClaudeScript(*claude, tree, home, cache, wayfind, script, hooked)
				if err == nil {
					read = imagesRead(script, read, hookReadsOf(cache, logAt))
				}
			}
			if err != nil {
				fmt.Fprintf(os.Stderr, "%s: %v\n", r.repo, err)
				break
			}
			wall := time.Since(t0)
			var said map[string]hookSaid
			if hooked && *tool == "shell" {
				said = hookSaidOf(cache, logAt)
			}
			for i := range script {
				var o agentOutcome
				var c calCase
				var asked string
				keys := []string{"**wayfind hook**"}
				if *tool == "shell" {
					c, asked = sh[i].c, sh[i].asked
					o = judgeShell(tree, sh[i], results[i], said[asked])
					keys = append(keys, "command, "+sh[i].kind)
				} else {
					c, asked = cases[i], cases[i].Query
					o = judgeAgent(tree, *c.Expected, read[i], results[i])
				}
				m := mark{right: o == agentRead, first: o == agentRead || o == agentNamed, wrong: o == agentOther, none: o == agentNothing}
				verbose := os.Getenv("WAYFIND_BENCH_VERBOSE") != ""
				if hooked {
					rows.add(m, append(keys, "hook, "+c.Category)...)
					if o != agentRead && verbose {
						fmt.Fprintf(os.Stderr, "%s %s: %s (want %s): %s\n", r.repo, agentOutcomeNames[o], asked, *c.Expected, firstLineOf(results[i]))
					}
				} else {
					if o != agentNothing && verbose {
						fmt.Fprintf(os.Stderr, "%s no hook, %s: %s (want %s): %s\n", r.repo, agentOutcomeNames[o], asked, *c.Expected, firstLineOf(results[i]))
					}
					rows.add(m, "no hook")
				}
			}
			if hooked {
				withWall += wall
				calls += len(script)
				hookMs = append(hookMs, hookLogTimes(cache, logAt)...)
			} else {
				withoutWall += wall
			}
		}
		fmt.Fprintf(os.Stderr, "%s: %d calls, %d files checked out empty\n", r.repo, len(script), empty)
		if timed == nil {
			rr := r
			timed, timedCases, timedTree = &rr, cases, tree
		}
	}
	if calls == 0 {
		return fmt.Errorf("agent: no repository ran")
	}
	asked := "Read calls"
	if *tool == "shell" {
		asked = "shell commands (cat, sed -n, head -n, grep -n; ls DIR; pytest FILE::test)"
	}
	fmt.Println("| " + asked + " | calls | " + strings.Join(agentOutcomeNames[:], " | ") + " | read or named first |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|")
	// Without the hook, with it, then its categories in order.
	category := func(k string) int {
		if strings.HasPrefix(k, "hook, ") || strings.HasPrefix(k, "command, ") {
			return 1
		}
		return 0
	}
	for _, k := range rows.sorted(func(a, b string) int {
		if c := cmp.Compare(category(a), category(b)); c != 0 || category(a) == 0 {
			return c // the first two keep the order they were begun in
		}
		return cmp.Compare(a, b)
	}) {
		t := rows.by[k]
		fmt.Printf("| %s | %d | %s | %s | %s | %s | %s |\n", k, t.n, pct(t.right, t.n), pct(t.first-t.right, t.n), pct(t.wrong, t.n), pct(t.none, t.n), pct(t.first, t.n))
	}
	fmt.Println()
	fmt.Printf("Wall time a call, whole session over calls (a turn of the harness with the scripted model): with the hook %.0f ms, without %.0f ms. The hook's own time a stale path (hook.log, warm): p50 %s ms, p90 %s ms over %d calls; its first call on each repository (the index and the history read): median %s ms, max %s ms.\n\n",
		float64(withWall.Milliseconds())/float64(calls), float64(withoutWall.Milliseconds())/float64(calls),
		ms(quantile(hookMs, 0.5)), ms(quantile(hookMs, 0.9)), len(hookMs), ms(quantile(cold, 0.5)), ms(slices.Max(cold)))
	return hookTiming(wayfind, cache, timed, timedCases, timedTree, *runs)
}

// hookTiming times `wayfind hook` as the harness runs it, process start
// included: on an existing path, and on stale paths of a repository seen
// before, beside a process that does nothing with the same event
// (/bin/true) and the binary doing nothing (wayfind version).
func hookTiming(wayfind, cache string, r *calRepo, cases []calCase, tree string, runs int) error {
	existing := ""
	filepath.WalkDir(tree, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && existing == "" && !strings.Contains(p, "/.git/") {
			existing = p
		}
		return nil
	})
	stale := func(i int) string {
		p := cases[i%len(cases)].Query
		if !filepath.IsAbs(p) {
			p = filepath.Join(tree, p)
		}
		return p
	}
	kinds := []struct {
		name string
		run  func(i int) error
	}{
		{"/bin/true (a process, the event on stdin)", func(int) error { return runWithEvent(exec.Command("true"), tree, existing) }},
		{"wayfind version (the binary, doing nothing)", func(int) error { return exec.Command(wayfind, "version").Run() }},
		{"wayfind hook, an existing path", func(int) error { _, err := hookCall(wayfind, cache, tree, existing); return err }},
		{"wayfind hook, a stale path (the repository seen before)", func(i int) error { _, err := hookCall(wayfind, cache, tree, stale(i)); return err }},
		{"wayfind hook, a shell command of existing files (`grep -n main FILE | head`)", func(int) error {
			_, err := runHook(wayfind, cache, tree, tree, shellEvent(tree, "grep -n main "+strconv.Quote(existing)+" | head -20"))
			return err
		}},
	}
	fmt.Printf("Hook timing on %s (%s), %d calls of each, wall time process start included:\n\n", r.repo, tree, runs)
	fmt.Println("| call | p50 | p90 |")
	fmt.Println("|---|---:|---:|")
	for _, k := range kinds {
		var took []time.Duration
		for i := range runs {
			t0 := time.Now()
			if err := k.run(i); err != nil {
				return fmt.Errorf("%s: %v", k.name, err)
			}
			took = append(took, time.Since(t0))
		}
		fmt.Printf("| %s | %s ms | %s ms |\n", k.name, ms(quantile(took, 0.5)), ms(quantile(took, 0.9)))
	}
	return nil
}

// hookEvent is a PreToolUse event of a Read of path in the project dir.
func hookEvent(dir, path string) []byte {
	b, _ := json.Marshal(map[string]any{"session_id": "bench", "cwd": dir, "hook_event_name": "PreToolUse",
		"tool_name": "Read", "tool_input": map[string]any{"file_path": path}})
	return b
}

// shellEvent is a PreToolUse event of a Bash command in the project dir.
func shellEvent(dir, command string) []byte {
	b, _ := json.Marshal(map[string]any{"session_id": "bench", "cwd": dir, "hook_event_name": "PreToolUse",
		"tool_name": "Bash", "tool_input": map[string]any{"command": command}})
	return b
}

func runWithEvent(cmd *exec.Cmd, dir, path string) error {
	cmd.Stdin = bytes.NewReader(hookEvent(dir, path))
	return cmd.Run()
}

// historyRead returns once tree's history is in cache: `wayfind history`
// reads it, or says another process is (the one a hook started), and
// is asked again until that one is done.
func historyRead(wayfind, cache, tree string) error {
	deadline := time.Now().Add(30 * time.Minute)
	for {
		cmd := exec.Command(wayfind, "history", "--root", tree)
		cmd.Env = append(os.Environ(), "WAYFIND_CACHE_DIR="+cache)
		out, err := cmd.Output()
		switch {
		case err != nil:
			return fmt.Errorf("wayfind history: %v", err)
		case !strings.Contains(string(out), "another process is reading"):
			return nil
		case time.Now().After(deadline):
			return fmt.Errorf("history of %s not read within 30 minutes", tree)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// hookCall runs `wayfind hook` on a Read of path, as the harness would.
func hookCall(wayfind, cache, dir, path string) ([]byte, error) {
	return runHook(wayfind, cache, dir, dir, hookEvent(dir, path))
}

// runHook runs `wayfind hook` on event in dir, for the project at
// project, its cache at cache: its output.
func runHook(wayfind, cache, project, dir string, event []byte) ([]byte, error) {
	cmd := exec.Command(wayfind, "hook")
	cmd.Env = append(os.Environ(), "WAYFIND_CACHE_DIR="+cache, "CLAUDE_PROJECT_DIR="+project)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(event)
	return cmd.Output()
}

// judgeAgent is what a Read call came to: the file the harness says it
// read, else the file named first in the denial the model read.
func judgeAgent(tree, expected, read, result string) agentOutcome {
	want := filepath.Join(tree, expected)
	switch {
	case read == want:
		return agentRead
	case read != "":
		return agentOther
	}
	if _, list, ok := strings.Cut(result, "best first:\n1. "); ok {
		first, _, _ := strings.Cut(list, " (")
		if first == want {
			return agentNamed
		}
	}
	if _, note, ok := strings.Cut(result, noteMark); ok {
		// Said after the call, not in its answer (Gemini CLI's
		// BeforeModel, after a refusal): the file it says the path is.
		if t := readTarget.FindStringSubmatch(note); t != nil && t[1] == want {
			return agentNamed
		}
	}
	return agentNothing
}

// noteMark sets apart, in a call's result as the judge reads it, what a
// hook said to the model after the call (geminitest.Result.Notes).
const noteMark = "\n[said after the call] "

// sampleByCategory takes n of the cases, the categories in turn, each
// category's cases shuffled with a fixed seed.
func sampleByCategory(cases []calCase, n int) []calCase {
	by := map[string][]calCase{}
	var cats []string
	for _, c := range cases {
		if c.Expected == nil || *c.Expected == "" {
			continue
		}
		if by[c.Category] == nil {
			cats = append(cats, c.Category)
		}
		by[c.Category] = append(by[c.Category], c)
	}
	sort.Strings(cats)
	rng := rand.New(rand.NewSource(46))
	for _, c := range cats {
		cs := by[c]
		rng.Shuffle(len(cs), func(i, j int) { cs[i], cs[j] = cs[j], cs[i] })
	}
	var out []calCase
	for len(out) < n {
		took := false
		for _, c := range cats {
			if len(by[c]) > 0 && len(out) < n {
				out = append(out, by[c][0])
				by[c] = by[c][1:]
				took = true
			}
		}
		if !took {
			break
		}
	}
	return out
}

// checkoutTree makes (once) a work tree of the repository at git at head
// in dir, sharing its objects: a clone without a checkout, the files
// written from the store (a blob the store lacks: an empty file), the
// index set to head. It returns how many files were left empty.
func checkoutTree(git, head, dir string) (int, error) {
	marker := dir + ".done"
	if b, err := os.ReadFile(marker); err == nil {
		n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		return n, nil
	}
	os.RemoveAll(dir)
	if out, err := exec.Command("git", "clone", "-q", "--shared", "--no-checkout", git, dir).CombinedOutput(); err != nil {
		return 0, fmt.Errorf("git clone: %v: %s", err, out)
	}
	if out, err := exec.Command("git", "-C", dir, "-c", "advice.detachedHead=false", "reset", "-q", "--soft", head).CombinedOutput(); err != nil {
		// A clone's HEAD is the mirror's: the same commit in the split.
		return 0, fmt.Errorf("git reset: %v: %s", err, out)
	}
	ls, err := exec.Command("git", "-C", dir, "ls-tree", "-r", "-z", head).Output()
	if err != nil {
		return 0, fmt.Errorf("git ls-tree: %v", err)
	}
	type entry struct{ mode, hash, path string }
	var files []entry
	for _, rec := range bytes.Split(ls, []byte{0}) {
		meta, p, ok := bytes.Cut(rec, []byte{'\t'})
		if !ok {
			continue
		}
		f := strings.Fields(string(meta))
		if len(f) == 3 && f[1] == "blob" {
			files = append(files, entry{f[0], f[2], string(p)})
		}
	}
	cat := exec.Command("git", "-C", dir, "cat-file", "--batch")
	in, _ := cat.StdinPipe()
	outPipe, _ := cat.StdoutPipe()
	if err := cat.Start(); err != nil {
		return 0, err
	}
	go func() {
		w := bufio.NewWriter(in)
		for _, f := range files {
			fmt.Fprintln(w, f.hash)
		}
		w.Flush()
		in.Close()
	}()
	rd := bufio.NewReaderSize(outPipe, 1<<20)
	empty := 0
	for _, f := range files {
		hdr, err := rd.ReadString('\n')
		if err != nil {
			return 0, fmt.Errorf("git cat-file: %v", err)
		}
		var body []byte
		if strings.HasSuffix(hdr, " missing\n") {
			empty++
		} else {
			fs := strings.Fields(hdr)
			size, _ := strconv.Atoi(fs[len(fs)-1])
			body = make([]byte, size+1)
			if _, err := io.ReadFull(rd, body); err != nil {
				return 0, fmt.Errorf("git cat-file: %v", err)
			}
			body = body[:size]
		}
		full := filepath.Join(dir, filepath.FromSlash(f.path))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return 0, err
		}
		if f.mode == "120000" {
			os.Symlink(string(body), full)
			continue
		}
		perm := os.FileMode(0o644)
		if f.mode == "100755" {
			perm = 0o755
		}
		if err := os.WriteFile(full, body, perm); err != nil {
			return 0, err
		}
	}
	if err := cat.Wait(); err != nil {
		return 0, fmt.Errorf("git cat-file: %v", err)
	}
	if out, err := exec.Command("git", "-C", dir, "read-tree", head).CombinedOutput(); err != nil {
		return 0, fmt.Errorf("git read-tree: %v: %s", err, out)
	}
	return empty, os.WriteFile(marker, []byte(strconv.Itoa(empty)+"\n"), 0o644)
}

func claudeVersion(bin string) string { return harnessVersion("Claude Code", bin) }

// harnessVersion is a harness's name and what its --version says.
func harnessVersion(name, bin string) string {
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		return name + " (version unknown)"
	}
	return name + " " + strings.TrimSpace(string(out))
}

// hookLogSize is where hook.log ends now: the lines after it are a
// session's.
func hookLogSize(cache string) int64 {
	st, err := os.Stat(filepath.Join(cache, "hook.log"))
	if err != nil {
		return 0
	}
	return st.Size()
}

var hookLogMs = regexp.MustCompile(`^\S+ PreToolUse (?:Read|Bash) .* \(([0-9.]+) ms\)$`)

// hookLogTimes are the times of the PreToolUse answers hook.log holds
// past offset at.
func hookLogTimes(cache string, at int64) []time.Duration {
	var out []time.Duration
	hookLogLines(cache, at, func(line string) {
		if m := hookLogMs.FindStringSubmatch(line); m != nil {
			v, _ := strconv.ParseFloat(m[1], 64)
			out = append(out, time.Duration(v*float64(time.Millisecond)))
		}
	})
	return out
}

// hookLogLines calls f with each line of the hook's log in cache from
// offset at.
func hookLogLines(cache string, at int64, f func(line string)) {
	log, err := os.Open(filepath.Join(cache, "hook.log"))
	if err != nil {
		return
	}
	defer log.Close()
	log.Seek(at, io.SeekStart)
	sc := bufio.NewScanner(log)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		f(sc.Text())
	}
}

func firstLineOf(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// shellCommands are the commands a stale path is asked in, in turn: each
// of a path as the agent wrote it, quoted as bash needs.
var shellCommands = []func(p string) string{
	func(p string) string { return "cat " + shellQuote(p) },
	func(p string) string { return "sed -n '1,40p' " + shellQuote(p) },
	func(p string) string { return "head -n 30 " + shellQuote(p) },
	func(p string) string { return "grep -n '' " + shellQuote(p) },
}

func shellQuote(p string) string {
	q, err := syntax.Quote(p, syntax.LangBash)
	if err != nil {
		return "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
	}
	return q
}

// lineSuffix: a path that ends in :LINE (a compiler's, an editor's).
var lineSuffix = regexp.MustCompile(`:\d+(:\d+)?$`)

// shellCases are the cases a shell command can be asked with and judged
// by: no :line suffix, and the file meant not empty in tree.
func shellCases(cases []calCase, tree string) []calCase {
	var out []calCase
	for _, c := range cases {
		if c.Expected == nil || lineSuffix.MatchString(c.Query) {
			continue
		}
		if st, err := os.Stat(filepath.Join(tree, *c.Expected)); err != nil || st.Size() == 0 {
			continue
		}
		out = append(out, c)
	}
	return out
}

// shellCall is one shell command of the bench: the case it asks, the
// command as the agent wrote it, the same command on what the case meant
// ("": judged by the hook's rewrite alone), that (a file, or for ls its
// directory, relative to the tree), and the command's kind.
type shellCall struct {
	c                    calCase
	asked, meant, target string
	kind                 string
}

// shellCalls are the commands cases are asked in: each case's file in
// one of shellCommands in turn; then, where the stale path's directory
// is not there and the file's directory today has its name, an ls of it
// (meaning the file's directory: the directory moved, keeping its name —
// where the name changed too, the file's new directory is no truth for
// what its old one became: kafka's trogdor/fault/X.java, renamed into
// trogdor/rest, says nothing of where trogdor/fault went); and, for a
// Python test file, pytest of one of its tests (FILE::test_name) — judged
// by the hook's rewrite alone: what pytest then prints is the project's
// environment's, not the path's.
func shellCalls(cases []calCase, tree string) []shellCall {
	var out []shellCall
	for i, c := range cases {
		command := shellCommands[i%len(shellCommands)]
		out = append(out, shellCall{c: c, asked: command(c.Query), meant: command(*c.Expected), target: *c.Expected, kind: "cat, sed -n, head -n, grep -n"})
	}
	for _, c := range cases {
		asked, meant := path.Dir(c.Query), path.Dir(*c.Expected)
		if asked == "." || meant == "." || asked == meant || path.Base(asked) != path.Base(meant) {
			continue
		}
		full := asked
		if !path.IsAbs(full) {
			full = filepath.Join(tree, asked)
		}
		if _, err := os.Stat(full); err == nil {
			continue
		}
		out = append(out, shellCall{c: c, asked: "ls " + shellQuote(asked), meant: "ls " + shellQuote(meant), target: meant, kind: "ls DIR"})
	}
	for _, c := range cases {
		base := path.Base(*c.Expected)
		if !strings.HasSuffix(base, ".py") || !strings.HasPrefix(base, "test_") && !strings.HasSuffix(base, "_test.py") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(tree, *c.Expected))
		if err != nil {
			continue
		}
		if m := pyTest.FindSubmatch(b); m != nil {
			out = append(out, shellCall{c: c, asked: "pytest " + shellQuote(c.Query+"::"+string(m[1])), target: *c.Expected, kind: "pytest FILE::test"})
		}
	}
	return out
}

// pyTest is a Python test function's definition (its name).
var pyTest = regexp.MustCompile(`(?m)^\s*(?:async\s+)?def\s+(test_\w+)\s*\(`)

// judgeShell is what a shell command came to. What was meant (a file, or
// ls's directory) was read when the hook rewrote the command to name it
// and the command did not fail (the output is the harness's to format: a
// line ending, a cut of a long output; a command judged by its rewrite
// alone need not run), or when its output is what the command prints on
// what was meant; another only when the hook rewrote it to name another
// (as written, it names nothing there); named first when the command ran
// as written and the hook's line after it named what was meant first;
// else nothing useful.
func judgeShell(tree string, call shellCall, result string, said hookSaid) agentOutcome {
	got := strings.TrimSpace(result)
	failed := got == "" || strings.Contains(got, "No such file or directory") || strings.HasPrefix(got, "Exit code") || strings.Contains(got, "was blocked")
	same := false
	if call.meant == "" {
		failed = false // judged by the rewrite alone
	} else if want, err := shellOutput(tree, call.meant); err == nil {
		same = got == strings.TrimSpace(want)
	}
	expected := call.target
	abs := filepath.Join(tree, expected)
	switch {
	case same:
		return agentRead
	case said.rewritten != "" && !failed && (namesPath(said.rewritten, expected) || namesPath(said.rewritten, abs)):
		return agentRead
	case said.rewritten != "" && !failed:
		return agentOther
	case said.told == expected || said.told == abs:
		return agentNamed
	}
	// Run as written, the command named a path that is not there: whatever
	// it printed (a sandbox's refusal, a harness's words), it read no file.
	return agentNothing
}

// namesPath reports whether a shell command has p as one of its words
// (less a trailing / or pytest's ::test).
func namesPath(command, p string) bool {
	for _, w := range strings.Fields(command) {
		w = strings.Trim(w, `'"`)
		w, _, _ = strings.Cut(w, "::")
		if strings.TrimSuffix(w, "/") == p {
			return true
		}
	}
	return false
}

// hookSaid is what the hook's log says it did with one shell command: the
// command it rewrote it to ("" none), and the file its line after the
// command named first ("" none).
type hookSaid struct {
	rewritten, told string
}

// hookLogBash reads a line of the hook's log about a Bash call: the
// event, the command (as %q wrote it) and what was said.
var hookLogBash = regexp.MustCompile(`^\S+ (PreToolUse|PostToolUse|PostToolUseFailure) Bash ("(?:[^"\\]|\\.)*"): \S* ?(.*) \([0-9.]+ ms`)

// toldFile is the file (or directory) a line after a failed command
// names first: a file's reading, or the first of the directories named
// so (the hook's namedLine).
var toldFile = regexp.MustCompile(`(?: is | moved to |the likeliest is |; those named so: )([^\s,]+)`)

// hookSaidOf is what the hook's log (in cache, from offset at) says of
// each shell command.
func hookSaidOf(cache string, at int64) map[string]hookSaid {
	out := map[string]hookSaid{}
	hookLogLines(cache, at, func(line string) {
		m := hookLogBash.FindStringSubmatch(line)
		if m == nil {
			return
		}
		command, err := strconv.Unquote(m[2])
		if err != nil {
			return
		}
		s := out[command]
		if m[1] == "PreToolUse" {
			if rest, ok := strings.CutPrefix(m[3], "→ "); ok {
				s.rewritten, _, _ = strings.Cut(rest, ": wayfind: ")
			}
		} else if t := toldFile.FindStringSubmatch(m[3]); t != nil {
			s.told = strings.TrimSuffix(t[1], ";")
		}
		out[command] = s
	})
	return out
}

// shellCut: a harness cuts a long output (Claude Code past 30,000
// characters, Codex past its token budget); one whose first shellCut
// bytes are the expected output's — longer than a license header — is
// the file's.
const shellCut = 4000

// shellOutput is what command prints in dir.
func shellOutput(dir, command string) (string, error) {
	cmd := exec.Command("sh", "-c", command)
	cmd.Dir = dir
	out, err := cmd.Output()
	return string(out), err
}

// runClaudeScript plays script in Claude Code, headless in tree (HOME
// home, the hook's cache cache), with `wayfind hook` installed when
// hooked, and returns each call's result and the file each Read read.
func runClaudeScript(claude, tree, home, cache, wayfind string, script []claudetest.Call, hooked bool) (results, read []string, err error) {
	s := claudetest.Session{Claude: claude, Dir: tree, Home: home, Env: []string{"WAYFIND_CACHE_DIR=" + cache}, Timeout: 20 * time.Minute}
	res, err := s.Run(context.Background(), script, func(env []string) error {
		if !hooked {
			return nil
		}
		install := exec.Command(wayfind, "hook", "install", "--user")
		install.Env, install.Dir = env, tree
		if out, err := install.CombinedOutput(); err != nil {
			return fmt.Errorf("hook install: %v: %s", err, out)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return res.ToolResults, res.ReadFiles(), nil
}

// shellScript is each shell command as a call of Codex's shell.
func shellScript(sh []shellCall) []codextest.Call {
	script := make([]codextest.Call, len(sh))
	for i, s := range sh {
		script[i] = codextest.Call{Tool: "exec_command", Args: map[string]any{"cmd": s.asked}}
	}
	return script
}

// runCodexScript plays script in Codex CLI, headless in tree (HOME home,
// the hook's cache cache), with `wayfind hook` as its PreToolUse and
// PostToolUse hook on Bash when hooked, and returns each command's
// output.
func runCodexScript(codex, tree, home, cache, wayfind string, script []codextest.Call, hooked bool) ([]string, error) {
	config := ""
	if hooked {
		for _, event := range []string{"PreToolUse", "PostToolUse"} {
			config += fmt.Sprintf("\n[[hooks.%s]]\nmatcher = \"Bash\"\n[[hooks.%s.hooks]]\ntype = \"command\"\ncommand = %s\ntimeout = 10\n",
				event, event, codextest.TOMLString(wayfind+" hook"))
		}
	}
	s := codextest.Session{Codex: codex, Dir: tree, Home: home, Config: config, TrustHooks: hooked, Env: []string{"WAYFIND_CACHE_DIR=" + cache}, Timeout: 20 * time.Minute}
	res, err := s.Run(context.Background(), script)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(res.Outputs))
	for i, parts := range res.Outputs {
		out[i] = codextest.Output(parts)
	}
	return out, nil
}

// geminiScript is script (Claude Code's calls) as Gemini CLI's tools:
// Read as read_file, Bash as run_shell_command.
func geminiScript(script []claudetest.Call) []geminitest.Call {
	out := make([]geminitest.Call, len(script))
	for i, c := range script {
		switch c.Name {
		case "Read":
			out[i] = geminitest.Call{Tool: "read_file", Args: map[string]any{"file_path": c.Input["file_path"]}}
		default:
			out[i] = geminitest.Call{Tool: "run_shell_command", Args: map[string]any{"command": c.Input["command"], "description": "read"}}
		}
	}
	return out
}

// chatScript is script (Claude Code's calls) as opencode's or Copilot
// CLI's tools: Read as opencode's read or Copilot's view, Bash as bash.
func chatScript(harness string, script []claudetest.Call) []chattest.Call {
	out := make([]chattest.Call, len(script))
	for i, c := range script {
		switch {
		case c.Name == "Read" && harness == "opencode":
			out[i] = chattest.Call{Tool: "read", Args: map[string]any{"filePath": c.Input["file_path"]}}
		case c.Name == "Read":
			out[i] = chattest.Call{Tool: "view", Args: map[string]any{"path": c.Input["file_path"]}}
		default:
			out[i] = chattest.Call{Tool: "bash", Args: map[string]any{"command": c.Input["command"], "description": "read"}}
		}
	}
	return out
}

// chatSession is how many calls an opencode or Copilot CLI session of the
// bench plays (runChatScript), as Gemini CLI's (geminiSession): a
// session's turns slow as its history grows.
const chatSession = 10

// runChatScript plays script in opencode (the repository's plugin
// calling `wayfind hook --harness opencode` when hooked) or Copilot CLI
// (`wayfind hook --harness copilot` as its PreToolUse and PostToolUse
// hooks when hooked), headless in tree (HOME under home, the hook's cache
// cache), and returns each call's tool message.
func runChatScript(harness, bin, tree, home, cache, wayfind string, script []chattest.Call, hooked bool) ([]string, error) {
	env := []string{"WAYFIND_CACHE_DIR=" + cache}
	var out []string
	for lo := 0; lo < len(script); lo += chatSession {
		calls := script[lo:min(lo+chatSession, len(script))]
		h := filepath.Join(home, strconv.Itoa(lo))
		var got []string
		var err error
		if harness == "opencode" {
			plugin := ""
			if hooked {
				if plugin, err = filepath.Abs("plugin/opencode/wayfind.js"); err != nil {
					return nil, err
				}
			}
			got, err = chattest.Opencode{Bin: bin, Dir: tree, Home: h, Plugin: plugin, Env: append(env, "WAYFIND_BIN="+wayfind), Timeout: 20 * time.Minute}.Run(context.Background(), calls)
		} else {
			hookCmd := ""
			if hooked {
				hookCmd = wayfind + " hook --harness copilot"
			}
			got, err = chattest.Copilot{Bin: bin, Dir: tree, Home: h, HookCmd: hookCmd, Env: env, CacheHome: filepath.Join(home, "..", "..", "copilot-cache"), Timeout: 20 * time.Minute}.Run(context.Background(), calls)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, got...)
	}
	return out, nil
}

// chatReads is the file each Read of script read in opencode or Copilot
// CLI, whose tool messages say no path: where the hook rewrote it to,
// when the message shows that file's text — one of its lines (less the
// line number the harness puts before it), wherever the harness's range
// began (for a path with a :line, where the hook mapped that line in the
// file of today); a binary file when the message is no refusal. "" when
// none was read.
func chatReads(script []claudetest.Call, results []string, rewrote map[string]string) []string {
	read := make([]string, len(script))
	for i, c := range script {
		p, _ := c.Input["file_path"].(string)
		to, ok := rewrote[p]
		if !ok || i >= len(results) {
			continue
		}
		lines, text := fileLines(to)
		if !text {
			if !refused.MatchString(results[i]) {
				read[i] = to
			}
			continue
		}
		for _, l := range strings.Split(results[i], "\n") {
			if l = strings.TrimSpace(numbered.ReplaceAllString(l, "")); l != "" && lines[l] {
				read[i] = to
				break
			}
		}
	}
	return read
}

// refused is how opencode's and Copilot CLI's reads say they read
// nothing: the file not there, a binary file, a permission's refusal.
var refused = regexp.MustCompile(`(?i)not found|no such file|does not exist|ENOENT|cannot read|binary file|rejected|prevents you|error`)

// numbered is the line number a harness puts before a line it shows
// (Copilot CLI's "12. ", opencode's "00012| ").
var numbered = regexp.MustCompile(`^\s*\d+(?:\. |\| |\t|: )`)

// fileLines is the set of file's lines, trimmed (its first 8 MiB), and
// whether it is text (no NUL in its first 64 KiB).
func fileLines(file string) (map[string]bool, bool) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, true
	}
	b = b[:min(len(b), 8<<20)]
	if bytes.IndexByte(b[:min(len(b), 64<<10)], 0) >= 0 {
		return nil, false
	}
	lines := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines[l] = true
		}
	}
	return lines, true
}

// geminiSession is how many calls a Gemini CLI session of the bench
// plays (runGeminiScript).
const geminiSession = 10

// runGeminiScript plays script in Gemini CLI, headless in tree (HOME
// home, the hook's cache cache), with `wayfind hook` as its BeforeTool
// and AfterTool hook when hooked, and returns each call's answer as the
// model read it (its output, else the functionResponse's JSON) and
// whether it failed (an error in its place).
func runGeminiScript(gemini, tree, home, cache, wayfind string, script []geminitest.Call, hooked bool) ([]string, []bool, error) {
	hooks := ""
	if hooked {
		command, _ := json.Marshal(wayfind + " hook")
		hooks = fmt.Sprintf(`{
    "BeforeTool": [{"matcher": "read_file|list_directory|glob|grep_search|run_shell_command", "hooks": [{"type": "command", "command": %s, "timeout": 10000}]}],
    "AfterTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": %s, "timeout": 10000}]}],
    "BeforeModel": [{"hooks": [{"type": "command", "command": %s, "timeout": 10000}]}]
  }`, command, command, command)
	}
	// Sessions of geminiSession calls each: Gemini CLI's turns slow as a
	// session grows (thirty calls took eight seconds a turn, ten a third
	// of one), and the hook answers each call alike in any session.
	var responses, notes []string
	for lo := 0; lo < len(script); lo += geminiSession {
		s := geminitest.Session{Gemini: gemini, Dir: tree, Home: filepath.Join(home, strconv.Itoa(lo)), Hooks: hooks, Env: []string{"WAYFIND_CACHE_DIR=" + cache}, Timeout: 20 * time.Minute}
		got, err := s.Play(context.Background(), script[lo:min(lo+geminiSession, len(script))])
		if err != nil {
			return nil, nil, err
		}
		responses, notes = append(responses, got.Responses...), append(notes, got.Notes...)
	}
	out, failed := make([]string, len(responses)), make([]bool, len(responses))
	for i, r := range responses {
		var resp struct {
			Output *string `json:"output"`
			Error  any     `json:"error"`
		}
		out[i] = r
		if json.Unmarshal([]byte(r), &resp) != nil || resp.Error != nil || resp.Output == nil {
			// A refusal's words as the model read them: the error's
			// message (a denial's reason, the candidates in it).
			failed[i] = true
			switch e := resp.Error.(type) {
			case string:
				out[i] = e
			case map[string]any:
				if m, ok := e["message"].(string); ok {
					out[i] = m
				}
			}
			continue
		}
		out[i] = *resp.Output
	}
	for i, n := range notes { // Play gives one a response
		if n != "" {
			out[i] += noteMark + n
		}
	}
	return out, failed, nil
}

// hookLogRead reads a line of the hook's log where it rewrote a Read: the
// path asked (as %q wrote it) and the line it said.
var hookLogRead = regexp.MustCompile(`^\S+ PreToolUse Read ("(?:[^"\\]|\\.)*"): allow (wayfind: .*)$`)

// readTarget is the file a rewritten Read's line says it read instead.
var readTarget = regexp.MustCompile(` (?:moved to|is) (/\S+)`)

// hookReadsOf is what the hook's log (in cache, from offset at) says
// each Read it rewrote read instead: the path asked → the file.
func hookReadsOf(cache string, at int64) map[string]string {
	out := map[string]string{}
	hookLogLines(cache, at, func(line string) {
		m := hookLogRead.FindStringSubmatch(line)
		if m == nil {
			return
		}
		if asked, err := strconv.Unquote(m[1]); err == nil {
			if t := readTarget.FindStringSubmatch(m[2]); t != nil {
				out[asked] = t[1]
			}
		}
	})
	return out
}

// geminiReads is the file each Read of script read in Gemini CLI: where
// the hook rewrote it to, when the harness answered with the file's
// contents rather than an error ("" when none was read).
func geminiReads(script []claudetest.Call, failed []bool, rewrote map[string]string) []string {
	read := make([]string, len(script))
	for i, c := range script {
		p, _ := c.Input["file_path"].(string)
		if to, ok := rewrote[p]; ok && !failed[i] {
			read[i] = to
		}
	}
	return read
}

// imagesRead is read with each image a Read returned (claudetest.ImageRead:
// the harness says it read one, not which) as the file the hook's log
// says it rewrote that Read to ("" when it did not: the path asked was
// read as written).
func imagesRead(script []claudetest.Call, read []string, rewrote map[string]string) []string {
	out := slices.Clone(read)
	for i, r := range out {
		if r != claudetest.ImageRead || i >= len(script) {
			continue
		}
		p, _ := script[i].Input["file_path"].(string)
		out[i] = rewrote[p]
	}
	return out
}
