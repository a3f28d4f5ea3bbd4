"""What nfcscand's session test clients share (scan_session_client.py, write_session_client.py):
the JSON-lines record, peeking at another app's session, and the session's signals, which may come
before StartScanSession/StartWriteSession has answered with its path, so they are kept until then.
Debian's /usr/bin/python3 (python3-dbus, python3-gi)."""

import argparse
import json

import dbus
from dbus.mainloop.glib import DBusGMainLoop

SCANNER = "org.nfcscan.Scanner1"
PATH = "/org/nfcscan/Scanner1"
PROPERTIES = "org.freedesktop.DBus.Properties"


def arguments(description):
    """A parser with the options every session client takes: --record FILE, --object, --timeout,
    --peek PATH; each client adds its own."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--record", required=True)
    parser.add_argument("--object")
    parser.add_argument("--timeout", type=int)
    parser.add_argument("--peek")
    return parser


def connect(args, interface):
    """(record, bus): the session bus on a GLib main loop. With --peek, peeks at that session
    through `interface` and gives bus None: the client has nothing more to do."""
    record = recorder(args.record)
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    if args.peek:
        peek(bus, args.peek, interface, record)
        return record, None
    return record, bus


def common_options(args):
    """The Start*Session options both kinds of session take, from --object and --timeout."""
    options = {}
    if args.object is not None:
        options["object"] = dbus.String(args.object)
    if args.timeout is not None:
        options["timeout"] = dbus.UInt32(args.timeout)
    return options


def plain(value):
    """A D-Bus value as JSON writes it."""
    if isinstance(value, dbus.Boolean):
        return bool(value)
    if isinstance(value, (dbus.UInt32, dbus.Int32, dbus.UInt64, dbus.Int64, dbus.Byte)):
        return int(value)
    return str(value)


def tree(value):
    """A D-Bus value with everything inside it as JSON writes it (a report's a{sv} and av)."""
    if isinstance(value, dict):
        return {str(key): tree(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [tree(item) for item in value]
    return plain(value)


def schema_problems(scan):
    """What a report breaks of Docs/schemas/scan.schema.json (what nfcscan --json prints, and apps
    receive in HandleScan and Detected): [] when it follows it; None when it cannot be checked here
    (a sandboxed app that sees no checkout, or no python3-jsonschema)."""
    try:
        import json_schema  # the one validator of nfcscan's JSON, beside this file
        return json_schema.problems("scan", json.dumps(scan))
    except Exception:  # noqa: BLE001
        return None


def recorder(path):
    """record(**event): appends one JSON line to path."""
    def record(**event):
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps(event, ensure_ascii=False) + "\n")
    return record


def peek(bus, path, interface, record):
    """Properties.GetAll of another app's session: records {"event": "peek", "error": name or None}."""
    try:
        bus.get_object(SCANNER, path, introspect=False).GetAll(interface, dbus_interface=PROPERTIES)
        record(event="peek", error=None)
    except dbus.DBusException as e:
        record(event="peek", error=e.get_dbus_name())


class SessionSignals:
    """Subscribes to `interface`'s signals and PropertiesChanged before the session starts; once
    started(path) names the session, replays what came early and passes on only that path's, as
    on_signal(member, args)."""

    def __init__(self, bus, interface, on_signal):
        self.path = None
        self.early = []
        self.on_signal = on_signal
        bus.add_signal_receiver(self._received, dbus_interface=interface, bus_name=SCANNER,
                                path_keyword="path", member_keyword="member")
        bus.add_signal_receiver(self._received, signal_name="PropertiesChanged", dbus_interface=PROPERTIES,
                                bus_name=SCANNER, path_keyword="path", member_keyword="member")

    def _received(self, *args, **kw):
        if self.path is None:
            self.early.append((args, kw))
        elif kw["path"] == self.path:
            self.on_signal(kw["member"], args)

    def started(self, path):
        self.path = str(path)
        early, self.early = self.early, []
        for args, kw in early:
            self._received(*args, **kw)


def start(bus, member, options, record):
    """Calls Scanner1.`member`(options); records "started" (or "refused") and returns the path or None."""
    try:
        path = bus.get_object(SCANNER, PATH, introspect=False).get_dbus_method(member, SCANNER)(
            dbus.Dictionary(options, signature="sv"))
    except dbus.DBusException as e:
        record(event="refused", error=e.get_dbus_name(), message=e.get_dbus_message())
        return None
    record(event="started", path=str(path))
    return str(path)
