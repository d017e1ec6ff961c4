package hook

import (
	"context"
	"fmt"
	"maps"
	"path"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"wayfind/wire"
)

// A shell command is read as bash reads it (mvdan.cc/sh's parser), and
// only its words that are plain text — no variable, substitution, glob,
// escape or tilde in them — are ever taken as paths: what the shell would
// make of the others is not known before it runs.

// shellWord is a word of a shell command that a command reads as a path.
type shellWord struct {
	from, to int    // the word's bytes in the command, quotes included
	path     string // the path as written
	cwd      string // the directory it is read from: the command's, after the cd's before it
	file     bool   // a file may be read there
	dir      bool   // a directory may be read there
	suffix   string // what the word adds after the path, kept: pytest's ::test, go's /...
	seek     dirSeek
}

// dirSeek is the name of the files a call searches a directory for —
// find's -name (fold: -iname), grep's --include, rg's -g, a Glob's
// pattern, a Grep's glob — a file name's glob; "" when it searches for
// none in particular.
type dirSeek struct {
	name string
	fold bool
}

// shellReads walks command's statements from cwd and calls read for each
// word a command reads as a path (commandSpecs), in order. read returns
// the directory a cd's word names now when it rewrote it ("": as written)
// — the commands after it run there. Only the words of commands that
// read are offered: a redirection's target, a command that writes
// (touch, mkdir, cp, mv, tee, rm, sed -i), and every word of a command
// the walk does not know, are never offered.
func shellReads(command, cwd string, read func(w shellWord) (chdir string)) error {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil {
		return err
	}
	w := shellWalk{read: read}
	w.stmts(f.Stmts, cwd)
	return nil
}

type shellWalk struct {
	read func(w shellWord) (chdir string)
}

// stmts walks a list of statements run one after another from cwd, and
// returns the directory the list ends in ("": not known).
func (w shellWalk) stmts(list []*syntax.Stmt, cwd string) string {
	for _, s := range list {
		cwd = w.stmt(s, cwd)
	}
	return cwd
}

// stmt walks one statement run from cwd ("": not known, when nothing is
// read) and returns the directory it leaves the shell in.
func (w shellWalk) stmt(s *syntax.Stmt, cwd string) string {
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		next := w.call(c, cwd)
		if s.Background || s.Negated {
			return cwd
		}
		return next
	case *syntax.BinaryCmd:
		switch c.Op {
		case syntax.AndStmt:
			return w.stmt(c.Y, w.stmt(c.X, cwd))
		case syntax.OrStmt:
			// The right runs when the left failed: from wherever the left
			// got to; after both, either.
			after := w.stmt(c.X, cwd)
			w.stmt(c.Y, "")
			if after != cwd {
				return ""
			}
			return cwd
		default: // a pipe: each side in its own shell
			w.stmt(c.X, cwd)
			w.stmt(c.Y, cwd)
			return cwd
		}
	case *syntax.Subshell:
		w.stmts(c.Stmts, cwd)
		return cwd
	case *syntax.Block:
		return w.stmts(c.Stmts, cwd)
	case *syntax.TimeClause: // bash's time keyword
		if c.Stmt != nil {
			return w.stmt(c.Stmt, cwd)
		}
		return cwd
	}
	// Loops, conditions, functions, tests: not read; where the shell is
	// after them is not known.
	return ""
}

// call walks one simple command run from cwd and returns where it leaves
// the shell.
func (w shellWalk) call(c *syntax.CallExpr, cwd string) string {
	args := c.Args
	// Words before the command proper that run it as it is.
	for len(args) > 0 {
		name := args[0].Lit()
		if skip, ok := runsAsIs[name]; ok && len(args) > skip {
			args = args[1+skip:]
			if name == "env" {
				for len(args) > 0 && strings.Contains(args[0].Lit(), "=") {
					args = args[1:]
				}
			}
			continue
		}
		break
	}
	if len(args) == 0 || cwd == "" {
		if len(args) > 0 && chdirs[args[0].Lit()] {
			return ""
		}
		return cwd
	}
	name := args[0].Lit()
	words := make([]string, len(args)-1)
	for i, a := range args[1:] {
		words[i] = plainWord(a)
	}
	if chdirs[name] {
		ops := operands(words, commandSpec{})
		if len(ops) != 1 || !pathLike(words[ops[0]]) {
			return "" // cd with no word (home), "-", or one the shell expands
		}
		word := words[ops[0]]
		if to := w.offer(args[1+ops[0]], word, cwd, commandSpec{dir: true}); to != "" {
			return to
		}
		if filepath.IsAbs(word) {
			return filepath.Clean(word)
		}
		return filepath.Join(cwd, word)
	}
	spec, start, ok := specOf(name, words)
	if !ok {
		return cwd
	}
	args, words = args[1+start:], words[start:]
	switch {
	case spec.find:
		spec.seek = findSeek(words)
	case name == "rg" || strings.HasSuffix(name, "grep"):
		spec.seek = grepSeek(words)
	}
	for _, i := range operands(words, spec) {
		if words[i] != "" {
			w.offer(args[i], words[i], cwd, spec)
		}
	}
	return cwd
}

// offer hands read a word's path, with what the spec says of it.
func (w shellWalk) offer(a *syntax.Word, word, cwd string, spec commandSpec) string {
	path, suffix := word, ""
	if spec.test {
		if i := strings.Index(path, "::"); i > 0 {
			path, suffix = path[:i], path[i:]
		}
	}
	if spec.pkg {
		if rest, ok := strings.CutSuffix(path, "/..."); ok {
			path, suffix = rest, "/..."
		}
	}
	if !pathLike(path) {
		return ""
	}
	return w.read(shellWord{
		from: int(a.Pos().Offset()), to: int(a.End().Offset()),
		path: path, cwd: cwd, file: spec.file, dir: spec.dir, suffix: suffix, seek: spec.seek,
	})
}

// plainWord is a's text when the shell reads it as it is written (its
// quotes aside), else "".
func plainWord(a *syntax.Word) string {
	var b strings.Builder
	for _, p := range a.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "*?[]{}\\~") {
				return ""
			}
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return ""
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok || p.Dollar || strings.ContainsAny(l.Value, "\\") {
					return ""
				}
				b.WriteString(l.Value)
			}
		default:
			return ""
		}
	}
	return b.String()
}

// pathLike: a word a command takes as a path may be one — not standard
// input ("-"), not a number or a +N (head, tail), not an assignment
// (awk's var=value), not a URL, no line break or NUL.
func pathLike(p string) bool {
	if p == "" || p == "-" || p[0] == '+' || strings.ContainsAny(p, "=\n\r\x00") || strings.Contains(p, "://") {
		return false
	}
	return strings.Trim(p, "0123456789") != ""
}

// maxShellRewrites: the paths of one command that are looked up before
// it runs — a command names a few files; one naming many is not an
// agent's read of a file it misremembered.
const maxShellRewrites = maxShellPaths

// beforeShell rewrites, before a shell command runs, the paths its
// commands read (shellReads) that name nothing on disk and that the
// request layer resolves — a file to a file, a directory to the directory
// the history moved it to — and sends the command back whole with only
// those words changed, and a line for each. A path it does not resolve
// is left as written: the command fails as it would have, and afterShell
// names the likeliest file then.
func beforeShell(ctx context.Context, ev Event, disk Disk, trail Trail, open func() (Requests, error)) (*Output, error) {
	command, _ := ev.Input[shellField].(string)
	if command == "" || strings.ContainsRune(command, 0) {
		return nil, nil
	}
	type edit struct {
		from, to int
		text     string
	}
	var (
		edits  []edit
		lines  []string
		req    Requests
		failed error
		asked  int
	)
	err := shellReads(command, ev.Cwd, func(w shellWord) string {
		full := filepath.Clean(abs(w.path, w.cwd))
		if disk.IsFile(full) {
			// A file the command reads is where the agent works, as a
			// Read's is.
			if trail != nil {
				trail.Add(full)
			}
			return ""
		}
		if failed != nil || disk.IsDir(full) || asked == maxShellRewrites {
			return ""
		}
		asked++
		if req == nil {
			if req, failed = open(); failed != nil || req == nil {
				return ""
			}
		}
		to, line := resolveWord(ctx, req, ev, w, full, disk, trail)
		if to == "" {
			return ""
		}
		// Written as the agent wrote it — relative where it was — unless
		// that climbs out of where the command runs: a harness checks a
		// command's paths from its own directory, not the cd's before.
		text := to
		if rel, err := filepath.Rel(w.cwd, to); err == nil && !filepath.IsAbs(w.path) && filepath.IsLocal(rel) {
			text = rel
		}
		quoted, err := syntax.Quote(text+w.suffix, syntax.LangBash)
		if err != nil {
			return ""
		}
		edits = append(edits, edit{w.from, w.to, quoted})
		lines = append(lines, line)
		if disk.IsDir(to) {
			return to
		}
		return ""
	})
	if err != nil || failed != nil || len(edits) == 0 {
		return nil, failed
	}
	var b strings.Builder
	at := 0
	for _, e := range edits {
		b.WriteString(command[at:e.from])
		b.WriteString(e.text)
		at = e.to
	}
	b.WriteString(command[at:])
	in := maps.Clone(ev.Input)
	in[shellField] = b.String()
	// No decision: the command rewritten goes through the harness's own
	// permissions as the agent's would have (a script run, a test, asks
	// whoever would have been asked).
	return &Output{Specific: &Specific{Event: ev.Name, UpdatedInput: in, Context: strings.Join(lines, "\n")}}, nil
}

// shellTool is the harness's shell tool, shellField its input's field
// that holds the command.
const (
	shellTool  = "Bash"
	shellField = "command"
)

// resolveWord is where a shell word's path (full) is now, when the
// request layer resolves it — a directory's, when the history moved the
// files under it (a word that may name one), else a file's — and the
// line that says so; "" when it does not.
func resolveWord(ctx context.Context, req Requests, ev Event, w shellWord, full string, disk Disk, trail Trail) (to, line string) {
	resolve := resolveOnce(ctx, req, ev, full, disk, trail) // a word that may name either is asked once
	if w.dir {
		if to, m, line := resolveDir(ctx, req, full, w.path, w.seek, disk, resolve); to != "" || !w.file {
			if m != nil {
				line = dirLine(w.path, to, m)
			}
			return to, line
		}
	}
	if !w.file {
		return "", ""
	}
	res, err := resolve()
	if err != nil || res.Resolved == nil {
		return "", ""
	}
	to, ok := wire.FilePath(res.Resolved.URI)
	if !ok || !disk.IsFile(to) {
		return "", ""
	}
	return to, fileLine(w.path, to, res.Moved)
}

// resolveOnce is the request layer's resolution of full, asked at the
// first call and kept for the next.
func resolveOnce(ctx context.Context, req Requests, ev Event, full string, disk Disk, trail Trail) func() (wire.Resolve, error) {
	var res wire.Resolve
	var err error
	asked := false
	return func() (wire.Resolve, error) {
		if !asked {
			res, _, err = req.Resolve(ctx, resolveParams(ev, full, disk, trail))
			asked = true
		}
		return res, err
	}
}

// resolveDir is where a path that may name a directory (asked, as
// written; full, read from the cwd) is now, and the line that says so:
// where the history moved the files under it, else — when the call
// searches it for a file's name (seek) — the one directory its last
// components name that holds such a file (service.SoughtDir), else —
// written without an extension — the directory of the file it resolves
// to, when that directory is the one written (`_pytest/assertion` resolves to
// src/_pytest/assertion/__init__.py: the directory asked for is
// src/_pytest/assertion, not its package's file). "" when neither; m
// is the history's move when it is that (the caller words its line).
func resolveDir(ctx context.Context, req Requests, full, asked string, seek dirSeek, disk Disk, resolve func() (wire.Resolve, error)) (to string, m *wire.DirMove, line string) {
	if m, err := req.MovedDir(ctx, full); err == nil && m != nil {
		if to, ok := wire.FilePath(m.URI); ok && disk.IsDir(to) {
			return to, m, ""
		}
	}
	if seek.name != "" {
		if m, err := req.SoughtDir(ctx, full, seek.name, seek.fold); err == nil && m != nil {
			if to, ok := wire.FilePath(m.URI); ok && disk.IsDir(to) {
				return to, nil, fmt.Sprintf("wayfind: %s is %s, the one directory named so that holds %s", asked, to, seek.name)
			}
		}
	}
	if path.Ext(strings.TrimRight(asked, "/")) != "" {
		return "", nil, ""
	}
	res, err := resolve()
	if err != nil || res.Resolved == nil {
		return "", nil, ""
	}
	file, ok := wire.FilePath(res.Resolved.URI)
	if !ok {
		return "", nil, ""
	}
	if dir := filepath.Dir(file); namesDir(full, dir) && disk.IsDir(dir) {
		return dir, nil, fileLine(asked, dir, res.Moved)
	}
	return "", nil, ""
}

// namesDir reports whether the path asked (absolute, cleaned) names
// directory dir by its last components: every component of asked's
// below its longest common ancestor with dir ends dir, in order.
func namesDir(asked, dir string) bool {
	asked = filepath.Clean(asked)
	var tail []string
	for a := asked; ; a = filepath.Dir(a) {
		if a == dir || strings.HasPrefix(dir, strings.TrimSuffix(a, string(filepath.Separator))+string(filepath.Separator)) {
			break // the ancestor asked and dir share
		}
		if a == filepath.Dir(a) {
			return false
		}
		tail = append(tail, filepath.Base(a))
	}
	if len(tail) == 0 {
		return false // asked is dir or above it
	}
	d := dir
	for _, c := range tail {
		if filepath.Base(d) != c {
			return false
		}
		d = filepath.Dir(d)
	}
	return true
}
