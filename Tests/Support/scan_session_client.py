#!/usr/bin/python3
"""A test app for nfcscand's in-app scan sessions (Docs/dbus/org.nfcscan.ScanSession1.xml).

Listens for org.nfcscan.ScanSession1 signals first, then calls StartScanSession with the options
given, and appends one JSON line per event to --record FILE:
  {"event": "started", "path": ...}
  {"event": "properties", "changed": {...}}          (PropertiesChanged of its session)
  {"event": "reading"}                               (PropertiesChanged: State "reading" alone)
  {"event": "detected", "uri": <first record's uri or text>, "backend": ..., "schema_problems": [...]}
  {"event": "invalidated", "reason": ..., "message": ...}
  {"event": "refused", "error": <D-Bus error name>, "message": ...}
It exits 0 once its session is invalidated (or 1 when StartScanSession is refused).
--invalidate-after N: calls Invalidate(--invalidate-message) after N objects were detected.
--restart-after S: calls RestartPolling S seconds after the session became active.
--invalidate-when FILE: calls Invalidate(--invalidate-message) once FILE exists (looked for every
50 ms from the start), and records {"event": "invalidate-called"} or {"event": "invalidate-refused"}.
--language L: the session's "language" option (e.g. zh_CN).
--peek PATH: instead of a session, calls Properties.GetAll on PATH (another app's session) and
records {"event": "peek", "error": <D-Bus error name or null>}; exit 0.
Run it with Debian's /usr/bin/python3 (python3-dbus, python3-gi).
"""

import os
import sys

import dbus
from gi.repository import GLib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from session_client import SCANNER, SessionSignals, arguments, common_options, connect, plain, schema_problems, start, tree  # noqa: E402

SESSION = "org.nfcscan.ScanSession1"


def main():
    parser = arguments(__doc__)
    parser.add_argument("--multiple", action="store_true")
    parser.add_argument("--alert")
    parser.add_argument("--invalidate-after", type=int, default=0)
    parser.add_argument("--invalidate-message", default="")
    parser.add_argument("--restart-after", type=float, default=0)
    parser.add_argument("--invalidate-when")
    parser.add_argument("--language")
    parser.add_argument("--password", help="the password of objects that protect reading, 8 hex digits")
    args = parser.parse_args()
    record, bus = connect(args, SESSION)
    if bus is None:
        return 0

    loop = GLib.MainLoop()
    state = {"detected": 0}

    def on_signal(member, args_):
        path = signals.path
        if member == "Detected":
            scan = args_[0]
            first = scan["records"][0] if scan["records"] else {}
            record(event="detected", uri=str(first.get("uri", first.get("text", ""))),
                   backend=str(scan["object"]["backend"]), schema_problems=schema_problems(tree(scan)))
            state["detected"] += 1
            if args.invalidate_after and state["detected"] == args.invalidate_after:
                bus.get_object(SCANNER, path, introspect=False).Invalidate(args.invalidate_message, dbus_interface=SESSION)
        elif member == "Invalidated":
            record(event="invalidated", reason=str(args_[0]), message=str(args_[1]))
            loop.quit()
        elif member == "PropertiesChanged" and args_[0] == SESSION:
            if args.restart_after and args_[1].get("State") == "active":
                def restart():
                    bus.get_object(SCANNER, path, introspect=False).RestartPolling(dbus_interface=SESSION)
                    record(event="restarted")
                    return False
                GLib.timeout_add(int(args.restart_after * 1000), restart)
            if dict(args_[1]) == {"State": "reading"}:
                record(event="reading")
                return
            record(event="properties", changed={str(k): plain(v) for k, v in args_[1].items()})

    signals = SessionSignals(bus, SESSION, on_signal)
    options = common_options(args)
    if args.multiple:
        options["multiple"] = dbus.Boolean(True)
    if args.alert is not None:
        options["alert-message"] = dbus.String(args.alert)
    if args.language is not None:
        options["language"] = dbus.String(args.language)
    if args.password is not None:
        options["password"] = dbus.ByteArray(bytes.fromhex(args.password))
    path = start(bus, "StartScanSession", options, record)
    if path is None:
        return 1
    signals.started(path)
    if args.invalidate_when:
        def invalidate_when():
            if not os.path.exists(args.invalidate_when):
                return True
            try:
                bus.get_object(SCANNER, path, introspect=False).Invalidate(args.invalidate_message, dbus_interface=SESSION)
                record(event="invalidate-called")
            except dbus.DBusException as e:
                record(event="invalidate-refused", error=e.get_dbus_name())
            return False
        GLib.timeout_add(50, invalidate_when)
    loop.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
