#!/usr/bin/env bash
# Differential test of `nfcscan decode` against the Python decoder ndeflib.
# Usage: Tests/Oracle/run.sh [NFCSCAN]   (default: .build/debug/nfcscan)
# Environment: PYTHON (default python3, must have ndeflib), ORACLE_SEED,
# ORACLE_COUNT, ORACLE_JOBS, ORACLE_ARGS (extra compare.py arguments).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
python="${PYTHON:-python3}"
seed="${ORACLE_SEED:-20240607}"
count="${ORACLE_COUNT:-2000}"
jobs="${ORACLE_JOBS:-2}"

if [[ $# -ge 1 ]]; then
  bin="$1"
else
  bin="$root/.build/debug/nfcscan"
fi
case "$bin" in
  */*) bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")" ;;
esac
if [[ ! -x "$bin" ]] && ! command -v "$bin" >/dev/null 2>&1; then
  echo "run.sh: no executable nfcscan at $bin (build it first)" >&2
  exit 2
fi
if ! "$python" -c 'import ndef' 2>/dev/null; then
  echo "run.sh: $python cannot import ndef (pip install ndeflib)" >&2
  exit 2
fi

tmp="$(mktemp -d "${TMPDIR:-/tmp}/nfcscan-oracle.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

"$python" "$here/generate_corpus.py" --seed "$seed" --count "$count" \
  --out "$tmp" --quiet
# shellcheck disable=SC2086
"$python" "$here/compare.py" --corpus "$tmp" --nfcscan "$bin" --jobs "$jobs" \
  ${ORACLE_ARGS:-}
