#!/bin/sh
# Starts the server of an install made by install.sh. Configuration comes from the environment (ALERTFORM_HOST,
# ALERTFORM_PORT, ALERTFORM_DB, ALERTFORM_LOG_LEVEL, ALERTFORM_GRAPHITE_URL, ... see docs/server.md); extra
# arguments go to `alertform serve`. exec: the server is the process that gets SIGTERM and stops cleanly.
set -eu
prefix=${ALERTFORM_PREFIX:-$(cd "$(dirname "$0")" && pwd)}
exec "$prefix/node_modules/.bin/alertform" serve "$@"
