#!/usr/bin/python3
"""A test app for nfcscand's end-to-end tests: implements org.nfcscan.Handler1
(Docs/dbus/org.nfcscan.Handler1.xml) on the session bus and registers it with
org.nfcscan.Scanner1.RegisterHandler.

On start it waits (--wait-timeout, 10 s) for org.nfcscan.Scanner1 to appear, registers, prints
`registered <id>` on stdout (flushed) and runs until SIGTERM/SIGINT (exit 0).

With --activated it is an installed app started by the bus (D-Bus activation, from a service
file): it owns --bus-name, serves --object-path, registers nothing, appends one line
`started <pid>` to --started FILE, and takes HandleScan as above; it ends with its bus.

Each HandleScan call appends one JSON line to --record FILE, when the call arrives:
  {"call": 1, "registration": <id RegisterHandler returned>, "reply": "ok"|"busy"|"crash",
   "scan": <the a{sv}, variants unwrapped, D-Bus types as JSON types>,
   "types": {"/registration": "u", "/object": "a{sv}", "/records/0/type": "s", ...},
   "time": <unix time>}
"types" gives the D-Bus type of every value by its path in "scan" (JSON pointer), so tests can
check the wire types (integers as x, objects as a{sv}, arrays as av, ...).

Exit statuses: 0 stopped by SIGTERM/SIGINT, 1 RegisterHandler failed (the D-Bus error on stderr),
2 usage, 3 --crash-on-scan and a scan arrived, 69 org.nfcscan.Scanner1 did not appear in time.
Run it with Debian's /usr/bin/python3 (python3-dbus, python3-gi).
"""

import argparse
import json
import os
import signal
import sys
import time

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

from session_client import schema_problems  # noqa: E402  (beside this file)

SCANNER_NAME = "org.nfcscan.Scanner1"
SCANNER_PATH = "/org/nfcscan/Scanner1"
SCANNER_IFACE = "org.nfcscan.Scanner1"
HANDLER_IFACE = "org.nfcscan.Handler1"
BUSY_ERROR = "org.nfcscan.Test.Busy"


def parse_filter(text):
    """"uri-scheme=https,uri-host=example.com" -> {"uri-scheme": "https", ...}; "\\," is a comma."""
    result = {}
    parts, current, escaped = [], "", False
    for ch in text:
        if escaped:
            current += ch
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == ",":
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    for part in parts:
        if "=" not in part:
            raise argparse.ArgumentTypeError(f"filter part {part!r} is not KEY=VALUE")
        key, value = part.split("=", 1)
        if not key:
            raise argparse.ArgumentTypeError(f"filter part {part!r} has no key")
        result[key] = value
    return result


def dbus_type(value):
    """The D-Bus signature of a value dbus-python received."""
    simple = [(dbus.Boolean, "b"), (dbus.Byte, "y"), (dbus.Int16, "n"), (dbus.UInt16, "q"),
              (dbus.Int32, "i"), (dbus.UInt32, "u"), (dbus.Int64, "x"), (dbus.UInt64, "t"),
              (dbus.Double, "d"), (dbus.ObjectPath, "o"), (dbus.Signature, "g"), (dbus.String, "s"),
              (dbus.types.UnixFd, "h")]
    for cls, code in simple:
        if isinstance(value, cls):
            return code
    if isinstance(value, dbus.Dictionary):
        return "a{" + (value.signature or "??") + "}"
    if isinstance(value, (dbus.Array, dbus.ByteArray)):
        return "a" + (getattr(value, "signature", None) or "y")
    if isinstance(value, dbus.Struct):
        return "(" + "".join(dbus_type(v) for v in value) + ")"
    return type(value).__name__


def to_json(value, path, types):
    """dbus-python value -> plain JSON value; records each value's D-Bus type under its path."""
    types[path or "/"] = dbus_type(value)
    if isinstance(value, dbus.Boolean):
        return bool(value)
    if isinstance(value, (dbus.Byte, dbus.Int16, dbus.UInt16, dbus.Int32, dbus.UInt32,
                          dbus.Int64, dbus.UInt64)):
        return int(value)
    if isinstance(value, dbus.Double):
        return float(value)
    if isinstance(value, (dbus.String, dbus.ObjectPath, dbus.Signature)):
        return str(value)
    if isinstance(value, dbus.ByteArray) or isinstance(value, bytes):
        return list(bytes(value))
    if isinstance(value, dbus.Dictionary) or isinstance(value, dict):
        return {str(k): to_json(v, f"{path}/{escape_pointer(str(k))}", types) for k, v in value.items()}
    if isinstance(value, (dbus.Array, dbus.Struct, list, tuple)):
        return [to_json(v, f"{path}/{i}", types) for i, v in enumerate(value)]
    if isinstance(value, dbus.UnixFd):
        return "<fd>"
    return value


def escape_pointer(key):
    return key.replace("~", "~0").replace("/", "~1")


class Handler(dbus.service.Object):
    def __init__(self, bus, path, args, state):
        super().__init__(bus, path)
        self.args = args
        self.state = state

    @dbus.service.method(HANDLER_IFACE, in_signature="a{sv}", out_signature="",
                         async_callbacks=("reply", "error"))
    def HandleScan(self, scan, reply, error):
        self.state["calls"] += 1
        call = self.state["calls"]
        if self.args.crash_on_scan:
            outcome = "crash"
        elif call <= self.args.busy:
            outcome = "busy"
        else:
            outcome = "ok"
        if self.args.record:
            types = {}
            record = {"call": call, "registration": self.state["registration"], "reply": outcome,
                      "scan": to_json(scan, "", types), "types": types, "time": round(time.time(), 6)}
            # HandleScan's document is nfcscan --json's plus the handler's registration.
            record["schema_problems"] = schema_problems({k: v for k, v in record["scan"].items() if k != "registration"})
            with open(self.args.record, "a", encoding="utf-8") as f:
                f.write(json.dumps(record, ensure_ascii=False) + "\n")
        if outcome == "crash":
            sys.stdout.flush()
            os._exit(3)

        def answer():
            if outcome == "busy":
                error(dbus.DBusException(f"busy (call {call} of the first {self.args.busy})", name=BUSY_ERROR))
            else:
                reply()
            return False

        if self.args.delay > 0:
            GLib.timeout_add(int(self.args.delay * 1000), answer)
        else:
            answer()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--app-name", required=True)
    parser.add_argument("--icon", default=None, help='sent as "app-icon"')
    parser.add_argument("--desktop-entry", default=None)
    parser.add_argument("--filter", dest="filters", action="append", type=parse_filter, default=[],
                        metavar="KEY=VALUE[,KEY=VALUE]",
                        help="one filter (a{sv} of strings); repeat for more. e.g. uri-scheme=https,uri-host=example.com")
    parser.add_argument("--record", metavar="FILE", help="append one JSON line per HandleScan call")
    parser.add_argument("--crash-on-scan", action="store_true", help="exit(3) when HandleScan arrives, without replying")
    parser.add_argument("--busy", type=int, default=0, metavar="N",
                        help=f"reply {BUSY_ERROR} to the first N calls, then accept")
    parser.add_argument("--delay", type=float, default=0.0, metavar="SECONDS", help="wait before replying")
    parser.add_argument("--object-path", default="/org/nfcscan/TestHandler", help="the handler object's path")
    parser.add_argument("--bus-name", default=None, help="also own this well-known name")
    parser.add_argument("--wait-timeout", type=float, default=10.0, metavar="SECONDS",
                        help=f"how long to wait for {SCANNER_NAME} (default 10)")
    parser.add_argument("--activated", action="store_true",
                        help="started by the bus for a desktop entry's declaration: own --bus-name, register nothing")
    parser.add_argument("--started", metavar="FILE", help="with --activated: append `started <pid>` to FILE")
    parser.add_argument("--reregister", action="store_true",
                        help=f"register again (printing `registered <id>`) when {SCANNER_NAME} gets a new owner")
    args = parser.parse_args()
    if args.activated and not args.bus_name:
        parser.error("--activated needs --bus-name")
    if not args.filters and not args.activated:
        parser.error("give at least one --filter")
    if args.busy < 0 or args.delay < 0:
        parser.error("--busy and --delay take values >= 0")

    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    if args.bus_name:
        bus.request_name(args.bus_name, dbus.bus.NAME_FLAG_DO_NOT_QUEUE)
    state = {"calls": 0, "registration": None}
    Handler(bus, args.object_path, args, state)
    loop = GLib.MainLoop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        GLib.unix_signal_add(GLib.PRIORITY_HIGH, signum, lambda *_: (loop.quit(), False)[1])
    if args.activated:
        if args.started:
            with open(args.started, "a", encoding="utf-8") as f:
                f.write(f"started {os.getpid()}\n")
        loop.run()
        return

    options = {"app-name": dbus.String(args.app_name),
               "filters": dbus.Array([dbus.Dictionary({k: dbus.String(v) for k, v in f.items()}, signature="sv")
                                      for f in args.filters], signature="a{sv}")}
    if args.icon is not None:
        options["app-icon"] = dbus.String(args.icon)
    if args.desktop_entry is not None:
        options["desktop-entry"] = dbus.String(args.desktop_entry)
    options = dbus.Dictionary(options, signature="sv")

    def register():
        try:
            scanner = bus.get_object(SCANNER_NAME, SCANNER_PATH, introspect=False)
            registration = scanner.RegisterHandler(dbus.ObjectPath(args.object_path), options,
                                                   dbus_interface=SCANNER_IFACE)
        except dbus.DBusException as e:
            print(f"test_handler_app: RegisterHandler failed: {e.get_dbus_name()}: {e.get_dbus_message()}",
                  file=sys.stderr, flush=True)
            sys.exit(1)
        state["registration"] = int(registration)
        print(f"registered {int(registration)}", flush=True)

    deadline = time.monotonic() + args.wait_timeout
    while not bus.name_has_owner(SCANNER_NAME):
        if time.monotonic() >= deadline:
            print(f"test_handler_app: {SCANNER_NAME} did not appear within {args.wait_timeout:g} s",
                  file=sys.stderr, flush=True)
            sys.exit(69)
        time.sleep(0.05)
    register()

    if args.reregister:
        def owner_changed(name, old, new):
            if name == SCANNER_NAME and new:
                register()
        bus.add_signal_receiver(owner_changed, "NameOwnerChanged", "org.freedesktop.DBus",
                                "org.freedesktop.DBus", "/org/freedesktop/DBus", arg0=SCANNER_NAME)

    loop.run()


if __name__ == "__main__":
    main()
