#!/usr/bin/python3
"""A stand-in for xdg-desktop-portal's OpenURI on the session bus, for nfcscand's tests.

Owns org.freedesktop.portal.Desktop, serves org.freedesktop.portal.OpenURI at
/org/freedesktop/portal/desktop: OpenURI(s parent_window, s uri, a{sv} options) -> o handle.
As the real portal, the handle is /org/freedesktop/portal/desktop/request/SENDER/TOKEN (SENDER the
caller's unique name without ":" and with "." as "_", TOKEN options["handle_token"] or a fresh
one), and org.freedesktop.portal.Request.Response(u response, a{sv} results) follows on it, sent
to the caller (response 0 = success unless --response says otherwise).
OpenFile and OpenDirectory answer org.freedesktop.DBus.Error.NotSupported. The "version"
property is 4 (xdg-desktop-portal 1.16, Debian 12).

Each OpenURI call appends one JSON line to --record FILE:
  {"uri": ..., "parent_window": ..., "options": {...}, "sender": ":1.N", "handle": "/org/...", "time": ...}
Prints `ready` on stdout (flushed) once it owns the name; runs until SIGTERM/SIGINT (exit 0).
Exit 1 when the name is taken. Run it with Debian's /usr/bin/python3.
"""

import argparse
import json
import signal
import sys
import time
import uuid

import dbus
import dbus.lowlevel
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

PORTAL_NAME = "org.freedesktop.portal.Desktop"
PORTAL_PATH = "/org/freedesktop/portal/desktop"
OPENURI_IFACE = "org.freedesktop.portal.OpenURI"
REQUEST_IFACE = "org.freedesktop.portal.Request"
PROPS_IFACE = "org.freedesktop.DBus.Properties"
VERSION = 4


def plain(value):
    if isinstance(value, dbus.Boolean):
        return bool(value)
    if isinstance(value, (dbus.Byte, dbus.Int16, dbus.UInt16, dbus.Int32, dbus.UInt32, dbus.Int64, dbus.UInt64)):
        return int(value)
    if isinstance(value, dbus.Double):
        return float(value)
    if isinstance(value, (dbus.String, dbus.ObjectPath, dbus.Signature)):
        return str(value)
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


class Request(dbus.service.Object):
    """One request object; Close() removes it, as the portal's."""

    def __init__(self, bus, path):
        super().__init__(bus, path)

    @dbus.service.method(REQUEST_IFACE, in_signature="", out_signature="")
    def Close(self):
        self.remove_from_connection()

    @dbus.service.signal(REQUEST_IFACE, signature="ua{sv}")
    def Response(self, response, results):
        pass


class Portal(dbus.service.Object):
    def __init__(self, bus, args):
        super().__init__(bus, PORTAL_PATH)
        self.bus = bus
        self.args = args

    def _record(self, entry):
        if self.args.record:
            with open(self.args.record, "a", encoding="utf-8") as f:
                f.write(json.dumps(entry, ensure_ascii=False) + "\n")

    @dbus.service.method(OPENURI_IFACE, in_signature="ssa{sv}", out_signature="o", sender_keyword="sender")
    def OpenURI(self, parent_window, uri, options, sender=None):
        token = str(options.get("handle_token", "")) or "fake" + uuid.uuid4().hex[:12]
        handle = f"{PORTAL_PATH}/request/{sender[1:].replace('.', '_')}/{token}"
        request = Request(self.bus, handle)
        self._record({"uri": str(uri), "parent_window": str(parent_window), "options": plain(options),
                      "sender": sender, "handle": handle, "time": round(time.time(), 6)})

        def respond():
            # Sent to the caller only, as the portal does (the caller subscribes before calling).
            message = dbus.lowlevel.SignalMessage(handle, REQUEST_IFACE, "Response")
            message.append(dbus.UInt32(self.args.response), dbus.Dictionary({}, signature="sv"),
                           signature="ua{sv}")
            message.set_destination(sender)
            self.bus.send_message(message)
            request.remove_from_connection()
            return False

        GLib.timeout_add(int(self.args.response_delay * 1000), respond)
        return dbus.ObjectPath(handle)

    @dbus.service.method(OPENURI_IFACE, in_signature="sha{sv}", out_signature="o")
    def OpenFile(self, parent_window, fd, options):
        raise dbus.DBusException("fake_portal: OpenFile is not implemented",
                                 name="org.freedesktop.DBus.Error.NotSupported")

    @dbus.service.method(OPENURI_IFACE, in_signature="sha{sv}", out_signature="o")
    def OpenDirectory(self, parent_window, fd, options):
        raise dbus.DBusException("fake_portal: OpenDirectory is not implemented",
                                 name="org.freedesktop.DBus.Error.NotSupported")

    @dbus.service.method(PROPS_IFACE, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        if interface == OPENURI_IFACE and name == "version":
            return dbus.UInt32(VERSION)
        raise dbus.DBusException(f"no property {interface}.{name}",
                                 name="org.freedesktop.DBus.Error.UnknownProperty")

    @dbus.service.method(PROPS_IFACE, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        if interface == OPENURI_IFACE:
            return dbus.Dictionary({"version": dbus.UInt32(VERSION)}, signature="sv")
        return dbus.Dictionary({}, signature="sv")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--record", metavar="FILE", help="append one JSON line per OpenURI call")
    parser.add_argument("--response", type=int, default=0,
                        help="the Response code: 0 success, 1 cancelled by the person, 2 other (default 0)")
    parser.add_argument("--response-delay", type=float, default=0.05, metavar="SECONDS",
                        help="time between the call's return and the Response signal (default 0.05)")
    args = parser.parse_args()

    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    result = bus.request_name(PORTAL_NAME, dbus.bus.NAME_FLAG_DO_NOT_QUEUE)
    if result not in (dbus.bus.REQUEST_NAME_REPLY_PRIMARY_OWNER, dbus.bus.REQUEST_NAME_REPLY_ALREADY_OWNER):
        print(f"fake_portal: {PORTAL_NAME} is already owned on this bus", file=sys.stderr)
        sys.exit(1)
    Portal(bus, args)
    loop = GLib.MainLoop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        GLib.unix_signal_add(GLib.PRIORITY_HIGH, signum, lambda *_: (loop.quit(), False)[1])
    print("ready", flush=True)
    loop.run()


if __name__ == "__main__":
    main()
