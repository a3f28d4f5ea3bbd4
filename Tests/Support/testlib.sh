# shellcheck shell=bash
# The helpers every shell test of nfcscan shares, one implementation of each:
#
#   say MESSAGE...                    one line, "$TESTLIB_NAME: MESSAGE"
#   wait_for WHAT SECONDS COMMAND...  polls COMMAND until it succeeds; on timeout says so, returns 1
#   name_owned ADDRESS NAME           whether NAME has an owner on the bus at ADDRESS
#
# Sourced by Tests/Daemon/lib.sh (so by Tests/Daemon/daemon-e2e.sh and every scenario),
# Tests/Support/desktop-rig.sh, Tests/Reliability/inhibit-session-rounds.sh,
# Tests/Package/package-test.sh, Tests/Package/in-chroot.sh (package-test.sh copies this file into
# the clean Debian root beside it) and Benchmarks/hung-peer-latency.sh.
#
# What the sourcing script sets (any time before the call; each call reads them anew):
#   TESTLIB_NAME        say's prefix (default: the script's file name)
#   TESTLIB_SAY_FD      1: say writes to standard output (default); 2: to standard error
#   TESTLIB_ON_TIMEOUT  the command wait_for gives its message to when it gives up (default say;
#                       the e2e scenarios give `bad`, which counts a failed check)
#   TESTLIB_POLL        seconds between two tries of wait_for's condition (default 0.1; the
#                       desktop rig and the reliability rounds poll every 0.05 s)
#   TESTLIB_DBUS_AS     an array: the command name_owned runs dbus-send under, e.g. setpriv to the
#                       bus's user (a session bus takes connections from its own user only)
#
# Needs bash 5 (EPOCHREALTIME), sleep and dbus-send (dbus-bin) only: it runs in the minbase
# Debian 12 root of the package test, which has no busctl.

# say MESSAGE...: "$TESTLIB_NAME: MESSAGE" on standard output, or on standard error with
# TESTLIB_SAY_FD=2.
say() {
  printf '%s: %s\n' "${TESTLIB_NAME:-${0##*/}}" "$*" >&"${TESTLIB_SAY_FD:-1}"
}

# wait_for WHAT SECONDS COMMAND...: runs COMMAND (with its arguments as given, in this shell, its
# output discarded) every TESTLIB_POLL seconds until it succeeds, and returns 0 then. After
# SECONDS (whole seconds) it gives up: "$TESTLIB_ON_TIMEOUT" "waited SECONDSs for WHAT" (say,
# unless the script chose another), and returns 1. The deadline only bounds a failure: a
# condition that holds ends the wait at once. For a condition that is not one command, or whose
# words must be expanded anew each time, give `eval 'SHELL-TEXT'` (single quotes) or a function:
#   wait_for "the emulated reader" 10 test -e "$DIR/pn532"
#   wait_for "two readers" 15 eval 'test "$(lines_matching "using reader" "$DIR/nfcscand.log")" -ge 2'
wait_for() {
  local what=$1 seconds=$2; shift 2
  case "$seconds" in ''|*[!0-9]*) say "wait_for: SECONDS must be whole seconds, not '$seconds' (waiting for $what)"; return 2 ;; esac
  # EPOCHREALTIME is seconds.microseconds (the separator follows the locale): digits only, in µs.
  local now deadline=$(( ${EPOCHREALTIME//[!0-9]/} + seconds * 1000000 ))
  until "$@" >/dev/null 2>&1; do
    now=${EPOCHREALTIME//[!0-9]/}
    if (( now >= deadline )); then
      "${TESTLIB_ON_TIMEOUT:-say}" "waited ${seconds}s for $what"
      return 1
    fi
    sleep "${TESTLIB_POLL:-0.1}"
  done
}

# name_owned ADDRESS NAME: true when NAME has an owner on the bus at ADDRESS (the bus's own
# NameHasOwner: it never starts a service, as calling NAME itself would).
name_owned() {
  local reply
  reply=$("${TESTLIB_DBUS_AS[@]}" dbus-send --bus="$1" --print-reply=literal --reply-timeout=5000 \
    --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.NameHasOwner "string:$2" 2>/dev/null) \
    && [[ $reply == *"boolean true"* ]]
}
