#!/usr/bin/env bash
# apt-install.sh WHO PACKAGE...: installs Debian packages (as root, or
# through sudo), saying which and for whom; nothing when none are named.
set -euo pipefail
who=$1
shift
[ $# -gt 0 ] || exit 0
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "$who: need root or sudo to install: $*" >&2; exit 1; }
  sudo="sudo"
fi
echo "$who: installing $*" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
