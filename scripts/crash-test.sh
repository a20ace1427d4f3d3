#!/usr/bin/env bash
# kill -9 of `alertform serve` under concurrent writes, N times in a row (default 10), each followed by a restart:
# every write answered 2xx must be there and PRAGMA integrity_check must say ok after every crash.
# The test suite runs the same test with 2 crashes; this is the longer run: scripts/crash-test.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
CRASH_RUNS="${1:-10}" exec npx vitest run test/reliability/crash.test.ts
