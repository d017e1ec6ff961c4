package rank

import (
	"sort"
	"sync/atomic"

	"wayfind/vcs"
	"wayfind/workspace"
)

// RepoHistory is the roots' repository records with an engine over the
// paths they left behind. Immutable; built once per record (the session
// builds it in the background after the file index).
type RepoHistory struct {
	records []*vcs.Record // by root index; nil where a root has none
	gone    *Engine       // the left-behind paths of every root, as files
	// formerly: by root, a file of today → the paths it had before
	// (a document's earlier places, which its relative links were
	// written from).
	formerly []map[string][]string
	// authored: by root, the user's own latest commits' files, weighed
	// (Authorship), root-relative.
	authored Authored
	// ties: by root, find's tie-break weights its recent work chose
	// (tieweights.go), learned when a find first needs them or in the
	// background (learning: LearnTieWeights has started).
	ties     []learnedTies
	learning atomic.Bool
}

// NewRepoHistory indexes the old paths of records (one per root of roots,
// nil where a root has no repository).
func NewRepoHistory(roots []string, records []*vcs.Record) *RepoHistory {
	h := &RepoHistory{records: records, formerly: make([]map[string][]string, len(records)), authored: make(Authored, len(records)),
		ties: make([]learnedTies, len(records))}
	var files []workspace.File
	for r, rec := range records {
		h.authored[r] = Authorship(rec.Authored())
		for _, p := range rec.Gone() {
			files = append(files, workspace.File{Root: r, Path: p})
			if f, ok := rec.Fate(p); ok && !f.Deleted {
				if h.formerly[r] == nil {
					h.formerly[r] = map[string][]string{}
				}
				h.formerly[r][f.Path] = append(h.formerly[r][f.Path], p)
			}
		}
	}
	sort.Slice(files, func(a, b int) bool {
		if files[a].Root != files[b].Root {
			return files[a].Root < files[b].Root
		}
		return files[a].Path < files[b].Path
	})
	h.gone = New(workspace.NewIndex(roots, files))
	return h
}

// Roots are the roots h was built for: an engine over other roots must
// not be given it (its roots are numbered differently).
func (h *RepoHistory) Roots() []string { return h.gone.ix.Roots }

// Record is root r's record, or nil.
func (h *RepoHistory) Record(r int) *vcs.Record {
	if h == nil || r < 0 || r >= len(h.records) {
		return nil
	}
	return h.records[r]
}

// WithRepoHistory returns an engine that answers stale paths from h.
func (e *Engine) WithRepoHistory(h *RepoHistory) *Engine {
	c := *e
	c.repo = h
	return &c
}

// RepoHistory is what WithRepoHistory attached, or nil.
func (e *Engine) RepoHistory() *RepoHistory { return e.repo }
