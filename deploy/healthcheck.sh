#!/bin/sh
# Exits 0 when the local server is ready (GET /readyz answers 200), 1 otherwise: the container's HEALTHCHECK.
# The address is the one the server listens on, merged from the same settings it starts with (the file
# ALERTFORM_CONFIG names, then the ALERTFORM_* variables): `alertform serve --print-config` says it, and a host of
# 0.0.0.0 or :: is reached on loopback.
set -eu
prefix=${ALERTFORM_PREFIX:-$(cd "$(dirname "$0")" && pwd)}
settings=$("$prefix/node_modules/.bin/alertform" serve --print-config 2>/dev/null) || exit 1
exec node -e '
const value = (key) => new RegExp(`^${key}: "?([^"\\s]*)`, "m").exec(process.argv[1])?.[1] ?? "";
const port = Number(value("port"));
const host = { "": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1" }[value("host")] ?? value("host");
const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}/readyz`;
fetch(url, { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1));
' "$settings"
