package service

import (
	"wayfind/history"
	"wayfind/rank"
)

// The requests' parameters as the front ends give them, and each one's
// form for the engine.

// ResolveParams is find/resolvePath's (and path_resolve's) input.
type ResolveParams struct {
	Path string
	// From is the document the path is written in (read relative to it
	// first); Current is where the user is (nearness only). Without
	// either, and without History, the file a person last went to stands
	// for Current.
	From    string
	Current string
	// Link: Path is a link's target in From (rank.ResolveRequest.Link).
	Link bool
	// History, most recent last; nil means the workspace's own, an empty
	// list means none.
	History []string
	Limit   int
	// Record, when set, makes the resolved file a visit of that reason
	// (an agent given a file has looked at it).
	Record history.Reason

	weighed []rank.Visit // the history the engine weighed (resolve)
	// noWait: a path that names no file does not wait for the
	// repository's history (a document's literals are read all at once;
	// until the history is there, none is called broken on names alone).
	noWait bool
	// placed: where an absolute path stands (outside.go); placedNowhere
	// is answered with nothing, from the index or the disk.
	placed placement
	// historyPending: the answer was made before the roots' history was
	// read (wire.Resolve.HistoryPending).
	historyPending bool
}

// request is the engine's form of p, with the history it weighs.
func (p *ResolveParams) request() rank.ResolveRequest {
	return rank.ResolveRequest{Path: p.Path, From: p.From, Link: p.Link, Current: p.Current, History: p.weighed, Limit: p.Limit}
}

// FindParams is find/files' (and find_files') input.
type FindParams struct {
	Query     string
	Limit     int
	Threshold float64
	Impl      bool
	Exact     bool
	// Current is the file the user is in (a URI or an absolute path):
	// matches near it come first among equals, it among them gets no
	// nearness of its own (rank.FindRequest.InCurrent), and it is left
	// out of the recent files an empty query lists.
	Current string
	// Agent: an agent asks (wayfind mcp): the recent files an empty
	// query lists are its reads too, not only a person's.
	Agent bool
}

// request is the engine's form of p, without history.
func (p FindParams) request() rank.FindRequest {
	return rank.FindRequest{Query: p.Query, Limit: p.Limit, Threshold: p.Threshold, Impl: p.Impl, Exact: p.Exact, Current: p.Current,
		InCurrent: p.Current != ""}
}

// LocateParams is find/locate's (and locate's) input.
type LocateParams struct {
	Query         string
	Limit         int
	MinConfidence float64
	Current       string // as FindParams'
}

// SymbolParams is workspace/symbol's (and workspace_symbols') input.
type SymbolParams struct {
	Query string
	Limit int
	Exact bool // no typo or subsequence readings
}
