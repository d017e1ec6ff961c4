package main

// Agent sessions (issue 55: sessions that are more than commits): public
// coding agents' trajectories on real repositories, each file an agent
// opened whose name 2–40 files of its task's tree share asked for by that
// name, the files it had opened before as the visits
// (testdata/agentsessions, scripts/genagentsessions.py). Asked as the
// commit sessions are (askSession: no visits; the visits, the last one as
// the current file; the one-line baselines), each task's tree at its
// base commit, with the repository's history as of that commit. The
// halves are the trajectories' sources' (testdata/agentfail/README.md).
// The editor sessions of testdata/idetraces (scripts/genidetraces.py: a
// JetBrains IDE's own list of the files edited) are in the same format
// and asked the same way (-data). WAYFIND_BENCH_SESSION_FEATURES writes
// each question's copies as the commit sessions' (sessionFeatureRow).

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"wayfind/history"
	"wayfind/rank"
	"wayfind/vcs"
	"wayfind/workspace"
)

// agentSession is one question of the agent sessions' file.
type agentSession struct {
	Source     string   `json:"source"`
	Task       string   `json:"task"`
	Repo       string   `json:"repo"`
	BaseCommit string   `json:"base_commit"`
	Name       string   `json:"name"`
	Want       string   `json:"want"`
	Visits     []string `json:"visits"`
	Step       int      `json:"step"`
	Half       string   `json:"half"`
	// TreeCommit, when set, is the commit whose tree is asked of, the
	// history still BaseCommit's: a person's working tree holds the files
	// they are editing before any commit does (scripts/genvimtraces.py).
	TreeCommit string `json:"tree_commit,omitempty"`
}

func agentSessionsCmd(args []string) error {
	fs := flag.NewFlagSet("agentsessions", flag.ContinueOnError)
	data := fs.String("data", "testdata/agentsessions/sessions.jsonl.gz", "the agent sessions (scripts/genagentsessions.py)")
	mirrors := fs.String("mirrors", "", "git directories of the repositories (OWNER+NAME/repo or OWNER+NAME)")
	half := fs.String("half", "held-out", "tuning, held-out or all (the sources' halves)")
	only := fs.String("repo", "", "run only this repository (OWNER/NAME)")
	work := fs.String("work", filepath.Join(os.TempDir(), "wayfind-calibrate"), "where histories are cached")
	answers := fs.String("answers", "", "write every answer here, one JSON line each (the tuning half's only)")
	asAgent := fs.Bool("as-agent", false, "the visits as the agent hook notes an agent's reads for the MCP server beside it (agent visits, no current file) in the mode \"with the visits\"")
	order := addCopyOrderFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *asAgent {
		visitReason = history.Agent
	}
	copies, said, err := order.load()
	if err != nil {
		return err
	}
	if *mirrors == "" {
		return fmt.Errorf("agentsessions: -mirrors is needed")
	}
	if *answers != "" && *half != "tuning" {
		return fmt.Errorf("agentsessions: -answers lists answers: the tuning half's only")
	}
	qs, err := readGzipJSONLines[agentSession](*data)
	if err != nil {
		return err
	}
	by := map[string]map[string][]agentSession{} // repo → base commit → questions (their trees may differ)
	for _, q := range qs {
		if (*half != "all" && q.Half != *half) || (*only != "" && q.Repo != *only) {
			continue
		}
		if by[q.Repo] == nil {
			by[q.Repo] = map[string][]agentSession{}
		}
		by[q.Repo][q.BaseCommit] = append(by[q.Repo][q.BaseCommit], q)
	}
	log, err := newAnswerLog(*answers)
	if err != nil {
		return err
	}
	defer log.close()
	header("agent sessions", fmt.Sprintf(", %s, half %s; %s", *data, *half, said))
	repos := make([]string, 0, len(by))
	for r := range by {
		repos = append(repos, r)
	}
	sort.Strings(repos)
	for _, repo := range repos {
		git := mirrorOf(*mirrors, repo)
		if git == "" {
			fmt.Fprintf(os.Stderr, "%s: no mirror, left out\n", repo)
			continue
		}
		if err := askAgentSessions(repo, git, *work, by[repo], copies, log.record); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", repo, err)
		}
	}
	printCalibration(log.all)
	printSessionsByRepo(log.all, "agent sessions find")
	return nil
}

// askAgentSessions asks a repository's agent sessions, its base commits
// oldest first: each commit's history read on from the one before (an
// ancestor's), cached under work; a shared name's copies ordered by
// copies (nil: the formula).
func askAgentSessions(repo, git, work string, byCommit map[string][]agentSession, copies rank.CopyOrder, record func(calAnswer)) error {
	commits := make([]string, 0, len(byCommit))
	when := map[string]int64{}
	for c := range byCommit {
		out, err := gitLines(git, "show", "-s", "--format=%ct", c)
		if err != nil || len(out) == 0 {
			fmt.Fprintf(os.Stderr, "%s: commit %s not in the mirror, left out\n", repo, c)
			continue
		}
		when[c], _ = strconv.ParseInt(out[0], 10, 64)
		commits = append(commits, c)
	}
	slices.SortFunc(commits, func(a, b string) int {
		if when[a] != when[b] {
			return int(when[a] - when[b])
		}
		return strings.Compare(a, b)
	})
	root := "/calibration/" + path.Base(repo)
	var prev *vcs.Record
	ctx := context.Background()
	for _, c := range commits {
		cache := filepath.Join(work, "agentsessions", strings.ReplaceAll(repo, "/", "__"), c)
		rec, err := vcs.Load(cache)
		if err != nil {
			if rec, err = vcs.BuildAt(ctx, git, c, prev); err != nil {
				return err
			}
			_ = vcs.Save(cache, rec)
		}
		prev = rec
		type treeEngine struct {
			eng    *rank.Engine
			byBase map[string][]string
		}
		engines := map[string]treeEngine{} // tree commit → its engine
		for _, s := range byCommit[c] {
			at := c
			if s.TreeCommit != "" {
				at = s.TreeCommit
			}
			te, ok := engines[at]
			if !ok {
				tree, err := gitTree(git, at)
				if err != nil {
					return err
				}
				files := make([]workspace.File, len(tree))
				te.byBase = map[string][]string{}
				for i, p := range tree {
					files[i] = workspace.File{Path: p}
					te.byBase[path.Base(p)] = append(te.byBase[path.Base(p)], p)
				}
				te.eng = rank.New(workspace.NewIndex([]string{root}, files)).WithRepoHistory(rank.NewRepoHistory([]string{root}, []*vcs.Record{rec}))
				if copies != nil {
					te.eng = te.eng.WithCopyOrder(copies)
				}
				engines[at] = te
			}
			named := te.byBase[s.Name] // the copies of the name
			if len(s.Visits) == 0 || !slices.Contains(named, s.Want) || len(named) < 2 {
				continue // not a question at this tree
			}
			q := sessionQuestion{name: s.Name, want: s.Want, last: s.Visits[len(s.Visits)-1], visits: s.Visits, copies: named}
			id := fmt.Sprintf("%s/%s/%d", s.Source, s.Task, s.Step)
			// An agent has no commits of its own: no user's commits.
			base := calAnswer{Repo: repo, Half: s.Half}
			withVisits, err := askSession(ctx, te.eng, rec, root, "agent sessions", id, q, rank.Authored{}, base, record)
			if err != nil {
				return err
			}
			if sessionFeaturesOut != nil {
				writeSessionFeatures(sessionFeaturesOut, repo, s.Half, te.eng, rec, nil, q, withVisits)
			}
		}
	}
	return nil
}
