#!/usr/bin/env bash
# Runs the unit and property tests (built already: swift build --build-tests) in three lanes side
# by side, each lane one test process running its suites one at a time. Most suites drive a PN532
# emulator through libnfc, a private pcscd or a private bus, whose own timeouts (300-1000 ms) a
# 2-core machine running dozens of them at once can miss, and a few measure CPU time or rates; one
# at a time per lane, three lanes, keeps them inside their margins (most of their time is waiting,
# not CPU) and cuts the wall time to about a third. No re-run: a failure fails the run.
#
# Usage: scripts/unit-tests.sh [BIN_PATH]   (default: swift build --show-bin-path)
set -euo pipefail
cd "$(dirname "$0")/.."

bin=${1:-$(swift build --show-bin-path)}
tests="$bin/nfcscanPackageTests.xctest"
[ -x "$tests" ] || { echo "unit-tests: build the tests first: swift build --build-tests ($tests)" >&2; exit 66; }
# The lanes, balanced by measured time (a serial run's suite times): each but the last runs the
# test targets its pattern names; the last runs everything the others do not.
lanes=(
  '^(PCSCReadersTests|SystemdTests|NFCTagsTests|NDEFTests)\.'
  '^(NFCScanCLITests|NFCDispatchTests)\.'
)
logs=$(mktemp -d /tmp/nfcscan-unit.XXXXXX)

pids=() names=()
others=$(IFS='|'; echo "${lanes[*]}")
for i in "${!lanes[@]}"; do
  "$tests" --testing-library swift-testing --no-parallel --filter "${lanes[$i]}" >"$logs/lane$i.log" 2>&1 &
  pids+=($!) names+=("lane$i")
done
"$tests" --testing-library swift-testing --no-parallel --skip "$others" >"$logs/rest.log" 2>&1 &
pids+=($!) names+=(rest)
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
for lane in "${names[@]}"; do
  if [ "$status" -ne 0 ]; then
    echo "---- unit tests, $lane (failures and the summary)"
    grep -E '✘|recorded an issue|Test run with' "$logs/$lane.log" || tail -n 40 "$logs/$lane.log"
  else
    echo "unit tests, $lane: $(grep -E 'Test run with' "$logs/$lane.log" | tail -n 1)"
  fi
done
if [ "$status" -ne 0 ]; then echo "unit-tests: failed; whole logs in $logs" >&2; else rm -rf "$logs"; fi
exit "$status"
