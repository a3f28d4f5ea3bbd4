# shellcheck shell=bash

# Issue 13: what no app asked for goes to the person's own default apps, after they choose the
# notification: a mailto: link to the mail app mimeapps.list names (over another that also
# declares the scheme), a tel: link to the app that declares it, a contact card to the contacts
# app as a private .vcf file, a Wi-Fi network to NetworkManager (python3-dbusmock's template on a
# private system bus). A javascript: link is never offered, even with an app that claims the
# scheme, and nothing is started before the person chooses.
default_app() { # ID NAME FIELD-CODE MIMETYPES: an installed app that records how it was started
  printf '[Desktop Entry]\nType=Application\nName=%s\nExec=%s %s %s %s %s\nMimeType=%s\n' \
    "$2" "$PY" "$SUPPORT/exec_test_app.py" "$DIR/exec.jsonl" "$1" "$3" "$4" >"$XDG_DATA_DIRS/applications/$1.desktop"
}

default_apps_rig() {
  app_dirs
  mkdir -p "$XDG_CONFIG_HOME"
  default_app mail Mail %u 'x-scheme-handler/mailto;'
  default_app mutt Mutt %u 'x-scheme-handler/mailto;'
  default_app phone Phone %u 'x-scheme-handler/tel;'
  default_app contacts Contacts %f 'text/vcard;text/x-vcard;'
  default_app evil Evil %u 'x-scheme-handler/javascript;'
  printf '[Default Applications]\nx-scheme-handler/mailto=mutt.desktop;\n' >"$XDG_CONFIG_HOME/mimeapps.list"
}

# One message of one record, written by hand: TNF, type, payload (hex).
default_message() { # FILE TNF TYPE PAYLOAD-HEX
  "$PY" - "$@" <<'PY'
import sys
path, tnf, rtype, payload = sys.argv[1], int(sys.argv[2]), sys.argv[3].encode(), bytes.fromhex(sys.argv[4])
assert len(payload) < 256
open(path, 'wb').write(bytes([0xD0 | tnf, len(rtype), len(payload)]) + rtype + payload)
PY
}

# Offers the object, checks the summary, chooses it, and waits for the app to record its start.
default_offer_chosen() { # SUMMARY
  wait_offer "the offer"
  shown --all | tail -n 1 >"$DIR/offer.json"
  check "the offer says: $1" test "$(json "$DIR/offer.json" 'd["summary"]')" = "$1"
  check "nothing started before the choice" test ! -e "$DIR/exec.jsonl"
  bash "$RIG" invoke "$DIR" open >/dev/null
}

scenario_default_apps() {
  begin default-mailto
  default_apps_rig
  sim --uri 'mailto:hello@example.com?subject=Poster' --after 4 --for 3
  daemon
  default_offer_chosen "Write to hello@example.com?"
  wait_for "the mail app started" 10 eval 'test "$(lines "$DIR/exec.jsonl")" -ge 1' || true
  check "mimeapps.list's choice, Mutt, got the link as its argument" \
    test "$(json "$DIR/exec.jsonl" '" ".join(d["argv"])')" = "mutt mailto:hello@example.com?subject=Poster"
  object_gone_for 0.5
  check "started exactly once" test "$(lines "$DIR/exec.jsonl")" = 1
  finish

  begin default-tel
  default_apps_rig
  sim --uri 'tel:+1-555-0100' --after 4 --for 3
  daemon
  default_offer_chosen "Call +1-555-0100?"
  wait_for "the phone app started" 10 eval 'test "$(lines "$DIR/exec.jsonl")" -ge 1' || true
  check "the app declaring tel: got the number" test "$(json "$DIR/exec.jsonl" '" ".join(d["argv"])')" = "phone tel:+1-555-0100"
  finish

  begin default-vcard
  default_apps_rig
  local card
  card=$(printf 'BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Jane <b>Doe</b>\r\nTEL:+15550100\r\nEND:VCARD\r\n' | od -An -tx1 | tr -d ' \n')
  default_message "$DIR/card.ndef" 2 text/vcard "$card"
  sim --ndef "$DIR/card.ndef" --after 4 --for 3
  daemon
  # Markup in the name is inert in the summary, which dunst would read as markup (issue 20).
  default_offer_chosen "Add Jane ＜b＞Doe＜/b＞ to Contacts?"
  check "the markup in the name is not markup in the body either" test "$(json "$DIR/offer.json" 'd.get("body") or ""')" = ""
  wait_for "the contacts app started" 10 eval 'test "$(lines "$DIR/exec.jsonl")" -ge 1' || true
  local file
  file=$(json "$DIR/exec.jsonl" 'd["argv"][1]')
  check "a private .vcf file in \$XDG_RUNTIME_DIR/nfcscan: $file" test "$(dirname "$file"):${file##*.}" = "$XDG_RUNTIME_DIR/nfcscan:vcf"
  check "readable only by the person" test "$(json "$DIR/exec.jsonl" 'd["files"][d["argv"][1]]["mode"]')" = 0600
  check "holding the card as the object had it" \
    test "$(json "$DIR/exec.jsonl" 'd["files"][d["argv"][1]]["text"].splitlines()[2]')" = "FN:Jane <b>Doe</b>"
  wait_for "the file removed once the app exited" 5 eval 'test ! -e "$file"' || true
  check "the file is gone" test ! -e "$file"
  finish

  begin default-javascript
  default_apps_rig
  sim --uri 'javascript:alert(document.cookie)' --after 3 --for 2
  daemon
  wait_for "the object read" 15 grep -q 'no app asked' "$DIR/nfcscand.log" || true
  object_gone_for 0.5
  check "javascript: is never offered, though an app claims it" test "$(shown_count)" = 0
  check "nothing started" test ! -e "$DIR/exec.jsonl"
  finish

  begin default-wifi --system-bus
  default_apps_rig
  mock nm --system networkmanager
  wait_for "NetworkManager's stand-in" 10 eval 'sysbus status org.freedesktop.NetworkManager >/dev/null' || true
  local device
  device=$(sysbus call org.freedesktop.NetworkManager /org/freedesktop/NetworkManager org.freedesktop.DBus.Mock AddWiFiDevice ssi wlan0 wlan0 100 | cut -d'"' -f2)
  sysbus call org.freedesktop.NetworkManager /org/freedesktop/NetworkManager org.freedesktop.DBus.Mock AddAccessPoint ssssuuuyu \
    "$device" cafe CafeGuest 00:11:22:33:44:55 2 2412 54000 80 1 >/dev/null
  # A WSC credential: network index 1, SSID, WPA2-Personal, AES, the passphrase.
  local ssid key
  ssid=$(printf 'CafeGuest' | od -An -tx1 | tr -d ' \n'); key=$(printf 'correct horse' | od -An -tx1 | tr -d ' \n')
  local credential="10260001011045$(printf '%04x' 9)${ssid}100300020020100f000200081027$(printf '%04x' 13)${key}"
  default_message "$DIR/wifi.ndef" 2 application/vnd.wfa.wsc "100e$(printf '%04x' $((${#credential} / 2)))${credential}"
  sim --ndef "$DIR/wifi.ndef" --after 5 --for 3
  daemon
  wait_offer "the offer"
  shown --all | tail -n 1 >"$DIR/offer.json"
  check "the offer says: Join the network CafeGuest?" test "$(json "$DIR/offer.json" 'd["summary"]')" = "Join the network CafeGuest?"
  check "the key is in no notification" bash -c '! grep -q "correct horse" "$1"' _ "$DIR/notifications.jsonl"
  bash "$RIG" invoke "$DIR" open >/dev/null
  wait_for "AddAndActivateConnection" 10 grep -q AddAndActivateConnection "$DIR/mock-nm.log" || true
  "$PY" - "$DBUS_SYSTEM_BUS_ADDRESS" >"$DIR/nm-call.json" <<'PY'
import json, sys, dbus
bus = dbus.bus.BusConnection(sys.argv[1])
mock = bus.get_object('org.freedesktop.NetworkManager', '/org/freedesktop/NetworkManager')
for _, method, args in mock.GetCalls(dbus_interface='org.freedesktop.DBus.Mock'):
    if method == 'AddAndActivateConnection':
        settings = {group: {k: (bytes(v).decode() if isinstance(v, dbus.Array) else str(v)) for k, v in values.items()}
                    for group, values in args[0].items()}
        print(json.dumps({'settings': settings, 'device': str(args[1]), 'ap': str(args[2])}))
PY
  check "NetworkManager got the SSID" test "$(json "$DIR/nm-call.json" 'd["settings"]["802-11-wireless"]["ssid"]')" = CafeGuest
  check "WPA-PSK with the passphrase" \
    test "$(json "$DIR/nm-call.json" 'd["settings"]["802-11-wireless-security"]["key-mgmt"] + "|" + d["settings"]["802-11-wireless-security"]["psk"]')" = "wpa-psk|correct horse"
  check "on its Wi-Fi device" test "$(json "$DIR/nm-call.json" 'd["device"]')" = "$device"
  check "the key is in no log line" bash -c '! grep -q "correct horse" "$1"' _ "$DIR/nfcscand.log"
  finish
}
