#!/usr/bin/python3
"""A test app for nfcscand's in-app write sessions (Docs/dbus/org.nfcscan.WriteSession1.xml).

Listens for org.nfcscan.WriteSession1 signals first, then calls StartWriteSession with the options
given, and appends one JSON line per event to --record FILE:
  {"event": "started", "path": ...}
  {"event": "initial", "properties": {...}}          (GetAll of its session right after the start)
  {"event": "properties", "changed": {...}}          (PropertiesChanged of its session)
  {"event": "ended", "ending": ..., "message": ..., "details": {...}}
  {"event": "refused", "error": <D-Bus error name>, "message": ...}
It exits 0 once its session has ended (or 1 when StartWriteSession is refused).
--message-size N: a message of one text record N bytes long in all (for "too large").
--cancel-after S: calls Cancel S seconds after the session started.
--peek PATH: instead of a session, calls Properties.GetAll on PATH (another app's write session)
and records {"event": "peek", "error": <D-Bus error name or null>}; exit 0.
Run it with Debian's /usr/bin/python3 (python3-dbus, python3-gi).
"""

import os
import sys

import dbus
from gi.repository import GLib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from session_client import PROPERTIES, SCANNER, SessionSignals, arguments, common_options, connect, plain, start  # noqa: E402

WRITE = "org.nfcscan.WriteSession1"


def text_message(size):
    """One short text record (language "en") whose encoding is exactly size bytes."""
    text = "x" * (size - 3 - 1 - 2)
    payload = b"\x02en" + text.encode()
    assert len(payload) < 256
    return bytes([0xD1, 0x01, len(payload)]) + b"T" + payload


def main():
    parser = arguments(__doc__)
    parser.add_argument("--uri")
    parser.add_argument("--text")
    parser.add_argument("--message-size", type=int)
    parser.add_argument("--erase", action="store_true")
    parser.add_argument("--lock", action="store_true")
    parser.add_argument("--format", action="store_true")
    parser.add_argument("--password", help="the object's password, 8 hex digits")
    parser.add_argument("--language")
    parser.add_argument("--cancel-after", type=float, default=0)
    args = parser.parse_args()
    record, bus = connect(args, WRITE)
    if bus is None:
        return 0
    loop = GLib.MainLoop()

    def on_signal(member, args_):
        if member == "Ended":
            record(event="ended", ending=str(args_[0]), message=str(args_[1]),
                   details={str(k): plain(v) for k, v in args_[2].items()})
            loop.quit()
        elif member == "PropertiesChanged" and args_[0] == WRITE:
            record(event="properties", changed={str(k): plain(v) for k, v in args_[1].items()})

    signals = SessionSignals(bus, WRITE, on_signal)
    options = common_options(args)
    if args.uri is not None:
        options["uri"] = dbus.String(args.uri)
    if args.text is not None:
        options["text"] = dbus.String(args.text)
    if args.message_size is not None:
        options["message"] = dbus.ByteArray(text_message(args.message_size))
    if args.erase:
        options["erase"] = dbus.Boolean(True)
    if args.lock:
        options["lock"] = dbus.Boolean(True)
    if args.format:
        options["format"] = dbus.Boolean(True)
    if args.password is not None:
        options["password"] = dbus.ByteArray(bytes.fromhex(args.password))
    if args.language is not None:
        options["language"] = dbus.String(args.language)
    path = start(bus, "StartWriteSession", options, record)
    if path is None:
        return 1
    try:
        properties = bus.get_object(SCANNER, path, introspect=False).GetAll(WRITE, dbus_interface=PROPERTIES)
        record(event="initial", properties={str(k): plain(v) for k, v in properties.items()})
    except dbus.DBusException as e:
        record(event="initial", error=e.get_dbus_name())
    signals.started(path)
    if args.cancel_after:
        def cancel():
            try:
                bus.get_object(SCANNER, path, introspect=False).Cancel(dbus_interface=WRITE)
                record(event="canceled")
            except dbus.DBusException as e:
                record(event="cancel-refused", error=e.get_dbus_name())
            return False
        GLib.timeout_add(int(args.cancel_after * 1000), cancel)
    loop.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
