package daemon

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"wayfind/service"
	"wayfind/wire"
)

// fakeWorkspace answers every path with itself, or is not fresh.
type fakeWorkspace struct {
	stale   error
	asked   atomic.Int32
	movedTo string
}

func (w *fakeWorkspace) Fresh(context.Context) error { return w.stale }

func (w *fakeWorkspace) Resolve(_ context.Context, p service.ResolveParams) (wire.Resolve, int, error) {
	w.asked.Add(1)
	switch p.Path {
	case "bad":
		return wire.Resolve{}, 0, errors.New("bad path")
	case "closing":
		return wire.Resolve{}, 0, fmt.Errorf("%w: session closed", ErrUnavailable)
	case "panic":
		panic("a bug of the daemon's")
	}
	return wire.Resolve{Basis: p.Path}, 7, nil
}

func (w *fakeWorkspace) MovedDir(_ context.Context, dir string) (*wire.DirMove, error) {
	w.asked.Add(1)
	return &wire.DirMove{To: w.movedTo}, nil
}

func (w *fakeWorkspace) NamedDirs(_ context.Context, dir string, most int) ([]wire.NamedDir, error) {
	w.asked.Add(1)
	return []wire.NamedDir{{Path: dir, Files: most}}, nil
}

func (w *fakeWorkspace) SoughtDir(_ context.Context, dir, seek string, fold bool) (*wire.DirMove, error) {
	w.asked.Add(1)
	return &wire.DirMove{From: dir, To: fmt.Sprint(seek, " ", fold)}, nil
}

func (w *fakeWorkspace) Note() string { return "a note" }

// serve starts a daemon of ws on a socket in a fresh directory; it is
// stopped with the test.
func serve(t *testing.T, ws Workspace, opt Options) (sock string, done chan error) {
	t.Helper()
	sock = filepath.Join(t.TempDir(), "d", socketName)
	ln, err := Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	if opt.Idle == 0 {
		opt.Idle = time.Minute
	}
	ctx, cancel := context.WithCancel(context.Background())
	done = make(chan error, 1)
	go func() { done <- Serve(ctx, ln, ws, opt) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return sock, done
}

func TestClientAsksTheDaemon(t *testing.T) {
	ws := &fakeWorkspace{movedTo: "/r/new"}
	roots := []string{"/r"}
	sock, _ := serve(t, ws, Options{Roots: roots, Build: "b1"})
	ctx := context.Background()
	tests := []struct {
		name           string
		roots          []string
		build, path    string
		want           string
		code           int
		unavailable    bool
		wantErrContent string
	}{
		{name: "answered", roots: roots, build: "b1", path: "/r/x.go", want: "/r/x.go", code: 7},
		{name: "the request layer's error", roots: roots, build: "b1", path: "bad", wantErrContent: "bad path"},
		{name: "another build", roots: roots, build: "b2", path: "/r/x.go", unavailable: true},
		{name: "other roots", roots: []string{"/s"}, build: "b1", path: "/s/x.go", unavailable: true},
		{name: "the daemon's own failure", roots: roots, build: "b1", path: "closing", unavailable: true},
		{name: "a panic of the daemon's", roots: roots, build: "b1", path: "panic", unavailable: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Dial(sock, tt.roots, tt.build)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			res, code, err := c.Resolve(ctx, service.ResolveParams{Path: tt.path})
			switch {
			case tt.unavailable:
				if !errors.Is(err, ErrUnavailable) {
					t.Fatalf("err = %v, want ErrUnavailable", err)
				}
			case tt.wantErrContent != "":
				if err == nil || errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), tt.wantErrContent) {
					t.Fatalf("err = %v, want the request layer's %q", err, tt.wantErrContent)
				}
			default:
				if err != nil || res.Basis != tt.want || code != tt.code || c.Note() != "a note" {
					t.Fatalf("= %q %d %v, note %q; want %q %d", res.Basis, code, err, c.Note(), tt.want, tt.code)
				}
			}
		})
	}
	// One connection asks more than once.
	c, err := Dial(sock, roots, "b1")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for i := range 3 {
		if mv, err := c.MovedDir(ctx, "/r/old"); err != nil || mv == nil || mv.To != "/r/new" {
			t.Fatalf("ask %d: %v %v", i, mv, err)
		}
	}
	// A search's directory carries what it seeks.
	if mv, err := c.SoughtDir(ctx, "/r/src", "X.java", true); err != nil || mv == nil || mv.From != "/r/src" || mv.To != "X.java true" {
		t.Fatalf("sought: %v %v", mv, err)
	}
	if named, err := c.NamedDirs(ctx, "/r/src", 3); err != nil || len(named) != 1 || named[0] != (wire.NamedDir{Path: "/r/src", Files: 3}) {
		t.Fatalf("named: %v %v", named, err)
	}
}

func TestStaleDaemonAnswersNothing(t *testing.T) {
	ws := &fakeWorkspace{stale: errors.New("the daemon polls the roots")}
	sock, _ := serve(t, ws, Options{Roots: []string{"/r"}, Build: "b"})
	c, err := Dial(sock, []string{"/r"}, "b")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, _, err := c.Resolve(context.Background(), service.ResolveParams{Path: "/r/x"}); !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "polls") {
		t.Fatalf("err = %v, want ErrUnavailable saying why", err)
	}
	if ws.asked.Load() != 0 {
		t.Fatal("a daemon that is not fresh asked its workspace")
	}
}

func TestNoDaemonIsUnavailable(t *testing.T) {
	if _, err := Dial(filepath.Join(t.TempDir(), socketName), []string{"/r"}, "b"); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("err = %v, want ErrUnavailable", err)
	}
}

// Bad input gets an error, and the daemon keeps answering.
func TestBadRequestsLeaveTheDaemonAnswering(t *testing.T) {
	ws := &fakeWorkspace{}
	sock, _ := serve(t, ws, Options{Roots: []string{"/r"}, Build: "b"})
	for _, raw := range []string{"not json\n", `{"Roots":["/r"],"Build":"b","Method":"nope"}` + "\n", `{"Roots":["/r"],"Build":"b","Method":"resolve"}` + "\n", strings.Repeat("x", maxRequest+10) + "\n"} {
		conn, err := net.Dial("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		conn.SetDeadline(time.Now().Add(10 * time.Second))
		go conn.Write([]byte(raw))
		buf := make([]byte, 4096)
		n, _ := conn.Read(buf)
		conn.Close()
		if !strings.Contains(string(buf[:n]), `"Error"`) {
			t.Fatalf("%.40q: reply %q, want an error", raw, buf[:n])
		}
	}
	c, err := Dial(sock, []string{"/r"}, "b")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if res, _, err := c.Resolve(context.Background(), service.ResolveParams{Path: "/r/y"}); err != nil || res.Basis != "/r/y" {
		t.Fatalf("after bad requests: %v %v", res.Basis, err)
	}
}

func TestDaemonLeaves(t *testing.T) {
	t.Run("idle", func(t *testing.T) {
		sock, done := serve(t, &fakeWorkspace{}, Options{Roots: []string{"/r"}, Build: "b", Idle: 50 * time.Millisecond})
		select {
		case err := <-done:
			done <- err // for the cleanup
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("an idle daemon stayed")
		}
		if _, err := os.Stat(sock); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("the socket stayed: %v", err)
		}
	})
	t.Run("its binary replaced", func(t *testing.T) {
		var replaced atomic.Bool
		sock, done := serve(t, &fakeWorkspace{}, Options{Roots: []string{"/r"}, Build: "b", Outdated: replaced.Load})
		c, err := Dial(sock, []string{"/r"}, "b")
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if _, _, err := c.Resolve(context.Background(), service.ResolveParams{Path: "/r/x"}); err != nil {
			t.Fatal(err)
		}
		replaced.Store(true)
		if _, _, err := c.Resolve(context.Background(), service.ResolveParams{Path: "/r/x"}); !errors.Is(err, ErrUnavailable) {
			t.Fatalf("err = %v, want ErrUnavailable", err)
		}
		select {
		case err := <-done:
			done <- err
		case <-time.After(10 * time.Second):
			t.Fatal("a replaced daemon stayed")
		}
	})
}

func TestSocketIsTheOwners(t *testing.T) {
	sock, _ := serve(t, &fakeWorkspace{}, Options{Roots: []string{"/r"}, Build: "b"})
	for p, want := range map[string]os.FileMode{sock: 0o600, filepath.Dir(sock): 0o700} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", p, st.Mode().Perm(), want)
		}
	}
}

func TestSocketPath(t *testing.T) {
	if _, ok := SocketPath("-", []string{"/r"}); ok {
		t.Error("a socket without a cache directory")
	}
	if p, ok := SocketPath("/c", []string{"/r"}); !ok || filepath.Base(p) != socketName {
		t.Errorf("SocketPath = %q %v", p, ok)
	}
	if _, ok := SocketPath("/"+strings.Repeat("c", maxSocketPath), []string{"/r"}); ok {
		t.Error("a socket path too long for an address")
	}
}

// A daemon that accepts and never answers (wedged, stopped) is given up
// within askWait, however long the asker's own deadline.
func TestSilentDaemonIsUnavailable(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "d", socketName)
	ln, err := Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			defer conn.Close() // held open, never answered
		}
	}()
	c, err := Dial(sock, []string{"/r"}, "b")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	start := time.Now()
	if _, _, err := c.Resolve(ctx, service.ResolveParams{Path: "/r/x"}); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("err = %v, want ErrUnavailable", err)
	}
	if took := time.Since(start); took > askWait+time.Second {
		t.Fatalf("given up after %s, want within askWait (%s)", took, askWait)
	}
}
