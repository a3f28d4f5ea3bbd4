#!/usr/bin/env bash
# The figures of a station publishing to an MQTT broker (issue 15; Docs/performance.md): builds
# broker-bench in release mode, starts Debian's mosquitto on a free 127.0.0.1 port with its own
# configuration (no persistence), runs the bench against it, and stops it.
#
# Usage: Benchmarks/broker-bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product broker-bench >/dev/null
bin=$(swift build -c release --show-bin-path)/broker-bench
dir=$(mktemp -d "${TMPDIR:-/tmp}/nfcscan-broker-bench.XXXXXX")
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
printf 'listener %s 127.0.0.1\nuser %s\npersistence false\nallow_anonymous true\nlog_dest stderr\nmax_queued_messages 0\n' \
  "$port" "$(id -un)" >"$dir/mosquitto.conf"
mosquitto -c "$dir/mosquitto.conf" 2>"$dir/mosquitto.log" &
broker=$!
trap 'kill $broker 2>/dev/null || true; wait $broker 2>/dev/null || true; rm -rf "$dir"' EXIT
until grep -q " running" "$dir/mosquitto.log"; do
  kill -0 $broker 2>/dev/null || { cat "$dir/mosquitto.log" >&2; exit 1; }
  sleep 0.05
done
echo "broker-bench: $(nproc) cores, $(uname -m), load $(cut -d' ' -f1 /proc/loadavg), commit $(git rev-parse --short HEAD)"
"$bin" "$port"
