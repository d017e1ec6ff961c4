package hook

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"wayfind/rank"
	"wayfind/service"
	"wayfind/wire"
)

// Requests is the request layer the hook asks (service.Service).
type Requests interface {
	Resolve(ctx context.Context, p service.ResolveParams) (wire.Resolve, int, error)
	MovedDir(ctx context.Context, dir string) (*wire.DirMove, error)
	SoughtDir(ctx context.Context, dir, seek string, fold bool) (*wire.DirMove, error)
	NamedDirs(ctx context.Context, dir string, most int) ([]wire.NamedDir, error)
	// Note is what the model should know of how the answers were made
	// ("" mostly): the repository's history read for the first time, and
	// how long that took.
	Note() string
}

// Disk is what the hook asks of the file system before the request
// layer: whether a path names a file, or a directory.
type Disk interface {
	IsFile(abs string) bool
	IsDir(abs string) bool
	// LinesWithin is how many whole lines of file abs, from line from
	// (1-based) on, fit in budget bytes, and whether they reach its end.
	LinesWithin(abs string, from, budget int) (lines int, toEnd bool)
}

// Trail is where the agent has been this session, kept by the hook
// itself: the files its calls named that were there, most recent last.
// The harness writes its transcript when it will (a call's entry may not
// be there by the next call's hook), so the transcript alone does not
// say where the agent is. Nil: no trail.
type Trail interface {
	Add(abs string)
	Files() []string
}

// maxCandidates: the candidates a denial names, best first.
const maxCandidates = 5

// Answer is the hook's answer to ev, or nil when it has none (the call
// goes ahead unchanged). The request layer is opened only when a path
// names nothing on disk (open: lazily, it may index).
func Answer(ctx context.Context, ev Event, disk Disk, trail Trail, open func() (Requests, error)) (*Output, error) {
	switch ev.Name {
	case "PreToolUse":
		return preToolUse(ctx, ev, disk, trail, open)
	case "PostToolUse", "PostToolUseFailure":
		if ev.Tool != shellTool {
			return nil, nil
		}
		return afterShell(ctx, ev, disk, trail, open)
	case "BeforeModel":
		if ev.Sender() != Gemini {
			return nil, nil
		}
		return beforeModel(ctx, ev, disk, trail, open)
	}
	return nil, nil
}

// abs is p read from cwd, cleaned; p as it is when it carries a location
// suffix or is not a plain path (the request layer reads those).
func abs(p, cwd string) string {
	if !filepath.IsAbs(p) && cwd != "" && !strings.Contains(p, "://") {
		p = filepath.Join(cwd, p)
	}
	return p
}

func preToolUse(ctx context.Context, ev Event, disk Disk, trail Trail, open func() (Requests, error)) (*Output, error) {
	if ev.Tool == "Write" {
		if p, _ := ev.Input["file_path"].(string); p != "" && trail != nil {
			trail.Add(abs(p, ev.Cwd))
		}
		return writeInto(ctx, ev, disk, open)
	}
	if ev.Tool == shellTool {
		return beforeShell(ctx, ev, disk, trail, open)
	}
	p, field, dir := pathOf(ev)
	if p == "" {
		return nil, nil
	}
	full := abs(p, ev.Cwd)
	if dir {
		if disk.IsDir(full) || disk.IsFile(full) {
			return nil, nil
		}
		return movedDir(ctx, ev, field, full, disk, trail, open)
	}
	if disk.IsFile(full) {
		if trail != nil {
			trail.Add(full)
		}
		return nil, nil
	}
	req, err := open()
	if err != nil || req == nil {
		return nil, err
	}
	res, _, err := req.Resolve(ctx, resolveParams(ev, full, disk, trail))
	if err != nil {
		return nil, err
	}
	var out *Output
	switch {
	case res.Resolved != nil:
		out = rewritten(ev, field, p, res, disk)
	case res.Gone != nil && res.Confidence >= rank.ResolvedConfidence:
		out = denied(ev, fmt.Sprintf("wayfind: %s was %s; no file took its place.", p, service.HistoryLine("deleted", res.Gone))+otherCopies(res))
	case res.Gone != nil:
		// "Gone" below the promise is said, not acted on: the call goes
		// ahead (and fails as it would have), the model told what the
		// history says.
		out = told(ev, fmt.Sprintf("wayfind: %s was likely %s.", p, service.HistoryLine("deleted", res.Gone))+otherCopies(res))
	case len(res.Candidates) > 0:
		out = denied(ev, fmt.Sprintf("wayfind: no file at %s.", p)+candidateList(" Candidates, best first:", res.Candidates))
	case res.HistoryPending:
		// Nothing by its name, and the history that may say where it
		// went not read yet: the call goes ahead, the model told that
		// asking again later may find it (the note says why).
		out = told(ev, fmt.Sprintf("wayfind: no file at %s, and none by its name; the repository's history, not read for this answer, may say where it went.", p))
	}
	if n := req.Note(); n != "" && out != nil && out.Specific != nil {
		s := out.Specific
		for _, line := range []*string{&s.Reason, &s.Context} {
			if *line != "" {
				*line += " (" + n + ")"
			}
		}
	}
	return out, nil
}

// resolveParams asks for path as the agent is placed: the files it
// worked on this session (its transcript's, then the hook's own trail;
// those still there, each once, the maxWorkedOn most recent), most recent
// last, and the last of them as where it is.
func resolveParams(ev Event, path string, disk Disk, trail Trail) service.ResolveParams {
	p := service.ResolveParams{Path: path, Limit: maxCandidates}
	worked := workedOn(ev.Transcript)
	if trail != nil {
		worked = append(worked, trail.Files()...)
	}
	seen := map[string]bool{}
	for i := len(worked) - 1; i >= 0 && len(p.History) < maxWorkedOn; i-- { // the latest mention of each counts
		f := abs(worked[i], ev.Cwd)
		if !seen[f] && disk.IsFile(f) {
			seen[f] = true
			p.History = append(p.History, f)
		}
	}
	slices.Reverse(p.History)
	if n := len(p.History); n > 0 {
		p.Current = p.History[n-1]
	}
	return p
}

// rewritten is the call with its path set to the file resolved: a Read's
// line suffix becomes its offset, and a Read of more than the harness
// reads at once is given a limit (readWindowOf). A read goes ahead; a
// change is shown to the person with the path rewritten, never approved
// for them.
func rewritten(ev Event, field, asked string, res wire.Resolve, disk Disk) *Output {
	to, ok := wire.FilePath(res.Resolved.URI)
	if !ok {
		return nil
	}
	in := maps.Clone(ev.Input)
	in[field] = to
	if ev.Tool == "Read" {
		if r := res.Resolved.Range; r != nil {
			if _, set := in["offset"]; !set {
				in["offset"] = r.Start.Line + 1
			}
		}
		if _, set := in["limit"]; !set {
			from := 1
			if o, ok := lineNumber(in["offset"]); ok {
				from = o
			}
			if lines, toEnd := disk.LinesWithin(to, from, readWindowOf(ev)); !toEnd {
				in["limit"] = max(lines, 1)
			}
		}
	}
	line := fileLine(asked, to, res.Moved)
	decision := "allow"
	if editTools[ev.Tool] {
		decision = "ask"
	}
	return &Output{Specific: &Specific{Event: ev.Name, Decision: decision, Reason: line, UpdatedInput: in, Context: line}}
}

// readWindow bounds what a rewritten Read reads at once, in bytes. A
// harness refuses a Read of more than it takes whole — Claude Code a file
// over 256 KB, or an answer over 25,000 tokens — and says to read a part;
// the model, not told where the path led, reads the old path again and
// again. 48 KiB stays under both: at the densest text, about three bytes
// a token, with the line numbers the harness adds (a seventh more at
// twenty-byte lines), about 18,000 tokens.
const readWindow = 48 << 10

// fileLine is the line that says asked is the file at to: the move that
// took it there when the history says so (moved).
func fileLine(asked, to string, moved *wire.HistoryNote) string {
	if moved != nil {
		return fmt.Sprintf("wayfind: %s %s", asked, service.HistoryLine("moved to "+to, moved))
	}
	return fmt.Sprintf("wayfind: %s is %s", asked, to)
}

// dirLine is the line that says the history moved directory asked's
// files to to (m), or, when it followed none (a reading of the path, not
// a move), that asked is to.
func dirLine(asked, to string, m *wire.DirMove) string {
	if m.Followed == 0 {
		return fileLine(asked, to, nil)
	}
	return fmt.Sprintf("wayfind: %s %s (%d of the %d files the history saw leave it)", asked, service.HistoryLine("moved to "+to, m.Commit), m.Moved, m.Followed)
}

// told lets the call go ahead unchanged with a line for the model.
func told(ev Event, line string) *Output {
	return &Output{Specific: &Specific{Event: ev.Name, Context: line}}
}

func denied(ev Event, reason string) *Output {
	return &Output{Specific: &Specific{Event: ev.Name, Decision: "deny", Reason: reason}}
}

// candidateList is a denial's list under header: at most maxCandidates,
// best first, each with why.
func candidateList(header string, cs []wire.Candidate) string {
	var b strings.Builder
	b.WriteString(header)
	for i, c := range cs[:min(len(cs), maxCandidates)] {
		fmt.Fprintf(&b, "\n%d. %s (%s)", i+1, pathOrURI(c), strings.Join(c.Reasons, ", "))
	}
	return b.String()
}

// otherCopies names, after a deleted file, the files of today that share
// its name, if the answer lists any.
func otherCopies(res wire.Resolve) string {
	if len(res.Candidates) == 0 {
		return ""
	}
	return candidateList(" Files of today with a similar path:", res.Candidates)
}

func pathOrURI(c wire.Candidate) string {
	if p, ok := wire.FilePath(c.URI); ok {
		return p
	}
	return c.Path
}

// movedDir rewrites a directory tool's path to where the directory is
// now (resolveDir).
func movedDir(ctx context.Context, ev Event, field, full string, disk Disk, trail Trail, open func() (Requests, error)) (*Output, error) {
	req, err := open()
	if err != nil || req == nil {
		return nil, err
	}
	asked, _ := ev.Input[field].(string)
	to, m, line := resolveDir(ctx, req, full, asked, toolSeek(ev), disk, resolveOnce(ctx, req, ev, full, disk, trail))
	if to == "" {
		if line := namedLine(ctx, req, asked, full, trail); line != "" {
			return told(ev, line), nil
		}
		return nil, nil
	}
	if m != nil {
		line = dirLine(m.From, m.To, m)
	}
	in := maps.Clone(ev.Input)
	in[field] = to
	return &Output{Specific: &Specific{Event: ev.Name, Decision: "allow", Reason: line, UpdatedInput: in, Context: line}}, nil
}

// namedLine names the directories of today that full — a directory that
// is not there, asked as written — names by its last components
// (service.NamedDirs: those holding the most files first), those holding
// a file the agent was in this session first, the latest first: which
// module's src the agent means, its own steps say better than sizes. ""
// when none is named so.
func namedLine(ctx context.Context, req Requests, asked, full string, trail Trail) string {
	named, err := req.NamedDirs(ctx, full, maxCandidates)
	if err != nil || len(named) == 0 {
		return ""
	}
	dirs := make([]string, 0, len(named))
	for _, d := range named {
		if p, ok := wire.FilePath(d.URI); ok {
			dirs = append(dirs, p)
		}
	}
	if trail != nil {
		visited := trail.Files()
		latest := func(dir string) int { // the latest visit below dir, -1 for none
			return slices.IndexFunc(visited, func(f string) bool { return strings.HasPrefix(f, dir+string(filepath.Separator)) })
		}
		slices.Reverse(visited)
		slices.SortStableFunc(dirs, func(a, b string) int {
			la, lb := latest(a), latest(b)
			switch {
			case la == lb:
				return 0
			case la < 0:
				return 1
			case lb < 0:
				return -1
			}
			return la - lb
		})
	}
	return fmt.Sprintf("wayfind: no directory %s; those named so: %s", asked, strings.Join(dirs, ", "))
}

// toolSeek is the file name a directory tool's call searches for: the
// last component of a Glob's pattern, of a Grep's glob (its file filter;
// its pattern is text).
func toolSeek(ev Event) dirSeek {
	field := map[string]string{"Glob": "pattern", "Grep": "glob"}[ev.Tool]
	p, _ := ev.Input[field].(string)
	return dirSeek{name: p[strings.LastIndexByte(p, '/')+1:]}
}

// writeInto leaves a Write as it is (a new file is legitimate) and, when
// it writes into a directory the history moved, says where it went.
func writeInto(ctx context.Context, ev Event, disk Disk, open func() (Requests, error)) (*Output, error) {
	p, _ := ev.Input["file_path"].(string)
	if p == "" {
		return nil, nil
	}
	dir := filepath.Dir(abs(p, ev.Cwd))
	if disk.IsDir(dir) {
		return nil, nil
	}
	m, err := askMovedDir(ctx, dir, open)
	if err != nil || m == nil {
		return nil, err
	}
	line := fmt.Sprintf("wayfind: %s %s; this Write creates a new directory there.", m.From, service.HistoryLine("moved to "+m.To, m.Commit))
	return &Output{Specific: &Specific{Event: ev.Name, Context: line}}, nil
}

// askMovedDir opens the request layer and asks where the history moved
// dir's files (nil: nowhere it can tell).
func askMovedDir(ctx context.Context, dir string, open func() (Requests, error)) (*wire.DirMove, error) {
	req, err := open()
	if err != nil || req == nil {
		return nil, err
	}
	return req.MovedDir(ctx, dir)
}
