#!/usr/bin/env bash
# Runs a command and prints the CPU the whole machine spent meanwhile, from /proc/stat: the figure to compare two
# runs of the test suite by. /usr/bin/time counts only the command's own waited-for processes, and misses the
# daemons a run starts (PostgreSQL's cluster, carbon, graphite-web), about a quarter of the suite's CPU.
# Usage: scripts/machine-cpu.sh npm test      (on a quiet machine: anything else running is counted too)
set -uo pipefail
busy() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9}' /proc/stat; }
ticks=$(getconf CLK_TCK)
before=$(busy); started=$(date +%s.%N)
"$@"; code=$?
after=$(busy); ended=$(date +%s.%N)
awk -v b="$before" -v a="$after" -v t="$ticks" -v s="$started" -v e="$ended" -v c="$(nproc)" 'BEGIN {
  printf "machine CPU: %.0f core-seconds in %.0f s (%d cores, %.0f%% busy)\n", (a - b) / t, e - s, c, 100 * (a - b) / t / (e - s) / c
}' >&2
exit "$code"
