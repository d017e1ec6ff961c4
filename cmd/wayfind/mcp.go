package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"wayfind/rank"
	"wayfind/session"
	"wayfind/wire"
	"wayfind/workspace"
)

// The MCP front end: the same session and engine as `wayfind lsp`, as
// tools an agent calls. Each tool answers with the JSON of its LSP
// counterpart as text content, compact, because an agent pays for every
// byte it reads.

const (
	defaultReadBytes = 64 << 10
	maxReadBytes     = 4 << 20
)

type pathResolveIn struct {
	Path    string   `json:"path" jsonschema:"the path as written: relative, absolute (even from another machine), file:// URI, Windows separators, :line[:col] or #Lline suffix"`
	From    string   `json:"from,omitempty" jsonschema:"the file the path was found in; relative paths resolve against it first"`
	History []string `json:"history,omitempty" jsonschema:"files looked at recently, most recent last; they break ties"`
	Limit   int      `json:"limit,omitempty" jsonschema:"how many candidates (default 10)"`
}

type findFilesIn struct {
	Query string `json:"query" jsonschema:"fuzzy file name: typos, words, CamelCase, dir/name fragments, a[ _-]?b patterns"`
	Limit int    `json:"limit,omitempty" jsonschema:"how many matches (default 10)"`
	Impl  bool   `json:"impl,omitempty" jsonschema:"prefer implementation files over headers"`
}

type locateIn struct {
	Query         string  `json:"query" jsonschema:"a question or a name, e.g. where is CommandRouter implemented"`
	Limit         int     `json:"limit,omitempty" jsonschema:"how many results (default 10)"`
	MinConfidence float64 `json:"minConfidence,omitempty" jsonschema:"stop searching once this confident (0..1, default 0.7)"`
}

type symbolsIn struct {
	Query string `json:"query" jsonschema:"symbol name: exact, prefix, camel humps (CoRo), one typo, or qualified (Type.method, Type::method)"`
	Limit int    `json:"limit,omitempty" jsonschema:"how many symbols (default 100)"`
}

type readIn struct {
	Path     string `json:"path" jsonschema:"the path as written, even stale or mistyped; it is resolved first"`
	From     string `json:"from,omitempty" jsonschema:"the file the path was found in"`
	MaxBytes int    `json:"maxBytes,omitempty" jsonschema:"the most bytes of text returned (default 65536)"`
}

// readOut is read_resolved's answer: what was read, from where, and why.
type readOut struct {
	Path      string   `json:"path"`
	URI       string   `json:"uri"`
	Requested string   `json:"requested"`
	Exact     bool     `json:"exact"`
	Reasons   []string `json:"reasons,omitempty"`
	Size      int64    `json:"size"`
	Truncated bool     `json:"truncated"`
	Text      string   `json:"text"`
}

type noInput struct{}

// toolError is a tool's failure an agent can act on: isError with this
// message, never a protocol error.
func toolError(format string, args ...any) error { return fmt.Errorf(format, args...) }

// text answers with v's JSON as text content (and no structured copy:
// the same bytes twice would cost an agent double).
func text(v any) (*mcp.CallToolResult, any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil, nil
}

// inputError turns the engine's input errors into tool errors and keeps
// the rest as they are.
func engineError(err error) error {
	if errors.Is(err, rank.ErrInput) {
		return toolError("%s", strings.TrimPrefix(err.Error(), rank.ErrInput.Error()+": "))
	}
	return err
}

func newMCPServer(sess *session.Session, rootsFromFlags bool, logf func(string, ...any)) *mcp.Server {
	var server *mcp.Server
	useClientRoots := func(ctx context.Context, ss *mcp.ServerSession) {
		res, err := ss.ListRoots(ctx, nil)
		if err != nil || res == nil || len(res.Roots) == 0 {
			return
		}
		var dirs []string
		for _, r := range res.Roots {
			if p, ok := fileURIPath(r.URI); ok {
				dirs = append(dirs, p)
			}
		}
		if len(dirs) > 0 {
			logf("roots from the client: %s", strings.Join(dirs, ", "))
			sess.SetRoots(dirs)
		}
	}
	opts := &mcp.ServerOptions{
		Instructions: "wayfind finds files in this workspace: resolve a wrong or stale path (path_resolve), search file names (find_files), answer where something is implemented (locate), search symbols (workspace_symbols), read a file by a path that may be wrong (read_resolved).",
	}
	if !rootsFromFlags {
		opts.InitializedHandler = func(ctx context.Context, req *mcp.InitializedRequest) {
			if p := req.Session.InitializeParams(); p != nil && p.Capabilities != nil && p.Capabilities.RootsV2 != nil {
				useClientRoots(ctx, req.Session)
			}
		}
		opts.RootsListChangedHandler = func(ctx context.Context, req *mcp.RootsListChangedRequest) {
			useClientRoots(ctx, req.Session)
		}
	}
	server = mcp.NewServer(&mcp.Implementation{Name: "wayfind", Version: Version}, opts)

	mcp.AddTool(server, &mcp.Tool{Name: "path_resolve",
		Description: "Use after a file-not-found error or with a stale, mistyped or foreign path: returns the file the path most likely meant (resolved is null when no candidate is clearly right)."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in pathResolveIn) (*mcp.CallToolResult, any, error) {
			if strings.TrimSpace(in.Path) == "" {
				return nil, nil, toolError("path is required")
			}
			eng, err := sess.Engine(ctx)
			if err != nil {
				return nil, nil, err
			}
			history := in.History
			if history == nil {
				history = sess.History()
			}
			res, err := eng.Resolve(ctx, rank.ResolveRequest{Path: in.Path, From: in.From, History: history, Limit: in.Limit})
			if err != nil {
				return nil, nil, engineError(err)
			}
			return text(wire.FromResolve(eng.Index().Roots, res))
		})
	mcp.AddTool(server, &mcp.Tool{Name: "find_files",
		Description: "Use to find files by name when you know roughly what a file is called (typos and partial words are fine); cheaper than listing the tree."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in findFilesIn) (*mcp.CallToolResult, any, error) {
			eng, err := sess.SymbolEngine(ctx)
			if err != nil {
				return nil, nil, err
			}
			res, err := eng.Find(ctx, rank.FindRequest{Query: in.Query, Limit: in.Limit, Impl: in.Impl})
			if err != nil {
				return nil, nil, engineError(err)
			}
			return text(wire.FromFind(eng.Index().Roots, res))
		})
	mcp.AddTool(server, &mcp.Tool{Name: "locate",
		Description: "Use to answer where something is implemented or defined (\"where is CommandRouter implemented\"): tries file names, then symbols, then file contents, and reports its confidence."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in locateIn) (*mcp.CallToolResult, any, error) {
			if in.MinConfidence < 0 || in.MinConfidence > 1 {
				return nil, nil, toolError("minConfidence must be between 0 and 1")
			}
			eng, err := sess.LocateEngine(ctx)
			if err != nil {
				return nil, nil, err
			}
			res, err := eng.Locate(ctx, rank.LocateRequest{Query: in.Query, Limit: in.Limit, MinConfidence: in.MinConfidence})
			if err != nil {
				return nil, nil, engineError(err)
			}
			return text(wire.FromLocate(eng.Index().Roots, res))
		})
	mcp.AddTool(server, &mcp.Tool{Name: "workspace_symbols",
		Description: "Use to find a class, struct, interface, function or method by name (exact, prefix, CamelCase humps, one typo, or Type.method)."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in symbolsIn) (*mcp.CallToolResult, any, error) {
			eng, err := sess.SymbolEngine(ctx)
			if err != nil {
				return nil, nil, err
			}
			ms, err := eng.SearchSymbols(ctx, rank.SymbolRequest{Query: in.Query, Limit: in.Limit})
			if err != nil {
				return nil, nil, engineError(err)
			}
			return text(wire.FromSymbols(ms))
		})
	mcp.AddTool(server, &mcp.Tool{Name: "read_resolved",
		Description: "Use to read a file when the path you have may be wrong: resolves it first, then returns the text of the file it actually read (read-only, inside the workspace, size-capped)."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in readIn) (*mcp.CallToolResult, any, error) {
			out, err := readResolved(ctx, sess, in)
			if err != nil {
				return nil, nil, err
			}
			return text(out)
		})
	mcp.AddTool(server, &mcp.Tool{Name: "roots_list",
		Description: "Use to see which directories are searched and whether the index is ready."},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ noInput) (*mcp.CallToolResult, any, error) {
			return text(wire.FromStatus(sess.Status()))
		})
	mcp.AddTool(server, &mcp.Tool{Name: "reindex_paths",
		Description: "Use after creating, moving or deleting many files outside the agent's view: rebuilds the index and returns its status."},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ noInput) (*mcp.CallToolResult, any, error) {
			st, err := sess.Reindex(ctx)
			if err != nil {
				return nil, nil, err
			}
			return text(wire.FromStatus(st))
		})
	return server
}

// readResolved resolves in.Path and reads the file it names. Only a file
// of the index is ever read: inside the roots, not ignored, not a
// symlink leading out.
func readResolved(ctx context.Context, sess *session.Session, in readIn) (*readOut, error) {
	if strings.TrimSpace(in.Path) == "" {
		return nil, toolError("path is required")
	}
	limit := in.MaxBytes
	switch {
	case limit < 0:
		return nil, toolError("maxBytes must not be negative")
	case limit == 0:
		limit = defaultReadBytes
	case limit > maxReadBytes:
		limit = maxReadBytes
	}
	eng, err := sess.Engine(ctx)
	if err != nil {
		return nil, err
	}
	res, err := eng.Resolve(ctx, rank.ResolveRequest{Path: in.Path, From: in.From, History: sess.History(), Limit: 3})
	if err != nil {
		return nil, engineError(err)
	}
	if res.Resolved == nil {
		var cands []string
		for _, c := range res.Candidates {
			cands = append(cands, c.Path)
		}
		if len(cands) == 0 {
			return nil, toolError("no file in the workspace matches %q", in.Path)
		}
		return nil, toolError("no file clearly matches %q; candidates: %s", in.Path, strings.Join(cands, ", "))
	}
	ix := eng.Index()
	c := res.Resolved
	abs := filepath.Join(ix.Roots[c.Root], filepath.FromSlash(c.Path))
	if ix.Lookup(c.Root, c.Path) < 0 {
		return nil, toolError("%s is not a file of the workspace", c.Path)
	}
	f, err := os.Open(abs)
	if err != nil {
		return nil, toolError("cannot read %s: %v", c.Path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, toolError("cannot read %s: %v", c.Path, err)
	}
	buf := make([]byte, limit+1)
	n, err := io.ReadFull(f, buf)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, toolError("cannot read %s: %v", c.Path, err)
	}
	data := buf[:n]
	truncated := n > limit
	if truncated {
		data = data[:limit]
		for len(data) > 0 && !utf8.Valid(data[max(0, len(data)-4):]) {
			data = data[:len(data)-1]
		}
	}
	if strings.IndexByte(string(data[:min(len(data), 8000)]), 0) >= 0 {
		return nil, toolError("%s is a binary file", c.Path)
	}
	sess.Visit(abs)
	return &readOut{Path: c.Path, URI: wire.FileURI(abs), Requested: in.Path, Exact: res.Exact, Reasons: c.Reasons,
		Size: st.Size(), Truncated: truncated, Text: string(data)}, nil
}

// fileURIPath is the local path of a file:// URI.
func fileURIPath(u string) (string, bool) {
	p, ok := strings.CutPrefix(u, "file://")
	if !ok {
		return "", false
	}
	p = strings.TrimPrefix(p, "localhost")
	if un, err := url.PathUnescape(p); err == nil {
		p = un
	}
	return filepath.FromSlash(p), filepath.IsAbs(filepath.FromSlash(p))
}

// serveMCP runs the MCP server on stdio until the client goes away.
func serveMCP(ctx context.Context, args []string, stderr io.Writer) int {
	var roots listFlag
	var quiet bool
	var model session.ModelConfig
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Var(&roots, "root", "")
	fs.BoolVar(&quiet, "quiet", false, "")
	modelFlags(fs, &model)
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		fmt.Fprintf(stderr, "wayfind mcp: bad arguments %q (flags: --root DIR, --quiet, --model-dir DIR, --precision P, --ort-lib FILE, --topk N)\n", strings.Join(args, " "))
		return exitInput
	}
	logf := func(format string, a ...any) {
		if !quiet {
			fmt.Fprintf(stderr, "wayfind mcp: "+format+"\n", a...)
		}
	}
	if len(roots) > 0 {
		if _, err := workspace.CleanRoots(roots); err != nil {
			fmt.Fprintf(stderr, "wayfind mcp: %v\n", err)
			return exitInput
		}
	}
	serverProcs()
	sess := session.New(session.Options{Watch: true, Logf: logf})
	defer sess.Close()
	if len(roots) > 0 {
		sess.SetRoots(roots)
	} else {
		// The current directory until (unless) the client names its roots.
		sess.SetRoots([]string{"."})
	}
	sess.LoadModel(model)
	server := newMCPServer(sess, len(roots) > 0, logf)
	if err := server.Run(ctx, &mcp.StdioTransport{}); err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		logf("%v", err)
		return 1
	}
	return 0
}
