package daemon

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"time"

	"wayfind/service"
	"wayfind/wire"
)

// Client asks a daemon the request layer's questions, as a one-shot
// process would ask its own (the hook's Requests). Every failure to be
// answered — no daemon, a daemon that cannot answer fresh, one that
// died mid-answer — is ErrUnavailable: the caller answers itself.
type Client struct {
	conn  net.Conn
	r     *bufio.Reader
	roots []string
	build string
	note  string
}

// dialWait bounds the connection to a local socket: one that is
// listened on accepts at once, and one nobody listens on refuses at once.
const dialWait = 100 * time.Millisecond

// askWait bounds one question to the daemon: a fresh daemon answers in
// milliseconds, and one that is not says so within FreshWait; a daemon
// silent past that is wedged or stopped, and the asker must have the
// time left to answer itself.
const askWait = FreshWait + time.Second

// Dial connects to the daemon at sock as a process of roots and build.
// Only a socket in a directory of this user's that nobody else may
// enter is trusted: what a daemon answers goes into an agent's context.
func Dial(sock string, roots []string, build string) (*Client, error) {
	if err := private(filepath.Dir(sock)); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	conn, err := net.DialTimeout("unix", sock, dialWait)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	return &Client{conn: conn, r: bufio.NewReader(conn), roots: roots, build: build}, nil
}

// Close ends the connection.
func (c *Client) Close() error { return c.conn.Close() }

// ask sends req and reads its reply, within ctx's deadline.
func (c *Client) ask(ctx context.Context, req Request) (Reply, error) {
	req.Roots, req.Build = c.roots, c.build
	deadline := time.Now().Add(askWait)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	_ = c.conn.SetDeadline(deadline)
	b, err := json.Marshal(req)
	if err != nil {
		return Reply{}, err
	}
	if _, err := c.conn.Write(append(b, '\n')); err != nil {
		return Reply{}, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	line, err := c.r.ReadBytes('\n')
	if err != nil {
		return Reply{}, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	var rep Reply
	if err := json.Unmarshal(line, &rep); err != nil {
		return Reply{}, fmt.Errorf("%w: reply not read: %v", ErrUnavailable, err)
	}
	switch {
	case rep.Unavailable != "":
		return Reply{}, fmt.Errorf("%w: %s", ErrUnavailable, rep.Unavailable)
	case rep.Error != "":
		return Reply{}, errors.New(rep.Error)
	}
	c.note = rep.Note
	return rep, nil
}

// Resolve is the request layer's Resolve, answered by the daemon.
func (c *Client) Resolve(ctx context.Context, p service.ResolveParams) (wire.Resolve, int, error) {
	rep, err := c.ask(ctx, Request{Method: MethodResolve, Resolve: &p})
	if err != nil {
		return wire.Resolve{}, 0, err
	}
	if rep.Resolve == nil {
		return wire.Resolve{}, 0, fmt.Errorf("%w: a resolve without an answer", ErrUnavailable)
	}
	return *rep.Resolve, rep.Code, nil
}

// MovedDir is the request layer's MovedDir, answered by the daemon.
func (c *Client) MovedDir(ctx context.Context, dir string) (*wire.DirMove, error) {
	rep, err := c.ask(ctx, Request{Method: MethodMovedDir, Dir: dir})
	if err != nil {
		return nil, err
	}
	return rep.DirMove, nil
}

// SoughtDir is the request layer's SoughtDir, answered by the daemon.
func (c *Client) SoughtDir(ctx context.Context, dir, seek string, fold bool) (*wire.DirMove, error) {
	rep, err := c.ask(ctx, Request{Method: MethodSoughtDir, Dir: dir, Seek: seek, Fold: fold})
	if err != nil {
		return nil, err
	}
	return rep.DirMove, nil
}

// NamedDirs is the request layer's NamedDirs, answered by the daemon.
func (c *Client) NamedDirs(ctx context.Context, dir string, most int) ([]wire.NamedDir, error) {
	rep, err := c.ask(ctx, Request{Method: MethodNamedDirs, Dir: dir, Most: most})
	if err != nil {
		return nil, err
	}
	return rep.Named, nil
}

// Note is the last answer's note.
func (c *Client) Note() string { return c.note }
