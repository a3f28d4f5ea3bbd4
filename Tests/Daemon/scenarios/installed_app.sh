# shellcheck shell=bash

# Issue 13: an installed app that is not running receives the object it declares in its desktop
# entry. The application directories are the scenario's own (XDG_DATA_HOME, XDG_DATA_DIRS); the
# app's desktop entry is installed while nfcscand runs (inotify), it is D-Bus activatable, and its
# service file (in the rig's session service directory) starts test_handler_app.py --activated:
# nothing runs before the person chooses the notification, then the bus starts the app once and
# it gets HandleScan exactly once. Hostile desktop entries (field codes in quotes, `sh -c %u`,
# a shell substitution) sit beside it: refused with their file and line, nothing of theirs runs.
scenario_installed_app() {
  begin installed_app
  app_dirs
  local pwned=$DIR/pwned
  printf '[Desktop Entry]\nType=Application\nName=Quoted\nExec=sh -c "touch %s %%u"\nX-NFCScan-Filters=uri-scheme=https\n' \
    "$pwned" >"$XDG_DATA_HOME/applications/org.example.Quoted.desktop"
  printf '[Desktop Entry]\nType=Application\nName=Script\nExec=sh -c %%u\nX-NFCScan-Filters=uri-scheme=https,uri-host=example.com\n' \
    >"$XDG_DATA_DIRS/applications/org.example.Script.desktop"
  printf '[Desktop Entry]\nType=Application\nName=Subst\nExec=sh -c $(touch %s) %%f\nX-NFCScan-Filters=uri-scheme=https\n' \
    "$pwned" >"$XDG_DATA_DIRS/applications/org.example.Subst.desktop"
  printf '[Desktop Entry]\nType=Application\nName=Typo\nExec=typo %%u\nX-NFCScan-Filters=uri-scheme=https,uri-hots=example.com\n' \
    >"$XDG_DATA_DIRS/applications/org.example.Typo.desktop"
  cat >"$NFCSCAN_RIG_DIR/session-services/org.nfcscan.TestPosters.service" <<SERVICE
[D-BUS Service]
Name=org.nfcscan.TestPosters
Exec=$PY $SUPPORT/test_handler_app.py --activated --app-name Posters --bus-name org.nfcscan.TestPosters --object-path /org/nfcscan/TestPosters --record $DIR/app-Posters.jsonl --started $DIR/app-started.log
SERVICE
  sim --uri https://example.com/poster/summer --after 8 --for 4
  daemon
  "$BUILD/nfcscan" apps --json >"$DIR/apps-before.json"
  check "nfcscan apps --json follows its schema" valid_json apps "$DIR/apps-before.json"
  check "nfcscan apps: no installed app yet" test "$(json "$DIR/apps-before.json" 'len(d["apps"])')" = 0
  check "the four hostile or mistaken entries are refused" test "$(json "$DIR/apps-before.json" 'len(d["refused"])')" = 4
  check "a field code in quotes: refused with its file and line" \
    grep -q "org.example.Quoted.desktop:4: Exec: a field code inside a quoted argument" "$DIR/apps-before.json"
  check "sh -c %u: refused" grep -q "org.example.Script.desktop:4: Exec: a field code after -c" "$DIR/apps-before.json"
  check "a shell substitution: refused" grep -q "org.example.Subst.desktop:4: Exec: '\\$' must be inside double quotes" "$DIR/apps-before.json"
  check "a misspelt filter key: RegisterHandler's message" grep -q 'org.example.Typo.desktop:5: X-NFCScan-Filters: filter 0: unknown filter key' "$DIR/apps-before.json"
  check "the daemon logged them" grep -q "a desktop entry's declaration is ignored: .*org.example.Quoted.desktop:4" "$DIR/nfcscand.log"

  # Installed while nfcscand runs.
  printf '[Desktop Entry]\nType=Application\nName=Posters\nIcon=org.nfcscan.TestPosters\nDBusActivatable=true\nExec=false\nX-NFCScan-Filters=uri-scheme=https,uri-host=example.com,uri-path-prefix=/poster;media-type=text/vcard;\n' \
    >"$XDG_DATA_HOME/applications/org.nfcscan.TestPosters.desktop.tmp"
  mv "$XDG_DATA_HOME/applications/org.nfcscan.TestPosters.desktop.tmp" "$XDG_DATA_HOME/applications/org.nfcscan.TestPosters.desktop"
  wait_for "nfcscan apps lists the installed app" 5 eval '"$BUILD/nfcscan" apps | grep -q "^Posters  (org.nfcscan.TestPosters)  installed  started through D-Bus"' || true
  "$BUILD/nfcscan" apps >"$DIR/apps.txt"
  check "with its filters" grep -qx "  uri-scheme=https,uri-host=example.com,uri-path-prefix=/poster" "$DIR/apps.txt"
  check "the app is not running before the object" bash -c "! busctl --address='$DBUS_SESSION_BUS_ADDRESS' --user status org.nfcscan.TestPosters >/dev/null 2>&1"

  wait_offer "the offer on screen"
  shown --all | tail -n 1 >"$DIR/offer.json"
  check "the offer names the installed app: $(json "$DIR/offer.json" 'd["summary"]')" \
    test "$(json "$DIR/offer.json" 'd["summary"]')" = "Open the link in Posters?"
  check "hints: its desktop entry" test "$(json "$DIR/offer.json" 'd["hints"]["desktop-entry"]')" = "org.nfcscan.TestPosters"
  check "still nothing started before the person chooses" test ! -e "$DIR/app-started.log"
  bash "$RIG" invoke "$DIR" open >/dev/null
  wait_for "HandleScan in the started app" 20 eval 'test "$(lines "$DIR/app-Posters.jsonl")" -ge 1' || true
  wait_for "the delivery done" 10 grep -q "sent an object to Posters" "$DIR/nfcscand.log" || true
  object_gone_for 0.5
  check "the bus started the app once" test "$(lines "$DIR/app-started.log")" = 1
  check "it received the object exactly once" test "$(lines "$DIR/app-Posters.jsonl")" = 1
  check "the decoded link" test "$(json "$DIR/app-Posters.jsonl" 'd["scan"]["records"][0]["uri"]')" = "https://example.com/poster/summer"
  check "desktop-entry names the declaration" test "$(json "$DIR/app-Posters.jsonl" 'd["scan"]["desktop-entry"]')" = "org.nfcscan.TestPosters"
  check "nothing of the hostile entries ran" test ! -e "$pwned"

  # Removed while nfcscand runs.
  rm "$XDG_DATA_HOME/applications/org.nfcscan.TestPosters.desktop"
  wait_for "nfcscan apps drops the removed app" 5 eval '! "$BUILD/nfcscan" apps | grep -q "^Posters"' || true
  check "the removal is logged" grep -q "Posters (org.nfcscan.TestPosters.desktop) no longer declares" "$DIR/nfcscand.log"
  kill -TERM "$DAEMON_PID"; wait "$DAEMON_PID" || true
  local status=0; "$BUILD/nfcscan" apps >"$DIR/apps-off.txt" 2>&1 || status=$?
  check "nfcscan apps without nfcscand: exit 69 and says so" \
    test "$status:$(cat "$DIR/apps-off.txt")" = "69:Background scanning is off: its service isn't running.
Start it with “systemctl --user start nfcscand”."
  finish
}
