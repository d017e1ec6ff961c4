#!/usr/bin/env bash
# The VS Code extension in a real VS Code (issue 27): installs what the
# test needs, idempotently and from apt and npm only, then runs
# vscode-client/e2e/vscode.e2e.mjs against bin/wayfind and the packaged
# extension.
#
# What code-server (npm, pinned in vscode-client/e2e/package.json) needs
# on a fresh Debian machine:
#   - libkrb5-dev (apt): VS Code's kerberos module is built at install;
#   - install scripts allowed: its postinstall installs VS Code's own
#     modules and builds node-pty, spdlog and others with node-gyp
#     (npm_config_unsafe_perm as root, npm_config_yes for `npx node-gyp`);
#   - @vscode/ripgrep's postinstall downloads rg from GitHub, which this
#     network does not reach; it looks first in
#     $TMPDIR/vscode-ripgrep-cache-<version>/ripgrep-<tag>-<target>.tar.gz,
#     so a tarball of Debian's rg (apt ripgrep) placed there serves;
#   - chromium (apt), which playwright-core drives; no browser download.
set -euo pipefail
cd "$(dirname "$0")/.."
E2E=vscode-client/e2e

need=()
dpkg -s libkrb5-dev >/dev/null 2>&1 || need+=(libkrb5-dev)
command -v chromium >/dev/null || need+=(chromium)
command -v rg >/dev/null || need+=(ripgrep)
command -v g++ >/dev/null || need+=(g++)
command -v make >/dev/null || need+=(make)
command -v python3 >/dev/null || need+=(python3)
./scripts/apt-install.sh vscode-e2e ${need[@]+"${need[@]}"}

# code-server and playwright-core, pinned by the lock file; installed again
# only when the lock file is newer than what is installed, or when the
# install did not finish (the marker is written last).
done_marker="$E2E/node_modules/.wayfind-e2e-installed"
if [ ! -f "$done_marker" ] || [ "$E2E/package-lock.json" -nt "$done_marker" ]; then
  echo "vscode-e2e: installing code-server (a few minutes the first time)" >&2
  started=$(date +%s)
  (cd "$E2E" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error)
  work=$(mktemp -d)
  mkdir -p "$work/tmp"
  # VS Code 1.99's @vscode/ripgrep downloads rg at install: serve it the
  # tarball it looks for — its version from VS Code's lock file, the
  # release tag from the package's own postinstall. (Later VS Codes ship
  # @vscode/ripgrep-universal, binaries included: nothing to do.)
  rgver=$(node -p "(require('./$E2E/node_modules/code-server/lib/vscode/npm-shrinkwrap.json').packages['node_modules/@vscode/ripgrep'] || {}).version || ''")
  if [ -n "$rgver" ]; then
    (cd "$work" && npm pack --silent "@vscode/ripgrep@$rgver" >/dev/null && tar xzf vscode-ripgrep-*.tgz)
    tag=$(sed -n "s/^const VERSION = '\(.*\)';/\1/p" "$work/package/lib/postinstall.js")
    case "$(uname -m)" in
      x86_64) target=x86_64-unknown-linux-musl ;;
      aarch64) target=aarch64-unknown-linux-musl ;;
      *) echo "vscode-e2e: no ripgrep target for $(uname -m)" >&2; exit 1 ;;
    esac
    [ -n "$tag" ] || { echo "vscode-e2e: no release tag in @vscode/ripgrep@$rgver's postinstall" >&2; exit 1; }
    mkdir -p "$work/tmp/vscode-ripgrep-cache-$rgver" "$work/rg"
    cp "$(command -v rg)" "$work/rg/rg"
    tar czf "$work/tmp/vscode-ripgrep-cache-$rgver/ripgrep-$tag-$target.tar.gz" -C "$work/rg" rg
  fi
  (cd "$E2E" && TMPDIR="$work/tmp" npm_config_unsafe_perm=true npm_config_yes=true \
    npm rebuild --no-audit --no-fund --loglevel=error code-server argon2 >"$work/rebuild.log" 2>&1) || {
    tail -40 "$work/rebuild.log" >&2
    echo "vscode-e2e: code-server's install failed (log above)" >&2
    exit 1
  }
  [ -d "$E2E/node_modules/code-server/lib/vscode/node_modules" ] || {
    tail -40 "$work/rebuild.log" >&2
    echo "vscode-e2e: VS Code's modules were not installed" >&2
    exit 1
  }
  rm -rf "$work"
  touch "$done_marker"
  echo "vscode-e2e: code-server installed in $(( $(date +%s) - started )) s" >&2
fi

make --no-print-directory build
(cd vscode-client && npm run package --silent >/dev/null)
exec node "$E2E/vscode.e2e.mjs" --server bin/wayfind --vsix vscode-client/dist/wayfind.vsix "$@"
