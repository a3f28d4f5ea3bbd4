#!/usr/bin/env bash
# The desktop test rig: real parts for end-to-end tests of nfcscand, all private to one directory.
#
#   desktop-rig.sh start DIR [--no-dunst] [--system-bus] [--a11y] [--permission-store] [--watch-pid PID] [--timeout S]
#                            [--dunstrc-extra FILE] [--screen WxHxD]
#       Starts a private session dbus-daemon (config and socket in DIR, no service activation),
#       Xvfb on a free display (-displayfd, -nolisten tcp), a bus monitor that logs the
#       notification traffic, and dunst (its own config in DIR) on that bus and display.
#       --no-dunst      no notification server yet (start-dunst/stop-dunst later)
#       --system-bus    also a private system-type bus, exported as DBUS_SYSTEM_BUS_ADDRESS
#                       (for python3-dbusmock's logind/NetworkManager templates)
#       --permission-store  also xdg-desktop-portal's permission store (xdg-permission-store,
#                       org.freedesktop.impl.portal.PermissionStore) on the session bus, its
#                       database in DIR/data/flatpak/db (XDG_DATA_HOME=DIR/data for it alone): the
#                       grants nfcscand keeps, never the person's own
#       --a11y          also AT-SPI, as a desktop has it for a screen reader: at-spi-bus-launcher
#                       --launch-immediately (setsid, like every part: `stop` ends its session,
#                       so the accessibility bus it starts and the registry end with it) on the
#                       rig's bus and display, then the registry (StartServiceByName on the
#                       accessibility bus, waited for). Nothing more is exported: the launcher
#                       publishes the bus as org.a11y.Bus on the session bus and as the X root
#                       window's AT_SPI_BUS property, where GTK 4 (its own AT-SPI backend, on
#                       unless GTK_A11Y=none) and pyatspi (Tests/Support/sheet_atspi.py) find it.
#                       Keys typed through the registry (generateKeyboardEvent) go to the focused
#                       X window with XTest. Needs at-spi2-core (scripts/install-deps.sh).
#       --watch-pid PID stop the rig by itself when process PID ends (a test that crashes)
#       --dunstrc-extra FILE  appended to the rig's dunstrc (rules, settings)
#       Once everything answers it prints `export NAME='VALUE'` lines (DBUS_SESSION_BUS_ADDRESS,
#       DISPLAY, XDG_RUNTIME_DIR, NFCSCAN_RIG_DIR, and DBUS_SYSTEM_BUS_ADDRESS with --system-bus)
#       and writes the same to DIR/env. Use: eval "$(desktop-rig.sh start DIR)".
#   desktop-rig.sh stop DIR          ends every process the rig started (also after a failed start)
#   desktop-rig.sh start-dunst DIR   starts dunst (after --no-dunst or stop-dunst)
#   desktop-rig.sh stop-dunst DIR    stops dunst; its bus name goes away
#   desktop-rig.sh status DIR        one line per part: NAME PID running|gone
#   desktop-rig.sh shown DIR [--all] [--wait N] [--timeout S]
#       the notifications dunst shows now, one JSON object per line, oldest first
#   desktop-rig.sh invoke DIR [ACTION_KEY] [--id N] [--timeout S]
#       the person chooses ACTION_KEY on the newest shown notification: dunst sends
#       ActionInvoked(id, ACTION_KEY) to its sender; prints {"id","action_key","destination"}
#   desktop-rig.sh close DIR [--all] [--timeout S]
#       the person closes the topmost shown notification (or all): NotificationClosed reason 2
#   desktop-rig.sh screenshot DIR FILE
#       the whole screen of the rig's display as an image (imagemagick's import; FILE's name
#       says the format, e.g. sheet.png)
#
# Files in DIR: env; notifications.jsonl (every Notify with its id, CloseNotification, and the
# ActionInvoked/NotificationClosed signals, as the monitor saw them); dunst-displayed.jsonl (each
# notification dunst put on screen); logs/*.log; session-services/ (the session bus's only
# service directory: drop .service files there for activation tests).
# Nothing leaves DIR but Xvfb's /tmp/.X11-unix/X<n> socket and /tmp/.X<n>-lock, which Xvfb removes.
# Exit statuses: 0 done, 1 failed (the message names the part and shows its log), 64 usage.
# Facts behind it (dunst 1.9.0 on Debian 12): Docs/design/desktop-test-rig.md.
set -euo pipefail
shopt -s inherit_errexit   # a failing step inside $(...) fails the command substitution too

# A parent may have started us with signals blocked or ignored (the mask and ignored dispositions
# survive exec; Foundation's Process blocks them): dbus-daemon, Xvfb and dunst would then never see
# the SIGTERM of `stop`. Start again with none blocked and TERM/INT/HUP at their defaults.
sig_bits() { sed -n "s/^$1:[[:space:]]*//p" /proc/$$/status 2>/dev/null || true; }
blocked=$(sig_bits SigBlk); ignored=$(sig_bits SigIgn)
if [ -z "${DESKTOP_RIG_UNBLOCKED:-}" ] && { { [ -n "$blocked" ] && (( 0x$blocked & 0x4203 )); } ||
                                           { [ -n "$ignored" ] && (( 0x$ignored & 0x4203 )); }; }; then
  export DESKTOP_RIG_UNBLOCKED=1
  exec perl -MPOSIX -e 'sigprocmask(SIG_SETMASK, POSIX::SigSet->new) or die "sigprocmask: $!";
    $SIG{$_} = "DEFAULT" for qw(TERM INT HUP USR1); exec { $ARGV[0] } @ARGV or die "exec: $!"' "$BASH" "$0" "$@"
fi
unset DESKTOP_RIG_UNBLOCKED

SELF=$(readlink -f "$0")
SUPPORT=$(dirname "$SELF")
PY=/usr/bin/python3   # Debian's, with python3-gi and python3-dbus (not a pyenv python3 on PATH)
HELPER="$SUPPORT/rig_notifications.py"
NOTIFICATIONS=org.freedesktop.Notifications

TESTLIB_NAME="desktop-rig" TESTLIB_SAY_FD=2 TESTLIB_POLL=0.05   # say, wait_for, name_owned: Tests/Support/testlib.sh
# shellcheck source=Tests/Support/testlib.sh
. "$SUPPORT/testlib.sh"
usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$SELF"; }
fail() { say "$*"; exit 1; }

# ---- process records: DIR/pids/NAME holds "PID STARTTIME" (start time guards against reuse) ----

# /proc/PID/stat after "(comm) ": state ppid pgrp session ... starttime (the 20th field there)
proc_fields() { # PID -> "STATE SESSION STARTTIME" (read with builtins only: no fork per process)
  local stat
  { read -r stat <"/proc/$1/stat"; } 2>/dev/null || return 1
  stat=${stat##*) }
  set -- $stat
  echo "$1 $4 ${20}"
}
starttime() { local f; f=$(proc_fields "$1") || return 1; echo "${f##* }"; }
proc_state() { local f; f=$(proc_fields "$1") || return 1; echo "${f%% *}"; }
alive() { # PID STARTTIME: true when that very process still runs (a zombie counts as gone)
  local st state
  st=$(starttime "$1") || return 1
  [ "$st" = "$2" ] || return 1
  state=$(proc_state "$1") || return 1
  [ "$state" != Z ] && [ "$state" != X ]
}
record() { # NAME PID
  local st
  st=$(starttime "$2") || st=0
  echo "$2 $st" >"$DIR/pids/$1"
}
record_alive() { # NAME: true when the recorded process runs
  local pid st
  [ -f "$DIR/pids/$1" ] || return 1
  read -r pid st <"$DIR/pids/$1" || return 1
  alive "$pid" "$st"
}
record_pid() { local pid st; read -r pid st <"$DIR/pids/$1"; echo "$pid"; }

# Starts COMMAND in a session of its own with no stdin, output to LOG, no inherited descriptor
# but fd 3 when FD3 (a file) is given, and records it as NAME.
launch() { # NAME LOG FD3|- ENV... -- COMMAND...
  local name=$1 log=$2 fd3=$3; shift 3
  local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  (
    exec </dev/null >>"$log" 2>&1
    for fd in /proc/$BASHPID/fd/*; do
      fd=${fd##*/}
      if [ "$fd" -gt 2 ] 2>/dev/null; then eval "exec $fd>&-" 2>/dev/null || true; fi
    done
    if [ "$fd3" != - ]; then exec 3>"$fd3"; fi
    exec env -u WAYLAND_DISPLAY "${envs[@]}" setsid "$@"
  ) &
  record "$name" $!
}

# Waits (wait_for) until CHECK (a command) holds, for up to TIMEOUT seconds while NAME's process
# lives; when it gives up, or NAME's process ended first, says so and shows NAME's log.
wait_until() { # NAME WHAT TIMEOUT CHECK...
  local name=$1 what=$2 timeout=$3; shift 3
  PART_GONE=
  if wait_for "$what from $name" "$timeout" ready_or_gone "$name" "$@" && [ -z "$PART_GONE" ]; then return 0; fi
  if [ -n "$PART_GONE" ]; then say "$name exited before $what; its log ($DIR/logs/$name.log):"
  else say "$name's log ($DIR/logs/$name.log):"; fi
  tail -n 30 "$DIR/logs/$name.log" >&2 2>/dev/null || true
  return 1
}
ready_or_gone() { # NAME CHECK...: true once CHECK holds, or once NAME's process ended (PART_GONE=1)
  local name=$1; shift
  "$@" && return 0
  record_alive "$name" && return 1
  PART_GONE=1
}

bus_answers() { # ADDRESS
  dbus-send --bus="$1" --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.ListNames
}
name_gone() { ! name_owned "$@"; }
file_has_line() { [ -s "$1" ] && grep -q . "$1" && [ "$(tail -c1 "$1" | od -An -c | tr -d ' ')" = '\n' ]; }

# ---- the parts ----

write_bus_config() { # TYPE FILE SOCKET SERVICEDIR
  cat >"$2" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<!-- Written by Tests/Support/desktop-rig.sh: a private $1 bus for tests. Only the service
     directory below (no standard_*_servicedirs: nothing on the machine is activated, e.g. not
     /usr/share/dbus-1/services/org.knopwob.dunst.service). Everything allowed to everyone, as
     python3-dbusmock's own test buses; monitors (BecomeMonitor) allowed to the bus's user. -->
<busconfig>
  <type>$1</type>
  <keep_umask/>
  <listen>unix:path=$3</listen>
  <auth>EXTERNAL</auth>
  <servicedir>$4</servicedir>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
  <limit name="service_start_timeout">30000</limit>
</busconfig>
EOF
}

# The parts are started by this very shell (never inside $(...)): `run` then reaps them itself.
start_bus() { # KIND(session|system) TIMEOUT -> BUS_ADDRESS
  local kind=$1 timeout=$2 socket="$DIR/bus/$1"
  write_bus_config "$kind" "$DIR/$kind.conf" "$socket" "$DIR/$kind-services"
  : >"$DIR/bus/$kind.address"
  launch "dbus-$kind" "$DIR/logs/dbus-$kind.log" "$DIR/bus/$kind.address" -- \
    dbus-daemon --config-file="$DIR/$kind.conf" --nofork --nopidfile --print-address=3
  wait_until "dbus-$kind" "bus address" "$timeout" file_has_line "$DIR/bus/$kind.address"
  BUS_ADDRESS=$(head -n1 "$DIR/bus/$kind.address")
  wait_until "dbus-$kind" "answer to ListNames" "$timeout" bus_answers "$BUS_ADDRESS"
}

start_xvfb() { # SCREEN TIMEOUT -> X_DISPLAY
  : >"$DIR/xvfb.display"
  launch xvfb "$DIR/logs/xvfb.log" "$DIR/xvfb.display" -- \
    Xvfb -displayfd 3 -nolisten tcp -noreset -screen 0 "$1"
  wait_until xvfb "display number" "$2" file_has_line "$DIR/xvfb.display"
  X_DISPLAY=":$(head -n1 "$DIR/xvfb.display" | tr -dc 0-9)"
}

# AT-SPI (--a11y): the launcher starts the accessibility bus (a dbus-daemon of its own, with
# /usr/share/defaults/at-spi2/accessibility.conf, which does activate at-spi2-registryd) and
# publishes its address; the registry is then started on that bus and waited for, so a GTK program
# started next finds it when it registers. GSETTINGS_BACKEND=memory: no dconf, nothing under HOME.
A11Y_LAUNCHER=/usr/libexec/at-spi-bus-launcher
start_a11y() { # SESSION_ADDRESS DISPLAY TIMEOUT
  local a11y_address
  launch at-spi "$DIR/logs/at-spi.log" - DBUS_SESSION_BUS_ADDRESS="$1" DISPLAY="$2" XDG_RUNTIME_DIR="$DIR/runtime" \
    GSETTINGS_BACKEND=memory -- "$A11Y_LAUNCHER" --launch-immediately
  wait_until at-spi "org.a11y.Bus on the rig's bus" "$3" name_owned "$1" org.a11y.Bus
  a11y_address=$(dbus-send --bus="$1" --print-reply=literal --dest=org.a11y.Bus /org/a11y/bus org.a11y.Bus.GetAddress | tr -d ' ') \
    || fail "org.a11y.Bus did not give the accessibility bus's address"
  dbus-send --bus="$a11y_address" --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.StartServiceByName string:org.a11y.atspi.Registry uint32:0 >/dev/null \
    || fail "the AT-SPI registry could not be started (its log: $DIR/logs/at-spi.log)"
  wait_until at-spi "the AT-SPI registry" "$3" name_owned "$a11y_address" org.a11y.atspi.Registry
}

# The permission store (--permission-store): Debian's xdg-permission-store, its database under DIR.
PERMISSION_STORE=/usr/libexec/xdg-permission-store
start_permission_store() { # SESSION_ADDRESS TIMEOUT
  mkdir -p "$DIR/data"
  launch permission-store "$DIR/logs/permission-store.log" - DBUS_SESSION_BUS_ADDRESS="$1" XDG_DATA_HOME="$DIR/data" \
    XDG_RUNTIME_DIR="$DIR/runtime" -- "$PERMISSION_STORE" --replace
  wait_until permission-store "org.freedesktop.impl.portal.PermissionStore on the rig's bus" "$2" \
    name_owned "$1" org.freedesktop.impl.portal.PermissionStore
}

write_dunst_config() {
  local d="$DIR/dunst"
  mkdir -p "$d"
  printf '#!/bin/sh\nexec %s %s on-display %s "$@"\n' "$PY" "$HELPER" "$DIR" >"$d/on-display"
  printf '#!/bin/sh\nexec %s %s dmenu %s "$@"\n' "$PY" "$HELPER" "$DIR" >"$d/dmenu"
  printf '#!/bin/sh\nprintf "%%s\\n" "$*" >>%s/logs/dunst-browser.log\n' "$DIR" >"$d/browser"
  chmod +x "$d/on-display" "$d/dmenu" "$d/browser"
  # The rig's settings come first: for a key given twice in a section dunst 1.9 takes the first
  # (ini.c section_get_value). Then Debian's shipped config as a Debian user with dunst has it
  # (markup = full, so "body-markup" among the capabilities), the same keys commented out.
  cat >"$d/dunstrc" <<EOF
# Written by Tests/Support/desktop-rig.sh. dunst reads only this file (-config).
[global]
    # Never hold timeouts back because the (virtual) person is idle: Xvfb sees no input at all.
    idle_threshold = 0
    # Keep every closed notification (0 = no limit) for dunstctl history.
    history_length = 0
    # The context menu answers itself (desktop-rig.sh invoke); URLs opened are only logged.
    dmenu = $d/dmenu
    browser = $d/browser
    always_run_script = true

# No match fields: applies to every notification. dunst runs it when it puts one on screen.
[desktop_rig_displayed]
    script = $d/on-display

EOF
  if [ -r /etc/xdg/dunst/dunstrc ]; then
    echo "# ---- /etc/xdg/dunst/dunstrc (Debian's), the rig's keys above commented out ----" >>"$d/dunstrc"
    sed -E 's/^([[:space:]]*)(idle_threshold|history_length|dmenu|browser|always_run_script)([[:space:]]*=)/\1# rig: \2\3/' \
      /etc/xdg/dunst/dunstrc >>"$d/dunstrc"
  fi
  if [ -n "${DUNSTRC_EXTRA:-}" ]; then
    { echo; echo "# --dunstrc-extra $DUNSTRC_EXTRA"; cat "$DUNSTRC_EXTRA"; } >>"$d/dunstrc"
  fi
}

start_dunst() { # TIMEOUT
  local address display
  address=$(env_value DBUS_SESSION_BUS_ADDRESS)
  display=$(env_value DISPLAY)
  if name_owned "$address" "$NOTIFICATIONS" 2>/dev/null; then
    fail "$NOTIFICATIONS is already owned on the rig's bus"
  fi
  # dunst numbers notifications from 1 again: forget what the previous one displayed.
  if [ -s "$DIR/dunst-displayed.jsonl" ]; then
    cat "$DIR/dunst-displayed.jsonl" >>"$DIR/dunst-displayed.previous.jsonl"
  fi
  : >"$DIR/dunst-displayed.jsonl"
  launch dunst "$DIR/logs/dunst.log" - DISPLAY="$display" DBUS_SESSION_BUS_ADDRESS="$address" \
    XDG_RUNTIME_DIR="$DIR/runtime" -- dunst -config "$DIR/dunst/dunstrc" -verbosity info
  wait_until dunst "$NOTIFICATIONS on the bus" "$1" name_owned "$address" "$NOTIFICATIONS"
}

stop_dunst() { # TIMEOUT
  local address pid
  address=$(env_value DBUS_SESSION_BUS_ADDRESS)
  if record_alive dunst; then
    pid=$(record_pid dunst)
    kill_processes "$(members_of "$pid")"
  fi
  rm -f "$DIR/pids/dunst"
  wait_for "$NOTIFICATIONS to leave the rig's bus" "$1" name_gone "$address" "$NOTIFICATIONS" \
    || fail "$NOTIFICATIONS is still owned on the rig's bus after dunst stopped"
}

env_value() { # NAME -> its value in DIR/env
  local line
  line=$(grep "^export $1=" "$DIR/env" 2>/dev/null) || fail "no rig in $DIR (no $1 in $DIR/env)"
  line=${line#*=\'}
  echo "${line%\'}"
}

write_env() { # NAME=VALUE...
  local kv
  : >"$DIR/env.tmp"
  for kv in "$@"; do
    printf "export %s='%s'\n" "${kv%%=*}" "$(printf %s "${kv#*=}" | sed "s/'/'\\\\''/g")" >>"$DIR/env.tmp"
  done
  mv "$DIR/env.tmp" "$DIR/env"
}

# ---- stopping ----

# Every process of the session PID leads (the rig starts each part with setsid, so their children,
# e.g. dunst's scripts, share it), unless PID now names an unrelated process.
members_of() { # PID [STARTTIME]
  local leader=$1 st=${2:-} p stat
  if [ -n "$st" ] && [ -e "/proc/$leader" ] && [ "$(starttime "$leader" 2>/dev/null)" != "$st" ]; then
    return 0  # the number was reused: not ours
  fi
  for p in /proc/[0-9]*; do
    p=${p#/proc/}
    { read -r stat <"/proc/$p/stat"; } 2>/dev/null || continue
    stat=${stat##*) }
    set -- $stat
    if [ "$4" = "$leader" ] || [ "$p" = "$leader" ]; then
      [ "$1" = Z ] || echo "$p"
    fi
  done
}

ancestors() {
  local p=$$
  while [ -n "$p" ] && [ "$p" != 0 ]; do
    echo "$p"
    p=$(awk '/^PPid:/ {print $2}' "/proc/$p/status" 2>/dev/null) || break
  done
}

kill_processes() { # "PID PID ..." : TERM, then KILL what is left after 5 s; true when none is left
  local pids=() p keep
  keep=" $(ancestors | tr '\n' ' ') $BASHPID "
  for p in $1; do
    case "$keep" in *" $p "*) continue ;; esac
    pids+=("$p")
  done
  [ ${#pids[@]} -gt 0 ] || return 0
  local st=() i
  for p in "${pids[@]}"; do st+=("$(starttime "$p" 2>/dev/null || echo gone)"); done
  kill -TERM "${pids[@]}" 2>/dev/null || true
  local left
  for ((i = 0; i < 140; i++)); do
    left=()
    for ((p = 0; p < ${#pids[@]}; p++)); do
      alive "${pids[$p]}" "${st[$p]}" && left+=("${pids[$p]}")
    done
    [ ${#left[@]} -eq 0 ] && return 0
    [ "$i" -eq 100 ] && kill -KILL "${left[@]}" 2>/dev/null || true   # after 5 s
    sleep 0.05
  done
  say "still running after SIGKILL: ${left[*]}"
  return 1
}

do_stop() {
  [ -d "$DIR/pids" ] || return 0
  local f name pid st all pass status=0
  # dunst first, while its bus still answers (else it logs "Cannot connect to DBus"); then the
  # rest; then once more, for a child a part may have started between the scan and the signal.
  for pass in dunst all again; do
    all=""
    for f in "$DIR"/pids/*; do
      [ -f "$f" ] || continue
      name=${f##*/}
      [ "$pass" != dunst ] || [ "$name" = dunst ] || continue
      read -r pid st <"$f" || continue
      all+=" $(members_of "$pid" "$st" | tr '\n' ' ')"
    done
    kill_processes "$all" || status=1
  done
  if [ "$status" -eq 0 ]; then
    rm -rf "$DIR/pids" "$DIR/bus" "$DIR/env" "$DIR/monitor.ready"
  fi
  return $status
}

# ---- commands ----

# Starts every part (options as for start); on any failure stops what it started and exits 1.
rig_up() {
  local no_dunst=0 system_bus=0 a11y=0 permission_store=0 watch_pid="" timeout=10 screen=1280x800x24
  DUNSTRC_EXTRA=""
  while [ $# -gt 0 ]; do
    case "$1" in
      --no-dunst) no_dunst=1; shift ;;
      --system-bus) system_bus=1; shift ;;
      --a11y) a11y=1; shift ;;
      --permission-store) permission_store=1; shift ;;
      --watch-pid) watch_pid=${2:?--watch-pid needs a PID}; shift 2 ;;
      --timeout) timeout=${2:?--timeout needs seconds}; shift 2 ;;
      --screen) screen=${2:?--screen needs WxHxD}; shift 2 ;;
      --dunstrc-extra) DUNSTRC_EXTRA=$(readlink -f "${2:?--dunstrc-extra needs a file}"); shift 2 ;;
      *) say "unknown start option $1 (see --help)"; exit 64 ;;
    esac
  done
  case "$timeout" in ''|*[!0-9]*) say "--timeout takes whole seconds"; exit 64 ;; esac
  if [ -n "$watch_pid" ] && ! kill -0 "$watch_pid" 2>/dev/null; then fail "--watch-pid $watch_pid: no such process"; fi
  if [ -n "$DUNSTRC_EXTRA" ] && [ ! -r "$DUNSTRC_EXTRA" ]; then fail "--dunstrc-extra: cannot read it"; fi
  local missing=() tool
  for tool in dbus-daemon dbus-send Xvfb dunst setsid perl; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
  done
  "$PY" -c 'import gi; gi.require_version("Gio", "2.0"); from gi.repository import Gio' 2>/dev/null || missing+=("python3-gi ($PY)")
  if [ "$a11y" = 1 ] && [ ! -x "$A11Y_LAUNCHER" ]; then missing+=("$A11Y_LAUNCHER (at-spi2-core)"); fi
  if [ "$permission_store" = 1 ] && [ ! -x "$PERMISSION_STORE" ]; then missing+=("$PERMISSION_STORE (xdg-desktop-portal)"); fi
  [ ${#missing[@]} -eq 0 ] || fail "missing ${missing[*]}; run scripts/install-deps.sh"

  local n
  for n in "$DIR"/pids/*; do
    [ -f "$n" ] || continue
    if record_alive "${n##*/}"; then fail "a rig already runs in $DIR (${n##*/}); stop it first"; fi
  done
  if [ ${#DIR} -gt 90 ]; then
    fail "$DIR is too long for the bus sockets in it (unix socket paths end at 107 bytes); use a shorter directory"
  fi
  rm -rf "$DIR/pids" "$DIR/bus" "$DIR/env" "$DIR/monitor.ready"
  mkdir -p "$DIR/pids" "$DIR/bus" "$DIR/logs" "$DIR/runtime" "$DIR/session-services"
  chmod 700 "$DIR/runtime"
  : >"$DIR/notifications.jsonl"
  : >"$DIR/dunst-displayed.jsonl"
  rm -f "$DIR/dunst-displayed.previous.jsonl" "$DIR"/logs/*.log

  trap 'status=$?; if [ $status -ne 0 ]; then say "start failed; stopping what it started"; do_stop || true; fi' EXIT

  local session_address system_address="" display
  start_bus session "$timeout"
  session_address=$BUS_ADDRESS
  if [ "$system_bus" = 1 ]; then
    mkdir -p "$DIR/system-services"
    start_bus system "$timeout"
    system_address=$BUS_ADDRESS
  fi
  start_xvfb "$screen" "$timeout"
  display=$X_DISPLAY

  launch monitor "$DIR/logs/monitor.log" - -- "$PY" "$HELPER" monitor "$DIR" "$session_address"
  wait_until monitor "monitoring" "$timeout" test -s "$DIR/monitor.ready"

  local envs=("DBUS_SESSION_BUS_ADDRESS=$session_address" "DISPLAY=$display"
              "XDG_RUNTIME_DIR=$DIR/runtime" "NFCSCAN_RIG_DIR=$DIR")
  [ -z "$system_address" ] || envs+=("DBUS_SYSTEM_BUS_ADDRESS=$system_address")
  write_env "${envs[@]}"
  if [ "$a11y" = 1 ]; then
    start_a11y "$session_address" "$display" "$timeout"
  fi
  if [ "$permission_store" = 1 ]; then
    start_permission_store "$session_address" "$timeout"
  fi
  write_dunst_config
  if [ "$no_dunst" = 0 ]; then
    start_dunst "$timeout"
  fi
  if [ -n "$watch_pid" ]; then
    launch guard "$DIR/logs/guard.log" - -- bash -c \
      'tail --pid="$1" -s 0.2 -f /dev/null; echo "process $1 ended: stopping the rig"; exec "$2" stop "$3"' \
      guard "$watch_pid" "$SELF" "$DIR"
  fi
  trap - EXIT
}

cmd_start() {
  rig_up "$@"
  cat "$DIR/env"
}

# run DIR [start options] -- COMMAND...: the rig around one command, which gets its variables;
# stops the rig after it (or on INT/TERM) and exits with its status. The parts stay children of
# this shell, which reaps them: no zombie is left even under an init that reaps nothing.
cmd_run() {
  local opts=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do opts+=("$1"); shift; done
  [ "${1:-}" = -- ] && [ $# -ge 2 ] || { say "run needs -- COMMAND"; exit 64; }
  shift
  rig_up "${opts[@]}"
  local child="" status=0
  trap 'trap - INT TERM; [ -z "$child" ] || kill -TERM "$child" 2>/dev/null; do_stop || true; wait; exit 143' INT TERM
  (
    set -a
    . "$DIR/env"
    set +a
    exec "$@"
  ) </dev/null &
  child=$!
  wait "$child" || status=$?
  child=""
  do_stop || { [ "$status" -ne 0 ] || status=1; }
  wait   # reap the parts
  exit "$status"
}

main() {
  local command=${1:-}
  case "$command" in
    -h|--help|help) usage; exit 0 ;;
    start|run|stop|start-dunst|stop-dunst|status|shown|invoke|close|screenshot) ;;
    *) usage >&2; exit 64 ;;
  esac
  [ $# -ge 2 ] || { say "$command needs the rig directory"; exit 64; }
  case "$2" in *[[:space:]\'\"\\\$\`]*) fail "the rig directory must not hold spaces, quotes, \\, \$ or \`: $2" ;; esac
  if [ "$command" = start ] || [ "$command" = run ]; then mkdir -p "$2"; fi
  [ -d "$2" ] || fail "no directory $2"
  DIR=$(cd "$2" && pwd -P)
  shift 2
  case "$command" in
    start) cmd_start "$@" ;;
    run) cmd_run "$@" ;;
    stop)
      if do_stop; then say "stopped"; else fail "could not stop everything (see above)"; fi ;;
    start-dunst)
      record_alive dbus-session || fail "no rig runs in $DIR"
      record_alive dunst && fail "dunst already runs in the rig in $DIR"
      start_dunst "${1:-10}" ;;
    stop-dunst)
      record_alive dbus-session || fail "no rig runs in $DIR"
      stop_dunst "${1:-10}" ;;
    status)
      local n pid
      for n in "$DIR"/pids/*; do
        [ -f "$n" ] || continue
        pid=$(record_pid "${n##*/}")
        if record_alive "${n##*/}"; then echo "${n##*/} $pid running"; else echo "${n##*/} $pid gone"; fi
      done ;;
    screenshot)
      [ $# -eq 1 ] || { say "screenshot needs the FILE to write"; exit 64; }
      record_alive xvfb || fail "no rig runs in $DIR"
      command -v import >/dev/null 2>&1 || fail "missing import (imagemagick); run scripts/install-deps.sh"
      import -window root -display "$(env_value DISPLAY)" "$1" || fail "import could not take the screenshot" ;;
    shown|invoke|close) exec "$PY" "$HELPER" "$command" "$DIR" "$@" ;;
  esac
}

main "$@"
