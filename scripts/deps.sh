#!/usr/bin/env bash
# Installs the tools wayfind's tests and benchmarks call, idempotently:
# git (ignore-rule oracle), fzf (the benchmark's peer), gcc (cgo for -race),
# neovim (a real LSP client), universal-ctags (the symbol extractor's
# outside reference and benchmark peer), python3 (its standard library is
# one of the ctags comparison's trees), node + npm and the Node test client's
# packages (vscode-jsonrpc, vscode-languageserver-protocol: what VS Code's
# client is built on), the VS Code extension's build and test tools, and
# Claude Code and Codex CLI (the agent harnesses the hook and the MCP
# server are tested in, pinned; their platform binaries come as optional
# dependencies).
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v git >/dev/null || need+=(git)
command -v fzf >/dev/null || need+=(fzf)
command -v gcc >/dev/null || need+=(gcc)
command -v nvim >/dev/null || need+=(neovim)
ctags --version 2>/dev/null | grep -q "Universal Ctags" || need+=(universal-ctags)
command -v python3 >/dev/null || need+=(python3)
command -v node >/dev/null || need+=(nodejs)
command -v npm >/dev/null || need+=(npm)
./scripts/apt-install.sh deps ${need[@]+"${need[@]}"}

# npm packages, pinned by package-lock.json; reinstalled only when the lock
# file is newer than what is installed. Install scripts never run (esbuild
# finds its platform binary through its optional dependency).
for dir in testdata/clients/node testdata/clients/inspector testdata/clients/claude-code testdata/clients/codex testdata/clients/gemini testdata/clients/opencode testdata/clients/copilot vscode-client; do
  if [ ! -f "$dir/node_modules/.package-lock.json" ] ||
     [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
    echo "deps: npm ci in $dir" >&2
    (cd "$dir" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error)
  fi
done
