// Package mcpserver is the MCP front end: the request layer (service) as
// tools an agent calls, over the official Go SDK. Each tool parses its
// typed input, calls one service function and answers with the JSON of
// its LSP counterpart as text — compact, because an agent pays for every
// byte it reads. Bad input is a tool error (isError), never a crash.
package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"wayfind/rank"
	"wayfind/service"
	"wayfind/session"
	"wayfind/wire"
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

type noInput struct{}

// Options configure the server.
type Options struct {
	Version string
	// ClientRoots: take the roots from the client (roots/list, and again
	// on roots/list_changed) rather than the ones the session has.
	ClientRoots bool
	Logf        func(format string, args ...any)
}

// New returns the MCP server over sess.
func New(sess *session.Session, o Options) *mcp.Server {
	svc := service.New(sess)
	useClientRoots := func(ctx context.Context, ss *mcp.ServerSession) {
		res, err := ss.ListRoots(ctx, nil)
		if err != nil || res == nil || len(res.Roots) == 0 {
			return
		}
		var dirs []string
		for _, r := range res.Roots {
			if p, ok := wire.FilePath(r.URI); ok {
				dirs = append(dirs, p)
			}
		}
		if len(dirs) > 0 {
			o.Logf("roots from the client: %s", strings.Join(dirs, ", "))
			sess.SetRoots(dirs)
		}
	}
	opts := &mcp.ServerOptions{
		Instructions: "wayfind finds files in this workspace: resolve a wrong or stale path (path_resolve), search file names (find_files), answer where something is implemented (locate), search symbols (workspace_symbols), read a file by a path that may be wrong (read_resolved).",
	}
	if o.ClientRoots {
		opts.InitializedHandler = func(ctx context.Context, req *mcp.InitializedRequest) {
			if p := req.Session.InitializeParams(); p != nil && p.Capabilities != nil && p.Capabilities.RootsV2 != nil {
				useClientRoots(ctx, req.Session)
			}
		}
		opts.RootsListChangedHandler = func(ctx context.Context, req *mcp.RootsListChangedRequest) {
			useClientRoots(ctx, req.Session)
		}
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "wayfind", Version: o.Version}, opts)

	mcp.AddTool(server, &mcp.Tool{Name: "path_resolve",
		Description: "Use after a file-not-found error or with a stale, mistyped or foreign path: returns the file the path most likely meant (resolved is null when no candidate is clearly right)."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in pathResolveIn) (*mcp.CallToolResult, any, error) {
			if strings.TrimSpace(in.Path) == "" {
				return answer(nil, rank.InputError("path is required"))
			}
			out, _, err := svc.Resolve(ctx, service.ResolveParams{Path: in.Path, From: in.From, History: in.History, Limit: in.Limit})
			return answer(out, err)
		})
	mcp.AddTool(server, &mcp.Tool{Name: "find_files",
		Description: "Use to find files by name when you know roughly what a file is called (typos and partial words are fine); cheaper than listing the tree."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in findFilesIn) (*mcp.CallToolResult, any, error) {
			out, _, err := svc.Find(ctx, service.FindParams{Query: in.Query, Limit: in.Limit, Impl: in.Impl})
			return answer(out, err)
		})
	mcp.AddTool(server, &mcp.Tool{Name: "locate",
		Description: "Use to answer where something is implemented or defined (\"where is CommandRouter implemented\"): tries file names, then symbols, then file contents, and reports its confidence."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in locateIn) (*mcp.CallToolResult, any, error) {
			out, _, err := svc.Locate(ctx, service.LocateParams{Query: in.Query, Limit: in.Limit, MinConfidence: in.MinConfidence})
			return answer(out, err)
		})
	mcp.AddTool(server, &mcp.Tool{Name: "workspace_symbols",
		Description: "Use to find a class, struct, interface, function or method by name (exact, prefix, CamelCase humps, one typo, or Type.method)."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in symbolsIn) (*mcp.CallToolResult, any, error) {
			out, _, err := svc.Symbols(ctx, service.SymbolParams{Query: in.Query, Limit: in.Limit})
			return answer(out, err)
		})
	mcp.AddTool(server, &mcp.Tool{Name: "read_resolved",
		Description: "Use to read a file when the path you have may be wrong: resolves it first, then returns the text of the file it actually read (read-only, inside the workspace, size-capped)."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in readIn) (*mcp.CallToolResult, any, error) {
			out, err := svc.Read(ctx, service.ReadParams{Path: in.Path, From: in.From, MaxBytes: in.MaxBytes})
			return answer(out, err)
		})
	mcp.AddTool(server, &mcp.Tool{Name: "roots_list",
		Description: "Use to see which directories are searched and whether the index is ready."},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ noInput) (*mcp.CallToolResult, any, error) {
			return answer(svc.Status(), nil)
		})
	mcp.AddTool(server, &mcp.Tool{Name: "reindex_paths",
		Description: "Use after creating, moving or deleting many files outside the agent's view: rebuilds the index and returns its status."},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ noInput) (*mcp.CallToolResult, any, error) {
			out, err := svc.Reindex(ctx)
			return answer(out, err)
		})
	return server
}

// answer turns a service answer into a tool result: v's JSON as text
// content (no structured copy: the same bytes twice would cost an agent
// double), or the error an agent can act on as a tool error (isError).
func answer(v any, err error) (*mcp.CallToolResult, any, error) {
	if err != nil {
		if errors.Is(err, rank.ErrInput) || errors.Is(err, service.ErrUnreadable) {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}, nil, nil
		}
		return nil, nil, err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil, nil
}
