#!/usr/bin/env bash
# Runs make targets one after the other as the stages of `make test`, and prints a table of each
# stage's wall time at the end, whether the run passed or stopped at a failing stage (the figure
# Docs/performance.md keeps for CI). Stops at the first failing stage, as make would.
#
# Usage: scripts/stages.sh TARGET...
#   NFCSCAN_STAGE_TIMES=FILE  also write the table to FILE (tab-separated: stage, seconds, result)
set -euo pipefail

make=${MAKE:-make}
names=() seconds=() results=()
status=0
started=$SECONDS
for target in "$@"; do
  begun=$SECONDS
  echo "==== stage $target"
  if "$make" --no-print-directory "$target"; then result=passed; else status=$?; result=FAILED; fi
  names+=("$target") seconds+=($((SECONDS - begun))) results+=("$result")
  [ "$status" -eq 0 ] || break
done

table() {
  local i
  printf '%-18s %8s  %s\n' stage seconds result
  for i in "${!names[@]}"; do
    printf '%-18s %8d  %s\n' "${names[$i]}" "${seconds[$i]}" "${results[$i]}"
  done
  printf '%-18s %8d  %s\n' total $((SECONDS - started)) "$([ "$status" -eq 0 ] && echo passed || echo FAILED)"
}
echo "==== stage times"
table
if [ -n "${NFCSCAN_STAGE_TIMES:-}" ]; then
  for i in "${!names[@]}"; do printf '%s\t%s\t%s\n' "${names[$i]}" "${seconds[$i]}" "${results[$i]}"; done >"$NFCSCAN_STAGE_TIMES"
fi
exit "$status"
