#!/usr/bin/env python3
"""A hostile local program against nfcscand (issue 20): each subcommand is one attack, made on
connections of its own, and prints one JSON line saying what the daemon answered. The checks are
the scenario's (Tests/Daemon/scenarios/hostile_*.sh); this only attacks and reports.

  oversized --member M --mib N     one call carrying an N MiB `ay` (StartWriteSession's message,
                                   or an unknown method): the error and how long it took
  registrations --connections C    each connection registers the largest handlers it may until
                                   refused; then ListApps from another connection: its size
  sessions --sessions N            one connection starts N scan sessions; then another one starts one
  inhibitors --connections C       each connection takes inhibitors until refused, then all close
  forge-log                        an inhibitor whose who and why carry a newline and escape sequences
"""
import argparse
import json
import os
import time

import dbus

NAME, PATH, INTERFACE = "org.nfcscan.Scanner1", "/org/nfcscan/Scanner1", "org.nfcscan.Scanner1"


def connect():
    return dbus.bus.BusConnection(os.environ["DBUS_SESSION_BUS_ADDRESS"])


def scanner(bus):
    return dbus.Interface(bus.get_object(NAME, PATH, introspect=False), INTERFACE)


def error_name(error):
    return error.get_dbus_name() if isinstance(error, dbus.DBusException) else type(error).__name__


def oversized(args):
    bus = connect()
    payload = dbus.ByteArray(b"\x07" * (args.mib << 20))
    started = time.monotonic()
    try:
        if args.member == "StartWriteSession":
            scanner(bus).StartWriteSession(dbus.Dictionary({"message": payload}, signature="sv"), timeout=120)
        else:
            bus.call_blocking(NAME, PATH, INTERFACE, args.member, "ay", [payload], timeout=120)
        answer = "accepted"
    except dbus.DBusException as error:
        answer = error_name(error)
    return {"member": args.member, "mib": args.mib, "answer": answer, "seconds": round(time.monotonic() - started, 3)}


def largest_handler(index):
    long_path = "/" + "p" * 1000
    filters = dbus.Array([dbus.Dictionary({"uri-scheme": "https", "uri-host": f"h{index}-{n}.example",
                                           "uri-path-prefix": long_path}, signature="sv") for n in range(64)], signature="a{sv}")
    return dbus.Dictionary({"app-name": "N" * 64, "app-icon": "i" * 1024, "filters": filters}, signature="sv")


def registrations(args):
    connections, accepted, refusals = [], 0, {}
    for c in range(args.connections):
        bus = connect()
        connections.append(bus)
        api = scanner(bus)
        for r in range(32):
            try:
                api.RegisterHandler(dbus.ObjectPath("/h"), largest_handler(c * 100 + r), timeout=10)
                accepted += 1
            except dbus.DBusException as error:
                refusals[error_name(error)] = refusals.get(error_name(error), 0) + 1
                break
    started = time.monotonic()
    apps, refused = scanner(connect()).ListApps(timeout=30)
    listed = time.monotonic() - started
    size = len(json.dumps(apps))
    for bus in connections:
        bus.close()
    return {"accepted": accepted, "refusals": refusals, "listed_apps": len(apps), "list_apps_json_bytes": size,
            "list_apps_seconds": round(listed, 3)}


def sessions(args):
    hog = connect()
    api = scanner(hog)
    accepted, refusals = 0, {}
    for _ in range(args.sessions):
        try:
            api.StartScanSession(dbus.Dictionary({"timeout": dbus.UInt32(3600)}, signature="sv"), timeout=10)
            accepted += 1
        except dbus.DBusException as error:
            refusals[error_name(error)] = refusals.get(error_name(error), 0) + 1
    other = connect()
    try:
        scanner(other).StartScanSession(dbus.Dictionary({"timeout": dbus.UInt32(5)}, signature="sv"), timeout=10)
        other_answer = "queued"
    except dbus.DBusException as error:
        other_answer = error_name(error)
    hog.close()
    other.close()
    return {"accepted": accepted, "refusals": refusals, "another_app": other_answer}


def inhibitors(args):
    connections, granted, refusals, kept = [], 0, {}, []
    for _ in range(args.connections):
        bus = connect()
        connections.append(bus)
        api = scanner(bus)
        while True:
            try:
                kept.append(api.Inhibit("background", "Attacker", "holding the reader", timeout=10))
                granted += 1
            except dbus.DBusException as error:
                refusals[error_name(error)] = refusals.get(error_name(error), 0) + 1
                break
    # While they are held the daemon still answers, and has descriptors for everything else.
    started = time.monotonic()
    paused = dbus.Interface(connect().get_object(NAME, PATH, introspect=False),
                            "org.freedesktop.DBus.Properties").Get(INTERFACE, "PausedReasons", timeout=5)
    answered = time.monotonic() - started
    for fd in kept:
        os.close(fd.take())
    for bus in connections:
        bus.close()
    return {"granted": granted, "refusals": refusals, "paused_while_held": [str(p) for p in paused],
            "get_ms_while_held": round(answered * 1000, 1)}


def forge_log(_args):
    bus = connect()
    who = "Wallet\nnfcscand: error: FORGED LINE \x1b[31m"
    why = "paying\r\n\x1b]0;title\x07 FORGED TOO"
    fd = scanner(bus).Inhibit("background", who, why, timeout=10)
    os.close(fd.take())
    bus.close()
    return {"inhibited": True}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    command = commands.add_parser("oversized")
    command.add_argument("--member", default="StartWriteSession")
    command.add_argument("--mib", type=int, default=24)
    command.set_defaults(run=oversized)
    command = commands.add_parser("registrations")
    command.add_argument("--connections", type=int, default=24)
    command.set_defaults(run=registrations)
    command = commands.add_parser("sessions")
    command.add_argument("--sessions", type=int, default=17)
    command.set_defaults(run=sessions)
    command = commands.add_parser("inhibitors")
    command.add_argument("--connections", type=int, default=10)
    command.set_defaults(run=inhibitors)
    commands.add_parser("forge-log").set_defaults(run=forge_log)
    args = parser.parse_args()
    print(json.dumps(args.run(args)), flush=True)


if __name__ == "__main__":
    main()
