# shellcheck shell=bash

# The whole path: an object matched to an app, one notification that follows the copy rules, the
# person chooses it, the app receives the decoded object exactly once; the object left on the
# reader does not notify again; the API's introspection is the documented one.
scenario_handler() {
  begin handler
  sim --uri https://example.com/poster/summer --text "Summer concert" --after 4 --for 4
  daemon
  # The daemon takes its name before it has opened the reader: wait for that (a timeout is a failed check).
  wait_for "BackgroundReading true with a reader" 10 eval 'test "$(get_property BackgroundReading)" = "b true"' &&
    ok "BackgroundReading is true with a reader"
  check "PausedReasons is empty" test "$(get_property PausedReasons)" = "as 0"
  app Posters --filter uri-scheme=https,uri-host=example.com --desktop-entry org.example.Posters --icon org.example.Posters
  wait_offer "the offer on screen"
  local n; n=$(shown --all | tail -n 1)
  echo "$n" >"$DIR/offer.json"
  check "summary names the app and what it offers: $(json "$DIR/offer.json" 'd["summary"]')" \
    test "$(json "$DIR/offer.json" 'd["summary"]')" = "Open the link in Posters?"
  check "body names the link" test "$(json "$DIR/offer.json" 'd["body"]')" = "The item links to https://example.com/poster/summer."
  check "summary and body follow the copy rules" copy_ok "$(json "$DIR/offer.json" 'd["summary"] + " " + d["body"]')"
  check "summary and body are sentences" sentence "$(json "$DIR/offer.json" 'd["body"]')"
  check "button is one word: Open" test "$(json "$DIR/offer.json" '[a["label"] for a in d["actions"] if a["key"]=="open"][0]')" = "Open"
  check "hints: category and desktop-entry" test "$(json "$DIR/offer.json" 'd["hints"]["category"] + " " + d["hints"]["desktop-entry"]')" = "x-nfcscan.object org.example.Posters"
  check "app name and icon from its desktop entry" test "$(json "$DIR/offer.json" 'd["appname"] + " " + d["app_icon"]')" = "Posters org.example.Posters"
  check "it expires" test "$(json "$DIR/offer.json" 'd["expire_timeout"]')" -gt 0
  bash "$RIG" invoke "$DIR" open >/dev/null
  wait_for "HandleScan" 10 eval 'test "$(lines "$DIR/app-Posters.jsonl")" -ge 1' || true
  wait_for "the delivery done" 10 grep -q "sent an object to Posters" "$DIR/nfcscand.log" || true
  object_gone_for 0.5   # the object stayed, then left: no second notification, no second delivery
  check "the app received the object exactly once" test "$(lines "$DIR/app-Posters.jsonl")" = 1
  check "HandleScan's object follows scan.schema.json (as nfcscan --json)" test "$(json "$DIR/app-Posters.jsonl" 'd["schema_problems"]')" = "[]"
  local rec=$DIR/app-Posters.jsonl
  check "it is the decoded message: the link" test "$(json "$rec" 'd["scan"]["records"][0]["uri"]')" = "https://example.com/poster/summer"
  check "and the text" test "$(json "$rec" 'd["scan"]["records"][1]["text"]')" = "Summer concert"
  check "with the object's identity (reader, backend)" test "$(json "$rec" 'd["scan"]["object"]["backend"]')" = "libnfc"
  check "wire types: registration u, object a{sv}, records av, round_trips x" \
    test "$(json "$rec" 'd["types"]["/registration"]+d["types"]["/object"]+d["types"]["/records"]+d["types"]["/object/round_trips"]')" = "ua{sv}avx"
  check "genuine b: the chip's originality, checked where it was read (Docs/authenticity.md)" \
    test "$(json "$rec" 'd["types"].get("/object/genuine", "absent")')" = "b"
  check "registration is the one RegisterHandler returned" test "$(json "$rec" 'd["scan"]["registration"] == d["registration"]')" = True
  check "one notification for an object left on the reader" test "$(grep -c '"event": "notify"' "$DIR/notifications.jsonl" || true)" = 1
  busctl --address="$DBUS_SESSION_BUS_ADDRESS" --user call org.nfcscan.Scanner1 /org/nfcscan/Scanner1 \
    org.freedesktop.DBus.Introspectable Introspect --json=short | "$PY" -c 'import json,sys; sys.stdout.write(json.load(sys.stdin)["data"][0])' >"$DIR/introspect.xml"
  check "live introspection is Docs/dbus/org.nfcscan.Scanner1.xml" cmp -s "$DIR/introspect.xml" "$ROOT/Docs/dbus/org.nfcscan.Scanner1.xml"
  busctl --address="$DBUS_SESSION_BUS_ADDRESS" --user call org.nfcscan.Scanner1 /org/nfcscan/Scanner1/readers/1 \
    org.freedesktop.DBus.Introspectable Introspect --json=short | "$PY" -c 'import json,sys; sys.stdout.write(json.load(sys.stdin)["data"][0])' >"$DIR/introspect-reader.xml"
  check "a reader's introspection is Docs/dbus/org.nfcscan.Reader1.xml" cmp -s "$DIR/introspect-reader.xml" "$ROOT/Docs/dbus/org.nfcscan.Reader1.xml"
  check "GetManagedObjects lists the reader" bash -c "busctl --address='$DBUS_SESSION_BUS_ADDRESS' --user call org.nfcscan.Scanner1 /org/nfcscan/Scanner1 org.freedesktop.DBus.ObjectManager GetManagedObjects | grep -q pn532_uart"
  kill -TERM "$DAEMON_PID"
  local status=0; wait "$DAEMON_PID" || status=$?
  check "SIGTERM stops it cleanly (exit 0)" test "$status" = 0
  check "nfcscan status: the service is not running, and how to start it" test "$("$BUILD/nfcscan" status)" = \
    "Background scanning is off: its service isn't running.
Start it with “systemctl --user start nfcscand”."
  finish
}
