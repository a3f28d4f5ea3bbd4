#!/usr/bin/env bash
# Round trips and wall time to read an NTAG216 full of NDEF (an 868-byte message: the whole data
# area) over each backend, beside the minimum possible and beside libnfc's `nfc-mfultralight r`.
# A figure, not a test: see Docs/performance.md (issue 3).
#
# Usage: Benchmarks/read-bench.sh [RUNS] [personalities]   (default 10; release build)
#   (a) libnfc: `nfcsim pn532` (the PN532 emulator on a pseudo-terminal) read RUNS times by
#       `nfcscan --json` and RUNS times by `nfc-mfultralight r`; round trips from the JSON
#       (`object.round_trips`) and, for both tools, the tag commands counted in the emulator's
#       trace (InDataExchange + InCommunicateThru frames).
#   (b) PC/SC: a private pcscd (scripts/private-pcscd.sh) with `nfcsim vpcd`; read by
#       `nfcscan --json` when nfcscan has the PC/SC backend, else by pcsc-readers-probe (the same
#       PCSCReader and Type 2 code, without the CLI); APDUs counted in the vpcd trace.
#   (c) PC/SC per reader personality (`nfcsim vpcd --reader storage-card|acr122u|part3`): a full
#       NTAG216, a 2 KB Type 4 NDEF file and a full MIFARE Classic 1K, read by pcsc-readers-probe
#       (round trips, APDUs, the read's time, and the time a person must hold the object still on
#       a real reader from a stated per-exchange cost); (d) the Type 4 and Classic objects over
#       libnfc. `personalities` runs only (c) and (d).
# Wall time is the whole process: start, reader open (libnfc sleeps 50 ms on every open), finding
# the object, the read, the output. Needs libnfc-bin, pcscd and the vpcd driver unpacked in
# .deps/vpcd (scripts/install-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}

for product in nfcscan nfcsim pcsc-readers-probe; do
  if ! log=$(swift build -c release --product "$product" 2>&1); then echo "$log" >&2; exit 1; fi
done
exec python3 Benchmarks/read_bench.py .build/release "$runs" "${@:2}"
