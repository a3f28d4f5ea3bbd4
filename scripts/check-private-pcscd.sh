#!/usr/bin/env bash
# The private pcscd keeps the vpcd reader off the network. With scripts/private-pcscd.sh running and
# an `nfcsim vpcd` object in its reader, checks that:
#   - inside its namespaces, pcscd loaded the vpcd driver unpacked in .deps/vpcd (never the system
#     package's), nfcsim is connected to the reader, and vpcd listens on 0.0.0.0:PORT: what
#     scripts/check-listeners.sh flags, so the check below would see it if it reached the host;
#   - in the host's network namespace, meanwhile, nothing new listens outside loopback.
#
# Usage: scripts/check-private-pcscd.sh BIN_DIR   (BIN_DIR holds nfcsim)
# Exit 0 when every check passed, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd -P)   # as /proc/PID/maps names files
bin=${1:?usage: scripts/check-private-pcscd.sh BIN_DIR}
nfcsim=$(readlink -f "$bin/nfcsim")
[ -x "$nfcsim" ] || { echo "check-private-pcscd: build nfcsim first ($bin)" >&2; exit 66; }
port=35963   # the port the system package's pcscd would open to the network

dir=$(mktemp -d "${TMPDIR:-/tmp}/check-private-pcscd.XXXXXX")
rig=
cleanup() {
  if [ -n "$rig" ]; then kill -TERM "$rig" 2>/dev/null || true; wait "$rig" 2>/dev/null || true; fi
  rm -rf "$dir"
}
trap cleanup EXIT

failures=0
check() { # DESCRIPTION COMMAND...
  local what=$1; shift
  if "$@"; then echo "  ok   $what"; else echo "  FAIL $what"; failures=$((failures + 1)); fi
}
has_line() { grep -qxF "$1" "$2"; }
only_unpacked_driver() { [ -s "$dir/driver" ] && ! grep -qv "^$root/.deps/vpcd/" "$dir/driver"; }

bash scripts/check-listeners.sh --list >"$dir/host-before"

# Runs inside the namespaces: the object goes into the reader, then what is seen from there is
# written out, and it stays until this script stops the rig.
inside='
  out=$1 nfcsim=$2 port=$3 root=$4
  "$nfcsim" vpcd --port "$port" --uri https://example.com/private --for 120 >"$out/nfcsim.log" 2>&1 &
  sim=$!
  connected() { ss -Htn state established "( dport = :$port )" | grep -q .; }
  for _ in $(seq 100); do connected && break; kill -0 "$sim" 2>/dev/null || break; sleep 0.1; done
  connected && touch "$out/connected"
  bash "$root/scripts/check-listeners.sh" --list >"$out/inside"
  own=$(readlink /proc/self/ns/net)
  for pid in $(pgrep -x pcscd); do
    [ "$(readlink "/proc/$pid/ns/net" 2>/dev/null)" = "$own" ] || continue
    awk "/libifdvpcd/ { print \$6 }" "/proc/$pid/maps" | sort -u >"$out/driver"
  done
  touch "$out/ready"
  wait "$sim"
'
bash scripts/private-pcscd.sh --port "$port" -- bash -c "$inside" inside "$dir" "$nfcsim" "$port" "$root" \
  >"$dir/rig.log" 2>&1 &
rig=$!
for _ in $(seq 300); do
  [ -e "$dir/ready" ] && break
  kill -0 "$rig" 2>/dev/null || break
  sleep 0.1
done
if [ ! -e "$dir/ready" ]; then
  echo "check-private-pcscd: FAIL: the private pcscd with nfcsim vpcd did not come up; its log:" >&2
  cat "$dir/rig.log" "$dir/nfcsim.log" >&2 2>/dev/null || true
  exit 1
fi
bash scripts/check-listeners.sh --list | comm -13 "$dir/host-before" - >"$dir/host-new"

echo "check-private-pcscd: a private pcscd with nfcsim vpcd in its reader (port $port)"
check "pcscd loaded the unpacked driver and no other ($(tr '\n' ' ' <"$dir/driver" 2>/dev/null))" only_unpacked_driver
check "nfcsim is connected to the vpcd reader" test -e "$dir/connected"
check "inside its namespace vpcd listens on 0.0.0.0:$port (what check-listeners flags)" has_line "tcp 0.0.0.0:$port" "$dir/inside"
check "meanwhile nothing new listens outside loopback on the host$(sed 's/^/; new: /' "$dir/host-new" | tr -d '\n')" \
  test ! -s "$dir/host-new"

kill -TERM "$rig" 2>/dev/null || true
wait "$rig" 2>/dev/null || true
rig=
if [ "$failures" -ne 0 ]; then
  echo "check-private-pcscd: $failures checks failed; the rig's log:" >&2
  cat "$dir/rig.log" >&2
  exit 1
fi
