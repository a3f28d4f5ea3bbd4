# shellcheck shell=bash

# Issue 13: an installed app that is not D-Bus activatable is started through its desktop
# entry's Exec line when the person chooses the offer: no shell, the object's JSON in a private
# file (0600 in $XDG_RUNTIME_DIR/nfcscan) for %f, removed once the app has exited; the app
# inherits none of the daemon's descriptors. Beside it an entry whose Exec hides a field code in
# quotes (`sh -c "... %f"`) asks for the same object more specifically: refused, never run.
scenario_exec_app() {
  begin exec_app
  app_dirs
  mkdir -p "$XDG_DATA_DIRS/applications/example"
  local pwned=$DIR/pwned
  printf '[Desktop Entry]\nType=Application\nName=Menu Reader\nIcon=menu\nExec=%s %s %s --object %%f --name %%c\nX-NFCScan-Filters=uri-scheme=https,uri-host=example.com\n' \
    "$PY" "$SUPPORT/exec_test_app.py" "$DIR/exec.jsonl" >"$XDG_DATA_DIRS/applications/example/menu.desktop"
  printf '[Desktop Entry]\nType=Application\nName=Sneaky\nExec=sh -c "touch %s; cat %%f"\nX-NFCScan-Filters=uri-scheme=https,uri-host=example.com,uri-path-prefix=/menu\n' \
    "$pwned" >"$XDG_DATA_HOME/applications/sneaky.desktop"
  sim --uri https://example.com/menu --text "Lunch menu" --after 4 --for 3
  daemon
  "$BUILD/nfcscan" apps >"$DIR/apps.txt"
  check "nfcscan apps: the app, from its subdirectory's desktop file ID" \
    grep -q "^Menu Reader  (example-menu)  installed  started with its Exec line" "$DIR/apps.txt"
  check "the sneaky entry is ignored with its line" grep -q "^ignored: .*sneaky.desktop:4: Exec: a field code inside a quoted argument" "$DIR/apps.txt"
  wait_offer "the offer on screen"
  shown --all | tail -n 1 >"$DIR/offer.json"
  check "the offer names the app: $(json "$DIR/offer.json" 'd["summary"]')" test "$(json "$DIR/offer.json" 'd["summary"]')" = "Open the link in Menu Reader?"
  check "nothing started before the choice" test ! -e "$DIR/exec.jsonl"
  bash "$RIG" invoke "$DIR" open >/dev/null
  wait_for "the app started" 10 eval 'test "$(lines "$DIR/exec.jsonl")" -ge 1' || true
  wait_for "the start logged" 10 grep -q "started Menu Reader with an object" "$DIR/nfcscand.log" || true
  local rec=$DIR/exec.jsonl file
  file=$(json "$rec" 'd["argv"][1]')
  check "argv: --object FILE --name NAME, no shell" test "$(json "$rec" 'd["argv"][0] + "|" + d["argv"][2] + "|" + d["argv"][3]')" = "--object|--name|Menu Reader"
  check "the file is in \$XDG_RUNTIME_DIR/nfcscan: $file" test "$(dirname "$file")" = "$XDG_RUNTIME_DIR/nfcscan"
  check "the private directory is 0700" test "$(stat -c %a "$XDG_RUNTIME_DIR/nfcscan")" = 700
  check "the file was readable only by the person (0600)" test "$(json "$rec" 'd["files"][d["argv"][1]]["mode"]')" = 0600
  check "it holds the object's JSON: the link" test "$(json "$rec" 'd["files"][d["argv"][1]]["json"]["records"][0]["uri"]')" = "https://example.com/menu"
  check "and the text" test "$(json "$rec" 'd["files"][d["argv"][1]]["json"]["records"][1]["text"]')" = "Lunch menu"
  check "no descriptor of the daemon leaked: $(json "$rec" 'd["fds"]')" test "$(json "$rec" 'len(d["fds"])')" = 0
  check "standard input is /dev/null" test "$(json "$rec" 'd["stdin"]')" = /dev/null
  check "the app leads its own session" test "$(json "$rec" 'd["sid_is_pid"]')" = True
  wait_for "the file removed once the app exited" 5 eval 'test ! -e "$file"' || true
  check "the file is gone" test ! -e "$file"
  object_gone_for 0.5
  check "started exactly once" test "$(lines "$rec")" = 1
  check "nothing of the sneaky entry ran" test ! -e "$pwned"
  finish
}
