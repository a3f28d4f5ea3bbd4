#!/usr/bin/env bash
# The main job, whole, on a desktop of its own (issue 21): nfcscand on a private session bus with a
# real notification server (dunst) on a virtual display (Xvfb), a poster held near a simulated
# reader, the notification offering it to the app made for it, the person's choice (simulated:
# the notification's action invoked as dunst does it), the app started with the object; then the
# same app, sandboxed as Flatpak lays it out, scanning in-app: nfcscand's own sheet asks the person
# once ("Allow Posters to use items you hold near the reader?"), the answer simulated through the
# sheet's accessibility interface (as a screen reader presses a button), and the poster read.
# Screenshots (PNG) of the notification and of the sheet go to OUT (default .build/demo); their
# paths are printed.
#
# Nothing opens to the network or changes a setting of this machine or person: the bus, the
# display, the notification server, the permission store (its database), the apps' directories and
# the reader are all private to a temporary directory, removed at the end.
# Usage: scripts/demo-desktop.sh [BIN_DIR] [OUT]   (default .build/release, .build/demo)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
bin=$(readlink -f "${1:-.build/release}")
out=$(mkdir -p "${2:-.build/demo}" && readlink -f "${2:-.build/demo}")
RIG=$ROOT/Tests/Support/desktop-rig.sh
SUPPORT=$ROOT/Tests/Support
PY=/usr/bin/python3
TESTLIB_NAME=demo TESTLIB_POLL=0.1
# shellcheck source=Tests/Support/testlib.sh
. "$SUPPORT/testlib.sh"

for program in nfcscand nfcsim nfcscan-sheet; do
  [ -x "$bin/$program" ] || { say "no $bin/$program: make release"; exit 66; }
done
work=$(mktemp -d /tmp/nfcscan-demo.XXXXXX)
cleanup() {
  jobs -p | xargs -r kill 2>/dev/null || true
  wait 2>/dev/null || true
  bash "$RIG" stop "$work/rig" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

step() { printf '\n== %s\n' "$*"; }
shot() { # NAME: a screenshot of the virtual display
  bash "$RIG" screenshot "$work/rig" "$out/$1.png" && [ -s "$out/$1.png" ] && echo "   screenshot: $out/$1.png"
}

step "A desktop of its own: a private session bus, a virtual display, dunst, a screen reader's bus, a permission store"
mkdir -p "$work/rig"
eval "$(bash "$RIG" start "$work/rig" --a11y --permission-store --watch-pid $$)"
export GSETTINGS_BACKEND=memory LC_ALL=C.UTF-8 XDG_DATA_HOME=$work/data XDG_DATA_DIRS=$work/data-system \
  XDG_CONFIG_HOME=$work/config XDG_STATE_HOME=$work/state
mkdir -p "$XDG_DATA_HOME/applications" "$XDG_DATA_DIRS" "$XDG_CONFIG_HOME" "$XDG_STATE_HOME"
convert -size 64x64 xc:'#c0392b' -fill white -draw 'rectangle 14,12 50,52' "$work/posters.png"
# The app made for the poster: its desktop entry names it and asks for the poster's links.
printf '[Desktop Entry]\nType=Application\nName=Posters\nIcon=%s\nExec=%s %s %s --object %%f\nX-NFCScan-Filters=uri-scheme=https,uri-host=example.com\n' \
  "$work/posters.png" "$PY" "$SUPPORT/exec_test_app.py" "$work/received.jsonl" >"$XDG_DATA_HOME/applications/org.example.Posters.desktop"
echo "   installed: Posters (org.example.Posters.desktop), for links to example.com"

step "A poster lies on a simulated reader; nfcscand reads it in the background"
"$bin/nfcsim" pn532 --type ntag215 --uri https://example.com/summer-concert --text "Summer concert in the park, Saturday 8 pm" \
  --link "$work/reader" --after 2 --for 600 >"$work/nfcsim.log" 2>&1 &
wait_for "the simulated reader" 10 test -e "$work/reader"
LIBNFC_DEVICE="pn532_uart:$work/reader" LIBNFC_AUTO_SCAN=false "$bin/nfcscand" --sheet auto --camera-devices "" --rfkill-device "" \
  >"$work/nfcscand.log" 2>&1 &
wait_for "the offer on screen" 30 eval 'bash "$RIG" shown "$work/rig" | grep -q summary'
bash "$RIG" shown "$work/rig" | tail -n 1 >"$work/offer.json"
echo "   notification: $($PY -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["summary"], "—", d.get("body", ""))' "$work/offer.json")"
shot notification

step "The person chooses it: Posters starts with the poster"
bash "$RIG" invoke "$work/rig" open >/dev/null
wait_for "Posters started" 15 test -s "$work/received.jsonl"
echo "   Posters received: $($PY -c 'import json,sys; d=json.loads(open(sys.argv[1]).readline()); f=d["files"][d["argv"][1]]["json"]; print(f["records"][0]["uri"], "+", f["records"][1]["text"])' "$work/received.jsonl")"

step "Posters, sandboxed as Flatpak lays it out, scans in-app: nfcscand's own sheet asks first"
"$SUPPORT/flatpak_sandbox.sh" --writable "$work" org.example.Posters -- "$PY" "$SUPPORT/scan_session_client.py" --object poster \
  --record "$work/session.jsonl" >"$work/session.log" 2>&1 &
wait_for "the sheet's question" 30 "$PY" "$SUPPORT/sheet_atspi.py" has label "Allow Posters to use items you hold near the reader?"
echo "   sheet: Allow Posters to use items you hold near the reader?  [Don't Allow] [Allow]"
shot sheet-question
"$PY" "$SUPPORT/sheet_atspi.py" press Allow
echo "   the person presses Allow (kept in the permission store: nfcscan apps lists it)"
wait_for "the poster read for Posters" 30 grep -q detected "$work/session.jsonl"
wait_for "the sheet's ending" 10 "$PY" "$SUPPORT/sheet_atspi.py" has label "Done. You can take the poster away."
echo "   sheet: Done. You can take the poster away."
shot sheet-done
echo "   Posters' session got: $($PY -c 'import json,sys; print([json.loads(l) for l in open(sys.argv[1]) if "detected" in l][0]["uri"])' "$work/session.jsonl")"
"$bin/nfcscan" apps | sed -n 's/^/   nfcscan apps: /p'
