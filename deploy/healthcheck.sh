#!/bin/sh
# Exits 0 when the local server is ready (GET /readyz answers 200), 1 otherwise: the container's HEALTHCHECK.
set -eu
exec node -e '
const url = `http://127.0.0.1:${process.env.ALERTFORM_PORT || 8080}/readyz`;
fetch(url, { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1));
'
