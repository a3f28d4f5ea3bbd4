# shellcheck shell=bash

# What an app may ask of a write session beyond the message, end to end: a blank NTAG213 (no
# capability container) is formatted only when the session says format, then written; an NTAG213
# whose pages from 4 on are behind its password (AUTH0 4, the factory password FF FF FF FF) ends
# "password-required" with nothing written when the session brings none, and is written with it.
# Each object is read back by nfcscan afterwards. One object arrives per emulated reader, so each
# session gets a fresh reader and daemon.
scenario_write_session_format_password() {
  begin write-session-format-password
  # NTAG213 images as nfc-mfultralight r saves them: UID 04a1b2 c3d4e5f6 with its check bytes,
  # CFG0 at page 0x29 (AUTH0 its last byte), CFG1 at 0x2A.
  "$PY" - "$DIR" <<'PYTHON'
import sys
def image(cc, data, auth0):
    pages = [bytes(4)] * 45
    pages[0] = bytes([0x04, 0xA1, 0xB2, 0x88 ^ 0x04 ^ 0xA1 ^ 0xB2])
    pages[1] = bytes([0xC3, 0xD4, 0xE5, 0xF6])
    pages[2] = bytes([0xC3 ^ 0xD4 ^ 0xE5 ^ 0xF6, 0x48, 0, 0])
    pages[3] = bytes(cc)
    pages[4] = bytes(data)
    pages[0x29] = bytes([0x04, 0, 0, auth0])
    pages[0x2A] = bytes([0, 0x05, 0, 0])
    pages[0x2B] = bytes([0xFF] * 4)   # PWD: the factory password, which nfcsim takes from the image
    return b"".join(pages)
open(sys.argv[1] + "/blank.bin", "wb").write(image([0, 0, 0, 0], [0, 0, 0, 0], 0xFF))
open(sys.argv[1] + "/protected.bin", "wb").write(image([0xE1, 0x10, 0x12, 0x00], [0x03, 0x00, 0xFE, 0x00], 0x04))
PYTHON
  write_format_password_round blank-asked blank.bin --object label --uri https://example.com/label --format
  check "a blank object with format: ended done, formatted and written" \
    test "$(json "$DIR/write-blank-asked.jsonl" '(d["ending"], d["details"]["formatted"], d["details"]["written"])')" = "('done', True, True)"
  check "nfcscan reads the new link from the formatted object" test "$(read_back_uri)" = "https://example.com/label"
  write_format_password_round no-password protected.bin --object badge --uri https://example.com/badge
  check "a protected object without the password: password-required, with the person's sentence, nothing written" \
    test "$(json "$DIR/write-no-password.jsonl" 'd["ending"] + ": " + d["message"] + " " + str(d["details"]["written"])')" = \
    "password-required: The badge is protected by a password. False"
  write_format_password_round password protected.bin --object badge --uri https://example.com/badge --password ffffffff
  check "with the password: ended done, written" \
    test "$(json "$DIR/write-password.jsonl" '(d["ending"], d["details"]["written"])')" = "('done', True)"
  check "nfcscan reads the new link from the protected object (reads are not protected)" test "$(read_back_uri)" = "https://example.com/badge"
  check "what the sessions said follows the copy rules" copy_ok "$(cat "$DIR"/write-*.jsonl)"
  finish
}

# One emulated reader presenting IMAGE 6 s after it starts, a daemon, and a write session NAME
# (write_client ARGS...) that runs to its end; then the daemon stops, so nfcscan may use the
# reader, which stays with the object until the next round.
write_format_password_round() { # NAME IMAGE CLIENT-ARGS...
  local name=$1 image=$2; shift 2
  if [ -n "${SIM_PID:-}" ]; then kill "$SIM_PID" 2>/dev/null || true; wait "$SIM_PID" 2>/dev/null || true; fi
  wait_for "the last reader gone" 10 eval '! test -e "$DIR/pn532"' || true
  sim --type ntag213 --image "$DIR/$image" --after 6 --for 3600
  daemon
  write_client "$name" --timeout 30 "$@"
  wait_for "write session $name's end" 25 grep -q ended "$DIR/write-$name.jsonl" || true
  kill "$DAEMON_PID"; wait "$DAEMON_PID" 2>/dev/null || true
}

read_back_uri() {
  LIBNFC_DEVICE="pn532_uart:$DIR/pn532" LIBNFC_AUTO_SCAN=false "$BUILD/nfcscan" --json --timeout 10 >"$DIR/read-back.json" 2>"$DIR/read-back.err"
  # (nothing, so the caller's check fails, when it does not follow scan.schema.json)
  valid_json scan "$DIR/read-back.json" 2>>"$DIR/read-back.err" || return 1
  "$PY" -c 'import json, sys; print(json.load(sys.stdin)["records"][0]["uri"])' <"$DIR/read-back.json" 2>>"$DIR/read-back.err"
}
