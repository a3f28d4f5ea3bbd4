#!/usr/bin/env bash
# Presents every dump in a folder with nfcsim --dump and checks that nfcscan --json reads the
# records ndeflib finds in the same bytes (scripts/dump_records.py): Type 2, MIFARE Classic and
# FeliCa through libnfc (nfcsim pn532), Type 5, Type 2 and MIFARE Classic through a private pcscd
# (nfcsim vpcd).
# A dump without a message passes when nfcscan reads it without crashing.
#
# A dump with an originality signature (Flipper's Signature: line, Proxmark3's Card.Signature)
# is also checked for object.genuine against what the openssl command makes of the signature
# (scripts/dump_signature.py, NXP's keys listed there): Type 2 through libnfc and through PC/SC
# on an ACR122U (whose direct transmit carries READ_SIG) instead of a storage-card reader, which
# cannot ask for the signature (genuine absent: checked once, on the first genuine chip); a chip
# whose signature verifies is presented again with one UID byte changed (a copy of the dump in
# the temporary folder), read as not genuine. Type 5 through PC/SC: genuine absent (no PC/SC
# reader passes READ SIGNATURE).
#
# Usage: scripts/check-dumps.sh [DUMPS] [BUILD]   (default ../shared/dumps and .build/debug)
# Prints one line per dump and presentation: PASS or FAIL, nfcsim's and nfcscan's status, why;
# exits 1 if any failed. Needs python3 with ndeflib (scripts/install-deps.sh), openssl, libnfc,
# pcscd and vpcd.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dumps="${1:-$root/../shared/dumps}"
build="${2:-$root/.build/debug}"
nfcsim="$build/nfcsim" nfcscan="$build/nfcscan"
for tool in "$nfcsim" "$nfcscan"; do
  [[ -x "$tool" ]] || { echo "check-dumps: $tool is missing; run swift build first" >&2; exit 2; }
done
command -v openssl >/dev/null || { echo "check-dumps: the openssl command is missing (Debian package openssl)" >&2; exit 2; }
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

failed=0 passed=0 judged=0
# check NAME FILE BACKEND GENUINE [nfcsim arguments]: GENUINE is what dump_signature.py expects of
# object.genuine ("": not checked). nfcscan is given $password, the dump's own where it protects
# reading (a scan that cannot read the memory has no object to say genuine of).
check() {
  local name="$1" file="$2" backend="$3" genuine="$4"; shift 4
  local log="$work/sim.log" out="$work/out.json" err="$work/err.txt" status
  [[ ${1:-} == --reader ]] && backend="$backend, $2"
  : >"$log"
  if [[ $backend == libnfc ]]; then
    "$nfcsim" pn532 --dump "$file" "$@" --for 30 >"$log" 2>&1 &
    sim_pid=$!
    local dev; dev=$(announced "$log" "LIBNFC_DEVICE=") || { echo "FAIL $name ($backend): nfcsim did not start: $(tr '\n' ' ' <"$log")"; failed=$((failed + 1)); stop_sim; return; }
    LIBNFC_DEVICE="$dev" LIBNFC_AUTO_SCAN=false NFCSCAN_PASSWORD="$password" PCSCLITE_CSOCK_NAME=/nonexistent/pcscd.comm \
      DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent/bus timeout 30 "$nfcscan" --json --timeout 10 >"$out" 2>"$err"
    status=$?
  else
    bash "$root/scripts/private-pcscd.sh" -- "$nfcsim" vpcd --dump "$file" "$@" --after 1 --for 30 >"$log" 2>&1 &
    sim_pid=$!
    local sock; sock=$(announced "$log" "PCSCLITE_CSOCK_NAME=") || { echo "FAIL $name ($backend): pcscd did not start: $(tr '\n' ' ' <"$log")"; failed=$((failed + 1)); stop_sim; return; }
    env -u LIBNFC_DEVICE LIBNFC_AUTO_SCAN=false NFCSCAN_PASSWORD="$password" PCSCLITE_CSOCK_NAME="$sock" \
      DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent/bus timeout 30 "$nfcscan" --json --timeout 10 >"$out" 2>"$err"
    status=$?
  fi
  stop_sim
  local verdict
  verdict=$(python3 "$root/scripts/dump_records.py" compare "$file" "$out")
  local same=$?
  if [[ -n $genuine ]]; then
    local judged_line; judged_line=$(python3 "$root/scripts/dump_signature.py" judge "$genuine" "$out") || same=1
    verdict="$verdict; $judged_line"; judged=$((judged + 1))
  fi
  local sim_error; sim_error=$(grep -m 1 "^nfcsim: .*\(cannot\|line\|\\$\)" "$log" || true)
  if [[ $status -ge 124 ]]; then
    echo "FAIL $name ($backend): nfcscan crashed or hung (status $status): $(tail -n 1 "$err")"; failed=$((failed + 1))
  elif [[ $same -ne 0 ]]; then
    echo "FAIL $name ($backend): nfcscan status $status, $verdict; nfcscan: $(tail -n 1 "$err")${sim_error:+; $sim_error}"; failed=$((failed + 1))
  else
    echo "PASS $name ($backend): nfcscan status $status, $verdict"; passed=$((passed + 1))
  fi
}

# check_signed NAME FILE EXPECTED: a Type 2 dump with a signature, EXPECTED as openssl judges it.
storage_card_checked=""
check_signed() {
  local name="$1" file="$2" expected="$3"
  password=$(python3 "$root/scripts/dump_signature.py" password "$file")
  check "$name" "$file" libnfc "$expected"
  check "$name" "$file" pcsc "$expected" --reader acr122u
  [[ $expected == true* ]] || return 0
  # A storage-card reader can send no password either: a dump that needs none.
  if [[ -z $storage_card_checked && -z $password ]]; then
    storage_card_checked=1
    check "$name" "$file" pcsc "absent a storage-card reader cannot ask for the signature" --reader storage-card
  fi
  local changed="$work/changed.${file##*.}" expected_changed
  if ! python3 "$root/scripts/dump_signature.py" changed "$file" "$changed" ||
     ! expected_changed=$(python3 "$root/scripts/dump_signature.py" expect "$changed"); then
    echo "FAIL $name, UID changed: cannot make the changed copy"; failed=$((failed + 1)); return
  fi
  check "$name, UID changed" "$changed" libnfc "$expected_changed"
  check "$name, UID changed" "$changed" pcsc "$expected_changed" --reader acr122u
}

password=""
while IFS= read -r file; do
  name="${file#"$dumps"/}" password=""
  case "$file" in
    *.md) continue ;;
    *.bin) check "$name" "$file" pcsc "" --type icodeslix2; continue ;;
  esac
  kind=$(python3 "$root/scripts/dump_records.py" kind "$file" 2>/dev/null || echo none)
  expected=$(python3 "$root/scripts/dump_signature.py" expect "$file" 2>&1) ||
    { echo "FAIL $name: dump_signature.py: $expected"; failed=$((failed + 1)); expected=none; }
  case "$kind:$expected" in
    type2:none) check "$name" "$file" libnfc ""; check "$name" "$file" pcsc "" ;;
    type2:*) check_signed "$name" "$file" "$expected" ;;
    classic:*) check "$name" "$file" libnfc ""; check "$name" "$file" pcsc "" ;;
    felica:*) check "$name" "$file" libnfc "" ;;
    type5:none) check "$name" "$file" pcsc "" ;;
    type5:*) check "$name" "$file" pcsc "absent no PC/SC reader passes READ SIGNATURE; openssl: $expected" ;;
    *) echo "SKIP $name: not a chip nfcsim presents" ;;
  esac
done < <(find "$dumps" -type f | LC_ALL=C sort)

echo "check-dumps: $passed passed, $failed failed; $judged checked object.genuine against openssl"
[[ $failed -eq 0 ]]
