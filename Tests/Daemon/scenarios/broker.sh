# shellcheck shell=bash

# A station (issue 15): with [broker] in nfcscand.conf an object read in the background goes to a
# real broker (Debian's mosquitto on loopback) as one scan event with every field; availability
# is online while nfcscand runs and offline after it stops; Home Assistant's discovery is retained;
# the spool is empty once the broker has everything. A mistake in [broker] stops nfcscand naming
# the file and line.
scenario_broker() {
  begin broker
  mqtt_broker
  mkdir -p "$XDG_CONFIG_HOME/nfcscan"
  local conf=$XDG_CONFIG_HOME/nfcscan/nfcscand.conf
  printf '[broker]\nurl = mqtt://127.0.0.1:%s\nca-file = /etc/ssl/certs/ca-certificates.crt\n' "$MQTT_PORT" >"$conf"
  local status=0
  timeout 10 "$NFCSCAND" >"$DIR/bad-config.log" 2>&1 || status=$?
  check "a mistake in [broker]: exit 78" test "$status" = 78
  check "naming the file, the line and why" grep -q 'nfcscand.conf:3: ca-file needs an mqtts:// url (TLS)' "$DIR/bad-config.log"
  printf '[authenticity]\nnot-genuine = mark\n' >"$conf"
  status=0
  timeout 10 "$NFCSCAND" >"$DIR/bad-authenticity.log" 2>&1 || status=$?
  check "[authenticity] not-genuine takes report or refuse: exit 78, the file and line" \
    eval 'test "$status" = 78 && grep -q "nfcscand.conf:2: not-genuine is one of: report, refuse" "$DIR/bad-authenticity.log"'

  printf '[broker]\nurl = mqtt://127.0.0.1:%s\nstation = counter-2\n' "$MQTT_PORT" >"$conf"
  mqtt_watch "$DIR/mqtt.log" 'nfcscan/#' 'homeassistant/#'
  sim --uri https://www.home-assistant.io/tag/front-door --after 5 --for 3
  daemon
  wait_for "availability online" 15 grep -qx "nfcscan/counter-2/availability online" "$DIR/mqtt.log"
  wait_for "a scan event" 20 grep -q "^nfcscan/counter-2/scan " "$DIR/mqtt.log"
  object_gone_for 1
  check "one scan event for one object" test "$(lines_matching '^nfcscan/counter-2/scan ' "$DIR/mqtt.log")" = 1
  sed -n 's|^nfcscan/counter-2/scan ||p' "$DIR/mqtt.log" >"$DIR/scan.jsonl"
  check "the event: a UUID, seq 1, an RFC 3339 time, station, reader, uid" test "$(json "$DIR/scan.jsonl" \
    'bool(__import__("uuid").UUID(d["event_id"]) and d["seq"] == 1 and __import__("datetime").datetime.fromisoformat(d["time"].replace("Z", "+00:00")) and d["station"] == "counter-2" and d["reader"] and len(d["uid"]) >= 8)')" = True
  check "tag_id: the id of the Home Assistant tag link" test "$(json "$DIR/scan.jsonl" 'd["tag_id"]')" = front-door
  check "genuine: the object's, as nfcscan --json gives it" test "$(json "$DIR/scan.jsonl" 'type(d.get("genuine")).__name__')" = bool
  check "publish = records (the default): the records as nfcscan --json gives them" \
    test "$(json "$DIR/scan.jsonl" 'd["records"][0]["uri"]')" = https://www.home-assistant.io/tag/front-door
  wait_for "discovery for the reader" 10 eval 'grep -q "^homeassistant/tag/counter-2_[A-Za-z0-9_-]*/config " "$DIR/mqtt.log"'
  timeout 5 mosquitto_sub -h 127.0.0.1 -p "$MQTT_PORT" -t 'homeassistant/tag/#' --retained-only -W 2 -v >"$DIR/retained.log" 2>&1 || true
  check "discovery is retained, naming the scan topic" \
    grep -q '^homeassistant/tag/counter-2_[A-Za-z0-9_-]*/config {"topic":"nfcscan/counter-2/scan","value_template":' "$DIR/retained.log"
  wait_for "the spool empty" 10 eval '[ -z "$(find "$XDG_STATE_HOME/nfcscan/spool" -name "*.json")" ]'
  wait_for "Broker: connected, nothing pending" 10 eval 'get_property Broker | grep -q "\"connected\" b true \"pending\" u 0"' || true
  check "the Broker property: station, connected, nothing pending or dropped, no error" \
    test "$(get_property Broker)" = 'a{sv} 4 "station" s "counter-2" "connected" b true "pending" u 0 "dropped" t 0'
  check "nfcscan status says where scans go" bash -c '"$1" status | grep -qx "Scans are sent to the message server as counter-2."' _ "$BUILD/nfcscan"
  check "nfcscan status --json: broker connected, nothing pending" \
    test "$(status_json | "$PY" -c 'import json,sys; b=json.load(sys.stdin)["broker"]; print(b["station"], b["connected"], b["pending"], b["dropped"], "last_error" in b)')" = "counter-2 True 0 0 False"
  kill -TERM "$DAEMON_PID"
  wait "$DAEMON_PID" || true
  wait_for "availability offline after a stop" 10 eval '[ "$(grep "^nfcscan/counter-2/availability " "$DIR/mqtt.log" | tail -n 1)" = "nfcscan/counter-2/availability offline" ]' || true
  check "availability: online while it ran, a clean offline after SIGTERM" \
    test "$(sed -n 's|^nfcscan/counter-2/availability ||p' "$DIR/mqtt.log" | tr '\n' ' ')" = "online offline "

  # [authenticity] not-genuine = refuse: nfcsim's made-up NTAG213 answers READ_SIG with zeros, so
  # it is refused: logged with why, and the broker gets no scan event for it.
  printf '[broker]\nurl = mqtt://127.0.0.1:%s\nstation = counter-2\n[authenticity]\nnot-genuine = refuse\n' "$MQTT_PORT" >"$conf"
  kill "$SIM_PID" 2>/dev/null || true
  wait "$SIM_PID" 2>/dev/null || true
  rm -f "$DIR/pn532"
  sim --uri https://www.home-assistant.io/tag/front-door --after 2 --for 2
  daemon
  wait_for "the copy refused" 15 grep -q "an object whose chip is not genuine is refused: its signature is all zeros" "$DIR/nfcscand.log" || true
  check "not-genuine = refuse: the copy is logged with why and not published" \
    eval 'grep -q "is refused: its signature is all zeros" "$DIR/nfcscand.log" && test "$(lines_matching "^nfcscan/counter-2/scan " "$DIR/mqtt.log")" = 1'
  finish
}
