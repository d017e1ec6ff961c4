#!/usr/bin/env bash
# Installs the tools wayfind's tests and benchmarks call, idempotently:
# git (ignore-rule oracle), fzf (the benchmark's peer), gcc (cgo for -race).
set -euo pipefail

need=()
command -v git >/dev/null || need+=(git)
command -v fzf >/dev/null || need+=(fzf)
command -v gcc >/dev/null || need+=(gcc)
if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "deps: need root or sudo to install: ${need[*]}" >&2; exit 1; }
  sudo="sudo"
fi
echo "deps: installing ${need[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
