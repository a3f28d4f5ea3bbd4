#!/usr/bin/env bash
# Proves a command opens nothing to the network: no TCP or UDP socket listens on an address outside
# loopback (127.0.0.0/8, ::1) that did not listen before it started. `make demo` and `make test`
# run through this, so a dependency, test or rig that opens a door fails them, named.
#
# Usage: scripts/check-listeners.sh [--] COMMAND [ARGS...]
#          Runs COMMAND in the foreground. Compares the listening sockets before and after it, and
#          samples them every half second while it runs (a listener opened and closed in between
#          is seen if it lasts that long). Exit status: COMMAND's if it failed, else 1 if a new
#          listener was seen, else 0.
#        scripts/check-listeners.sh --list
#          The sockets listening outside loopback in this network namespace, one per line:
#          NETID ADDRESS:PORT.
# Only this network namespace counts: a private pcscd (scripts/private-pcscd.sh) listens in a
# namespace of its own, which nothing outside the machine can reach.
set -euo pipefail

# ss -H -ltnu: Netid State Recv-Q Send-Q Local:Port Peer:Port [Process]. UDP "listening" means
# bound and not connected. Local addresses look like 0.0.0.0:68, 127.0.0.53%lo:53, [::1]:631, *:22.
listeners() { # [ss options]
  ss -H -ltnu "$@" | awk '{
    address = $5; sub(/:[^:]*$/, "", address); gsub(/[][]/, "", address); sub(/%.*/, "", address)
    if (address ~ /^127\./ || address == "::1" || address ~ /^::ffff:127\./) next
    print $1, $5 (NF >= 7 ? " " $7 : "")
  }' | sort -u
}
keys() { listeners | cut -d' ' -f1,2; }
# KEY with the process ss names for it (only root sees every process's).
describe() { # KEY
  local line
  line=$(listeners -p | awk -v k="$1" '$1 " " $2 == k' | head -n 1)
  echo "${line:-$1}"
}

if [ "${1:-}" = --list ]; then keys; exit 0; fi
[ "${1:-}" = -- ] && shift
[ $# -gt 0 ] || { sed -n '2,15s/^# \{0,1\}//p' "$0" >&2; exit 64; }
command -v ss >/dev/null || { echo "check-listeners: ss is missing (iproute2); run scripts/install-deps.sh" >&2; exit 69; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/check-listeners.XXXXXX")
sampler=
stop_sampler() {
  [ -n "$sampler" ] || return 0
  touch "$dir/stop"
  wait "$sampler" 2>/dev/null || true
  sampler=
}
cleanup() {
  # bash runs this trap in a subshell too when a signal (Ctrl-C) reaches it right after its fork:
  # only the script itself cleans up.
  [ "$BASHPID" = "$$" ] || return 0
  stop_sampler
  rm -rf "$dir"
}
trap cleanup EXIT
keys >"$dir/before"
: >"$dir/seen"

# Each listener new since the start, once, named while it still listens. It stops when told (the
# stop file) or when this script is gone; a failed sample is not the end of sampling.
(
  set +e
  while [ ! -e "$dir/stop" ] && kill -0 $$ 2>/dev/null; do
    keys | comm -13 "$dir/before" - | while read -r key; do
      grep -qxF "$key" "$dir/seen.keys" 2>/dev/null && continue
      echo "$key" >>"$dir/seen.keys"
      describe "$key" >>"$dir/seen"
    done
    sleep 0.5
  done
) &
sampler=$!

status=0
"$@" || status=$?

stop_sampler
keys | comm -13 "$dir/before" - | while read -r key; do describe "$key" >>"$dir/seen"; done
found=$(sort -u -k1,2 "$dir/seen")

what="'$*'"
if [ -z "$found" ]; then
  echo "check-listeners: $what opened nothing to the network (no new TCP or UDP listener outside loopback)"
  exit "$status"
fi
echo "check-listeners: FAIL: $what left or opened sockets listening outside loopback:" >&2
sed 's/^/  /' <<<"$found" >&2
if grep -qE '"pcscd"|:3596[34]( |$)' <<<"$found"; then
  echo "  (35963 and 35964 are vpcd's ports: the system pcscd listens there when Debian's vsmartcard-vpcd" \
    "is installed, which nfcscan does not need; sudo apt-get purge vsmartcard-vpcd removes it)" >&2
fi
[ "$status" -ne 0 ] && exit "$status"
exit 1
