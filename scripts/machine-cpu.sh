#!/usr/bin/env bash
# Runs a command and prints the CPU the whole machine spent meanwhile, from /proc/stat: the figure to compare two
# runs of the test suite by. /usr/bin/time counts only the command's own waited-for processes, and misses the
# daemons a run starts (PostgreSQL's cluster, carbon, graphite-web), about a quarter of the suite's CPU. It also
# counts the machine's page faults: on a virtual machine whose every first touch of a page traps to the hypervisor
# (13 us a page on the paravirtualised kind CONTRIBUTING.md measures) they are a share of that CPU of their own.
# Usage: scripts/machine-cpu.sh npm test      (on a quiet machine: anything else running is counted too)
set -uo pipefail
busy() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9}' /proc/stat; }
faults() { awk '/^pgfault /{print $2}' /proc/vmstat; }
ticks=$(getconf CLK_TCK)
before=$(busy); faulted=$(faults); started=$(date +%s.%N)
"$@"; code=$?
after=$(busy); faulted=$(( $(faults) - faulted )); ended=$(date +%s.%N)
awk -v b="$before" -v a="$after" -v t="$ticks" -v s="$started" -v e="$ended" -v c="$(nproc)" -v f="$faulted" 'BEGIN {
  printf "machine CPU: %.0f core-seconds in %.0f s (%d cores, %.0f%% busy), %.1f million page faults\n", (a - b) / t, e - s, c, 100 * (a - b) / t / (e - s) / c, f / 1e6
}' >&2
exit "$code"
