#!/usr/bin/env bash
# Runs the unit and property tests (built already: swift build --build-tests) in two lanes side by
# side, each lane one test process running its suites one at a time. Most suites drive a PN532
# emulator through libnfc, a private pcscd or a private bus, whose own timeouts (300-1000 ms) a
# 2-core machine running dozens of them at once can miss, and a few measure CPU time or rates; one
# at a time per lane, two lanes, keeps them inside their margins and halves the wall time. The
# lanes are balanced by measured time (Docs/performance.md). No re-run: a failure fails the run.
#
# Usage: scripts/unit-tests.sh [BIN_PATH]   (default: swift build --show-bin-path)
set -euo pipefail
cd "$(dirname "$0")/.."

bin=${1:-$(swift build --show-bin-path)}
tests="$bin/nfcscanPackageTests.xctest"
[ -x "$tests" ] || { echo "unit-tests: build the tests first: swift build --build-tests ($tests)" >&2; exit 66; }
# The first lane: the PC/SC and broker suites and the pure ones; the second: everything else.
first='^(PCSCReadersTests|NFCSimVPCDTests|MosquittoTests|SystemdTests|NFCTagsTests|NDEFTests|NFCDispatchTests)\.'
logs=$(mktemp -d /tmp/nfcscan-unit.XXXXXX)

"$tests" --testing-library swift-testing --no-parallel --filter "$first" >"$logs/first.log" 2>&1 &
one=$!
"$tests" --testing-library swift-testing --no-parallel --skip "$first" >"$logs/second.log" 2>&1 &
two=$!
status=0
wait "$one" || status=1
wait "$two" || status=1
for lane in first second; do
  if [ "$status" -ne 0 ]; then
    echo "---- unit tests, $lane lane (failures and the summary)"
    grep -E '✘|recorded an issue|Test run with' "$logs/$lane.log" || tail -n 40 "$logs/$lane.log"
  else
    echo "unit tests, $lane lane: $(grep -E 'Test run with' "$logs/$lane.log" | tail -n 1)"
  fi
done
if [ "$status" -ne 0 ]; then echo "unit-tests: failed; whole logs in $logs" >&2; else rm -rf "$logs"; fi
exit "$status"
