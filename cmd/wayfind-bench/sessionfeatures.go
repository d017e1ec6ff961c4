package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path"
	"slices"
	"strings"

	"wayfind/rank"
	"wayfind/vcs"
)

// sessionFeatures writes, for each session question, every copy of the
// name with what a scorer of the visits may read of it (one JSON line a
// copy): the data a ranking of the copies is fitted on
// (WAYFIND_BENCH_SESSION_FEATURES names the file; both halves, marked:
// scripts/fit-session-order.py fits on the tuning half's and reports the
// held-out half's pooled and macro figures only).
type sessionFeatureRow struct {
	Repo, Half, Q string
	// Copy is the copy's path (Q the file asked for).
	Copy  string
	Right bool
	// The engine's place for the copy without visits (0 first; -1 not
	// listed), and with them.
	PriorRank, VisitRank int
	// Leading directories shared with the last visit, and the steps
	// between the two directories; the recency-weighted mean of both
	// over the visits; the most shared with any visit.
	SharedLast, StepsLast   int
	SharedMean, StepsMean   float64
	SharedMax               int
	SameDirAny, SameTopLast bool
	// The copy is itself one of the visits (a file of the author's
	// previous commits), and the last of them.
	Visited, VisitedLast bool
	// Commits with a visit that touched the copy too (both ways), weighed
	// by the visits' recency; commits that touched the copy.
	Co      float64
	Changes int
	Depth   int
	Len     int
	Aux     bool
	NCopies int
	// The second directory component agrees with the last visit's (a
	// language's or a package's directory).
	Second bool
	// The author's earlier commits in the window that touched the copy,
	// and the same weighed by recency (the latest 1, each before 0.8 of
	// the next).
	AuthorN      int
	AuthorRecent float64
	// The author's commits before the window (the history the engine
	// reads) that touched the copy, and the same weighed by recency (each
	// of the author's commits 0.97 of the one after it).
	PastN      int
	PastRecent float64
	// The copy's weight among the user's commits as the engine is given
	// them (sessionAuthored).
	MineW float64
	// Engine is the engine's own reading of the copy against the request
	// with the visits (rank.ReadCopies): what an order it would run can
	// read.
	Engine rank.CopyReading
	// Features are the fitted order's inputs for the copy
	// (rank.CopyFeatures, columns rank.CopyFeatureNames); absent when the
	// engine reads no copies of the name (more than it orders).
	Features []float32 `json:",omitempty"`
}

// authorCommits is, for each author of the n commits before base, the
// files of each of their commits, newest first: what `git log --author`
// would list at base (the user's own commits, rank.Authorship).
func authorCommits(dir, base string, n int) map[string][][]string {
	out, err := exec.Command("git", "-C", dir, "log", "--no-merges", "--no-renames", "--name-only",
		"--format=@%ae", "-n", fmt.Sprint(n), base).Output()
	by := map[string][][]string{}
	if err != nil {
		return by
	}
	var author string
	for _, l := range strings.Split(string(out), "\n") {
		switch {
		case strings.HasPrefix(l, "@"):
			author = l[1:]
			by[author] = append(by[author], nil)
		case l != "" && author != "":
			cs := by[author]
			cs[len(cs)-1] = append(cs[len(cs)-1], l)
		}
	}
	return by
}

// sessionAuthored is what the user committed lately when they ask q:
// their commits in the window before it, newest first, then those before
// the window (past, authorCommits) — weighed as the engine weighs the
// repository's record of them, for the engine's one root.
func sessionAuthored(q sessionQuestion, past map[string][][]string) rank.Authored {
	var commits [][]string
	for i := len(q.authored) - 1; i >= 0 && len(commits) < vcs.AuthoredCommits; i-- {
		commits = append(commits, q.authored[i])
	}
	for _, c := range past[q.author] {
		if len(commits) == vcs.AuthoredCommits {
			break
		}
		commits = append(commits, c)
	}
	return rank.Authored{rank.Authorship(commits)}
}

// sessionPastCommits: the commits before a window read for its authors'
// earlier work (sessionAuthored) — enough for most authors' latest
// vcs.AuthoredCommits.
const sessionPastCommits = 3000

// writeSessionFeatures writes a row for each copy of q's name
// (sessionFeatureRow); withVisits is find's request in the mode "with
// the visits".
func writeSessionFeatures(out *json.Encoder, repo, half string, eng *rank.Engine, rec *vcs.Record, past map[string][][]string, q sessionQuestion, withVisits rank.FindRequest) {
	ctx := context.Background()
	place := func(req rank.FindRequest) map[string]int {
		req.Limit = len(q.copies)
		fr, err := eng.Find(ctx, req)
		out := map[string]int{}
		if err == nil {
			for i, m := range fr.Matches {
				out[m.Path] = i
			}
		}
		return out
	}
	prior := place(rank.FindRequest{Query: q.name, History: []rank.Visit{}, Authored: rank.Authored{}})
	visited := place(withVisits)
	dirs := func(p string) []string {
		d := path.Dir(p)
		if d == "." {
			return nil
		}
		return strings.Split(d, "/")
	}
	shared := func(a, b []string) int {
		n := 0
		for n < len(a) && n < len(b) && a[n] == b[n] {
			n++
		}
		return n
	}
	read, features := map[string]rank.CopyReading{}, map[string][]float32{}
	rs := eng.ReadCopies(withVisits)
	for i, row := range rank.CopyFeatures(rs) {
		read[rs[i].Path], features[rs[i].Path] = rs[i], row
	}
	for _, c := range q.copies {
		cd := dirs(c)
		r := sessionFeatureRow{Repo: repo, Half: half, Q: q.want, Copy: c, Right: c == q.want, NCopies: len(q.copies), Depth: len(cd), Len: len(c),
			Changes: rec.Changes(c), Aux: rank.IsAuxiliary(c)}
		r.PriorRank, r.VisitRank = rankOr(prior, c), rankOr(visited, c)
		r.Engine, r.Features = read[c], features[c]
		ld := dirs(q.last)
		r.SharedLast = shared(cd, ld)
		r.StepsLast = len(cd) + len(ld) - 2*r.SharedLast
		r.SameTopLast = len(cd) > 0 && len(ld) > 0 && cd[0] == ld[0]
		r.Second = len(cd) > 1 && len(ld) > 1 && cd[1] == ld[1]
		wsum, w := 0.0, 1.0
		for i := len(q.visits) - 1; i >= 0; i-- {
			vd := dirs(q.visits[i])
			s := shared(cd, vd)
			r.SharedMean += w * float64(s)
			r.StepsMean += w * float64(len(cd)+len(vd)-2*s)
			r.SharedMax = max(r.SharedMax, s)
			if path.Dir(q.visits[i]) == path.Dir(c) {
				r.SameDirAny = true
			}
			if q.visits[i] == c {
				r.Visited = true
				r.VisitedLast = r.VisitedLast || i == len(q.visits)-1
			}
			for _, ps := range [][]vcs.Partner{rec.CoChanged(q.visits[i]), rec.CoChangedBy(q.visits[i])} {
				for _, p := range ps {
					if p.Path == c {
						r.Co += w * math.Log1p(float64(p.Count))
					}
				}
			}
			wsum += w
			w *= 0.8
		}
		aw := 1.0
		for i := len(q.authored) - 1; i >= 0; i-- {
			for _, f := range q.authored[i] {
				if f == c {
					r.AuthorN++
					r.AuthorRecent += aw
					break
				}
			}
			aw *= 0.8
		}
		pw := 1.0
		for _, fs := range past[q.author] {
			if slices.Contains(fs, c) {
				r.PastN++
				r.PastRecent += pw
			}
			pw *= 0.97
		}
		if len(withVisits.Authored) > 0 {
			r.MineW = withVisits.Authored[0][c]
		}
		r.SharedMean /= wsum
		r.StepsMean /= wsum
		r.Co /= wsum
		out.Encode(r)
	}
}

func rankOr(m map[string]int, p string) int {
	if i, ok := m[p]; ok {
		return i
	}
	return -1
}

// sessionFeaturesOut is the encoder of WAYFIND_BENCH_SESSION_FEATURES,
// nil when unset.
var sessionFeaturesOut = func() *json.Encoder {
	p := os.Getenv("WAYFIND_BENCH_SESSION_FEATURES")
	if p == "" {
		return nil
	}
	f, err := os.Create(p)
	if err != nil {
		fatal(err)
	}
	return json.NewEncoder(f)
}()
