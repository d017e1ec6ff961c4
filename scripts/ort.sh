#!/usr/bin/env bash
# Puts ONNX Runtime's shared library where wayfind looks for it:
# third_party/onnxruntime/libonnxruntime.so.1 (git-ignored). There is no
# Debian package; the npm package onnxruntime-node carries the library, so
# it is fetched from the npm registry with `npm pack` (its install scripts
# never run) and only that one file is extracted. The extracted library is
# kept in the user cache, so later runs (and fresh clones) copy it.
# onnxruntime_go v1.27.0 needs ORT >= 1.24 (C API 24).
set -euo pipefail
cd "$(dirname "$0")/.."

version=1.24.3
dest=third_party/onnxruntime/libonnxruntime.so.1
cache="${XDG_CACHE_HOME:-$HOME/.cache}/wayfind-build/onnxruntime-$version/libonnxruntime.so.1"

case "$(uname -s)/$(uname -m)" in
  Linux/x86_64) member=package/bin/napi-v6/linux/x64/libonnxruntime.so.1 ;;
  Linux/aarch64) member=package/bin/napi-v6/linux/arm64/libonnxruntime.so.1 ;;
  *) echo "ort: no onnxruntime-node library for $(uname -s)/$(uname -m)" >&2; exit 1 ;;
esac

if [ -f "$dest" ] && [ -f "$dest.version" ] && [ "$(cat "$dest.version")" = "$version" ]; then
  exit 0
fi
if [ ! -f "$cache" ]; then
  command -v npm >/dev/null || { echo "ort: npm is needed (make deps installs it)" >&2; exit 1; }
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  echo "ort: fetching onnxruntime-node@$version from the npm registry" >&2
  (cd "$tmp" && npm pack "onnxruntime-node@$version" --silent --loglevel=error >/dev/null)
  mkdir -p "$(dirname "$cache")"
  tar -xzf "$tmp/onnxruntime-node-$version.tgz" -C "$tmp" "$member"
  mv "$tmp/$member" "$cache.part" && mv "$cache.part" "$cache"
fi
mkdir -p "$(dirname "$dest")"
cp "$cache" "$dest.part" && mv "$dest.part" "$dest"
echo "$version" > "$dest.version"
echo "ort: $dest (ONNX Runtime $version)" >&2
