package main

import (
	"cmp"
	"context"
	"fmt"
	"math/rand"
	"os"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"wayfind/history"
	"wayfind/rank"
	"wayfind/service"
)

// The history bench (make bench-history) replays navigation sessions over
// each public corpus through the real frecency store (history/) and asks
// the engine the questions a person asks next, with and without the
// history, in the same run:
//
//   - ambiguous: a name that exists in several places (a bare "client.go",
//     "index.ts", its stem alone, or "parent/name" still shared), asked
//     after a session that worked near exactly one copy. Sessions wander
//     as people do: mostly inside one neighbourhood (the target's package,
//     up to two levels up, holding no other copy), now and then a second
//     area or anywhere, with older visits from other days; a third of them
//     first work near another copy for a while, then move (the working
//     set must follow). The target itself is never visited.
//   - unrelated: the public cases (with an expected answer, without
//     history of their own) asked after a session in a neighbourhood that
//     holds neither the answer nor any file of its name.
//   - clear winner: public cases answered right without history, with a
//     lexical lead, asked after a session spent beside the runner-up:
//     history must never turn the answer over.
//
// Sessions are 20–50 visits, 20–120 s apart; the question comes 30 s after
// the last visit. Everything is seeded: the same run gives the same cases.
const (
	sessionsPerCorpus = 40
	minVisits         = 20
	maxVisitsSession  = 50
)

type histOutcome struct {
	shape         string
	with, alone   bool // top-1 right with the history, without it
	fzf, fzfRan   bool // fzf --filter's first line right (find shapes, with -fzf)
	withT, aloneT time.Duration
}

func historyBench(corpora, work string, names []string, byCorpus map[string][]benchCase, seed int64, withFzf, verbose bool) {
	// Every corpus of the directory: sessions need no cases of their own.
	if ents, err := os.ReadDir(corpora); err == nil {
		names = names[:0]
		for _, e := range ents {
			n := strings.TrimSuffix(strings.TrimSuffix(e.Name(), ".gz"), ".tsv")
			if n != e.Name() && n != "sources" {
				names = append(names, n)
			}
		}
		sort.Strings(names)
	}
	var all []histOutcome
	overridden, clear := 0, 0
	resolvedN, resolvedWrong := 0, 0
	fmt.Println("| corpus | files | sessions | ambiguous queries |")
	fmt.Println("|---|---:|---:|---:|")
	for _, name := range names {
		paths, root := corpusTree(corpora, work, name)
		eng, _ := index(root)
		root = eng.Index().Roots[0]
		sort.Strings(paths)
		r := rand.New(rand.NewSource(seed + int64(len(name))))
		rp := &replay{eng: eng, root: root, paths: paths, r: r, byBase: map[string][]string{}, verbose: verbose}
		if withFzf {
			rp.listing = strings.Join(paths, "\n") + "\n"
		}
		for _, p := range paths {
			rp.byBase[path.Base(p)] = append(rp.byBase[path.Base(p)], p)
		}
		n0 := len(all)
		sessions := 0
		for tries := 0; sessions < sessionsPerCorpus && tries < 50*sessionsPerCorpus; tries++ {
			out := rp.ambiguous()
			if out != nil {
				all = append(all, out...)
				sessions++
			}
		}
		fmt.Printf("| %s | %d | %d | %d |\n", name, len(paths), sessions, len(all)-n0)
		resolvedN, resolvedWrong = resolvedN+rp.resolved, resolvedWrong+rp.resolvedWrong
		for _, c := range byCorpus[name] {
			if c.Expected == nil || len(c.History) > 0 {
				continue
			}
			if o, ok := rp.unrelated(c); ok {
				all = append(all, o)
			}
			if changed, ok := rp.clearWinner(c); ok {
				clear++
				if changed {
					overridden++
					if verbose {
						fmt.Printf("  overridden: %s %q\n", c.Kind, c.Query)
					}
				}
			}
		}
	}
	fmt.Println()
	fmt.Println("| shape | queries | top-1 with history | top-1 without | fzf top-1 | p50 ms with | p50 ms without |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|")
	// Per shape: top-1 with the history, without it, and fzf's where it
	// ran; the ambiguous shapes again as one row.
	const ambAll = "**ambiguous, all**"
	var with, alone, fzf tallies[string]
	var extra []time.Duration
	for _, o := range all {
		keys := []string{o.shape}
		if strings.HasPrefix(o.shape, "ambiguous") {
			keys = append(keys, ambAll)
		}
		with.add(mark{right: o.with, elapsed: o.withT}, keys...)
		alone.add(mark{right: o.alone, elapsed: o.aloneT}, keys...)
		fzf.row(o.shape)
		if o.fzfRan {
			fzf.add(mark{right: o.fzf}, o.shape)
		}
		extra = append(extra, o.withT-o.aloneT)
	}
	var withT, aloneT []time.Duration
	for _, s := range fzf.sorted(cmp.Compare[string]) {
		w, a, fz := with.by[s], alone.by[s], fzf.by[s]
		withT, aloneT = append(withT, w.lat...), append(aloneT, a.lat...)
		fmt.Printf("| %s | %d | %s | %s | %s | %s | %s |\n", s, w.n, pct(w.right, w.n), pct(a.right, a.n), pct(fz.right, fz.n), ms(quantile(w.lat, 0.5)), ms(quantile(a.lat, 0.5)))
	}
	w, a := with.row(ambAll), alone.row(ambAll)
	fmt.Printf("| %s | %d | **%s** | %s | | | |\n", ambAll, w.n, pct(w.right, w.n), pct(a.right, a.n))
	fmt.Printf("\nresolve's first candidate counts above; resolved: %d, of which wrong: %d\n", resolvedN, resolvedWrong)
	fmt.Printf("\nclear lexical winners overridden by adversarial history: %d of %d\n", overridden, clear)
	fmt.Printf("request p50 with history %s ms, without %s ms; the history's part, per question (with − without, the store's ranked list, its conversion and the affinity included): p50 %s ms, p90 %s ms\n",
		ms(quantile(withT, 0.5)), ms(quantile(aloneT, 0.5)), ms(quantile(extra, 0.5)), ms(quantile(extra, 0.9)))
	storeCost()
}

// storeCost is the store at its bound: 10,000 files of one root, its heap
// and how long a question's look at it takes (the ranked list cached, and
// recomputed from every entry).
func storeCost() {
	var st *history.Store
	now := time.Now()
	clock := func() time.Time { return now }
	heap := heapGrowth(func() {
		st = history.New(history.Options{CacheDir: "-", Now: clock})
		st.SetRoots([]string{"/w"})
		for i := range history.DefaultLimit {
			st.Visit("/w", fmt.Sprintf("src/pkg%03d/sub%02d/file_%05d.go", i%500, i%37, i), history.Focus)
			now = now.Add(time.Second)
		}
	})
	var cached, fresh []time.Duration
	for range 200 {
		t := time.Now()
		st.Frecent(rank.MaxVisits)
		cached = append(cached, time.Since(t))
	}
	for range 20 {
		now = now.Add(time.Minute) // past the list's refresh: computed again
		t := time.Now()
		st.Frecent(rank.MaxVisits)
		fresh = append(fresh, time.Since(t))
	}
	fmt.Printf("store of %d files: heap %.2f MB; its ranked list p50 %s ms (cached), %s ms (recomputed every 30 s)\n",
		st.Len(), heap/(1<<20), ms(quantile(cached, 0.5)), ms(quantile(fresh, 0.5)))
}

type replay struct {
	eng    *rank.Engine
	root   string
	paths  []string // sorted
	byBase map[string][]string
	r      *rand.Rand
	// verbose: a failed question shows the candidates and the visits.
	verbose bool
	listing string // the paths for fzf, when it is the peer
	// resolved, resolvedWrong: resolve's answers given as resolved (with
	// history), and those that were not the file meant.
	resolved, resolvedWrong int
}

// under lists the files inside dir (all of them for "").
func (rp *replay) under(dir string) []string {
	if dir == "" {
		return rp.paths
	}
	lo := sort.SearchStrings(rp.paths, dir+"/")
	hi := sort.SearchStrings(rp.paths, dir+"0") // '0' follows '/'
	return rp.paths[lo:hi]
}

func holds(files []string, base string) bool {
	for _, f := range files {
		if path.Base(f) == base {
			return true
		}
	}
	return false
}

// neighbourhood is where someone working on file f spends their time: its
// directory's ancestor up to two levels up, the highest holding no file
// named like avoid (but f) and at least four files.
func (rp *replay) neighbourhood(f, avoid string) (string, bool) {
	d := path.Dir(f)
	if d == "." {
		return "", false
	}
	best := ""
	for up := 0; up <= 2 && d != "."; up++ {
		fs := rp.under(d)
		n := 0
		for _, x := range fs {
			if path.Base(x) == avoid && x != f {
				n++
			}
		}
		if n > 0 || len(fs) > len(rp.paths)/4 {
			break
		}
		if len(fs) >= 4 {
			best = d
		}
		d = path.Dir(d)
	}
	return best, best != ""
}

// session records 20–50 visits: share of them inside area (the latest
// ones), the rest in other (when set) and anywhere outside area; with
// first, the first ~half all in first. It returns the store at the
// question's time.
func (rp *replay) session(area, other, first string, target string) *history.Store {
	now := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	st := history.New(history.Options{CacheDir: "-", Now: func() time.Time { return now }})
	st.SetRoots([]string{rp.root})
	visit := func(f string) { st.Visit(rp.root, f, history.Focus) }
	pick := func(fs []string) string {
		for range 20 {
			if f := fs[rp.r.Intn(len(fs))]; f != target {
				return f
			}
		}
		return ""
	}
	// Older days: a few visits anywhere else.
	for range rp.r.Intn(12) {
		now = now.Add(time.Duration(1+rp.r.Intn(5)) * 24 * time.Hour / 3)
		if f := pick(rp.paths); f != "" && !strings.HasPrefix(f, area+"/") {
			visit(f)
		}
	}
	now = now.Add(3 * 24 * time.Hour)
	n := minVisits + rp.r.Intn(maxVisitsSession-minVisits+1)
	inArea, inOther, anywhere := rp.under(area), rp.under(other), rp.paths
	for i := range n {
		now = now.Add(time.Duration(20+rp.r.Intn(101)) * time.Second)
		var f string
		switch x := rp.r.Float64(); {
		case first != "" && i < n/2:
			f = pick(rp.under(first))
		case i >= n-3 || x < 0.7: // the last visits are in the area
			f = pick(inArea)
		case other != "" && x < 0.88:
			f = pick(inOther)
		default:
			f = pick(anywhere)
		}
		if f != "" {
			visit(f)
		}
	}
	now = now.Add(30 * time.Second)
	return st
}

// ambiguous runs one session near one copy of an ambiguous name and asks
// for it in each shape that stays ambiguous.
func (rp *replay) ambiguous() []histOutcome {
	target := rp.paths[rp.r.Intn(len(rp.paths))]
	base := path.Base(target)
	copies := rp.byBase[base]
	if len(copies) < 2 || len(copies) > 200 || slices.Contains(copies, base) {
		return nil // one at a root is what the bare name says, exactly
	}
	area, ok := rp.neighbourhood(target, base)
	if !ok {
		return nil
	}
	other, first := "", ""
	if x := rp.r.Intn(3); x == 0 {
		// Worked near another copy first, then moved.
		c := copies[rp.r.Intn(len(copies))]
		if c == target {
			return nil
		}
		if first, ok = rp.neighbourhood(c, base); !ok || strings.HasPrefix(target, first+"/") {
			return nil
		}
	} else if x == 1 {
		o := rp.paths[rp.r.Intn(len(rp.paths))]
		if other, ok = rp.neighbourhood(o, ""); !ok || strings.HasPrefix(target, other+"/") || other == area {
			other = ""
		}
	}
	st := rp.session(area, other, first, target)
	shape := "ambiguous"
	if first != "" {
		shape = "ambiguous, after a move"
	}
	var out []histOutcome
	ask := func(kind, q string) {
		o := histOutcome{shape: shape + ": " + kind}
		var got string
		rp.ask(kind, q, nil, target) // warm: the first question pays for the caches
		o.with, o.withT, got = rp.ask(kind, q, st, target)
		o.alone, o.aloneT, _ = rp.ask(kind, q, nil, target)
		if rp.listing != "" && strings.HasPrefix(kind, "find") {
			o.fzf, o.fzfRan = fzfTop1(rp.listing, benchCase{Kind: "find", Query: q, Expected: &target}), true
		}
		if rp.verbose && !o.with {
			fmt.Printf("  %s %q: got %s, want %s (area %s)\n", kind, q, got, target, area)
		}
		out = append(out, o)
	}
	ask("resolve name", base)
	ask("find name", base)
	stem := strings.TrimSuffix(base, path.Ext(base))
	if len(stem) >= 3 && stem != base && !sameStemIn(rp.under(area), target, stem) {
		ask("find stem", stem)
	}
	if short := path.Base(path.Dir(target)) + "/" + base; path.Dir(target) != "." && countSuffix(copies, "/"+short) >= 2 && !slices.Contains(copies, short) {
		ask("resolve dir/name", short)
	}
	return out
}

// sameStemIn: another file of files shares target's stem (then the stem
// alone is ambiguous inside the area too).
func sameStemIn(files []string, target, stem string) bool {
	for _, f := range files {
		if f != target && strings.EqualFold(strings.TrimSuffix(path.Base(f), path.Ext(f)), stem) {
			return true
		}
	}
	return false
}

func countSuffix(files []string, suffix string) int {
	n := 0
	for _, f := range files {
		if strings.HasSuffix("/"+f, suffix) {
			n++
		}
	}
	return n
}

// ask puts one question, with st's history (nil: none), and reports
// whether want came first and how long it took — the history's look-up
// included.
func (rp *replay) ask(kind, q string, st *history.Store, want string) (bool, time.Duration, string) {
	ctx := context.Background()
	start := time.Now()
	hist := []rank.Visit{}
	if st != nil {
		hist = service.EngineVisits(st.Frecent(rank.MaxVisits)) // as the servers ask
	}
	var got string
	if strings.HasPrefix(kind, "resolve") {
		res, err := rp.eng.Resolve(ctx, rank.ResolveRequest{Path: q, History: hist, Limit: 5})
		// The first candidate: the history orders copies; it decides only
		// where real sessions showed it does (rank/confidence.go), and an
		// answer it resolved wrongly is counted apart.
		if err == nil && len(res.Candidates) > 0 {
			got = res.Candidates[0].Path
		}
		if err == nil && res.Resolved != nil {
			rp.resolved++
			if res.Resolved.Path != want {
				rp.resolvedWrong++
			}
		}
		if err == nil && res.Resolved == nil && rp.verbose && st != nil {
			for _, c := range res.Candidates[:min(3, len(res.Candidates))] {
				got += fmt.Sprintf(" [%s %.4f %v]", c.Path, c.Score, c.Reasons)
			}
			for _, v := range hist[:min(8, len(hist))] {
				got += fmt.Sprintf("\n     %s %.3f", v.File, v.Weight)
			}
		}
	} else {
		res, err := rp.eng.Find(ctx, rank.FindRequest{Query: q, History: hist, Limit: 5})
		if err == nil && len(res.Matches) > 0 {
			got = res.Matches[0].Path
		}
	}
	return got == want, time.Since(start), got
}

// unrelated asks a public case after a session somewhere that holds
// neither its answer nor any file of its name.
func (rp *replay) unrelated(c benchCase) (histOutcome, bool) {
	want := *c.Expected
	for range 20 {
		f := rp.paths[rp.r.Intn(len(rp.paths))]
		area, ok := rp.neighbourhood(f, "")
		if !ok || holds(rp.under(area), path.Base(want)) || strings.HasPrefix(want, area+"/") {
			continue
		}
		st := rp.session(area, "", "", "")
		kind := "find"
		if c.Kind == "resolve" {
			kind = "resolve"
		}
		o := histOutcome{shape: "unrelated: public " + kind + " cases"}
		rp.ask(kind, c.Query, nil, want)
		o.with, o.withT, _ = rp.ask(kind, c.Query, st, want)
		o.alone, o.aloneT, _ = rp.ask(kind, c.Query, nil, want)
		return o, true
	}
	return histOutcome{}, false
}

// clearWinner: a case answered right without history with a lexical lead
// over the runner-up, asked again after a session beside the runner-up.
// changed reports an answer turned over.
func (rp *replay) clearWinner(c benchCase) (changed, ok bool) {
	want := *c.Expected
	ctx := context.Background()
	var runnerUp string
	if c.Kind == "resolve" {
		res, err := rp.eng.Resolve(ctx, rank.ResolveRequest{Path: c.Query, History: []rank.Visit{}, Limit: 5})
		if err != nil || res.Resolved == nil || res.Resolved.Path != want || len(res.Candidates) < 2 ||
			res.Candidates[0].Score-res.Candidates[1].Score < rank.ResolveMargin {
			return false, false
		}
		runnerUp = res.Candidates[1].Path
	} else {
		res, err := rp.eng.Find(ctx, rank.FindRequest{Query: c.Query, Limit: 5})
		// A lead of a class step (0.02); smaller gaps are tie-breaks already.
		if err != nil || len(res.Matches) < 2 || res.Matches[0].Path != want || res.Matches[0].Score-res.Matches[1].Score < 0.02 {
			return false, false
		}
		runnerUp = res.Matches[1].Path
	}
	area := path.Dir(runnerUp)
	if area == "." || strings.HasPrefix(want, area+"/") || len(rp.under(area)) < 2 {
		return false, false
	}
	st := rp.session(area, "", "", want)
	kind := "find"
	if c.Kind == "resolve" {
		kind = "resolve"
	}
	right, _, _ := rp.ask(kind, c.Query, st, want)
	return !right, true
}
