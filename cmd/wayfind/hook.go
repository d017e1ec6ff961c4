package main

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"sync"
	"time"

	"wayfind/daemon"
	"wayfind/history"
	"wayfind/hook"
	"wayfind/memory"
	"wayfind/service"
	"wayfind/wire"
	"wayfind/workspace"
)

// runHook is `wayfind hook`: one agent hook event on stdin, its answer on
// stdout (hook.Answer), or `wayfind hook install|uninstall`. Answering
// never fails the agent's call: whatever goes wrong, it exits 0 with no
// output and says why in the hook log.
func runHook(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	if len(args) > 0 && (args[0] == "install" || args[0] == "uninstall") {
		return hookSettings(args[0], args[1:], stdout, stderr)
	}
	start := time.Now()
	cache := workspace.CacheDirOf("", nil)
	log := &cacheLog{dir: cache}
	defer log.Close()
	// Arguments it does not know (a newer plugin's hook command run by an
	// older wayfind) are said, and the call goes ahead: the harnesses read
	// a hook's exit 2 as "block this call" (Claude Code, Copilot CLI), and
	// a hook that cannot answer must not block every call.
	var harness hook.Harness // "": the event's sender
	if len(args) == 2 && args[0] == "--harness" {
		h, err := hook.ParseHarness(args[1])
		if err != nil {
			fmt.Fprintf(stderr, "wayfind hook: %v\n", err)
			log.printf("%v: stepped aside", err)
			return exitFound
		}
		harness, args = h, args[2:]
	}
	if len(args) > 0 {
		fmt.Fprintf(stderr, "wayfind hook: unknown argument %q (see: wayfind hook --help)\n", args[0])
		log.printf("unknown argument %q: stepped aside", args[0])
		return exitFound
	}
	// Whatever happens from here, the harness's call is not broken: a
	// panic is logged and answered with nothing, exit 0; memory is held
	// to the one-shot bound; past hookBudget the hook steps aside before
	// the harness's own timeout would kill it.
	defer func() {
		if r := recover(); r != nil {
			log.printf("panic: %v\n%s", r, debug.Stack())
			code = exitFound
		}
	}()
	memory.OneShot()
	ctx, cancel := context.WithTimeout(ctx, hookBudget)
	defer cancel()
	var answered sync.Mutex
	watchdog := time.AfterFunc(hookBudget+hookGrace, func() {
		answered.Lock() // never released: no answer is written after this
		log.printf("no answer within %s: stepped aside", hookBudget+hookGrace)
		log.Close()
		hookExit(exitFound)
	})
	defer watchdog.Stop()
	ev, err := hook.ReadEventFrom(stdin, harness)
	if err != nil {
		log.printf("event not read: %v", err)
		return exitFound
	}
	disk := hookDisk{}
	// The project's roots, read once a call: by the request layer for a
	// path that names nothing, by the trail's note for a read.
	roots := sync.OnceValues(func() ([]string, error) { return hookRoots(ev.Cwd) })
	var asked *daemonFirst
	open := func() (hook.Requests, error) {
		rs, err := roots()
		if err != nil {
			return nil, err
		}
		req, err := hookRequests(ctx, rs, cache, log)
		asked = req
		return req, err
	}
	var trail hook.Trail
	if !workspace.CachesOff(cache) {
		visits := &visitTrail{Trail: hook.OpenTrail(filepath.Join(cache, "hook"), ev.SessionID), cache: cache, roots: roots}
		defer visits.note(log)
		trail = visits
	}
	out, err := answerSafely(ctx, ev, disk, trail, open)
	if harness == "" {
		harness = ev.Sender()
	}
	out = harness.In(out)
	switch {
	case err != nil:
		log.printf("%s %s: %v (%.1f ms)", ev.Name, ev.Tool, err, msSince(start))
		return exitFound
	case out == nil:
		return exitFound
	}
	b, err := harness.Encode(ev, out)
	if err != nil {
		log.printf("%s %s: answer not written: %v", ev.Name, ev.Tool, err)
		return exitFound
	}
	if !answered.TryLock() {
		return exitFound // the watchdog has stepped aside
	}
	watchdog.Stop()
	stdout.Write(append(b, '\n'))
	answered.Unlock()
	s := out.Specific
	said := cmp.Or(s.Reason, s.Context, s.Message)
	if c, ok := s.UpdatedInput["command"].(string); ok {
		said = "→ " + c + ": " + said
	}
	log.printf("%s %s %q: %s %s (%.1f ms%s)", ev.Name, ev.Tool, hook.Subject(ev), s.Decision, firstLine(said), msSince(start), asked.answeredBy())
	return exitFound
}

// answerSafely is hook.Answer, a panic of its own turned into an error:
// a hook never breaks the loop it sits in.
func answerSafely(ctx context.Context, ev hook.Event, disk hook.Disk, trail hook.Trail, open func() (hook.Requests, error)) (out *hook.Output, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	return hook.Answer(ctx, ev, disk, trail, open)
}

func msSince(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }

func firstLine(s string) string {
	for i, c := range s {
		if c == '\n' {
			return s[:i]
		}
	}
	return s
}

type hookDisk struct{}

func (hookDisk) IsFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

func (hookDisk) IsDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// LinesWithin reads at most from's lines and budget bytes of p.
func (hookDisk) LinesWithin(p string, from, budget int) (int, bool) {
	f, err := os.Open(p)
	if err != nil {
		return 0, true // not read: nothing to bound
	}
	defer f.Close()
	r := bufio.NewReader(f)
	for line := 1; line < from; {
		_, err := r.ReadSlice('\n')
		switch {
		case err == nil:
			line++
		case errors.Is(err, bufio.ErrBufferFull): // the same line goes on
		default:
			return 0, true
		}
	}
	lines, used := 0, 0
	for {
		chunk, err := r.ReadSlice('\n')
		used += len(chunk)
		if used > budget {
			return lines, false
		}
		switch {
		case err == nil:
			lines++
		case errors.Is(err, bufio.ErrBufferFull):
		default:
			return lines, true
		}
	}
}

// hookRequests is the request layer over roots, the project the event's
// working directory is in (hookRoots): the
// daemon of its roots when one answers (package daemon), else the
// process's own (hookOwnRequests), opened at the first question the
// daemon does not answer.
func hookRequests(ctx context.Context, roots []string, cache string, log *cacheLog) (*daemonFirst, error) {
	sock, ok := daemon.SocketPath(cache, roots)
	if !ok {
		sock = "" // no place for a daemon
	}
	d := &daemonFirst{log: log, own: func(dialed bool) (hook.Requests, error) {
		return hookOwnRequests(ctx, roots, cache, sock, log, dialed)
	}}
	if sock != "" {
		if build, err := daemon.Build(); err == nil {
			d.client, err = daemon.Dial(sock, roots, build)
			d.dialed = err == nil
		}
	}
	return d, nil
}

// hookRoots are the roots of the project the event's working directory
// is in (workspace.ProjectOf, as the CLI started there takes it), or
// $CLAUDE_PROJECT_DIR when the harness names it (Claude Code and Gemini
// CLI the directory the session started in, Copilot CLI its repository).
// Its visits are heard by any wayfind on a root inside the same project
// (the history is one a project).
func hookRoots(cwd string) ([]string, error) {
	root := os.Getenv("CLAUDE_PROJECT_DIR")
	if root == "" {
		root = workspace.ProjectOf(cwd)
	}
	return workspace.CleanRoots([]string{root})
}

// visitTrail is the session's trail (hook.OpenTrail; nil when the
// harness names no usable session) whose files are also the agent's
// visits in the project's history (history.Note): wayfind asked anywhere
// else on the project — the MCP server beside the hook, the CLI, an
// editor's server — weighs where the agent works, as it weighs a
// person's. Only a regular file inside the roots by its real path is
// noted; all of one call's at once, when the hook is done.
type visitTrail struct {
	hook.Trail
	cache string
	roots func() ([]string, error) // the project's (hookRoots)
	files []string
}

func (t *visitTrail) Add(abs string) {
	if t.Trail != nil {
		t.Trail.Add(abs)
	}
	t.files = append(t.files, abs)
}

func (t *visitTrail) Files() []string {
	if t.Trail == nil {
		return nil
	}
	return t.Trail.Files()
}

// note records the call's files in the project's history; a failure is
// the log's (the visits are dropped, the call unharmed).
func (t *visitTrail) note(log *cacheLog) {
	if len(t.files) == 0 {
		return
	}
	roots, err := t.roots()
	if err != nil {
		return
	}
	in := &workspace.Index{Roots: roots}
	byRoot := map[int][]string{}
	for _, f := range t.files {
		real, ok := workspace.FileInside(roots, f)
		if !ok {
			continue
		}
		if i, rel, ok := in.RootOf(real); ok {
			byRoot[i] = append(byRoot[i], rel)
		}
	}
	for i, rels := range byRoot {
		if err := history.Note(t.cache, roots[i], rels, history.Agent, time.Now()); err != nil {
			log.printf("the agent's reads not noted in %s's history: %v", roots[i], err)
		}
	}
}

// hookOwnRequests is the request layer the hook opens itself: the file
// index a server or an earlier hook saved for the roots (else a walk,
// saved for the next call), with the repository's history from its
// cache. When the roots are a large tree and no daemon was listening at
// sock ("": no place for one) to ask (dialed false), a daemon is started
// for the next calls (daemonDue).
func hookOwnRequests(ctx context.Context, roots []string, cache, sock string, log *cacheLog, dialed bool) (hook.Requests, error) {
	logf := func(string, ...any) {}
	ix, eng := openIndex(cache, roots, workspace.Options{Logf: logf}, log.printf)
	if sock != "" && daemonDue(len(ix.Dirs)+len(ix.Roots), workspace.WatchLimit(), dialed) {
		if err := startDaemon(roots); err != nil {
			log.printf("daemon for %s not started: %v", roots[0], err)
		}
	}
	start := time.Now()
	ws, _ := newOneShot(eng, logf).withRepoHistory(ctx)
	req := hookService{Service: service.New(ws), note: ws.pending}
	if took := time.Since(start); took > firstHistoryNote && ws.pending == "" {
		req.note = fmt.Sprintf("wayfind read this repository's history in %.1f s; later calls read it from its cache", took.Seconds())
	}
	return req, nil
}

// daemonFirst asks the daemon while it answers, and the hook's own
// request layer from the first question it does not (opened then, once).
type daemonFirst struct {
	client *daemon.Client // nil: none reached, or it stopped answering
	dialed bool           // a daemon was listening
	own    func(dialed bool) (hook.Requests, error)
	opened hook.Requests
	log    *cacheLog
}

// ownRequests opens the hook's own request layer, once.
func (d *daemonFirst) ownRequests(err error) (hook.Requests, error) {
	if d.client != nil {
		d.client.Close()
		d.client = nil
	}
	if d.opened == nil {
		if err != nil {
			d.log.printf("daemon: %v", err)
		}
		req, err := d.own(d.dialed)
		if err != nil {
			return nil, err
		}
		d.opened = req
	}
	return d.opened, nil
}

func (d *daemonFirst) Resolve(ctx context.Context, p service.ResolveParams) (wire.Resolve, int, error) {
	var err error
	if d.client != nil {
		var res wire.Resolve
		var code int
		if res, code, err = d.client.Resolve(ctx, p); !errors.Is(err, daemon.ErrUnavailable) {
			return res, code, err
		}
	}
	req, err := d.ownRequests(err)
	if err != nil {
		return wire.Resolve{}, 0, err
	}
	return req.Resolve(ctx, p)
}

func (d *daemonFirst) MovedDir(ctx context.Context, dir string) (*wire.DirMove, error) {
	return daemonOr(d, func(r hook.Requests) (*wire.DirMove, error) { return r.MovedDir(ctx, dir) })
}

func (d *daemonFirst) SoughtDir(ctx context.Context, dir, seek string, fold bool) (*wire.DirMove, error) {
	return daemonOr(d, func(r hook.Requests) (*wire.DirMove, error) { return r.SoughtDir(ctx, dir, seek, fold) })
}

func (d *daemonFirst) NamedDirs(ctx context.Context, dir string, most int) ([]wire.NamedDir, error) {
	return daemonOr(d, func(r hook.Requests) ([]wire.NamedDir, error) { return r.NamedDirs(ctx, dir, most) })
}

// daemonOr is ask's answer from the daemon, else — it does not answer —
// from the hook's own request layer.
func daemonOr[T any](d *daemonFirst, ask func(hook.Requests) (T, error)) (T, error) {
	var err error
	if d.client != nil {
		var v T
		if v, err = ask(d.client); !errors.Is(err, daemon.ErrUnavailable) {
			return v, err
		}
	}
	req, err := d.ownRequests(err)
	if err != nil {
		var none T
		return none, err
	}
	return ask(req)
}

// answeredBy says, for the hook's log, that the daemon answered.
func (d *daemonFirst) answeredBy() string {
	if d != nil && d.opened == nil && d.client != nil {
		return ", the daemon's"
	}
	return ""
}

func (d *daemonFirst) Note() string {
	if d.opened != nil {
		return d.opened.Note()
	}
	if d.client != nil {
		return d.client.Note()
	}
	return ""
}

// hookBudget: how long the hook may work on one call. The harness kills
// a hook at the timeout the installer writes (hookTimeout), and a hook
// killed is a call the agent waited for with nothing to show: the work
// stops at the budget (its context), and a hook still running hookGrace
// later exits 0 with no answer.
const (
	hookBudget = hook.Timeout * time.Second * 8 / 10
	hookGrace  = time.Second
)

// hookExit ends the process when the watchdog steps aside (a test
// replaces it).
var hookExit = os.Exit

// firstHistoryNote: a read of the history longer than this (the first on
// a repository, read from its whole log) is said in the answer: the
// agent waited for it.
const firstHistoryNote = time.Second

// hookService is the request layer with what the model should know of
// how its answers were made.
type hookService struct {
	*service.Service
	note string
}

func (s hookService) Note() string { return s.note }

// hookSettings installs or uninstalls the hook in a Claude Code settings
// file: the user's (~/.claude/settings.json, the default) or the
// project's (.claude/settings.json at the project's root).
func hookSettings(verb string, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("hook "+verb, flag.ContinueOnError)
	fs.SetOutput(stderr)
	user := fs.Bool("user", false, "")
	project := fs.Bool("project", false, "")
	file := fs.String("settings", "", "")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 || (*user && *project) {
		fmt.Fprintf(stderr, "usage: wayfind hook %s [--user | --project | --settings FILE]\n", verb)
		return exitInput
	}
	path := *file
	switch {
	case path != "":
	case *project:
		cwd, err := os.Getwd()
		if err != nil {
			fmt.Fprintf(stderr, "wayfind hook %s: %v\n", verb, err)
			return exitInput
		}
		path = filepath.Join(workspace.ProjectOf(cwd), ".claude", "settings.json")
	default:
		home, err := os.UserHomeDir()
		if err != nil {
			fmt.Fprintf(stderr, "wayfind hook %s: no home directory: %v\n", verb, err)
			return exitInput
		}
		path = filepath.Join(home, ".claude", "settings.json")
	}
	var changed bool
	var err error
	if verb == "install" {
		bin, e := hookBinary()
		if e != nil {
			fmt.Fprintf(stderr, "wayfind hook install: where is this binary? %v\n", e)
			return exitInput
		}
		changed, err = hook.Install(path, hook.Command(bin))
	} else {
		changed, err = hook.Uninstall(path)
	}
	if err != nil {
		fmt.Fprintf(stderr, "wayfind hook %s: %v\n", verb, err)
		return exitInput
	}
	switch {
	case !changed && verb == "install":
		fmt.Fprintf(stdout, "wayfind hook: already installed in %s\n", path)
	case !changed:
		fmt.Fprintf(stdout, "wayfind hook: not installed in %s\n", path)
	case verb == "install":
		fmt.Fprintf(stdout, "wayfind hook: installed in %s (PreToolUse on the tools that take a path, PostToolUse and PostToolUseFailure on Bash)\n", path)
	default:
		fmt.Fprintf(stdout, "wayfind hook: uninstalled from %s\n", path)
	}
	return exitFound
}

// hookBinary is how an installed hook names wayfind: by name when PATH
// finds one — the hook keeps working when the binary that installed it
// goes (a checkout's ./bin/wayfind) or is upgraded in place — else by
// this binary's absolute path.
func hookBinary() (string, error) {
	if _, err := exec.LookPath("wayfind"); err == nil {
		return "wayfind", nil
	}
	return os.Executable()
}

// cacheLog appends a one-shot process's lines to a log in the cache
// directory dir — hook.log for the hook (its stderr is the harness's to
// show or not), history.log for the background reader — opened at the
// first line: the fast path says nothing and touches no log. The log is
// cut to its newer half past maxHookLog.
type cacheLog struct {
	mu   sync.Mutex // the watchdog writes from its own goroutine
	dir  string     // "-": no cache directory, no log
	name string     // the log's file name: hook.log when ""
	f    *os.File
}

const maxHookLog = 1 << 20

func (l *cacheLog) printf(format string, a ...any) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if workspace.CachesOff(l.dir) {
		return
	}
	if l.f == nil {
		// The log names the paths agents asked for: the person's alone
		// (0600 in a 0700 directory, whatever an older version left).
		name := l.name
		if name == "" {
			name = "hook.log"
		}
		p := filepath.Join(l.dir, name)
		if st, err := os.Stat(p); err == nil && st.Size() > maxHookLog {
			if b, err := os.ReadFile(p); err == nil {
				_ = os.WriteFile(p, b[len(b)/2:], 0o600)
			}
		}
		_ = os.MkdirAll(l.dir, 0o700)
		_ = os.Chmod(l.dir, 0o700)
		f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		if err != nil {
			l.dir = "-"
			return
		}
		_ = f.Chmod(0o600)
		l.f = f
	}
	fmt.Fprintf(l.f, "%s %s\n", time.Now().Format(time.RFC3339), fmt.Sprintf(format, a...))
}

func (l *cacheLog) Close() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f != nil {
		l.f.Close()
		l.f, l.dir = nil, "-"
	}
}
