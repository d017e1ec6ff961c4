// Package mcpserver is the MCP front end: the request layer (service) as
// tools an agent calls, over the official Go SDK. Each tool parses its
// typed input, calls one service function and answers with the JSON of
// its LSP counterpart as text — compact, because an agent pays for every
// byte it reads. Bad input is a tool error (isError), never a crash.
package mcpserver

import (
	"context"
	"fmt"

	"encoding/json"
	"errors"
	"github.com/google/jsonschema-go/jsonschema"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"wayfind/history"
	"wayfind/rank"
	"wayfind/service"
	"wayfind/session"
	"wayfind/wire"
)

type pathResolveIn struct {
	Path    string   `json:"path" jsonschema:"the path as written: relative, absolute (even from another machine), file:// URI, Windows separators, :line[:col] or #Lline suffix"`
	From    string   `json:"from,omitempty" jsonschema:"the file the path was written in (a link, an import, a stack trace's file): relative paths, bare names included, are read from its directory first"`
	Link    bool     `json:"link,omitempty" jsonschema:"the path is a link's target in from (Markdown, HTML, reStructuredText, AsciiDoc): read from from's directory alone"`
	Current string   `json:"current,omitempty" jsonschema:"the file you are working in, when the path was not read from a file: it only breaks ties by nearness"`
	History []string `json:"history,omitempty" jsonschema:"files looked at recently, most recent last; they break ties"`
	Limit   int      `json:"limit,omitempty" jsonschema:"how many files at most, the resolved one included (default 5)"`
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
	Limit int    `json:"limit,omitempty" jsonschema:"how many symbols (default 20)"`
}

type readIn struct {
	Path     string `json:"path" jsonschema:"the path as written, even stale or mistyped; it is resolved first"`
	From     string `json:"from,omitempty" jsonschema:"the file the path was found in"`
	MaxBytes int    `json:"maxBytes,omitempty" jsonschema:"the most bytes of text returned (default 65536, at most 4194304)"`
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
	var named atomic.Bool // the client named its roots (roots/list)
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
			named.Store(true)
			sess.SetRoots(dirs)
		}
	}
	opts := &mcp.ServerOptions{
		Instructions: instructions,
		// No logging capability: the server sends no log messages.
		Capabilities: &mcp.ServerCapabilities{},
	}
	if o.ClientRoots {
		opts.Capabilities.Experimental = map[string]any{codexSandboxMeta: map[string]any{}}
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
	if o.ClientRoots {
		server.AddReceivingMiddleware(codexCwd(sess, &named, o.Logf))
	}
	roots := sess.Roots

	mcp.AddTool(server, tool[pathResolveIn]("path_resolve", "Resolve a path", true,
		"Use after a file-not-found error, or with a path that may be stale, mistyped or from another machine: returns the file it most likely meant, with line and column (1-based) from a :line[:col] suffix. "+
			"resolved is null when no file is clearly right; others then lists the candidates. "+
			"In a git repository an old path (renamed, moved) is followed through the history to today's file (moved names the commit); a file the history deleted comes back as gone {commit, date, subject} with resolved null: it no longer exists, stop looking. historyPending: the history was still being read; ask again in a moment. "+
			"A file the index leaves out (node_modules, .gitignored, build output) is still found on disk; its why then includes dir:excluded. Not for searching by a partial name: use find_files."),
		func(ctx context.Context, _ *mcp.CallToolRequest, in pathResolveIn) (*mcp.CallToolResult, any, error) {
			if strings.TrimSpace(in.Path) == "" {
				return answer(nil, rank.InputError("path is required"))
			}
			out, _, err := svc.Resolve(ctx, service.ResolveParams{Path: in.Path, From: in.From, Link: in.Link, Current: in.Current, History: in.History,
				Limit: orDefault(in.Limit, resolveLimit), Record: history.Agent})
			return answer(resolveOf(roots(), out), err)
		})
	mcp.AddTool(server, tool[findFilesIn]("find_files", "Find files by name", true,
		"Use to find files when you know roughly what one is called or where it is: a few letters of the directory and the name (nethttpserver, buicatfil), words in any order, typos are fine. "+
			"Returns root-relative paths, best first; far cheaper than listing the tree. Of a name several files share (config.go, index.ts), the copy near the files you read lately comes first, when wayfind saw those reads (its hook, read_resolved). An empty query lists the files looked at most recently, your reads among them. A path the file had in the repository's history finds today's file first. Not for text inside files: use locate."),
		func(ctx context.Context, _ *mcp.CallToolRequest, in findFilesIn) (*mcp.CallToolResult, any, error) {
			out, _, err := svc.Find(ctx, service.FindParams{Query: in.Query, Limit: in.Limit, Impl: in.Impl, Agent: true})
			return answer(filesOf(roots(), out), err)
		})
	mcp.AddTool(server, tool[locateIn]("locate", "Locate where something is", true,
		"Use to ask where a name from the code is defined or implemented (\"where is CommandRouter implemented\", \"session manager\", a quoted phrase): tries symbols, then file names, then file contents, and says how sure it is. "+
			"Give it identifiers or words that appear in the code, not concepts; for a class or function name alone, workspace_symbols is more precise. Lines are 1-based."),
		func(ctx context.Context, _ *mcp.CallToolRequest, in locateIn) (*mcp.CallToolResult, any, error) {
			out, _, err := svc.Locate(ctx, service.LocateParams{Query: in.Query, Limit: in.Limit, MinConfidence: in.MinConfidence})
			return answer(locateOf(roots(), out), err)
		})
	mcp.AddTool(server, tool[symbolsIn]("workspace_symbols", "Search symbols", true,
		"Use to find where a class, struct, interface, function or method is declared, by name: exact, prefix, CamelCase humps (CoRo), one typo, or qualified (Type.method). "+
			"Returns name, kind, container, path and the name's 1-based line and column. Not for file names: use find_files."),
		func(ctx context.Context, _ *mcp.CallToolRequest, in symbolsIn) (*mcp.CallToolResult, any, error) {
			out, _, err := svc.Symbols(ctx, service.SymbolParams{Query: in.Query, Limit: orDefault(in.Limit, symbolsLimit)})
			return answer(symbolsOf(roots(), out), err)
		})
	mcp.AddTool(server, tool[readIn]("read_resolved", "Read a file by a path that may be wrong", true,
		"Use instead of a plain read when the path you have may be wrong (after a file-not-found error, or from a log or another machine): resolves it, then returns the text of the file it actually read and which file that was. "+
			"Read-only, only files inside the workspace, at most maxBytes (default 65,536, cap 4 MiB); binary files are refused."),
		func(ctx context.Context, _ *mcp.CallToolRequest, in readIn) (*mcp.CallToolResult, any, error) {
			out, err := svc.Read(ctx, service.ReadParams{Path: in.Path, From: in.From, MaxBytes: in.MaxBytes})
			return answer(out, err)
		})
	mcp.AddTool(server, tool[noInput]("roots_list", "Show the workspace roots", true,
		"Use to see which directories this server searches, how many files it holds, and whether its indexes are ready (ready:false: the file index is still being built — answers may wait; symbolsReady:false: symbol search is not complete yet). "+
			"This is wayfind's own status, not MCP's roots/list."),
		func(ctx context.Context, _ *mcp.CallToolRequest, _ noInput) (*mcp.CallToolResult, any, error) {
			return answer(svc.Status(), nil)
		})
	mcp.AddTool(server, tool[noInput]("reindex_paths", "Rebuild the index", false,
		"Rarely needed: the server watches the workspace and picks up changes by itself. Use only when answers seem to miss files that were just created, moved or deleted (say, by a tool that bypassed the file system watcher): re-reads every root and returns the status. Takes no arguments."),
		func(ctx context.Context, _ *mcp.CallToolRequest, _ noInput) (*mcp.CallToolResult, any, error) {
			out, err := svc.Reindex(ctx)
			return answer(out, err)
		})
	return server
}

// Defaults where an agent's answer should stay small.
const (
	resolveLimit = 5  // the resolved file and up to four others
	symbolsLimit = 20 // LSP's default is 100, for a picker
)

func orDefault(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

const instructions = "wayfind finds files in this workspace. Tools: path_resolve (the file a wrong or stale path meant), read_resolved (read a file by such a path), find_files (files by a partial name or path), locate (where a name or words from the code are defined or implemented), workspace_symbols (declarations by name), roots_list (what is searched and whether the indexes are ready), reindex_paths (rarely: rebuild the index). " +
	"After a file-not-found error, call path_resolve or read_resolved with the same path. Paths in answers are relative to the root given at the top; lines and columns are 1-based."

// tool describes a tool: its input schema from In (with no type arrays,
// which strict clients refuse: an optional field is simply not required),
// a title, and the hints every tool shares — no side effects outside the
// server, none open-world — plus whether it only reads.
func tool[In any](name, title string, readOnly bool, description string) *mcp.Tool {
	schema, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("%s: %v", name, err))
	}
	for _, p := range schema.Properties {
		if len(p.Types) == 2 && p.Types[0] == "null" {
			p.Type, p.Types = p.Types[1], nil
		}
	}
	no := false
	return &mcp.Tool{Name: name, Title: title, Description: description, InputSchema: schema,
		Annotations: &mcp.ToolAnnotations{Title: title, ReadOnlyHint: readOnly, IdempotentHint: true, OpenWorldHint: &no, DestructiveHint: &no}}
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

// codexSandboxMeta is where Codex CLI says, in each tool call's _meta,
// the directory its session works in (sandboxCwd, a file URI), to a
// server that declares it among its experimental capabilities. Codex
// asks for no roots (roots/list), and a server a plugin starts runs in
// the plugin's own directory: without it, a server with no --root would
// search the plugin.
const codexSandboxMeta = "codex/sandbox-state-meta"

// codexCwd takes the roots from Codex's sandboxCwd, before the call is
// answered, while the client has named none of its own (named).
func codexCwd(sess *session.Session, named *atomic.Bool, logf func(string, ...any)) mcp.Middleware {
	var mu sync.Mutex
	last := ""
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != "tools/call" || named.Load() {
				return next(ctx, method, req)
			}
			if p, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok {
				if dir, ok := sandboxCwd(p.Meta); ok {
					mu.Lock()
					if dir != last {
						last = dir
						logf("roots from Codex's sandbox directory: %s", dir)
						sess.SetRoots([]string{dir})
					}
					mu.Unlock()
				}
			}
			return next(ctx, method, req)
		}
	}
}

// sandboxCwd reads the directory in meta's codexSandboxMeta: a file URI,
// or (older versions) an absolute path.
func sandboxCwd(meta mcp.Meta) (string, bool) {
	state, _ := meta[codexSandboxMeta].(map[string]any)
	cwd, _ := state["sandboxCwd"].(string)
	if p, ok := wire.FilePath(cwd); ok {
		return p, true
	}
	if filepath.IsAbs(cwd) {
		return filepath.Clean(cwd), true
	}
	return "", false
}
