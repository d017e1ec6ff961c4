package vcs

import (
	"hash/fnv"
	"slices"
	"strings"
)

// The repository's recent work: its latest commits, each by whom and the
// files it touched — what the ranking replays to learn, for this
// repository, how much a person's next file is near their last ones and
// how much it is the file everyone edits (rank.TieWeights).

// RecentCommits is how many of the latest commits the record keeps
// (Recent): the replay asks about the files each edits, a few hundred
// questions — enough to tell apart weightings a few points apart.
const RecentCommits = 400

// recentCommit is one kept commit: its author (AuthorKey) and the
// lineages it touched and, of them, edited (modified in place).
type recentCommit struct {
	Author  uint64
	Touched []int32
	Edited  []int32
}

// Work is one recent commit as Recent gives it: its author's key and its
// files as they are named today, root-relative (a file since deleted, or
// outside the root, left out).
type Work struct {
	Author  uint64
	Touched []string
	// Edited: the files it modified (not added, renamed or copied): a
	// file the person had in hand before.
	Edited []string
}

// AuthorKey is the key an author's e-mail address is kept by.
func AuthorKey(email string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(email))
	return h.Sum64()
}

// Bot reports whether a commit's author (an e-mail address, or its hash
// as a kept log writes it) is a bot's: GitHub names its apps "name[bot]"
// (a kept log keeps the mark), and the dependency updaters and CI commit
// as themselves. A bot's commits are no one's work.
func Bot(email string) bool {
	return strings.Contains(email, "[bot]") || strings.HasPrefix(email, "dependabot") ||
		strings.HasPrefix(email, "renovate") || strings.HasPrefix(email, "github-actions")
}

// keepRecent adds a commit by author to the kept ones (a bot's, and one
// of the whole tree's — AuthoredCommitFiles — are left out).
func (r *Record) keepRecent(author string, touched, edited []int32) {
	if author == "" || Bot(author) || len(touched) == 0 || len(touched) > AuthoredCommitFiles {
		return
	}
	c := recentCommit{Author: AuthorKey(author)}
	for i, l := range touched {
		if !slices.Contains(touched[:i], l) {
			c.Touched = append(c.Touched, l)
		}
	}
	for i, l := range edited {
		if !slices.Contains(edited[:i], l) {
			c.Edited = append(c.Edited, l)
		}
	}
	if len(r.recent) == RecentCommits {
		r.recent = slices.Delete(r.recent, 0, 1)
	}
	r.recent = append(r.recent, c)
}

// Recent is the latest commits the record keeps, oldest first.
func (r *Record) Recent() []Work {
	if r == nil {
		return nil
	}
	names := func(ls []int32) []string {
		var out []string
		for _, l := range ls {
			if r.lineages[l].end >= 0 {
				continue
			}
			if rel, ok := within(r.Prefix, r.lineages[l].path); ok {
				out = append(out, rel)
			}
		}
		return out
	}
	out := make([]Work, len(r.recent))
	for i, c := range r.recent {
		out[i] = Work{Author: c.Author, Touched: names(c.Touched), Edited: names(c.Edited)}
	}
	return out
}
