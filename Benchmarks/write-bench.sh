#!/usr/bin/env bash
# Commands and wall time to write a full NTAG216 (an 868-byte message filling the data area) over
# each backend, beside libnfc's `nfc-mfultralight w` writing the same message over the same
# emulated PN532, and a one-character change (only the pages that differ are written). Every
# write is read back by a separate `nfcscan --json`. A figure, not a test: see Docs/performance.md
# (issue 14).
#
# Usage: Benchmarks/write-bench.sh [RUNS]   (default 10; release build)
# Needs libnfc-bin, pcscd and the vpcd driver unpacked in .deps/vpcd (scripts/install-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}
for product in nfcscan nfcsim; do
  if ! log=$(swift build -c release --product "$product" 2>&1); then echo "$log" >&2; exit 1; fi
done
exec python3 Benchmarks/write_bench.py .build/release "$runs"
