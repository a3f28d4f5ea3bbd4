#!/usr/bin/env bash
# Decode throughput of nfcscan's NDEF codec beside ndeflib on the same corpus, in one run.
# Usage: Benchmarks/run.sh [SECONDS]   (release build; prints both lines and the ratio)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

swift build -c release --product ndef-bench >/dev/null
python3 Benchmarks/make_corpus.py "$work/corpus.bin" 2000 2026

swift_line=$(.build/release/ndef-bench "$work/corpus.bin" "$seconds")
peer_line=$(python3 Benchmarks/ndeflib_bench.py "$work/corpus.bin" "$seconds")
echo "$swift_line"
echo "$peer_line"
python3 - "$swift_line" "$peer_line" <<'PY'
import re, sys
def figures(line):
    mb = float(re.search(r"([\d.]+) MB/s", line).group(1))
    rec = int(re.search(r"(\d+) records/s", line).group(1))
    return mb, rec
(s_mb, s_rec), (p_mb, p_rec) = figures(sys.argv[1]), figures(sys.argv[2])
print(f"ratio: {s_mb / p_mb:.0f}x ndeflib by bytes, {s_rec / p_rec:.0f}x by records "
      f"(targets: >= 200x and >= 500 MB/s; swift {s_mb:.0f} MB/s)")
PY
