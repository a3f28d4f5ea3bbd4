#!/usr/bin/env bash
# A private pcscd with one vpcd entry, for nfcsim, tests and the demo. The vpcd driver serves two
# slots per entry: readers "NAME 00 00" (port PORT) and "NAME 00 01" (port PORT+1), as Debian's
# /etc/reader.conf.d/vpcd gives the system pcscd two readers.
#
# Runs pcscd inside its own user, mount and network namespaces (unshare -r -m -n: no root needed):
# a private /run (so its socket and pid file never touch the system pcscd's /run/pcscd), and a
# network of its own with only loopback up (vpcd listens on 0.0.0.0; here that reaches nothing
# outside). The reader.conf is written to a temporary directory, never /etc. Nothing on the host
# changes, and everything is removed on exit, on SIGINT/SIGTERM, and when this script dies.
#
# Usage: scripts/private-pcscd.sh [--port N] [--name NAME] [--keep] [--debug] [--pcscd-log FILE] [-- COMMAND [ARGS...]]
# --debug: pcscd logs every client call (pcscd -d), on this script's standard error too.
#
# Once pcscd is ready it prints, one per line:
#   PCSCLITE_CSOCK_NAME=<dir>/run/pcscd/pcscd.comm   (the socket; set it for every PC/SC client)
#   PCSC_READER=<NAME> 00 00                         (the reader the vpcd port serves)
# Then it runs COMMAND inside the namespaces (where 127.0.0.1:PORT is the vpcd reader), with
# PCSCLITE_CSOCK_NAME exported, and exits with its status. Without a COMMAND, or with --keep
# (pcscd stays after COMMAND ends, so clients see the card leave), it runs until interrupted.
# PC/SC clients outside the namespace use the socket path (a file socket works across network
# namespaces).
#
# Example:
#   scripts/private-pcscd.sh -- nfcsim vpcd --uri https://example.com --for 30 &
#   PCSCLITE_CSOCK_NAME=... pcsc_scan        # with the path it printed
# Details and the facts behind it: Docs/design/simulators.md §4.
set -euo pipefail

# A parent may have started us with signals blocked (the mask survives exec; Foundation's Process
# does this): bash could then never run its traps and nothing would be cleaned up. Start again
# with no signal blocked and TERM/INT/HUP at their defaults (perl-base is Essential in Debian).
blocked=$(sed -n 's/^SigBlk:[[:space:]]*//p' /proc/$$/status 2>/dev/null || true)
if [ -n "$blocked" ] && (( 0x$blocked & 0x4203 )) && [ -z "${PRIVATE_PCSCD_UNBLOCKED:-}" ]; then   # HUP INT USR1 TERM
  export PRIVATE_PCSCD_UNBLOCKED=1
  exec perl -MPOSIX -e 'sigprocmask(SIG_SETMASK, POSIX::SigSet->new) or die "sigprocmask: $!";
    $SIG{$_} = "DEFAULT" for qw(TERM INT HUP USR1); exec { $ARGV[0] } @ARGV or die "exec: $!"' "$BASH" "$0" "$@"
fi
unset PRIVATE_PCSCD_UNBLOCKED

port=35963
name=nfcsim
pcscd_log=
keep=0
debug=0

usage() { sed -n '2,29s/^# \{0,1\}//p' "$0"; }

while [ $# -gt 0 ]; do
  case "$1" in
    --port) port=${2:?--port needs a number}; shift 2 ;;
    --name) name=${2:?--name needs a reader name}; shift 2 ;;
    --keep) keep=1; shift ;;
    --debug) debug=1; shift ;;
    --pcscd-log) pcscd_log=${2:?--pcscd-log needs a file}; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    --) shift; break ;;
    *) echo "private-pcscd: unknown option $1 (see --help)" >&2; exit 64 ;;
  esac
done
case "$port" in ''|*[!0-9]*) echo "private-pcscd: --port needs a number" >&2; exit 64 ;; esac

# vsmartcard-vpcd's driver as scripts/install-deps.sh unpacks it into the source tree, never the
# installed package: that one comes with /etc/reader.conf.d/vpcd, which opens the system pcscd.
driver=$(cd "$(dirname "$0")/.." && pwd)/.deps/vpcd/usr/lib/pcsc/drivers/serial/libifdvpcd.so
missing=()
for tool in unshare pcscd ip; do
  command -v "$tool" >/dev/null 2>&1 || [ -x "/usr/sbin/$tool" ] || missing+=("$tool")
done
[ -e "$driver" ] || missing+=("$driver (vsmartcard-vpcd, unpacked)")
if [ ${#missing[@]} -gt 0 ]; then
  echo "private-pcscd: missing ${missing[*]}; run scripts/install-deps.sh" >&2
  exit 69
fi
export PATH="$PATH:/usr/sbin:/sbin"

dir=$(mktemp -d "${TMPDIR:-/tmp}/nfcsim-pcscd.XXXXXX")
mkdir -p "$dir/run" "$dir/conf"
cat >"$dir/conf/nfcsim" <<EOF
FRIENDLYNAME "$name"
DEVICENAME   /dev/null:$port
LIBPATH      $driver
CHANNELID    $port
EOF
mkfifo "$dir/alive"

ns_pid=
cleanup() {
  trap - EXIT INT TERM
  if [ -n "$ns_pid" ] && kill -0 "$ns_pid" 2>/dev/null; then
    kill -TERM "$ns_pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$ns_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$ns_pid" 2>/dev/null || true
  fi
  [ -n "$ns_pid" ] && wait "$ns_pid" 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Runs inside the namespaces as the namespace's root. $1 = state directory, $2 = reader name,
# then the command. fd 3 reads the "alive" pipe: it reaches end of file when this script is gone
# (however it died, even by SIGKILL), and the namespace then shuts itself down and cleans up.
inner='
  dir=$1; name=$2; keep=$3; debug=$4; shift 4
  pcscd_pid=; command_pid=; guard_pid=
  stop() {
    trap - TERM INT
    [ -n "$guard_pid" ] && kill -TERM "$guard_pid" 2>/dev/null
    [ -n "$command_pid" ] && kill -TERM "$command_pid" 2>/dev/null
    [ -n "$command_pid" ] && wait "$command_pid" 2>/dev/null
    [ -n "$pcscd_pid" ] && kill -TERM "$pcscd_pid" 2>/dev/null
    [ -n "$pcscd_pid" ] && wait "$pcscd_pid" 2>/dev/null
  }
  trap "stop; exit 143" TERM INT
  # Orphaned (the script was killed): stop, and remove the state directory it cannot.
  trap "guard_pid=; stop; umount /run; rm -rf \"\$dir\"; exit 137" USR1
  ( cat <&3 >/dev/null; kill -USR1 $$ 2>/dev/null ) &
  guard_pid=$!
  exec 3<&-
  ip link set lo up
  mount --bind "$dir/run" /run
  if [ "$debug" = 1 ]; then
    # Line-buffered: pcscd writes its log through stdio, which a pipe would otherwise hold back.
    stdbuf -oL -eL pcscd -f -d -c "$dir/conf" > >(tee -a "$dir/pcscd.log" | sed -u "s/^/pcscd: /" >&2) 2>&1 </dev/null &
  else
    pcscd -f -c "$dir/conf" >>"$dir/pcscd.log" 2>&1 </dev/null &
  fi
  pcscd_pid=$!
  for _ in $(seq 100); do
    [ -S /run/pcscd/pcscd.comm ] && break
    kill -0 "$pcscd_pid" 2>/dev/null || break
    sleep 0.05
  done
  if [ ! -S /run/pcscd/pcscd.comm ]; then
    echo "private-pcscd: pcscd did not start; its log:" >&2; cat "$dir/pcscd.log" >&2
    stop; exit 69
  fi
  export PCSCLITE_CSOCK_NAME="$dir/run/pcscd/pcscd.comm"
  echo "PCSCLITE_CSOCK_NAME=$PCSCLITE_CSOCK_NAME"
  echo "PCSC_READER=$name 00 00"
  if [ $# -gt 0 ]; then
    "$@" &
    command_pid=$!
    status=0; wait "$command_pid" || status=$?
    command_pid=
    [ "$keep" = 1 ] || { stop; exit $status; }
    echo "private-pcscd: the command ended (status $status); pcscd stays until interrupted" >&2
  fi
  wait "$pcscd_pid"
'
unshare -r -m -n bash -c "$inner" private-pcscd "$dir" "$name" "$keep" "$debug" "$@" 3<"$dir/alive" &
ns_pid=$!
exec 4>"$dir/alive"

status=0
wait "$ns_pid" || status=$?
ns_pid=
if [ -n "$pcscd_log" ]; then cp "$dir/pcscd.log" "$pcscd_log" 2>/dev/null || true; fi
exit $status
