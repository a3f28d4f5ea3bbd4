#!/usr/bin/env bash
# Builds and runs the libFuzzer targets: the NDEF codec's, the tag protocols', the daemon's inputs
# and the simulators'.
#
# Usage: Tests/Fuzz/run.sh [BUDGET] [TARGET...]
#   BUDGET   seconds of fuzzing in all, shared out among the targets, which run JOBS at a time
#            (default 240; make fuzz gives 180); every target gets at least 10 s, after replaying every seed of its corpus
#   TARGET   message, tlv, cc (NDEF codec), tagread (the tag protocols' reads, and each driver's status, write and make-read-only), passthrough (what a
#            PC/SC reader's pass-through answers), options, config, rfkill, spool (daemon), desktop
#            (desktop entries and Exec lines), dumps (nfcsim's dump files), pn532frame, vpcdmessage
#            (what the simulators' hosts send), cgroup, flatpakinfo (what a D-Bus caller's process
#            says of it: /proc/PID/cgroup, /.flatpak-info), sheetwire (the lines nfcscand and its
#            sheet's program exchange), webnfc (what nfcscan's web host reads from the browser, and
#            makes of an object's message for a page), crypto (what LibCrypto hands OpenSSL from an
#            object: originality signatures, AES input, certificates and chains), securelink (NTAG
#            424 DNA secure links, the keys file and the counter file), sigcheck (Signature records
#            checked over a message) (default: all of them)
# Environment: SWIFTC (default: swiftc on PATH, else /opt/swift/usr/bin/swiftc), SWIFT (default:
#   the swift beside SWIFTC), FUZZ_JOBS (targets run at a time; default: the number of processors),
#   FUZZ_ARGS (extra libFuzzer arguments, e.g. "-dict=...").
#
# Each target is Tests/Fuzz/targets/<target>.swift plus Tests/Fuzz/support/*.swift, linked with the
# objects of the modules it imports (and what they import). Those come from one SwiftPM build, in
# release mode with -enable-testing (the daemon targets reach its internal decoders with
# @testable import NFCDaemon; the codec's targets import NDEF alone and see only its public API) in
# a scratch path of its own (.build/fuzz/spm; a first build takes minutes, later ones only rebuild
# what changed). Everything is compiled with -sanitize=fuzzer,address: the libFuzzer and ASan
# runtimes come with the Swift toolchain (lib/clang/*/lib/linux); nothing more is needed than
# `swift build` needs (the C libraries' headers, pkg-config). Builds go to .build/fuzz/. Each run
# starts from a scratch copy of the committed seed corpus (Tests/Fuzz/corpus/<target>, regenerated
# by make_seeds.py), so the committed corpus never grows; the grown corpus is left in
# .build/fuzz/work/<target> for inspection. Crash, leak, timeout and OOM inputs are written to
# Tests/Fuzz/artifacts/<target>/.
#
# Prints one line per target as it ends; exits 1 if any target found a crash, leak, timeout or OOM
# (or failed to run, or did not replay its whole corpus), 2 on a usage or build error. Reproduce a
# finding with
#   .build/fuzz/<target> Tests/Fuzz/artifacts/<target>/crash-...
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
all_targets=(message tlv cc tagread passthrough options config rfkill spool desktop dumps pn532frame vpcdmessage cgroup flatpakinfo sheetwire webnfc crypto securelink sigcheck)
# The modules each target links (its imports and everything below them, as in Package.swift).
modules_of() {
  case "$1" in
    message|tlv|cc) echo NDEF ;;
    tagread|passthrough) echo NDEF NFCTags ;;
    sigcheck) echo NDEF NFCTags Authenticity ;;
    desktop) echo NDEF DesktopEntries ;;
    cgroup|flatpakinfo) echo NDEF DesktopEntries AppIdentity ;;
    sheetwire) echo NDEF ScanSheet ;;
    webnfc) echo NDEF NDEFReport DesktopEntries AppIdentity WebNFC ;;
    crypto) echo NDEF NFCTags Authenticity LibCrypto ;;
    securelink) echo NDEF NFCTags Authenticity ;;
    *) echo all ;;   # the daemon's and the simulators': everything built
  esac
}

budget="${1:-240}"
[[ $# -gt 0 ]] && shift
if ! [[ "$budget" =~ ^[0-9]+$ ]] || [[ "$budget" -lt 1 ]]; then
  echo "run.sh: BUDGET must be a positive number of seconds, not '$budget'" >&2
  exit 2
fi
jobs="${FUZZ_JOBS:-$(nproc)}"
if ! [[ "$jobs" =~ ^[0-9]+$ ]] || [[ "$jobs" -lt 1 ]]; then
  echo "run.sh: FUZZ_JOBS must be a positive number, not '$jobs'" >&2
  exit 2
fi
targets=("$@")
[[ ${#targets[@]} -eq 0 ]] && targets=("${all_targets[@]}")
for t in "${targets[@]}"; do
  if [[ ! -f "$here/targets/$t.swift" ]]; then
    echo "run.sh: unknown target '$t' (known: ${all_targets[*]})" >&2
    exit 2
  fi
done
# Each target's share: BUDGET seconds of JOBS lanes, split evenly.
seconds=$(( (budget * jobs + ${#targets[@]} - 1) / ${#targets[@]} ))
[[ "$seconds" -ge 10 ]] || seconds=10

swiftc="${SWIFTC:-$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)}"
if [[ ! -x "$swiftc" ]]; then
  echo "run.sh: no swiftc (set SWIFTC or put the Swift toolchain on PATH)" >&2
  exit 2
fi
swift="${SWIFT:-$(dirname "$swiftc")/swift}"
demangle="$(dirname "$swiftc")/swift-demangle"
[[ -x "$demangle" ]] || demangle=cat

build="$root/.build/fuzz"
artifacts="$here/artifacts"
mkdir -p "$build" "$build/work" "$artifacts"
flags=(-sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6)

# Only the ld.gold notes about ASan's local symbols are noise; show everything else.
quiet() { grep -v "ld.gold: warning: Cannot export local symbol" || true; }

# "true" when $1 is missing or older than any of the remaining files.
stale() {
  local out="$1"; shift
  [[ -f "$out" ]] || { echo true; return; }
  for f in "$@"; do [[ "$f" -nt "$out" ]] && { echo true; return; }; done
  echo false
}
mapfile -t support_sources < <(find "$here/support" -name '*.swift' | LC_ALL=C sort)

cd "$root"
# One SwiftPM build for every target: NFCDaemon's closure holds the codec, the tag protocols and
# desktop entries; NFCSim and WebNFC add only themselves. One -sanitize flag: with two (what
# `swift build --sanitize=fuzzer --sanitize=address` passes) the last one wins, and the code would
# have no coverage instrumentation to guide the fuzzer.
spm="$build/spm"
echo "fuzz: building NFCDaemon, NFCSim and their dependencies (SwiftPM, release, -enable-testing)"
for module in NFCDaemon NFCSim WebNFC; do
  if ! "$swift" build --package-path "$root" --scratch-path "$spm" -c release -Xswiftc -sanitize=fuzzer,address \
      -Xswiftc -enable-testing --target "$module" >"$build/spm.log" 2>&1; then
    grep -v '^\[[0-9]*/[0-9]*\] ' "$build/spm.log" | quiet | tail -n 40 >&2
    echo "run.sh: building $module for the fuzzers failed (log: ${build#"$root"/}/spm.log)" >&2
    exit 2
  fi
done
# Where the C modules are found, as SwiftPM finds them: the module maps under CNFC/, the C modules
# of the packages depended on (swift-system's CSystem), the pkg-config flags Package.swift names.
c_modules=(-I "$spm/release/Modules")
while IFS= read -r map; do c_modules+=(-I "$(dirname "$map")"); done < <(find "$root/CNFC" -name module.modulemap | LC_ALL=C sort)
while IFS= read -r map; do
  c_modules+=(-Xcc "-fmodule-map-file=$map" -Xcc -I -Xcc "$(dirname "$map")")
done < <(find "$spm/checkouts" -path '*/Sources/*' ! -path '*/Benchmarks/*' -name module.modulemap | LC_ALL=C sort)
mapfile -t pkgs < <(sed -n 's/.*pkgConfig: *"\([^"]*\)".*/\1/p' "$root/Package.swift")
for flag in $(pkg-config --cflags "${pkgs[@]}"); do c_modules+=(-Xcc "$flag"); done
objects_of() { # MODULE...: the objects SwiftPM built for them (all: every module's)
  local module dir source
  if [[ "$1" == all ]]; then
    set --
    for dir in "$spm/release/"*.build; do set -- "$@" "$(basename "$dir" .build)"; done
  fi
  for module in "$@"; do
    dir="$spm/release/$module.build"
    # A Swift module's objects are those of its sources now (SwiftPM's output file map): a file
    # moved or removed since an earlier build leaves its object behind, which must not be linked.
    if [[ -f "$dir/output-file-map.json" ]]; then
      python3 -c 'import json, os, sys
for source, outputs in json.load(open(sys.argv[1])).items():
    if source and os.path.exists(outputs.get("object", "")): print(outputs["object"])' "$dir/output-file-map.json"
    else
      find "$dir" -name '*.o'
    fi
  done | LC_ALL=C sort
}

for t in "${targets[@]}"; do
  # shellcheck disable=SC2046  # one module name per word
  mapfile -t objects < <(objects_of $(modules_of "$t"))
  if [[ "$(stale "$build/$t" "${objects[@]}" "$here/targets/$t.swift" "${support_sources[@]}")" == true ]]; then
    echo "fuzz: building target $t"
    if ! "$swiftc" "${flags[@]}" -module-name "fuzz_$t" \
        "$here/targets/$t.swift" "${support_sources[@]}" "${c_modules[@]}" "${objects[@]}" -o "$build/$t" 2>&1 | quiet; then
      rm -f "$build/$t"
      echo "run.sh: building target $t failed" >&2
      exit 2
    fi
    touch "$build/$t"
  fi
done

# The Swift runtime's backtracer would attach to a crashing target and can hang under libFuzzer
# and ASan; libFuzzer prints the stack itself.
export SWIFT_BACKTRACE=enable=no

# One target: its seeds replayed, then fuzzed for its share; its report printed whole when it ends
# (lanes run side by side). Exit 1 on a finding, a failure to run, or a corpus not replayed.
run_target() { # TARGET
  local t=$1 work log seeds before started rc elapsed runs rate cov corpus after summary what="" artifact report passed=false
  work="$build/work/$t"
  log="$build/$t.log"
  rm -rf "$work"
  mkdir -p "$work" "$artifacts/$t"
  if [[ -d "$here/corpus/$t" ]]; then cp -R "$here/corpus/$t/." "$work/"; fi
  seeds=$(find "$work" -type f | wc -l)
  before=$(find "$artifacts/$t" -type f | wc -l)

  started=$SECONDS
  report="$build/$t.report"
  set +e
  # shellcheck disable=SC2086
  "$build/$t" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$artifacts/$t/" ${FUZZ_ARGS:-} "$work" >"$log" 2>&1
  rc=$?
  set -e
  elapsed=$((SECONDS - started))

  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1 || true)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1 || true)
  cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -n 1 | awk '{print $2 " edges, " $4 " features"}' || true)
  corpus=$(find "$work" -type f | wc -l)
  after=$(find "$artifacts/$t" -type f | wc -l)
  if [[ -n "$runs" && ( -z "$rate" || "$rate" == 0 ) && $elapsed -gt 0 ]]; then rate=$((runs / elapsed)); fi
  summary="${runs:-?} execs in $elapsed s (${rate:-?}/s), coverage ${cov:-?}, corpus $seeds -> $corpus"

  {
  # libFuzzer runs every input of the corpus before it says INITED.
  if [[ $rc -eq 0 && $after -eq $before ]] && grep -q '^#[0-9]*[[:space:]]*INITED' "$log"; then
    echo "fuzz $t: ok: $summary"
    passed=true
  else
    [[ $rc -ne 0 || $after -ne $before ]] || what="the seed corpus was not replayed"
    [[ -n "$what" ]] || what=$(grep -m 1 -oE 'ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer): [a-zA-Z0-9 -]+|Fatal error: .*|fuzz property violated: .{0,160}' "$log" | sed -E 's/^(.{300}).+$/\1.../' || true)
    artifact=$(grep -o 'Test unit written to .*' "$log" | tail -n 1 | sed 's/Test unit written to //' || true)
    echo "fuzz $t: FAILED (exit $rc): ${what:-see $log}; $summary"
    if [[ -n "$artifact" && -f "$artifact" ]]; then
      echo "  reproducer: ${artifact#"$root"/} (hex $(od -An -v -tx1 "$artifact" | tr -d ' \n' | cut -c1-200))"
      echo "  rerun: .build/fuzz/$t ${artifact#"$root"/}"
    fi
    echo "  log: ${log#"$root"/}; stack:"
    grep -E '^ *#[0-9]+ ' "$log" | grep -vE 'libFuzzer|compiler-rt/lib/fuzzer|__sanitizer|libc\.so|__libc_start| in _start ' | head -n 25 \
      | "$demangle" | sed 's/^/    /' || true
  fi
  } >"$report"
  cat "$report"
  $passed
}

echo "fuzz: ${#targets[@]} targets, $jobs at a time, ${seconds} s each after their seeds (a budget of $budget s)"
failed=0 running=0
for t in "${targets[@]}"; do
  if [[ $running -ge $jobs ]]; then
    wait -n || failed=1
    running=$((running - 1))
  fi
  run_target "$t" &
  running=$((running + 1))
done
while [[ $running -gt 0 ]]; do
  wait -n || failed=1
  running=$((running - 1))
done
exit "$failed"
