#!/usr/bin/env bash
# Presents every dump in a folder with nfcsim --dump and checks that nfcscan --json reads the
# records ndeflib finds in the same bytes (scripts/dump_records.py): Type 2, MIFARE Classic and
# FeliCa through libnfc (nfcsim pn532), Type 5, Type 2 and MIFARE Classic through a private pcscd
# (nfcsim vpcd).
# A dump without a message passes when nfcscan reads it without crashing.
#
# Usage: scripts/check-dumps.sh [DUMPS] [BUILD]   (default ../shared/dumps and .build/debug)
# Prints one line per dump and backend: PASS or FAIL, nfcsim's and nfcscan's status, why; exits
# 1 if any failed. Needs python3 with ndeflib (scripts/install-deps.sh), libnfc, pcscd and vpcd.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dumps="${1:-$root/../shared/dumps}"
build="${2:-$root/.build/debug}"
nfcsim="$build/nfcsim" nfcscan="$build/nfcscan"
for tool in "$nfcsim" "$nfcscan"; do
  [[ -x "$tool" ]] || { echo "check-dumps: $tool is missing; run swift build first" >&2; exit 2; }
done
[[ -d "$dumps" ]] || { echo "check-dumps: no folder $dumps" >&2; exit 2; }
work=$(mktemp -d -t nfcscan-check-dumps.XXXXXX)
sim_pid=""
cleanup() { [[ -n "$sim_pid" ]] && kill "$sim_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

# Waits (10 s at most) until $1 holds a line starting with $2; prints the rest of that line.
announced() {
  local i
  for ((i = 0; i < 100; i++)); do
    local line; line=$(grep -m 1 "^$2" "$1" 2>/dev/null) && { echo "${line#"$2"}"; return 0; }
    kill -0 "$sim_pid" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

stop_sim() { [[ -n "$sim_pid" ]] && { kill "$sim_pid" 2>/dev/null; wait "$sim_pid" 2>/dev/null; }; sim_pid=""; }

failed=0 passed=0
# check FILE BACKEND [--type T]
check() {
  local file="$1" backend="$2"; shift 2
  local name="${file#"$dumps"/}" log="$work/sim.log" out="$work/out.json" err="$work/err.txt" status
  : >"$log"
  if [[ $backend == libnfc ]]; then
    "$nfcsim" pn532 --dump "$file" "$@" --for 30 >"$log" 2>&1 &
    sim_pid=$!
    local dev; dev=$(announced "$log" "LIBNFC_DEVICE=") || { echo "FAIL $name ($backend): nfcsim did not start: $(tr '\n' ' ' <"$log")"; failed=$((failed + 1)); stop_sim; return; }
    LIBNFC_DEVICE="$dev" LIBNFC_AUTO_SCAN=false PCSCLITE_CSOCK_NAME=/nonexistent/pcscd.comm \
      DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent/bus timeout 30 "$nfcscan" --json --timeout 10 >"$out" 2>"$err"
    status=$?
  else
    bash "$root/scripts/private-pcscd.sh" -- "$nfcsim" vpcd --dump "$file" "$@" --after 1 --for 30 >"$log" 2>&1 &
    sim_pid=$!
    local sock; sock=$(announced "$log" "PCSCLITE_CSOCK_NAME=") || { echo "FAIL $name ($backend): pcscd did not start: $(tr '\n' ' ' <"$log")"; failed=$((failed + 1)); stop_sim; return; }
    env -u LIBNFC_DEVICE LIBNFC_AUTO_SCAN=false PCSCLITE_CSOCK_NAME="$sock" \
      DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent/bus timeout 30 "$nfcscan" --json --timeout 10 >"$out" 2>"$err"
    status=$?
  fi
  stop_sim
  local verdict
  verdict=$(python3 "$root/scripts/dump_records.py" compare "$file" "$out")
  local same=$?
  local sim_error; sim_error=$(grep -m 1 "^nfcsim: .*\(cannot\|line\|\\$\)" "$log" || true)
  if [[ $status -ge 124 ]]; then
    echo "FAIL $name ($backend): nfcscan crashed or hung (status $status): $(tail -n 1 "$err")"; failed=$((failed + 1))
  elif [[ $same -ne 0 ]]; then
    echo "FAIL $name ($backend): nfcscan status $status, $verdict; nfcscan: $(tail -n 1 "$err")${sim_error:+; $sim_error}"; failed=$((failed + 1))
  else
    echo "PASS $name ($backend): nfcscan status $status, $verdict"; passed=$((passed + 1))
  fi
}

while IFS= read -r file; do
  case "$file" in
    *.md) continue ;;
    *.bin) check "$file" pcsc --type icodeslix2; continue ;;
  esac
  kind=$(python3 "$root/scripts/dump_records.py" kind "$file" 2>/dev/null || echo none)
  case "$kind" in
    type2) check "$file" libnfc; check "$file" pcsc ;;
    classic) check "$file" libnfc; check "$file" pcsc ;;
    felica) check "$file" libnfc ;;
    type5) check "$file" pcsc ;;
    *) echo "SKIP ${file#"$dumps"/}: not a chip nfcsim presents" ;;
  esac
done < <(find "$dumps" -type f | LC_ALL=C sort)

echo "check-dumps: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
