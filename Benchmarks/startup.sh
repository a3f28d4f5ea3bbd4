#!/usr/bin/env bash
# Start-up time of `nfcscan --version` and `nfcscan readers`, the static build (what `make deb`
# packages: --static-swift-stdlib, stripped) beside the dynamic one (`make release`, what
# `make install` installs: the Swift runtime loaded from the toolchain), in one run: the two
# builds alternate, run by run, so both see the same machine. Plus the sizes. A figure, not a
# test: see Docs/performance.md ("Package size and start-up time").
#
# Usage: Benchmarks/startup.sh [RUNS]   (default 200 runs of each command per build)
#   BASELINE=PATH  a third build beside them, e.g. an earlier package's nfcscan
#                  (dpkg-deb -x OLD.deb DIR; BASELINE=DIR/usr/bin/nfcscan)
# Needs both builds: `make release` and `make deb` (its staged, stripped binaries in
# .build-static/deb/root). `nfcscan readers` runs as it would for the person at the machine
# (libnfc's default scan, pcscd if it runs); its exit status (69 when there is no reader) is
# not an error here.
# Prints one Markdown table row per command and build: median, 10th and 90th percentile, in ms.
# Exit status: 0 done; 66 a build is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-200}
static=.build-static/deb/root/usr/bin/nfcscan
dynamic=.build/release/nfcscan
[ -x "$static" ] || { echo "startup: $static is missing: run make deb" >&2; exit 66; }
[ -x "$dynamic" ] || { echo "startup: $dynamic is missing: run make release" >&2; exit 66; }
builds=(static dynamic)
baseline=${BASELINE:-}
if [ -n "$baseline" ]; then
  [ -x "$baseline" ] || { echo "startup: BASELINE $baseline is not a program" >&2; exit 66; }
  builds+=(baseline)
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

# Wall time of one run in microseconds.
time_one() {
  local start end
  start=$EPOCHREALTIME
  "$@" >/dev/null 2>&1 || true
  end=$EPOCHREALTIME
  echo $(( (${end/./} - ${start/./}) ))
}

commands=("--version" "readers")
for c in "${commands[@]}"; do
  for b in "${builds[@]}"; do "${!b}" $c >/dev/null 2>&1 || true; done   # warm the page cache
done
load_start=$(cut -d' ' -f1 /proc/loadavg)
echo "startup: $runs runs of each, the builds alternating ..." >&2
for ((i = 1; i <= runs; i++)); do
  for c in "${commands[@]}"; do
    for b in "${builds[@]}"; do
      time_one "${!b}" $c >>"$work/$b-${c#--}"
    done
  done
  ((i % 50 == 0)) && echo "startup: $i/$runs" >&2
done
load_end=$(cut -d' ' -f1 /proc/loadavg)

stats() {   # median p10 p90 in ms of the microsecond values in $1
  sort -n "$1" | awk '{ v[NR] = $1 } END {
    printf "%.1f | %.1f | %.1f", v[int((NR + 1) / 2)] / 1000, v[int(NR * 0.1) + 1] / 1000, v[int(NR * 0.9)] / 1000 }'
}
commit=$(git rev-parse --short HEAD)
echo "| date | commit | command | build | median ms | p10 ms | p90 ms | load (start → end) |"
echo "|---|---|---|---|---|---|---|---|"
for c in "${commands[@]}"; do
  for b in "${builds[@]}"; do
    echo "| $(date '+%Y-%m-%d %H:%M') | \`$commit\` | \`nfcscan $c\` | $b | $(stats "$work/$b-${c#--}") | $load_start → $load_end |"
  done
done
echo
echo "Sizes (bytes):"
for f in .build-static/deb/root/usr/bin/{nfcscan,nfcscand,nfcsim}; do
  if [ -L "$f" ]; then echo "  static, stripped   a link to $(readlink "$f")  ${f##*/}"; else echo "  static, stripped   $(stat -c %s "$f")  ${f##*/}"; fi
done
[ -z "$baseline" ] || for f in "$(dirname "$baseline")"/{nfcscan,nfcscand,nfcsim}; do [ -f "$f" ] && echo "  baseline           $(stat -L -c %s "$f")  ${f##*/}"; done
for f in .build/release/{nfcscan,nfcscand,nfcsim}; do echo "  dynamic            $(stat -c %s "$f")  ${f##*/}"; done
rt=$(ldd "$dynamic" | sed -n 's|.*libswiftCore\.so => \(.*\)/libswiftCore\.so.*|\1|p')
if [ -n "$rt" ]; then
  echo "  the runtime the dynamic build loads from $rt: $(ldd "$dynamic" | awk -v d="$rt" 'index($3, d) == 1 { print $3 }' | xargs stat -L -c %s | awk '{ s += $1 } END { print s }') bytes"
fi
for deb in nfcscan_*.deb; do [ -f "$deb" ] && echo "  $deb: $(stat -c %s "$deb") bytes, Installed-Size $(dpkg-deb -f "$deb" Installed-Size) KiB"; done
