#!/usr/bin/env bash
# The scan sheet's program (nfcscan-sheet) on a real display, read as a screen reader reads it.
#
#   Tests/Sheet/sheet-test.sh [SHEET]     SHEET: the built program (default .build/debug/nfcscan-sheet)
#
# Under the desktop rig (Tests/Support/desktop-rig.sh: a private session bus and Xvfb, no dunst)
# it starts nfcscan-sheet with a pipe for its stdin, as nfcscand does, writes views to it
# (SheetWire lines, English and Chinese) and checks, through AT-SPI (Tests/Support/sheet_atspi.py,
# python3-pyatspi): the texts as labels and the buttons as push buttons, named; `shown` once the
# window is drawn; a button pressed through AT-SPI, Escape (typed through the registry) and the
# window's close button written as `pressed<TAB>id=…`; the view updated in place; a refused line (garbage, too long) ignored
# and the next view shown; close-after ending the program by itself (a later view without it
# cancelling the timer); the end of stdin ending it at once; Escape on an ending view closing
# it. Screenshots of the English and Chinese sheets go to the rig directory (kept on failure).
#
# AT-SPI: the rig's --a11y (Tests/Support/desktop-rig.sh) starts at-spi-bus-launcher and the
# registry on the rig's bus and display, and the sheet's GTK and pyatspi find the accessibility
# bus through the X root window's AT_SPI_BUS (GTK 4.8 has its own AT-SPI backend on X11, on by
# default; it leaves hidden widgets and those marked hidden, the sheet's mark, out of the tree).
# Escape: pyatspi's generateKeyboardEvent with KEY_SYM (the keysym number) goes through the
# registry, which types it with XTest at the focused X window (no xdotool needed).
# GSETTINGS_BACKEND=memory: GTK reads its settings without dconf (nothing written under HOME).
# LC_ALL=C.UTF-8: GTK's own words (the close button's name, "Close") in English, whatever the
# machine's locale; the sheet's words are the views' own.
#
# SHEET_TEST_KEEP=1 keeps the rig directory (screenshots, outputs, logs) after a pass too; a
# failure always keeps it. Chinese is drawn with the font fonts-wqy-microhei gives (1.6 MB; without
# a CJK font the screenshot shows boxes, and the AT-SPI checks still pass).
# Prints `sheet-test: N checks passed`; exits 1 on any failure. Needs: Xvfb, dbus, at-spi2-core,
# python3-pyatspi, imagemagick (scripts/install-deps.sh). `make sheet-test` builds and runs it.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SHEET=$(readlink -f "${1:-$ROOT/.build/debug/nfcscan-sheet}")
RIG=$ROOT/Tests/Support/desktop-rig.sh
ATSPI=(/usr/bin/python3 "$ROOT/Tests/Support/sheet_atspi.py")
TESTLIB_NAME=sheet-test TESTLIB_ON_TIMEOUT=bad TESTLIB_POLL=0.05
# shellcheck source=Tests/Support/testlib.sh
. "$ROOT/Tests/Support/testlib.sh"

[ -x "$SHEET" ] || { say "no $SHEET: swift build --product nfcscan-sheet (or make sheet-test)"; exit 1; }
for tool in /usr/libexec/at-spi-bus-launcher import identify; do
  command -v "$tool" >/dev/null || { say "missing $tool: run scripts/install-deps.sh"; exit 1; }
done
/usr/bin/python3 -c 'import pyatspi' 2>/dev/null || { say "missing python3-pyatspi: run scripts/install-deps.sh"; exit 1; }

PASSED=0 FAILED=0
ok() { PASSED=$((PASSED + 1)); }
bad() { FAILED=$((FAILED + 1)); say "FAILED: $*"; }
check() { # WHAT COMMAND...: one check, passed when COMMAND succeeds
  local what=$1; shift
  if "$@" >/dev/null 2>&1; then ok; else bad "$what"; fi
}
waited() { # WHAT SECONDS COMMAND...: one check, passed when COMMAND succeeds within SECONDS
  if wait_for "$@"; then ok; fi   # wait_for counts the failure (TESTLIB_ON_TIMEOUT=bad)
}
now_ms() { echo $(( ${EPOCHREALTIME//[!0-9]/} / 1000 )); }

# Short: the rig's bus sockets live in it (unix socket paths end at 107 bytes).
DIR=$(mktemp -d /tmp/sheet-test.XXXXXX)
SHEET_PID="" SHEET_IN=""
cleanup() {
  local status=$?
  if [ -n "$SHEET_IN" ]; then eval "exec $SHEET_IN>&-"; fi
  if [ -n "$SHEET_PID" ]; then kill "$SHEET_PID" 2>/dev/null || true; fi
  "$RIG" stop "$DIR" >/dev/null 2>&1 || true
  if [ "$status" -eq 0 ] && [ "$FAILED" -eq 0 ] && [ -z "${SHEET_TEST_KEEP:-}" ]; then rm -rf "$DIR"; else say "kept $DIR (logs, outputs, screenshots)"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

eval "$("$RIG" start "$DIR" --no-dunst --a11y --watch-pid $$)"
export GSETTINGS_BACKEND=memory LC_ALL=C.UTF-8

# ---- helpers ----

start_sheet() { # NAME: nfcscan-sheet reading a pipe whose only writer is SHEET_IN
  OUT=$DIR/$1.out ERR=$DIR/$1.err
  exec {SHEET_IN}> >(exec "$SHEET" >"$OUT" 2>"$ERR")
  SHEET_PID=$!
}
send() { printf '%s\n' "$1" >&"$SHEET_IN"; }
end_input() { eval "exec $SHEET_IN>&-"; SHEET_IN=""; }
running() { kill -0 "$SHEET_PID" 2>/dev/null; }
gone() { ! running; }
lines() { grep -cxF -- "$1" "$OUT" 2>/dev/null || true; }   # how many lines of OUT are exactly $1
has_lines() { [ "$(lines "$1")" -ge "$2" ]; }
has() { "${ATSPI[@]}" has "$@"; }
screenshot() { # FILE: a PNG of the screen with the sheet on it, not empty
  "$RIG" screenshot "$DIR" "$DIR/$1" && [ -s "$DIR/$1" ] && [ "$(head -c 8 "$DIR/$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] \
    && identify "$DIR/$1" >"$DIR/$1.identify"
}
# Every node an assistive technology is given has a name, containers aside (GTK's boxes are
# unnamed panels, libadwaita's gizmos fillers): labels, buttons, the icon, the window.
all_named() {
  "${ATSPI[@]}" dump >"$DIR/tree.txt" || return 1
  awk -F'\t' '{ sub(/^ +/, "", $1) } $1 != "panel" && $1 != "filler" && $2 == "" { print; bad = 1 } END { exit bad }' \
    "$DIR/tree.txt" >&2
}
# The spinner (a "filler" named GtkSpinner) is not in the last tree all_named dumped.
no_spinner() { ! grep -q GtkSpinner "$DIR/tree.txt"; }

TAB=$'\t'
LOOKING="view${TAB}app=Posters${TAB}icon=$DIR/poster-icon.png${TAB}message=Hold the poster near the reader to learn more.${TAB}mark=looking${TAB}button=cancel normal Cancel"
QUESTION="view${TAB}app=Posters${TAB}message=Posters wants to save a link to the poster.${TAB}detail=It replaces what the poster holds.${TAB}mark=question${TAB}button=cancel normal Cancel${TAB}button=save suggested Save"
CHINESE="view${TAB}app=海报${TAB}icon=image-x-generic${TAB}message=将海报靠近读卡器以了解更多信息。${TAB}mark=working${TAB}button=cancel normal 取消"
DONE="view${TAB}app=Posters${TAB}message=Saved.${TAB}mark=done"
convert -size 64x64 xc:steelblue "$DIR/poster-icon.png"

# ---- 1. the first view: drawn, read through AT-SPI, pressed ----
start_sheet english
t0=$(now_ms)
send "$LOOKING"
waited "shown" 15 has_lines shown 1
SHOWN_MS=$(( $(now_ms) - t0 ))
waited "the window in the AT-SPI tree" 10 has frame Posters
check "the message as a label" has label "Hold the poster near the reader to learn more."
check "the app's name as a label" has label Posters
check "Cancel as a push button" has "push button" Cancel
check "the icon, named for the app" has image Posters
check "every widget named" all_named
check "the spinner hidden from AT-SPI (the message says it)" no_spinner
check "Cancel has the focus" grep -qP "^ *push button\tCancel\t.*focused" "$DIR/tree.txt"
check "screenshot of the English sheet" screenshot english.png
check "pressing Cancel through AT-SPI" "${ATSPI[@]}" press Cancel
waited "pressed id=cancel after the AT-SPI press" 5 has_lines "pressed${TAB}id=cancel" 1

# ---- 2. a question, in the same window ----
send "$QUESTION"
waited "the question's message" 5 has label "Posters wants to save a link to the poster."
check "the detail as a label" has label "It replaces what the poster holds."
check "Save as a push button" has "push button" Save
check "the first prompt gone" eval '! has label "Hold the poster near the reader to learn more."'
check "every widget of the question named" all_named
check "Cancel (first) has the focus" grep -qP "^ *push button\tCancel\t.*focused" "$DIR/tree.txt"
check "pressing Save through AT-SPI" "${ATSPI[@]}" press Save
waited "pressed id=save" 5 has_lines "pressed${TAB}id=save" 1
check "Escape typed through the registry" "${ATSPI[@]}" key Escape
waited "Escape pressing cancel" 5 has_lines "pressed${TAB}id=cancel" 2
# The header bar's close button (GTK's own button, named in GTK's words: English under LC_ALL=C).
check "pressing the window's close button through AT-SPI" "${ATSPI[@]}" press Close
waited "the close button pressing cancel" 5 has_lines "pressed${TAB}id=cancel" 3
check "the window kept open (the daemon decides)" has frame Posters

# ---- 3. refused lines are ignored; the next view shows (Chinese) ----
send "hello${TAB}world"
send "view${TAB}app=Posters${TAB}mark=looking"
send "view${TAB}app=$(head -c 20000 /dev/zero | tr '\0' x)${TAB}message=long${TAB}mark=looking"
send "$CHINESE"
waited "the Chinese message" 5 has label "将海报靠近读卡器以了解更多信息。"
check "取消 as a push button" has "push button" 取消
check "the app's name in Chinese" has label 海报
check "the sheet still running" running
check "three refused lines reported" test "$(grep -c 'ignored a line' "$ERR")" -eq 3
check "the too-long line reported as such" grep -q 'longer than' "$ERR"
check "every widget of the Chinese sheet named" all_named
check "the spinner still hidden from AT-SPI after the question hid it" no_spinner
check "screenshot of the Chinese sheet" screenshot chinese.png
check "shown written once" test "$(lines shown)" -eq 1

# ---- 4. close-after: a later view without it cancels the timer; the last one ends the program ----
send "${DONE}${TAB}close-after=300"
send "$CHINESE"
t0=$(now_ms)
send "${DONE}${TAB}close-after=1500"
waited "the sheet to close itself after close-after" 10 gone
CLOSED_MS=$(( $(now_ms) - t0 ))
check "the cancelled timer did not close it (closed after ${CLOSED_MS} ms, wanted ≥ 1500)" test "$CLOSED_MS" -ge 1500
check "exit status 0 after close-after" wait "$SHEET_PID"
end_input

# ---- 5. the end of stdin ends it at once ----
start_sheet eof
send "$LOOKING"
waited "shown (second sheet)" 15 has_lines shown 1
t0=$(now_ms)
end_input
waited "the sheet to exit at the end of its input" 5 gone
EOF_MS=$(( $(now_ms) - t0 ))
check "exited within 1 s of the end of input (${EOF_MS} ms)" test "$EOF_MS" -lt 1000
check "exit status 0 at the end of input" wait "$SHEET_PID"

# ---- 6. Escape on an ending view (no cancel button) closes the sheet, pressing nothing ----
start_sheet ending
send "$DONE"
waited "shown (ending view)" 15 has_lines shown 1
waited "the ending view in the AT-SPI tree" 10 has label Saved.
check "Escape typed through the registry" "${ATSPI[@]}" key Escape
waited "the sheet to close on Escape" 5 gone
check "nothing pressed on the ending view" test "$(grep -c pressed "$OUT")" -eq 0
end_input
SHEET_PID=""

say "measured: first view to shown ${SHOWN_MS} ms; end of input to exit ${EOF_MS} ms; close-after=1500 closed after ${CLOSED_MS} ms"
if [ "$FAILED" -ne 0 ]; then say "$FAILED of $((PASSED + FAILED)) checks failed"; exit 1; fi
say "$PASSED checks passed"
