package vcs

import (
	"bytes"
	"context"
	"sort"
	"strings"
)

// The line that leads to HEAD. The fold reads every commit but merges,
// side branches' included: their renames are where git saw files move.
// But a side branch's change reaches HEAD only through the merge that
// brings it onto the first-parent line, and that merge may not keep it
// (a branch cut from the tree long ago that deleted everything but one
// directory). A path's life as HEAD's line saw it decides: a side
// branch's delete does not end a path the merge bringing the branch in
// still had, nor does its rename when the merge kept the old path and
// not the new one (a rename that did reach the line, the old path given
// a stub since, is a rename).

// line knows, for a span of history with merges, which first-parent
// commit brought each commit onto the line to HEAD, and when each path
// was on that line.
type line struct {
	// introduced: a commit (by hash) → the position on the line of the
	// first-parent commit that brought it there, oldest first; on the
	// line itself: its own position (own true).
	introduced map[string]int32
	own        map[string]bool
	// events: a path → its changes along the line (merges' whole diffs
	// against their first parent), in the line's order; commits: the
	// line's commits, by position.
	events  map[string][]lineEvent
	commits []Commit
	// base is the tree before the span (an update's start), read once
	// when asked; lineBase lists it.
	base     map[string]bool
	lineBase func() map[string]bool
}

type lineEvent struct {
	at      int32
	present bool
}

// readLine reads the line of span, or nil when span has no merge (every
// commit is then on the line).
func readLine(ctx context.Context, root, span string) (*line, error) {
	out, err := gitOutput(ctx, root, "rev-list", "--parents", span, "--")
	if err != nil {
		return nil, err
	}
	nodes := map[string][]string{}
	var head string
	merges := false
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		if head == "" {
			head = f[0]
		}
		nodes[f[0]] = f[1:]
		merges = merges || len(f) > 2
	}
	if !merges {
		return nil, nil
	}
	// The first-parent chain, newest first, while it stays in the span.
	var chain []string
	for c := head; c != ""; {
		ps, in := nodes[c]
		if !in {
			break
		}
		chain = append(chain, c)
		c = ""
		if len(ps) > 0 {
			c = ps[0]
		}
	}
	ln := &line{introduced: make(map[string]int32, len(nodes)), own: make(map[string]bool, len(chain)), events: map[string][]lineEvent{}}
	// Oldest first, each first-parent commit brings in whatever it
	// reaches that no older one did.
	var stack []string
	for k := len(chain) - 1; k >= 0; k-- {
		at := int32(len(chain) - 1 - k)
		ln.own[chain[k]] = true
		stack = append(stack[:0], chain[k])
		for len(stack) > 0 {
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if _, seen := ln.introduced[c]; seen {
				continue
			}
			ps, in := nodes[c]
			if !in {
				continue
			}
			ln.introduced[c] = at
			stack = append(stack, ps...)
		}
	}
	// What the line saw of each path: the first-parent diffs, merges'
	// included, without rename detection (a path is there or not).
	pos := make(map[string]int32, len(chain))
	for k, c := range chain {
		pos[c] = int32(len(chain) - 1 - k)
	}
	diff, err := gitOutput(ctx, root, "log", "--first-parent", "--diff-merges=first-parent", "--no-renames",
		"--name-status", "-z", logFormat, span, "--")
	if err != nil {
		return nil, err
	}
	ln.commits = make([]Commit, len(chain))
	at := int32(-1)
	fields := bytes.Split(diff, []byte{0})
	for i := 0; i < len(fields); i++ {
		f := bytes.TrimLeft(fields[i], "\n")
		switch {
		case len(f) == 0:
		case f[0] == '\x01':
			c, _, err := parseHeader(string(f[1:]))
			if err != nil {
				return nil, err
			}
			p, ok := pos[c.Hash]
			at = -1
			if ok {
				at = p
				ln.commits[p] = c
			}
		case i+1 < len(fields) && at >= 0:
			i++
			path := string(fields[i])
			ln.events[path] = append(ln.events[path], lineEvent{at: at, present: f[0] != 'D'})
		default:
			i++
		}
	}
	for _, evs := range ln.events {
		sort.Slice(evs, func(a, b int) bool { return evs[a].at < evs[b].at })
	}
	if oldest := chain[len(chain)-1]; len(nodes[oldest]) > 0 {
		parent := nodes[oldest][0]
		ln.lineBase = func() map[string]bool {
			base := map[string]bool{}
			out, err := gitOutput(ctx, root, "ls-tree", "-r", "-z", "--name-only", parent)
			if err == nil {
				for _, p := range bytes.Split(out, []byte{0}) {
					if len(p) > 0 {
						base[string(p)] = true
					}
				}
			}
			return base
		}
	}
	return ln, nil
}

// settle makes r agree with the line where only a merge changed a path
// (the log leaves merges out): a path the line has at the end of the
// span but r has no file at (a subtree merge's files, a merge that
// brought a file back) is given one; a file r has at a path the line
// deleted last (a merge that took a file out) ends in that merge.
func (ln *line) settle(r *Record) {
	if ln == nil {
		return
	}
	paths := make([]string, 0, len(ln.events))
	for p := range ln.events {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		evs := ln.events[p]
		last := evs[len(evs)-1]
		_, live := r.live[p]
		switch {
		case last.present && !live:
			r.bring(p)
		case !last.present && live:
			r.commits = append(r.commits, ln.commits[last.at])
			r.end(p, int32(len(r.commits)-1))
		}
	}
}

// after reports, for a commit off the line (side), whether path was on
// the line once the first-parent commit that brought it there had: what
// the line made of the commit's change to path. A path the line had and
// had already left before that commit (renamed or deleted on the line
// itself) counts as present: the side's change is not what ended it
// there, and the path's life goes on as the line led it (a 2006 branch
// deleting numpy/doc/swig/Series.i, merged after the line had moved the
// file, does not end it). A commit on the line itself, or one the line
// does not know, speaks for itself (side false).
func (ln *line) after(path, hash string) (present, side bool) {
	if ln == nil || ln.own[hash] {
		return false, false
	}
	at, ok := ln.introduced[hash]
	if !ok {
		return false, false
	}
	evs := ln.events[path]
	k := sort.Search(len(evs), func(i int) bool { return evs[i].at > at })
	if k > 0 {
		last := evs[k-1]
		return last.present || last.at < at, true
	}
	if ln.lineBase != nil && ln.base == nil {
		ln.base = ln.lineBase()
	}
	return ln.base[path], true
}
