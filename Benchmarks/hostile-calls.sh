#!/usr/bin/env bash
# What a hostile local program costs nfcscand (issue 20), beside another build: runs the e2e
# scenario hostile_calls (Tests/Daemon/scenarios/hostile_calls.sh: four 24 MiB calls at once with
# a Get probe beside them, 24 connections of the largest registrations then ListApps, one
# connection's 17 sessions, ten connections of inhibitors) against each build in turn and prints
# its figures: resident memory, how long each oversized call took to be refused, Get latency
# during them, ListApps' size, and the checks that passed. A figure, not a test: the "before"
# build is expected to fail checks.
#
# Usage: Benchmarks/hostile-calls.sh BEFORE_BUILD_DIR AFTER_BUILD_DIR
#   e.g. git worktree add /tmp/nfcscan-before 4e2f47f && (cd /tmp/nfcscan-before && swift build)
#        Benchmarks/hostile-calls.sh /tmp/nfcscan-before/.build/debug .build/debug
set -uo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 2 ] || { echo "usage: Benchmarks/hostile-calls.sh BEFORE_BUILD_DIR AFTER_BUILD_DIR" >&2; exit 64; }
for build in "$@"; do
  echo "== $build ($(cd "$build/../.." 2>/dev/null && git rev-parse --short HEAD 2>/dev/null || echo '?'))"
  bash Tests/Daemon/daemon-e2e.sh "$build" hostile_calls 2>&1 \
    | grep -E '^daemon-e2e: (resident|oversized|Get during|registrations|sessions|inhibitors|[0-9]+ checks)|^  FAIL' \
    | sed -e 's/^daemon-e2e: /  /'
done
