package main

import (
	"fmt"
	"io"
	"os"
)

// helpOf is each command's help: usage, every flag with its default, and
// examples. It goes to stdout, exit 0, never as JSON.
var helpOf = map[string]string{
	"find": `usage: wayfind find [flags] QUERY

Fuzzy file search, read the way people type into a Quick Open box: across
the whole path (nethttpserver, buicatfil, "tls handshake client", colorjs),
with typos, words, CamelCase, dir/name fragments and a[ _-]?b patterns.

flags:
  --root DIR         workspace root (repeatable; default: the project the
                     current directory is in — nearest .git, .hg or .jj — else
                     the current directory)
  --limit N          how many matches (default 10)
  --format F         text | json | jsonl (default: text on a terminal or with
                     --quiet, json when piped)
  --quiet            bare paths, one per line
  --verbose          log lines on stderr (skipped symlinks, index stats)
  --exact            no typo, abbreviation or subsequence readings
  --threshold F      drop matches scoring below F (0..1, default 0.3)
  --kind K           file | symbol | all (default file)
  --impl             prefer implementation files over headers
  --current FILE     the file you are in: matches near it first among
                     equals, and of its own name the other copies first
  --model-dir DIR    an ONNX ColBERT model to order close calls (default none)

examples:
  wayfind find nethttpserver
  wayfind find --quiet "tls handshake client" | head -1
  wayfind find --format json --limit 3 authmidlware
`,
	"resolve": `usage: wayfind resolve [flags] PATH

The file a wrong, stale or mistyped path meant: ./ and ../ paths, absolute
paths from other machines, file:// URIs, :line[:col], #Lline and (line,col)
suffixes, links (a #fragment, %-escapes, <…>, a title), typos, wrong
extensions and directories. Exit 100 when nothing is clearly right (the
candidates are listed).

flags:
  --root DIR         workspace root (repeatable; default: the enclosing project)
  --limit N          how many candidates (default 10)
  --format F         text | json | jsonl
  --quiet            the resolved path only
  --verbose          log lines on stderr
  --from FILE        the file the path is written in: a relative path, a bare
                     name included, is read from its directory first
  --link             the path is a link's target in --from (Markdown, HTML,
                     reStructuredText, AsciiDoc): read from its directory alone
  --current FILE     the file you are in (nearness only, never read relative)
  --history FILE     a recently visited file (repeatable, most recent last)

examples:
  wayfind resolve src/auth/midleware.py:42
  wayfind resolve --from src/app.ts ../util/helpers.ts
  wayfind resolve --from pkg/store/README.md 'client.go#usage' 
  wayfind resolve /home/someone/proj/pkg/server.go
`,
	"locate": `usage: wayfind locate [flags] QUESTION

"Where is X implemented": symbols, then file names, then the files' text,
until the evidence is sufficient; says how it got there and how sure it is.

flags:
  --root DIR           workspace root (repeatable; default: the enclosing project)
  --limit N            how many results (default 10)
  --format F           text | json | jsonl
  --quiet              paths (with :line) only
  --verbose            log lines on stderr
  --min-confidence F   where the cascade stops (0..1, default 0.7)

examples:
  wayfind locate where is CommandRouter implemented
  wayfind locate "cursor[ _-]?binary"
`,
	"symbols": `usage: wayfind symbols [flags] QUERY

Classes, structs, interfaces, functions and methods by name: exact, prefix,
camel humps (CoRo), one typo, or qualified (Type.method, Type::method).

flags:
  --root DIR           workspace root (repeatable; default: the enclosing project)
  --limit N            how many symbols (default 10)
  --format F           text | json | jsonl
  --quiet              path:line:col only
  --verbose            log lines on stderr
  --exact              no typo or subsequence readings
  --max-file-bytes N   skip larger files when parsing (default 1 MB)

examples:
  wayfind symbols CoRo
  wayfind symbols http.Server.Serve
`,
	"index": `usage: wayfind index [flags]

Build or refresh the on-disk symbol cache of the roots and print its stats
(a warm cache makes symbols, locate and find --kind all start fast).

flags:
  --root DIR           workspace root (repeatable; default: the enclosing project)
  --format F           text | json
  --verbose            log lines on stderr
  --max-file-bytes N   skip larger files when parsing (default 1 MB)

example:
  wayfind index --root ~/src/project
`,
	"lsp": `usage: wayfind lsp [--stdio]

A language server on stdin/stdout: start it from your editor, not by hand.

VS Code: install the extension (make vscode, then Extensions → Install from
VSIX… → vscode-client/dist/wayfind.vsix); it finds wayfind on PATH or via
the wayfind.serverPath setting.

Neovim, with the plugin (put this repository's nvim/ on the runtimepath):
  require('wayfind').setup { cmd = { 'wayfind', 'lsp' }, gf = true }

Neovim, with nvim-lspconfig:
  local configs = require('lspconfig.configs')
  configs.wayfind = { default_config = { cmd = { 'wayfind', 'lsp' },
    root_dir = require('lspconfig.util').root_pattern('.git'), single_file_support = true } }
  require('lspconfig').wayfind.setup {}

Any client: run "wayfind lsp" with the workspace folders as roots; the
custom requests (find/resolvePath, find/files, find/locate, find/alternate,
find/status, find/reindex) are in docs/API.md.
`,
	"mcp": `usage: wayfind mcp [--root DIR]... [--quiet] [--model-dir DIR]

An MCP server on stdin/stdout for coding agents: start it from your agent's
configuration, not by hand. For example, in an mcpServers entry:

  {"mcpServers": {"wayfind": {"command": "wayfind",
                              "args": ["mcp", "--root", "/path/to/repo"]}}}

Claude Code: claude mcp add wayfind -- wayfind mcp
Codex CLI (~/.codex/config.toml):
  [mcp_servers.wayfind]
  command = "wayfind"
  args = ["mcp"]

tools: path_resolve, find_files, locate, workspace_symbols, read_resolved,
roots_list, reindex_paths.

An agent that never calls a tool by itself is helped inside its own calls
by the hook instead (or as well): wayfind hook install (see: wayfind hook
--help).

flags:
  --root DIR        a workspace root (repeatable; default: the client's roots,
                    else the current directory)
  --quiet           no log lines on stderr
  --model-dir DIR   an ONNX ColBERT model to order close calls (default none)
`,
	"hook": `usage: wayfind hook [--harness claude|codex|gemini|opencode|copilot]  (an agent harness runs this)
       wayfind hook install   [--user | --project | --settings FILE]
       wayfind hook uninstall [--user | --project | --settings FILE]

Wayfind inside an agent's own tool calls, as a Claude Code hook (and any
agent CLI that runs hooks the same way: one JSON event on stdin, one JSON
answer on stdout). Before a tool that takes a path (Read, Edit, MultiEdit,
NotebookEdit; Glob, Grep, LS take a directory) whose path names nothing:

  - the file it meant, resolved (the path as written from another checkout,
    or an old path the repository's history followed) → the call goes
    ahead on that file, a line says so (a Read's :line becomes its offset;
    an Edit's new path is put to you, not approved for you);
  - a file the history deleted → the call is denied, naming the commit;
  - otherwise → denied with the candidates, best first, each with why.

A Bash command is read as bash reads it: a path that a command in it
reads (cat, head, sed -n, grep, ls, cd, pytest, go test ./PKG, …), that
names nothing and is resolved, is replaced in the command, the rest left
byte for byte; a write target, a word the shell expands, and every word
of a command that writes are never touched.

A path that exists costs a stat and a note; nothing is rewritten then, nor a Write
(a new file is legitimate: one line says when its directory moved). The
files the agent reads (Read, Edit, a Bash command's) are noted in the
project's navigation history as its visits, so that wayfind mcp's
find_files, the CLI and an editor's server list the copy of a shared name
near where the agent works first. After
a Bash command whose output says a file is not there, a line says where
it went. Any error of its own, an event it does not know, a path it cannot
help with: no answer, the call goes ahead. Lines go to hook.log in the
cache directory.

--harness says whose contract the answer is in: claude, codex (Codex
CLI's hooks: a rewrite is an allow, its sandbox around the command) or
gemini (Gemini CLI's BeforeTool and AfterTool, its tools' own names),
opencode (its plugin's events, plugin/opencode/wayfind.js) or copilot
(GitHub Copilot CLI's PreToolUse and PostToolUse in its VS Code form,
its view's path); without it, the event's sender's (Codex's events name
their turn, Gemini's and opencode's are named their way; Copilot's look
like Claude Code's, so say it).

install writes the hook into ~/.claude/settings.json (--user, the default)
or the project's .claude/settings.json (--project), keeping every other
setting and hook, through a symbolic link to where it leads; it runs
wayfind by name when PATH finds it, else this binary by its path. A file
that is not JSON, an event whose value is not a list, a read-only file:
left as they are, with an error. Idempotent.

For an agent that calls tools itself, wayfind mcp serves the same answers
(see: wayfind mcp --help).
`,
	"history": `usage: wayfind history [--root DIR]...

Read each root's repository history (renames, deletions, co-change) into
the cache every wayfind process on that root shares, under its lock: a
reader already at work is waited for, not read beside. A hook or a
command that finds the history not ready — a long log read for the first
time — answers from what it has and starts this in the background; the
next call answers from the history. One line a root, also written to
history.log in the cache directory.
`,
	"daemon": `usage: wayfind daemon --root DIR...

Keep the roots open for the hook: their index and history in memory, a
watcher on every directory, answers over a socket in the roots' cache
directory that only you can open. A hook on a large tree — fifty thousand
directories and more, where its own look at the roots, a stat of every
directory, takes longer than a tenth of a second — starts it in the
background; the hook asks it first and answers itself when it cannot
(still opening). A tree with more directories than the kernel's watch
limit (fs.inotify.max_user_watches) is watched in part — half the limit,
the rest left to your other tools — and the daemon stats the directories
no watch holds before each answer. It leaves after 15 minutes without a
question, when its binary is replaced, or when its socket is gone. It
logs to daemon.log in the cache
directory. A second daemon of the same roots leaves at once.
`,
	"completion": `usage: wayfind completion bash|zsh|fish

Print a shell completion script. For example:
  wayfind completion bash > ~/.local/share/bash-completion/completions/wayfind
  wayfind completion zsh  > "${fpath[1]}/_wayfind"
  wayfind completion fish > ~/.config/fish/completions/wayfind.fish
(make install puts all three in place.)
`,
}

// wantsHelp reports whether args ask for help.
func wantsHelp(args []string) bool {
	for _, a := range args {
		if a == "-h" || a == "--help" || a == "-help" {
			return true
		}
	}
	return false
}

// help prints cmd's help (the overview without one) and exits 0.
func help(cmd string, stdout, stderr io.Writer) int {
	if cmd == "" || cmd == "help" {
		fmt.Fprint(stdout, usage)
		return exitFound
	}
	text, ok := helpOf[cmd]
	if !ok {
		fmt.Fprintf(stderr, "wayfind help: no command %q (try: wayfind help)\n", cmd)
		return exitInput
	}
	fmt.Fprint(stdout, text)
	return exitFound
}

// serverHint tells a person who started a server by hand what it is:
// one line on stderr, when stdin is a terminal; the server then serves.
func serverHint(cmd, proto, how string, stderr io.Writer) {
	if isTerminal(os.Stdin) {
		fmt.Fprintf(stderr, "wayfind %s: this is an %s server speaking on stdin/stdout; start it from %s (see: wayfind %s --help). Waiting for a client…\n",
			cmd, proto, how, cmd)
	}
}
