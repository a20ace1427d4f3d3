#!/usr/bin/env bash
# Runs a command on a given Node major, with that Node first on PATH: a binary from the npm registry (the package
# node-<os>-<arch>, the one `npx node@24` uses), kept in ~/.cache/alertform/node-<major>. What .ci/run does, and
# how a developer tries another supported line without a version manager:
#   scripts/use-node.sh 24 npm ci                 # install (and build) under Node 24
#   scripts/use-node.sh 22 npm run test:unit      # the unit tests on Node 22
#   eval "$(scripts/use-node.sh 24)"              # this shell: Node 24 first on PATH
# better-sqlite3's binaries are Node-API ones, so one `npm ci` serves every Node line: nothing is rebuilt.
set -euo pipefail
major=${1:?usage: scripts/use-node.sh MAJOR [COMMAND [ARGS...]]}
shift
case "$(uname -s)" in Linux) os=linux ;; Darwin) os=darwin ;; *) echo "use-node.sh: no Node package for $(uname -s)" >&2; exit 1 ;; esac
case "$(uname -m)" in x86_64 | amd64) arch=x64 ;; aarch64 | arm64) arch=arm64 ;; *) echo "use-node.sh: no Node package for $(uname -m)" >&2; exit 1 ;; esac
package="node-$os-$arch"
dir="${XDG_CACHE_HOME:-$HOME/.cache}/alertform/node-$major"
bin="$dir/node_modules/$package/bin"
if [ ! -x "$bin/node" ]; then
  # Into a fresh directory first, then moved into place: an interrupted install leaves nothing half-made behind.
  mkdir -p "$(dirname "$dir")"
  staging=$(mktemp -d "$dir.XXXXXX")
  npm install --prefix "$staging" --no-save --no-package-lock --no-audit --no-fund --loglevel=error "$package@$major" >&2
  rm -rf "$dir" && mv "$staging" "$dir"
fi
if [ $# -eq 0 ]; then
  printf 'export PATH=%q:"$PATH"\n' "$bin"
else
  PATH="$bin:$PATH" exec "$@"
fi
