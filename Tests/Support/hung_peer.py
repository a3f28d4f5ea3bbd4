#!/usr/bin/env python3
"""A peer that takes calls and never answers: it owns a well-known name on a bus, accepts every
method call on every path (recording each as one JSON line), and replies to none, so the caller's
call stays pending until its own deadline. Stands in for a hung notification server, desktop
portal, app, logind or NetworkManager in nfcscand's reliability tests.

Usage: hung_peer.py --name org.freedesktop.Notifications [--system] --record FILE
Prints "serving NAME" once the name is owned."""
import argparse
import json
import sys

import dbus
import dbus.lowlevel
import dbus.mainloop.glib
from gi.repository import GLib


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--name", required=True)
    parser.add_argument("--system", action="store_true", help="the system bus (DBUS_SYSTEM_BUS_ADDRESS)")
    parser.add_argument("--record", required=True, metavar="FILE")
    args = parser.parse_args()

    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SystemBus() if args.system else dbus.SessionBus()
    held = []  # the calls, kept so that no reply is ever sent (not even an error on collection)

    def on_message(_bus, message):
        if message.get_type() != dbus.lowlevel.MESSAGE_TYPE_METHOD_CALL:
            return dbus.lowlevel.HANDLER_RESULT_NOT_YET_HANDLED
        if message.get_destination() not in (args.name, bus.get_unique_name()):
            return dbus.lowlevel.HANDLER_RESULT_NOT_YET_HANDLED
        held.append(message)
        with open(args.record, "a") as out:
            out.write(json.dumps({"interface": message.get_interface(), "member": message.get_member(),
                                  "path": message.get_path(), "sender": message.get_sender()}) + "\n")
        return dbus.lowlevel.HANDLER_RESULT_HANDLED

    bus.add_message_filter(on_message)
    bus.request_name(args.name, dbus.bus.NAME_FLAG_DO_NOT_QUEUE)
    print(f"serving {args.name}", flush=True)
    GLib.MainLoop().run()


if __name__ == "__main__":
    sys.exit(main())
