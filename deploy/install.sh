#!/bin/sh
# Installs alertform from a packed tarball (npm pack) into PREFIX, with its runtime dependencies only, and puts
# start.sh, healthcheck.sh and the settings template alertform-server.yaml next to it. The Dockerfile RUNs this, the systemd setup runs it, and
# test/integration/deploy/ runs it as a non-root user, so all three install the same way.
#   usage: install.sh TARBALL PREFIX     (npm options through npm_config_*, e.g. npm_config_prefer_offline=true)
set -eu
if [ $# -ne 2 ]; then
  echo "usage: $0 TARBALL PREFIX" >&2
  exit 2
fi
tarball=$1
prefix=$2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$prefix"
npm install --prefix "$prefix" --omit=dev --no-audit --no-fund --no-update-notifier "$tarball"
cp "$here/start.sh" "$here/healthcheck.sh" "$here/alertform-server.yaml" "$prefix/"
chmod 755 "$prefix/start.sh" "$prefix/healthcheck.sh"
# The settings may come to hold secrets (keys, tokens, a database password): only the installing user reads them.
chmod 600 "$prefix/alertform-server.yaml"
# Fails the install (and the image build) when the CLI cannot run, the settings template does not validate, or
# SQLite support did not install.
"$prefix/node_modules/.bin/alertform" --version
"$prefix/node_modules/.bin/alertform" serve --config "$prefix/alertform-server.yaml" --print-config >/dev/null
node -e "require('$prefix/node_modules/better-sqlite3')(':memory:').close()"
