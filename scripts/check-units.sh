#!/usr/bin/env bash
# Checks the systemd user unit and the D-Bus activation file in systemd/ as `make install` would
# install them: `systemd-analyze verify --user` (any warning fails), the D-Bus file against the
# unit, and `systemd-analyze security --offline=true --user`, which must score 2.0 or lower.
#
# Usage: scripts/check-units.sh NFCSCAND_BINARY [MAX_EXPOSURE]
#   NFCSCAND_BINARY  any executable: it is linked into a temporary bin directory as "nfcscand",
#                    because verify wants ExecStart= to exist; what it is does not matter.
#   MAX_EXPOSURE     highest exposure score accepted (default 2.0).
# Nothing outside a temporary directory is touched. Needs systemd-analyze (Debian: systemd).
set -euo pipefail
cd "$(dirname "$0")/.."

binary=${1:?usage: scripts/check-units.sh NFCSCAND_BINARY [MAX_EXPOSURE]}
max=${2:-2.0}
[ -x "$binary" ] || { echo "check-units: $binary is not an executable file" >&2; exit 66; }
command -v systemd-analyze >/dev/null || { echo "check-units: systemd-analyze is missing (Debian package systemd)" >&2; exit 69; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
mkdir -p "$work/bin" "$work/units" "$work/runtime"
chmod 700 "$work/runtime"
ln -s "$(realpath "$binary")" "$work/bin/nfcscand"

# The same substitutions as `make install` (see Makefile: RENDER).
render() {
  sed -e "s|@bindir@|$work/bin|g" -e "s|@swift_backtrace@|$work/bin/swift-backtrace-static|g" "$1"
}
render systemd/nfcscand.service > "$work/units/nfcscand.service"
render systemd/org.nfcscan.Scanner1.service > "$work/org.nfcscan.Scanner1.service"
unit=$work/units/nfcscand.service
failed=0
fail() { echo "check-units: FAIL: $*" >&2; failed=1; }

for file in "$unit" "$work/org.nfcscan.Scanner1.service"; do
  if grep -n '@[a-z_]*@' "$file" >&2; then fail "$(basename "$file") keeps a placeholder make install would not fill"; fi
done

# verify needs a runtime directory for the user manager it simulates; a private one, so nothing
# of a real session is read or written. Man pages: checked in Docs/man below, not through man(1),
# which a CI image may lack.
export XDG_RUNTIME_DIR=$work/runtime
echo "\$ systemd-analyze verify --user --man=no nfcscand.service"
if ! systemd-analyze verify --user --man=no "$unit" >"$work/verify.log" 2>&1; then
  cat "$work/verify.log" >&2
  fail "systemd-analyze verify failed"
elif [ -s "$work/verify.log" ]; then
  cat "$work/verify.log" >&2
  fail "systemd-analyze verify warned (unknown keys and bad values are only warnings to it)"
else
  echo "verify: no warnings"
fi

for page in $(sed -n 's/^Documentation=//p' "$unit"); do
  case "$page" in
    man:*) name=${page#man:}; file="Docs/man/${name%%(*}.$(echo "$name" | sed 's/.*(\(.*\))/\1/')"
           [ -f "$file" ] || fail "Documentation=$page has no $file" ;;
  esac
done

# The activation file must name the unit's bus name, the unit and the unit's binary.
key() { sed -n "s/^$1=//p" "$2" | head -n 1; }
dbus=$work/org.nfcscan.Scanner1.service
grep -qx '\[D-BUS Service\]' "$dbus" || fail "D-Bus file: no [D-BUS Service] group"
[ "$(key Name "$dbus")" = "$(key BusName "$unit")" ] || fail "D-Bus Name= is not the unit's BusName="
[ "$(key SystemdService "$dbus")" = "nfcscand.service" ] || fail "D-Bus SystemdService= is not nfcscand.service"
[ "$(key Exec "$dbus")" = "$(key ExecStart "$unit")" ] || fail "D-Bus Exec= differs from the unit's ExecStart="
[ "$(basename "$dbus" .service)" = "$(key Name "$dbus")" ] || fail "D-Bus file name is not its Name= plus .service"

# A station's drop-in (systemd/station.conf, Docs/fleets.md) must verify too; its exposure is
# shown, not limited: it opens the network on purpose.
mkdir -p "$work/station/nfcscand.service.d"
cp "$unit" "$work/station/nfcscand.service"
cp systemd/station.conf "$work/station/nfcscand.service.d/station.conf"
echo "\$ systemd-analyze verify --user --man=no nfcscand.service (with systemd/station.conf)"
if ! systemd-analyze verify --user --man=no "$work/station/nfcscand.service" >"$work/verify-station.log" 2>&1; then
  cat "$work/verify-station.log" >&2
  fail "systemd-analyze verify failed with the station drop-in"
elif [ -s "$work/verify-station.log" ]; then
  cat "$work/verify-station.log" >&2
  fail "systemd-analyze verify warned with the station drop-in"
else
  echo "verify (station): no warnings"
fi
station_score=$(systemd-analyze security --offline=true --user "$work/station/nfcscand.service" 2>/dev/null \
  | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
echo "security (station drop-in): exposure ${station_score:-unknown}"

# The exposure score, 0.0 (tight) to 10.0; --threshold takes tenths.
threshold=$(awk -v m="$max" 'BEGIN { printf "%d", m * 10 + 0.5 }')
echo "\$ systemd-analyze security --offline=true --user --threshold=$threshold nfcscand.service"
status=0
systemd-analyze security --offline=true --user --threshold="$threshold" "$unit" >"$work/security.log" 2>&1 || status=$?
# The table's remaining exposures (lines with a ✗) and the summary line.
grep -E '^  NAME|^(✗|→)|Overall exposure' "$work/security.log" | sed "s|$work/units/||" || true
score=$(sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p' "$work/security.log")
if [ -z "$score" ]; then
  cat "$work/security.log" >&2
  fail "systemd-analyze security printed no exposure level"
elif [ "$status" -ne 0 ]; then
  fail "exposure $score is above $max"
else
  echo "security: exposure $score (at most $max)"
fi

[ "$failed" -eq 0 ] && echo "check-units: OK"
exit "$failed"
