package daemon

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"wayfind/service"
	"wayfind/wire"
)

// Workspace is what a daemon answers from: the request layer over a
// session kept open.
type Workspace interface {
	// Fresh returns once the answers are as fresh as a stat of every
	// directory would make them (every change seen applied), or says why
	// they cannot be (still opening, not watching): the asker answers
	// itself then.
	Fresh(ctx context.Context) error
	Resolve(ctx context.Context, p service.ResolveParams) (wire.Resolve, int, error)
	MovedDir(ctx context.Context, dir string) (*wire.DirMove, error)
	SoughtDir(ctx context.Context, dir, seek string, fold bool) (*wire.DirMove, error)
	NamedDirs(ctx context.Context, dir string, most int) ([]wire.NamedDir, error)
	// Note is what the asker should know of how the answers are made,
	// "" mostly.
	Note() string
}

// Options are a daemon's identity and lifetime.
type Options struct {
	Roots []string
	Build string // the daemon's own (Build)
	// Idle: the daemon leaves once nobody has asked for this long.
	Idle time.Duration
	// Outdated reports the daemon's binary replaced since it started:
	// it leaves after the request that found it.
	Outdated func() bool
	Logf     func(format string, a ...any)
}

// maxRequest bounds a request's line: a path and a few dozen recent
// files fit many times over, and a line without an end is not read
// into memory without bound.
const maxRequest = 1 << 20

// requestBudget bounds one answer: a hook is killed by its harness
// within seconds, and a request that outlives it answers nobody.
const requestBudget = 10 * time.Second

// Listen makes the daemon's socket at sock, in place of a dead daemon's:
// the caller holds the daemon's lock, so whatever socket is there has
// nobody listening. Only the owner may connect (the socket 0600, its
// directory 0700).
func Listen(sock string) (net.Listener, error) {
	dir := filepath.Dir(sock)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return nil, err
	}
	if err := os.Remove(sock); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	ln, err := net.Listen("unix", sock)
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(sock, 0o600); err != nil {
		ln.Close()
		return nil, err
	}
	return ln, nil
}

// Serve answers the requests that come to ln until ctx ends, nobody has
// asked for opt.Idle, or the binary is replaced; then it closes ln (its
// socket goes) and returns.
func Serve(ctx context.Context, ln net.Listener, ws Workspace, opt Options) error {
	if opt.Logf == nil {
		opt.Logf = func(string, ...any) {}
	}
	defer ln.Close() // its socket goes, whatever ends the loop
	s := &server{ws: ws, opt: opt, ln: ln, conns: map[net.Conn]bool{}}
	s.idle = time.AfterFunc(opt.Idle, s.leaveIfIdle)
	defer s.idle.Stop()
	stop := context.AfterFunc(ctx, func() { s.leave("stopped") })
	defer stop()
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		conn, err := ln.Accept()
		if err != nil {
			s.mu.Lock()
			left := s.left
			for c := range s.conns {
				c.Close()
			}
			s.mu.Unlock()
			if left != "" {
				opt.Logf("left: %s", left)
				return nil
			}
			return err
		}
		s.mu.Lock()
		s.conns[conn] = true
		s.mu.Unlock()
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.serveConn(ctx, conn)
		}()
	}
}

type server struct {
	ws   Workspace
	opt  Options
	ln   net.Listener
	idle *time.Timer

	mu     sync.Mutex
	conns  map[net.Conn]bool
	asking int    // requests being answered
	left   string // why the daemon left, once it has
}

// serveConn answers one connection's requests in turn until it closes.
func (s *server) serveConn(ctx context.Context, conn net.Conn) {
	defer func() {
		conn.Close()
		s.mu.Lock()
		delete(s.conns, conn)
		s.mu.Unlock()
	}()
	r := bufio.NewReaderSize(conn, 64<<10)
	enc := json.NewEncoder(conn)
	for {
		// A connection idle past requestBudget (a client gone quiet) is
		// closed: it holds a descriptor and a goroutine.
		_ = conn.SetReadDeadline(time.Now().Add(requestBudget))
		line, err := readLine(r)
		if err != nil {
			if errors.Is(err, errLongLine) {
				_ = enc.Encode(Reply{Error: err.Error()})
			}
			return
		}
		s.begin()
		rep := s.answer(ctx, line)
		_ = conn.SetWriteDeadline(time.Now().Add(requestBudget))
		werr := enc.Encode(rep)
		s.end()
		if werr != nil {
			return
		}
	}
}

var errLongLine = errors.New("request longer than a daemon reads")

// readLine is the next line of r, at most maxRequest bytes.
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > maxRequest {
			return nil, errLongLine
		}
		switch {
		case err == nil:
			return line, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			return nil, err
		}
	}
}

// answer is the reply to one request line. A failure of the daemon's
// own — a panic, the session closing or not ready, the request's time
// out — is Unavailable: the asker answers itself.
func (s *server) answer(ctx context.Context, line []byte) (rep Reply) {
	defer func() {
		if r := recover(); r != nil {
			s.opt.Logf("panic answering: %v\n%s", r, debug.Stack())
			rep = Reply{Unavailable: "the daemon failed"}
		}
	}()
	var req Request
	if err := json.Unmarshal(line, &req); err != nil {
		return Reply{Error: "request not read: " + err.Error()}
	}
	switch {
	case req.Build != s.opt.Build:
		return Reply{Unavailable: "a daemon of another build"}
	case !slices.Equal(req.Roots, s.opt.Roots):
		return Reply{Unavailable: "a daemon of other roots"}
	case s.opt.Outdated != nil && s.opt.Outdated():
		s.leave("its binary was replaced")
		return Reply{Unavailable: "a daemon of a replaced binary"}
	}
	ctx, cancel := context.WithTimeout(ctx, requestBudget)
	defer cancel()
	if err := s.ws.Fresh(ctx); err != nil {
		return Reply{Unavailable: err.Error()}
	}
	failed := func(err error) Reply {
		if errors.Is(err, ErrUnavailable) || ctx.Err() != nil {
			return Reply{Unavailable: err.Error()}
		}
		return Reply{Error: err.Error()}
	}
	switch req.Method {
	case MethodResolve:
		if req.Resolve == nil {
			return Reply{Error: "resolve: no question"}
		}
		res, code, err := s.ws.Resolve(ctx, *req.Resolve)
		if err != nil {
			return failed(err)
		}
		rep = Reply{Resolve: &res, Code: code}
	case MethodMovedDir:
		mv, err := s.ws.MovedDir(ctx, req.Dir)
		if err != nil {
			return failed(err)
		}
		rep = Reply{DirMove: mv}
	case MethodSoughtDir:
		mv, err := s.ws.SoughtDir(ctx, req.Dir, req.Seek, req.Fold)
		if err != nil {
			return failed(err)
		}
		rep = Reply{DirMove: mv}
	case MethodNamedDirs:
		named, err := s.ws.NamedDirs(ctx, req.Dir, req.Most)
		if err != nil {
			return failed(err)
		}
		rep = Reply{Named: named}
	default:
		return Reply{Error: "unknown method " + req.Method}
	}
	rep.Note = s.ws.Note()
	return rep
}

// begin and end bracket a request: the idle clock runs only while none
// is being answered.
func (s *server) begin() {
	s.mu.Lock()
	s.asking++
	s.idle.Stop()
	s.mu.Unlock()
}

func (s *server) end() {
	s.mu.Lock()
	s.asking--
	if s.asking == 0 {
		s.idle.Reset(s.opt.Idle)
	}
	s.mu.Unlock()
}

func (s *server) leaveIfIdle() {
	s.mu.Lock()
	asking := s.asking
	s.mu.Unlock()
	if asking == 0 {
		s.leave("nobody asked for " + s.opt.Idle.String())
	}
}

// leave closes the listener (its socket file goes with it): Serve
// returns once the requests being answered are.
func (s *server) leave(why string) {
	s.mu.Lock()
	if s.left == "" {
		s.left = why
	}
	s.mu.Unlock()
	s.ln.Close()
}
