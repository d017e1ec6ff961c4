package main

// Calibration (issue 45): what `resolved` promises, measured on
// repositories split once, by repository, into a tuning half and a
// held-out half (testdata/calibration/split.tsv, written before any rule
// was tuned). Every rule is chosen on the tuning half; only held-out
// figures are quoted.
//
//	wayfind-bench calibrate [-half held-out] [-sets stale,links,deleted,sessions] [-answers FILE]
//
// Per repository (testdata/calibration/OWNER__NAME, made by
// scripts/gencalibration.py): the HEAD listing indexed as it is (names
// only), and with the repository's history read from its git directory
// (-mirrors: OWNER+NAME/repo or OWNER+NAME), else replayed from the log
// kept beside the cases where it is small enough to keep; without
// either, only the names.
// Sets:
//   - stale: real renames asked for by their old paths, as written and as
//     held (another machine's prefix and a :line, or a typo);
//   - links: real broken references from documents and comments, asked
//     with the document as `from`; beside them, the one file of the same
//     name as a baseline;
//   - held: today's files as another machine holds them (its checkout's
//     prefix and a :line, a Windows path, a CI runner's): the file itself
//     is the answer;
//   - deleted: deleted files with no successor (the deleting commit named);
//   - sessions: the newest commits replayed as sessions (sessions.go):
//     bare names asked with no visits, with the visits, and with the
//     visits and the current file.
//
// Every answer is one JSON line in -answers (its class, confidence and
// whether it was right), what a rule is tuned on; the tables summarise
// them: right (resolved and right), wrong (resolved and wrong) and first
// (the resolved file, else the first candidate, is the one meant).

import (
	"bufio"
	"compress/gzip"
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
	"slices"
	"sort"
	"strings"
	"time"

	"wayfind/rank"
	"wayfind/service"
	"wayfind/vcs"
	"wayfind/workspace"
)

// answerLog keeps every answer of a run and writes each, one JSON line,
// to the -answers file when there is one.
type answerLog struct {
	all []calAnswer
	enc *json.Encoder
	f   *os.File
	w   *bufio.Writer
}

// newAnswerLog is a log writing to path ("": keeping the answers only).
func newAnswerLog(path string) (*answerLog, error) {
	l := &answerLog{enc: json.NewEncoder(io.Discard)}
	if path == "" {
		return l, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	l.f, l.w = f, bufio.NewWriter(f)
	l.enc = json.NewEncoder(l.w)
	return l, nil
}

func (l *answerLog) record(a calAnswer) {
	l.all = append(l.all, a)
	_ = l.enc.Encode(a)
}

// close writes out what is buffered and closes the file.
func (l *answerLog) close() {
	if l.f != nil {
		_ = l.w.Flush()
		_ = l.f.Close()
	}
}

// calRepo is one line of split.tsv.
type calRepo struct {
	repo, lang, head, half string
}

func (r calRepo) name() string { return strings.ReplaceAll(r.repo, "/", "__") }

// root is where the repository's tree is said to be: a checkout named as
// the repository, as a clone names it.
func (r calRepo) root() string { return "/calibration/" + path.Base(r.repo) }

// calCase is a case of the stale or links set.
type calCase struct {
	ID         string  `json:"id"`
	Category   string  `json:"category"`
	Query      string  `json:"query"`
	Expected   *string `json:"expected"`
	AcceptNone bool    `json:"accept_none"`
	From       string  `json:"from"`
	DeletedIn  *string `json:"deleted_in"`
	Agree      *bool   `json:"agree"`
}

// calAnswer is one answer, as -answers records it.
type calAnswer struct {
	Repo       string   `json:"repo"`
	Half       string   `json:"half"`
	Set        string   `json:"set"`
	Mode       string   `json:"mode"`
	Category   string   `json:"category"`
	ID         string   `json:"id"`
	Query      string   `json:"query"`
	From       string   `json:"from,omitempty"`
	Expected   string   `json:"expected"` // "" when nothing should resolve
	Resolved   string   `json:"resolved"`
	First      string   `json:"first"`
	Gone       string   `json:"gone,omitempty"` // the deleting commit named
	Basis      string   `json:"basis"`
	Class      string   `json:"class"`
	Confidence float64  `json:"confidence"`
	Right      bool     `json:"right"`
	Wrong      bool     `json:"wrong"`
	FirstRight bool     `json:"firstRight"`
	Reasons    []string `json:"reasons,omitempty"`
	Second     string   `json:"second,omitempty"`
	Micros     int64    `json:"us"`
	// Last is a session question's last visit (where the person was).
	Last string `json:"last,omitempty"`
}

func calibrateCmd(args []string) error {
	fs := flag.NewFlagSet("calibrate", flag.ContinueOnError)
	splitPath := fs.String("split", "testdata/calibration/split.tsv", "the split: repository, language, files, commits, head, half")
	data := fs.String("data", "testdata/calibration", "the cases and listings, one directory a repository (OWNER__NAME)")
	mirrors := fs.String("mirrors", "", "git directories of the repositories (OWNER+NAME/repo or OWNER+NAME): with them, the modes with history and the sessions")
	half := fs.String("half", "held-out", "tuning, held-out or all")
	sets := fs.String("sets", "stale,links,held,deleted,sessions", "the sets to run")
	only := fs.String("repo", "", "run only this repository (OWNER/NAME)")
	answers := fs.String("answers", "", "write every answer here, one JSON line each")
	work := fs.String("work", filepath.Join(os.TempDir(), "wayfind-calibrate"), "where histories are cached")
	var so sessionOptions
	fs.IntVar(&so.window, "window", 400, "sessions: the newest commits asked about")
	fs.IntVar(&so.follow, "follow", 0, "sessions: read the history on every this many commits of the window, as a server's record follows the repository (0: the history as of the window's start throughout)")
	fs.IntVar(&so.ties, "tie-weights", -1, fmt.Sprintf("sessions: give find's tie-break weighting K (0–%d, 0 the default) in place of the one each repository's recent work chooses (-1)", rank.TieWeightings()-1))
	order := addCopyOrderFlags(fs)
	damage := fs.Int("damage", 0, "stale: also read each history from a copy of its store missing this many blobs rename detection compares (a store git cannot read whole)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if so.ties >= rank.TieWeightings() {
		return fmt.Errorf("-tie-weights %d: there are %d weightings (0–%d)", so.ties, rank.TieWeightings(), rank.TieWeightings()-1)
	}
	copies, said, err := order.load()
	if err != nil {
		return err
	}
	so.copies = copies
	repos, err := readSplit(*splitPath)
	if err != nil {
		return err
	}
	log, err := newAnswerLog(*answers)
	if err != nil {
		return err
	}
	defer log.close()
	want := map[string]bool{}
	for _, s := range strings.Split(*sets, ",") {
		want[strings.TrimSpace(s)] = true
	}
	header("calibration", fmt.Sprintf(", half %s, sets %s; %s", *half, *sets, said))
	record := log.record
	for _, r := range repos {
		if (*half != "all" && r.half != *half) || (*only != "" && r.repo != *only) {
			continue
		}
		t0 := time.Now()
		n := len(log.all)
		if err := calibrateRepo(r, *data, *mirrors, *work, so, *damage, want, record); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", r.repo, err)
			continue
		}
		fmt.Fprintf(os.Stderr, "%s: %d answers in %.1f s\n", r.repo, len(log.all)-n, time.Since(t0).Seconds())
	}
	printCalibration(log.all)
	printSessionsByRepo(log.all, "sessions find")
	return nil
}

func readSplit(p string) ([]calRepo, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	var out []calRepo
	for _, l := range strings.Split(string(b), "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		f := strings.Split(l, "\t")
		if len(f) != 6 {
			return nil, fmt.Errorf("%s: %q is not repository, language, files, commits, head, half", p, l)
		}
		out = append(out, calRepo{repo: f[0], lang: f[1], head: f[4], half: f[5]})
	}
	return out, nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// mirrorOf is the repository's git directory under mirrors, or "".
func mirrorOf(mirrors, repo string) string {
	if mirrors == "" {
		return ""
	}
	for _, d := range []string{filepath.Join(mirrors, strings.ReplaceAll(repo, "/", "+"), "repo"), filepath.Join(mirrors, strings.ReplaceAll(repo, "/", "+"))} {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d
		}
	}
	return ""
}

func calibrateRepo(r calRepo, data, mirrors, work string, so sessionOptions, damage int, sets map[string]bool, record func(calAnswer)) error {
	dir := filepath.Join(data, r.name())
	paths, err := readCorpus(filepath.Join(dir, "listing"))
	if err != nil {
		return err
	}
	root := r.root()
	files := make([]workspace.File, len(paths))
	sort.Strings(paths)
	for i, p := range paths {
		files[i] = workspace.File{Path: p}
	}
	names := rank.New(workspace.NewIndex([]string{root}, files))
	git := mirrorOf(mirrors, r.repo)
	replayed := false
	if log := filepath.Join(dir, "log.gz"); git == "" && fileExists(log) {
		// No mirror: the history kept beside the cases, replayed.
		git = filepath.Join(work, "replay", r.name())
		if err := replayRepo(log, git, paths); err != nil {
			return err
		}
		replayed = true
	}
	var hist *rank.Engine
	var rec *vcs.Record
	if git != "" {
		ctx := context.Background()
		if head, err := vcs.Head(ctx, git); !replayed && (err != nil || head != r.head) {
			return fmt.Errorf("%s is at %.12s, the split records %.12s", git, head, r.head)
		}
		rec, err = vcs.Sync(ctx, work, git, nil, func(string, ...any) {})
		if err != nil {
			return err
		}
		hist = names.WithRepoHistory(rank.NewRepoHistory([]string{root}, []*vcs.Record{rec}))
	}
	base := calAnswer{Repo: r.repo, Half: r.half}
	modes := []struct {
		name string
		eng  *rank.Engine
	}{{"names only", names}, {"with history", hist}}
	if damage > 0 && git != "" && !replayed {
		// A store that already lacks blobs cannot be copied whole: no
		// damaged copy of it, the rest goes on.
		damaged, n, err := damagedStore(git, filepath.Join(work, "damaged", r.name()), damage)
		if err == nil {
			var drec *vcs.Record
			if drec, err = vcs.Build(context.Background(), damaged, nil); err == nil {
				modes = append(modes, struct {
					name string
					eng  *rank.Engine
				}{fmt.Sprintf("with history, %d blobs missing", n), names.WithRepoHistory(rank.NewRepoHistory([]string{root}, []*vcs.Record{drec}))})
			}
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: no copy missing blobs: %v\n", r.repo, strings.SplitN(err.Error(), "\n", 2)[0])
		}
	}
	for _, set := range []string{"stale", "links"} {
		if !sets[set] {
			continue
		}
		cases, err := readCalCases(filepath.Join(dir, set+".jsonl.gz"))
		if err != nil {
			if os.IsNotExist(err) {
				continue
			}
			return err
		}
		for _, m := range modes {
			if m.eng == nil {
				continue
			}
			for _, c := range cases {
				a := base
				a.Set, a.Mode, a.Category, a.ID, a.Query, a.From = set, m.name, c.Category, c.ID, c.Query, c.From
				if c.Expected != nil {
					a.Expected = *c.Expected
				}
				from := ""
				if c.From != "" {
					from = root + "/" + c.From
				}
				t0 := time.Now()
				res, err := service.ResolvePlaced(context.Background(), m.eng, rank.ResolveRequest{Path: c.Query, From: from, Link: isLink(c.Category), Limit: 5})
				a.Micros = time.Since(t0).Microseconds()
				if err != nil {
					a.Class = "error: " + err.Error()
					record(a)
					continue
				}
				a = judged(a, res, c.DeletedIn)
				if c.AcceptNone && a.Gone != "" {
					// A file rewritten beyond recognition: git's pairing is
					// a guess, and "deleted" is as good as nothing resolved.
					a.Wrong = false
				}
				record(a)
			}
		}
		if set == "links" {
			for _, c := range cases {
				a := base
				a.Set, a.Mode, a.Category, a.ID, a.Query, a.From = set, "the one file of that name", c.Category, c.ID, c.Query, c.From
				if c.Expected != nil {
					a.Expected = *c.Expected
				}
				a.Class = "baseline"
				if one := sameNameFile(names, c.Query); one != "" {
					a.Resolved, a.First = one, one
				}
				a.Right = a.Resolved != "" && a.Resolved == a.Expected
				a.Wrong = a.Resolved != "" && a.Resolved != a.Expected
				a.FirstRight = a.Right || (a.Expected == "" && a.Resolved == "")
				record(a)
			}
		}
	}
	if sets["held"] {
		for _, m := range modes {
			if m.eng == nil {
				continue
			}
			for _, c := range heldCases(r, paths) {
				a := base
				a.Set, a.Mode, a.Category, a.ID, a.Query, a.Expected = "held", m.name, c.Category, c.ID, c.Query, *c.Expected
				t0 := time.Now()
				res, err := service.ResolvePlaced(context.Background(), m.eng, rank.ResolveRequest{Path: c.Query, Limit: 5})
				a.Micros = time.Since(t0).Microseconds()
				if err != nil {
					return err
				}
				record(judged(a, res, nil))
			}
		}
	}
	if sets["deleted"] && hist != nil {
		for _, d := range deletedRun(context.Background(), hist, git, rec, os.Getenv("WAYFIND_BENCH_VERBOSE") != "") {
			// Right: said to be deleted (nothing resolved); the commit named
			// being git's is told apart (Class).
			a := base
			a.Set, a.Mode, a.Category, a.Query, a.Gone = "deleted", "with history", "deleted", d.query, d.gone
			a.Right, a.FirstRight, a.Wrong = d.gone != "" && d.none, d.gone != "", !d.none
			switch {
			case d.right:
				a.Class = "history/gone"
			case d.gone != "":
				a.Class = "history/gone, another commit"
			default:
				a.Class = "not gone"
			}
			record(a)
		}
	}
	if sets["sessions"] && git != "" {
		if err := calibrateSessions(r, git, work, so, base, record); err != nil {
			return err
		}
	}
	return nil
}

// damagedStore makes (once) a copy of the repository at git whose store
// lacks n blobs that rename detection compares — files added or deleted
// by commits that do both, drawn with a fixed seed — as a mirror that
// dropped some files, or a damaged store, lacks them. It returns the
// copy's git directory and how many blobs it lacks.
func damagedStore(git, dir string, n int) (string, int, error) {
	marker := dir + ".damaged"
	if b, err := os.ReadFile(marker); err == nil {
		var have int
		fmt.Sscan(string(b), &have)
		return dir, have, nil
	}
	out, err := exec.Command("git", "-C", git, "log", "--no-renames", "--raw", "--no-abbrev", "--no-merges", "--format=format:@", "HEAD").Output()
	if err != nil {
		return "", 0, fmt.Errorf("%s: git log: %w", git, err)
	}
	var blobs []string
	for _, commit := range strings.Split(string(out), "@") {
		var adds, dels []string
		for _, l := range strings.Split(commit, "\n") {
			f := strings.Fields(l)
			switch {
			case len(f) >= 5 && f[4] == "A":
				adds = append(adds, f[3])
			case len(f) >= 5 && f[4] == "D":
				dels = append(dels, f[2])
			}
		}
		if len(adds) > 0 && len(dels) > 0 {
			blobs = append(append(blobs, adds...), dels...)
		}
	}
	sort.Strings(blobs)
	blobs = slices.Compact(blobs)
	rnd := rand.New(rand.NewSource(45))
	rnd.Shuffle(len(blobs), func(i, j int) { blobs[i], blobs[j] = blobs[j], blobs[i] })
	drop := map[string]bool{}
	for _, b := range blobs[:min(n, len(blobs))] {
		drop[b] = true
	}
	os.RemoveAll(dir)
	if out, err := exec.Command("git", "clone", "-q", "--bare", "--no-local", git, dir).CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return "", 0, fmt.Errorf("git clone: %v: %s", err, out)
	}
	objs, err := exec.Command("git", "-C", dir, "rev-list", "--objects", "--all").Output()
	if err != nil {
		return "", 0, err
	}
	var keep strings.Builder
	for _, l := range strings.Split(string(objs), "\n") {
		if id, _, _ := strings.Cut(l, " "); id != "" && !drop[id] {
			keep.WriteString(id + "\n")
		}
	}
	old, _ := filepath.Glob(filepath.Join(dir, "objects", "pack", "pack-*"))
	pack := exec.Command("git", "-C", dir, "pack-objects", "-q", filepath.Join(dir, "objects", "pack", "pack"))
	pack.Stdin = strings.NewReader(keep.String())
	if out, err := pack.CombinedOutput(); err != nil {
		return "", 0, fmt.Errorf("git pack-objects: %v: %s", err, out)
	}
	for _, p := range old {
		os.Remove(p)
	}
	return dir, len(drop), os.WriteFile(marker, []byte(fmt.Sprint(len(drop))), 0o644)
}

// isLink reports whether a reference of a links category is a link's
// target (Markdown, HTML, reStructuredText, AsciiDoc), read from its
// document's directory alone; the others (comments, includes, imports,
// source) are read as the engine reads any path from a document.
func isLink(category string) bool {
	switch strings.TrimSuffix(category, "_fixed") {
	case "markdown", "html", "rst", "adoc":
		return true
	}
	return false
}

// heldCases are today's files of the repository as another machine
// holds them, 20 of each form, drawn with a fixed seed: behind its
// checkout's prefix with a :line, as a Windows path, as a CI runner's;
// and behind a container's or a CI's prefix that names no checkout
// (/app, /usr/src/app, /workspace, /builds/GROUP/PROJECT), the request
// layer's foreign prefix (service/outside.go).
func heldCases(r calRepo, paths []string) []calCase {
	rnd := rand.New(rand.NewSource(45))
	name := path.Base(r.repo)
	forms := []struct {
		cat string
		of  func(p string, line int) string
	}{
		{"prefix_line", func(p string, line int) string { return fmt.Sprintf("/home/dev/src/%s/%s:%d", name, p, line) }},
		{"windows", func(p string, _ int) string {
			return `C:\Users\dev\source\repos\` + name + `\` + strings.ReplaceAll(p, "/", `\`)
		}},
		{"ci_runner", func(p string, line int) string {
			return fmt.Sprintf("/home/runner/work/%s/%s/%s:%d", name, name, p, line)
		}},
		{"container", func(p string, line int) string {
			prefix := []string{"/app", "/usr/src/app", "/workspace", "/builds/group/project"}[line%4]
			return fmt.Sprintf("%s/%s:%d", prefix, p, line)
		}},
	}
	var out []calCase
	for _, f := range forms {
		for k := 0; k < 20 && len(paths) > 0; k++ {
			p := paths[rnd.Intn(len(paths))]
			want := p
			out = append(out, calCase{ID: fmt.Sprintf("%s/held/%s/%d", r.name(), f.cat, k), Category: f.cat, Query: f.of(p, 1+rnd.Intn(40)), Expected: &want})
		}
	}
	return out
}

// judged fills a's answer from res: right, wrong and first against
// a.Expected ("" when the file was deleted: then the deleting commit,
// when deletedIn names it, must be the one named).
func judged(a calAnswer, res *rank.ResolveResult, deletedIn *string) calAnswer {
	a.Basis, a.Class, a.Confidence = string(res.Basis), string(res.Class()), res.Confidence
	if res.Resolved != nil {
		a.Resolved = res.Resolved.Path
	}
	if res.Gone != nil {
		a.Gone = res.Gone.Fate.Commit.Hash
	}
	a.First = a.Resolved
	if a.First == "" && len(res.Candidates) > 0 && res.Gone == nil {
		a.First = res.Candidates[0].Path
	}
	if len(res.Candidates) > 0 {
		a.Reasons = res.Candidates[0].Reasons
	}
	if len(res.Candidates) > 1 {
		a.Second = res.Candidates[1].Path
	}
	if a.Expected == "" {
		// Said to be deleted is right; which commit deleted it is told
		// apart in the class (the truth's, or another).
		a.Right = res.Gone != nil
		a.Wrong = res.Resolved != nil
		a.FirstRight = a.Right
		if res.Gone != nil && deletedIn != nil && *deletedIn != a.Gone {
			a.Class += ", another commit"
		}
		return a
	}
	a.Right = a.Resolved == a.Expected
	// A file said to be deleted when it lives on is acted on as wrongly
	// as a wrong file: an agent stops looking.
	a.Wrong = (a.Resolved != "" && !a.Right) || a.Gone != ""
	a.FirstRight = a.First == a.Expected
	return a
}

// sameNameFile is the baseline's answer: the one file of the tree with
// the reference's name (fragment and query left out), when only one has it.
func sameNameFile(eng *rank.Engine, ref string) string {
	q, err := rank.ParsePath(ref)
	if err != nil {
		return ""
	}
	hits := eng.Named(path.Base(q.Path))
	if len(hits) != 1 {
		return ""
	}
	return hits[0]
}

func readCalCases(p string) ([]calCase, error) { return readGzipJSONLines[calCase](p) }

// readGzipJSONLines is readJSONLines of the gzip file at p.
func readGzipJSONLines[T any](p string) ([]T, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return readJSONLines[T](gz, p)
}

// sessionOptions are how the sessions are asked: the window of commits,
// how often the history is read on (follow; 0 never), the tie-break
// weighting given in place of the learned one (ties; -1 none), and the
// fitted order of a name's copies (copies; nil: the formula).
type sessionOptions struct {
	window, follow, ties int
	copies               rank.CopyOrder
}

// calibrateSessions asks the session questions of the newest commits
// (sessions.go) in three modes, of the history as of the window's start,
// or — follow > 0 — read on to the asking commit's parent every follow
// commits of the window (a server's record follows each commit; the
// tie-break it learns, activity and co-change with it). With so.ties
// ≥ 0 every history gives that tie-break weighting instead of learning
// one.
func calibrateSessions(r calRepo, git, work string, so sessionOptions, base calAnswer, record func(calAnswer)) error {
	sq, err := sessionQuestions(git, so.window)
	if err != nil {
		return err
	}
	root := r.root()
	index := rank.New(workspace.NewIndex([]string{root}, sq.files))
	ctx := context.Background()
	historyAt := func(rev string, prev *vcs.Record) (*vcs.Record, error) {
		cache := filepath.Join(work, "sessions", r.name(), rev)
		rec, err := vcs.Load(cache)
		if err != nil {
			if rec, err = vcs.BuildAt(ctx, git, rev, prev); err != nil {
				return nil, err
			}
			_ = vcs.Save(cache, rec)
		}
		return rec, nil
	}
	rec, err := historyAt(sq.base, nil)
	if err != nil {
		return err
	}
	withHistory := func(rec *vcs.Record) (*rank.Engine, error) {
		h := rank.NewRepoHistory([]string{root}, []*vcs.Record{rec})
		if so.ties >= 0 {
			if err := h.FixTieWeights(so.ties); err != nil {
				return nil, err
			}
		}
		eng := index.WithRepoHistory(h)
		if so.copies != nil {
			eng = eng.WithCopyOrder(so.copies)
		}
		t0 := time.Now()
		near, act, replayed := eng.TieWeights(0)
		fmt.Fprintf(os.Stderr, "%s: find's tie-break weights nearness %.2f, activity %.2f (%d questions replayed in %.1f ms)\n",
			r.repo, near, act, replayed, float64(time.Since(t0).Microseconds())/1000)
		return eng, nil
	}
	eng, err := withHistory(rec)
	if err != nil {
		return err
	}
	// Each author's commits before the window: with theirs in it, what
	// the user committed lately (sessionAuthored).
	past := authorCommits(git, sq.base, sessionPastCommits)
	readTo := 0 // the window's commits the history has read
	for k, q := range sq.questions {
		if so.follow > 0 && q.commit >= readTo+so.follow {
			if rec, err = historyAt(q.hash+"^", rec); err != nil {
				return err
			}
			if eng, err = withHistory(rec); err != nil {
				return err
			}
			readTo = q.commit
		}
		withVisits, err := askSession(ctx, eng, rec, root, "sessions", fmt.Sprintf("%s/session/%d", r.name(), k), q, sessionAuthored(q, past), base, record)
		if err != nil {
			return err
		}
		if sessionFeaturesOut != nil {
			writeSessionFeatures(sessionFeaturesOut, r.repo, r.half, eng, rec, past, q, withVisits)
		}
	}
	return nil
}

// askSession asks session question q (id) of eng in each of sessionModes
// and records the answers — resolve's under set, find's under set + "
// find" — then the one-line baselines the visits must beat; authored is
// what the modes with the visits give as the user's own commits (empty:
// none). It returns find's request with the visits (the features').
func askSession(ctx context.Context, eng *rank.Engine, rec *vcs.Record, root, set, id string, q sessionQuestion, authored rank.Authored, base calAnswer, record func(calAnswer)) (rank.FindRequest, error) {
	st := visitStore(root, q.visits)
	base.Last = q.last
	var withVisits rank.FindRequest
	for _, mode := range sessionModes {
		// No visits, nor the user's commits (the record follows this
		// machine's user, not the session's).
		req := rank.ResolveRequest{Path: q.name, Limit: 5, History: []rank.Visit{}, Authored: rank.Authored{}}
		find := rank.FindRequest{Query: q.name, Limit: 5, History: []rank.Visit{}, Authored: rank.Authored{}}
		switch mode {
		case "with the visits":
			// As the server asks when a client reports focus but sends
			// no current file: the last focus stands for it.
			req.History = service.EngineVisits(st.Frecent(rank.MaxVisits))
			if v, ok := st.Current(); ok {
				req.Current = v.Path()
			}
			req.Authored = authored
		case "with the visits and current":
			req.History, req.Current = service.EngineVisits(st.Frecent(rank.MaxVisits)), root+"/"+q.last
			req.Authored = authored
		}
		find.History, find.Current, find.Authored = req.History, req.Current, req.Authored
		// A client naming the current file says the user is in it (an
		// editor's active file); the last focus does not.
		find.InCurrent = mode == "with the visits and current"
		if mode == "with the visits" {
			withVisits = find
		}
		a := base
		a.Set, a.Mode, a.Category, a.ID, a.Query, a.Expected = set, mode, "bare name", id, q.name, q.want
		t0 := time.Now()
		res, err := eng.Resolve(ctx, req)
		a.Micros = time.Since(t0).Microseconds()
		if err != nil {
			return withVisits, err
		}
		a = judged(a, res, nil)
		record(a)
		t0 = time.Now()
		fr, err := eng.Find(ctx, find)
		us := time.Since(t0).Microseconds()
		if err != nil {
			return withVisits, err
		}
		f := base
		f.Set, f.Mode, f.Category, f.ID, f.Query, f.Expected, f.Class = set+" find", mode, "bare name", id, q.name, q.want, "find"
		f.Micros = us
		if len(fr.Matches) > 0 {
			f.First = fr.Matches[0].Path
		}
		f.FirstRight = f.First == q.want
		record(f)
	}
	// The simple baselines the visits must beat (issue 55), each a rule
	// of one line over the copies of the name.
	for _, b := range []struct{ mode, first string }{
		{sessionBaselines[0], nearestTo(q.last, q.copies)},
		{sessionBaselines[1], shortestOf(q.copies)},
		{sessionBaselines[2], mostActiveOf(rec, q.copies)},
	} {
		f := base
		f.Set, f.Mode, f.Category, f.ID, f.Query, f.Expected, f.Class = set+" find", b.mode, "bare name", id, q.name, q.want, "baseline"
		f.First, f.FirstRight = b.first, b.first == q.want
		record(f)
	}
	return withVisits, nil
}

// sessionBaselines are the modes of the sessions' one-line baselines.
var sessionBaselines = []string{"baseline: nearest to the last visit", "baseline: shortest path", "baseline: most active"}

// printSessionsByRepo prints find's first answer on the sessions by
// repository and mode — the modes of the engine and the baselines —
// with the macro mean over repositories and the pooled figure.
func printSessionsByRepo(all []calAnswer, set string) {
	modes := append(slices.Clone(sessionModes), sessionBaselines...)
	type key struct{ repo, mode string }
	n, first := map[key]int{}, map[key]int{}
	var repos []string
	for _, a := range all {
		if a.Set != set {
			continue
		}
		if !slices.Contains(repos, a.Repo) {
			repos = append(repos, a.Repo)
		}
		k := key{a.Repo, a.Mode}
		n[k]++
		if a.FirstRight {
			first[k]++
		}
	}
	if len(repos) == 0 {
		return
	}
	slices.Sort(repos)
	title := strings.TrimSuffix(set, " find")
	fmt.Printf("%s%s, find/files first answer by repository (the baselines: one-line rules over the copies of the name):\n", strings.ToUpper(title[:1]), title[1:])
	fmt.Println()
	fmt.Printf("| repository | questions | %s |\n|---|---:|%s\n", strings.Join(modes, " | "), strings.Repeat("---:|", len(modes)))
	macro := make([]float64, len(modes))
	for _, r := range repos {
		cells := make([]string, len(modes))
		for i, m := range modes {
			k := key{r, m}
			cells[i] = pct(first[k], n[k])
			if n[k] > 0 {
				macro[i] += float64(first[k]) / float64(n[k])
			}
		}
		fmt.Printf("| %s | %d | %s |\n", r, n[key{r, modes[0]}], strings.Join(cells, " | "))
	}
	cells, pooled := make([]string, len(modes)), make([]string, len(modes))
	total := 0
	for i, m := range modes {
		f, t := 0, 0
		for _, r := range repos {
			f, t = f+first[key{r, m}], t+n[key{r, m}]
		}
		if i == 0 {
			total = t
		}
		cells[i] = fmt.Sprintf("%.1f%%", 100*macro[i]/float64(len(repos)))
		pooled[i] = pct(f, t)
	}
	fmt.Printf("| **macro** (%d repositories) | %d | %s |\n", len(repos), total, strings.Join(cells, " | "))
	fmt.Printf("| **pooled** | %d | %s |\n\n", total, strings.Join(pooled, " | "))
	// The bar: with the visits, each repository at least the best
	// of the baselines.
	var below []string
	for _, r := range repos {
		best := 0
		for _, b := range sessionBaselines {
			best = max(best, first[key{r, b}]) // one question set: counts compare
		}
		if first[key{r, sessionModes[1]}] < best {
			below = append(below, r)
		}
	}
	fmt.Printf("With the visits below the best baseline: %d of %d repositories (%s)\n\n", len(below), len(repos), strings.Join(below, ", "))
	// What a find costs in each of the engine's modes (the visits' part:
	// nearness, the copies' reading, a fitted order's run).
	for _, m := range sessionModes {
		var us []int64
		for _, a := range all {
			if a.Set == set && a.Mode == m {
				us = append(us, a.Micros)
			}
		}
		if len(us) == 0 {
			continue
		}
		slices.Sort(us)
		fmt.Printf("find/files %s: %d µs p50, %d µs p90 (%d questions)\n", m, us[len(us)/2], us[len(us)*9/10], len(us))
	}
	fmt.Println()
}

// printCalibration prints the tables of the answers: per set and mode,
// per category; then the reliability of every class.
func printCalibration(all []calAnswer) {
	type key struct{ set, mode, cat string }
	var by tallies[key]
	acted := func(a calAnswer) bool { return a.Resolved != "" || a.Gone != "" }
	for _, a := range all {
		by.add(mark{right: a.Right, wrong: a.Wrong, first: a.FirstRight, acted: acted(a)}, key{a.Set, a.Mode, a.Category}, key{a.Set, a.Mode, "**all**"})
	}
	keys := by.sorted(func(a, b key) int {
		if c := strings.Compare(a.set, b.set); c != 0 {
			return c
		}
		if c := strings.Compare(a.mode, b.mode); c != 0 {
			return c
		}
		if (a.cat == "**all**") != (b.cat == "**all**") { // a set and mode's whole after its categories
			if a.cat == "**all**" {
				return 1
			}
			return -1
		}
		return strings.Compare(a.cat, b.cat)
	})
	fmt.Println("| set | mode | category | answers | right | **wrong** | precision of what was acted on | first |")
	fmt.Println("|---|---|---|---:|---:|---:|---:|---:|")
	for _, k := range keys {
		t := by.by[k]
		fmt.Printf("| %s | %s | %s | %d | %s | **%s** | %s | %s |\n", k.set, k.mode, k.cat, t.n, pct(t.right, t.n), pct(t.wrong, t.n),
			t.precision(), pct(t.first, t.n))
	}
	fmt.Println()
	// Reliability: each class over every set and mode, then by mode.
	type ckey struct{ mode, class string }
	var cls tallies[ckey]
	for _, a := range all {
		if strings.HasSuffix(a.Set, "sessions find") || a.Class == "baseline" {
			continue
		}
		cls.add(mark{right: a.Right, first: a.FirstRight, acted: acted(a)}, ckey{"all", a.Class}, ckey{a.Set + ", " + a.Mode, a.Class})
	}
	ckeys := cls.sorted(func(a, b ckey) int {
		if c := strings.Compare(a.mode, b.mode); c != 0 {
			if a.mode == "all" {
				return -1
			}
			if b.mode == "all" {
				return 1
			}
			return c
		}
		return strings.Compare(a.class, b.class)
	})
	fmt.Println("Reliability by class (an answer that resolved, or named a deleting commit, counts as acted on):")
	fmt.Println()
	fmt.Println("| answers | class | answers | first right | acted on | precision |")
	fmt.Println("|---|---|---:|---:|---:|---:|")
	for _, k := range ckeys {
		t := cls.by[k]
		fmt.Printf("| %s | %s | %d | %s | %d | %s |\n", k.mode, k.class, t.n, pct(t.first, t.n), t.acted, pct(t.actedRight, t.acted))
	}
	fmt.Println()
}
