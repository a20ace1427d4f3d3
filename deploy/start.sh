#!/bin/sh
# Starts the server of an install made by install.sh. Settings come from the file ALERTFORM_CONFIG names (the
# systemd unit and the image name one; alertform-server.yaml here is the template) and from the environment
# (ALERTFORM_HOST, ALERTFORM_DB, ALERTFORM_GRAPHITE_URL, ... each overriding its key; see docs/server.md); extra
# arguments go to `alertform serve`. exec: the server is the process that gets SIGTERM and stops cleanly.
set -eu
prefix=${ALERTFORM_PREFIX:-$(cd "$(dirname "$0")" && pwd)}
exec "$prefix/node_modules/.bin/alertform" serve "$@"
