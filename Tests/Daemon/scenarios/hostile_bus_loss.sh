# shellcheck shell=bash

# Issue 20, off the bus: when nfcscand's connection ends (here the session bus itself goes away,
# as dbus-daemon also drops a connection that sends a message over its limit), nfcscand does not
# live on unreachable: it exits 69 at once, saying why, so that systemd restarts it.
scenario_hostile_bus_loss() {
  begin hostile-bus-loss
  sim --uri https://example.com/poster --after 600 --for 2
  daemon
  local bus_pid; bus_pid=$(pgrep -f "dbus-daemon --config-file=$DIR/session.conf" | head -n 1)
  check "the rig's session bus found" test -n "$bus_pid"
  kill -KILL "$bus_pid"
  wait_for "nfcscand to exit" 10 eval '! kill -0 "$DAEMON_PID"' || true
  local status=0
  wait "$DAEMON_PID" || status=$?
  check "nfcscand exited 69 (systemd's Restart=on-failure starts it again)" test "$status" = 69
  check "it said why" grep -q "the bus connection ended.*exiting so that nfcscand is started again" "$DIR/nfcscand.log"
  finish
}
