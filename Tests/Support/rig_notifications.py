#!/usr/bin/python3
# The notification side of the desktop test rig (Tests/Support/desktop-rig.sh): what the rig's
# dunst shows, and the person's hand on it. Facts behind it: Docs/design/desktop-test-rig.md.
#
# Run it with Debian's /usr/bin/python3 (python3-gi); a python3 earlier on PATH (pyenv) lacks gi.
#
# Commands for tests (normally through desktop-rig.sh, which passes the same arguments):
#   shown DIR [--all] [--wait N] [--timeout S]
#       One JSON object per line for each notification dunst shows now, oldest first.
#   invoke DIR [ACTION_KEY] [--id N] [--timeout S]
#       Chooses ACTION_KEY on the newest shown notification (or notification N) through dunst's
#       own context menu, so dunst sends ActionInvoked(id, ACTION_KEY) to the notification's sender.
#       Without ACTION_KEY: the key dunst's do_action would pick ("default" if offered, else the
#       only action). Prints {"id", "action_key", "destination"} once the signal was sent.
#   close DIR [--all] [--timeout S]
#       Closes the topmost shown notification as the person does (`dunstctl close`), or every
#       one; prints {"id", "reason", "destination"} per NotificationClosed dunst sent.
#
# Rig-internal commands (started by desktop-rig.sh and by dunst):
#   monitor DIR ADDRESS   a bus monitor logging the org.freedesktop.Notifications traffic
#                         (Notify calls with their reply, CloseNotification, and the unicast
#                         ActionInvoked/NotificationClosed signals) to DIR/notifications.jsonl
#   on-display DIR ...    dunst's script hook: logs each notification dunst puts on screen to
#                         DIR/dunst-displayed.jsonl
#   dmenu DIR             dunst's "dmenu": answers the context menu with the entry `invoke` asked for
#
# Exit statuses: 0 done, 1 failed (one line on stderr says why), 2 usage.

import fcntl
import json
import os
import sys
import time
import uuid

NOTIFICATIONS = "org.freedesktop.Notifications"
NOTIFICATIONS_PATH = "/org/freedesktop/Notifications"
DUNST_IFACE = "org.dunstproject.cmd0"
URGENCY_RANK = {"CRITICAL": 2, "NORMAL": 1, "LOW": 0}


def die(message, status=1):
    print(f"rig-notifications: {message}", file=sys.stderr)
    sys.exit(status)


def append_json(path, record):
    line = json.dumps(record, ensure_ascii=False, default=json_default) + "\n"
    with open(path, "a", encoding="utf-8") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        f.write(line)
        f.flush()


def json_default(value):
    if isinstance(value, (bytes, bytearray)):
        return {"bytes": len(value)}
    return str(value)


def read_jsonl(path):
    records = []
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if line:
                    try:
                        records.append(json.loads(line))
                    except ValueError:
                        pass  # a line being written right now
    except FileNotFoundError:
        pass
    return records


def rig_env(rig_dir):
    env = {}
    try:
        with open(os.path.join(rig_dir, "env"), encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if line.startswith("export ") and "=" in line:
                    name, value = line[len("export "):].split("=", 1)
                    if len(value) >= 2 and value[0] == value[-1] == "'":
                        value = value[1:-1].replace("'\\''", "'")
                    env[name] = value
    except FileNotFoundError:
        die(f"no rig in {rig_dir} ({rig_dir}/env is missing; run desktop-rig.sh start {rig_dir})")
    return env


# ---------------------------------------------------------------------------------------------
# monitor: becomes a D-Bus monitor (org.freedesktop.DBus.Monitoring.BecomeMonitor) of the rig's
# session bus. dunst sends ActionInvoked and NotificationClosed to the notification's sender only
# (unicast), so nothing but a monitor can see them besides that sender.

def unpack_body(message):
    body = message.get_body()
    return body.unpack() if body is not None else ()


def summarize_hints(hints):
    out = {}
    for key, value in hints.items():
        if key in ("image-data", "image_data", "icon_data") and isinstance(value, tuple) and len(value) == 7:
            out[key] = {"width": value[0], "height": value[1], "bytes": len(value[6])}
        elif isinstance(value, (bytes, bytearray)):
            out[key] = {"bytes": len(value)}
        else:
            out[key] = value
    return out


def cmd_monitor(rig_dir, address):
    from gi.repository import Gio, GLib

    log_path = os.path.join(rig_dir, "notifications.jsonl")
    conn = Gio.DBusConnection.new_for_address_sync(
        address,
        Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
        None, None)
    me = conn.get_unique_name()
    pending = {}  # (caller, serial) -> record awaiting the reply
    MT = Gio.DBusMessageType

    def log(record):
        record["time"] = round(time.time(), 6)
        append_json(log_path, record)

    def on_message(_conn, msg, incoming):
        # Messages for this connection itself (the reply to BecomeMonitor, NameAcquired) go on
        # to GDBus; everything else is a monitored copy: log it and drop it (a monitor never answers).
        if not incoming or msg.get_destination() == me:
            return msg
        try:
            handle(msg)
        except Exception as error:  # keep monitoring whatever one message holds
            log({"event": "monitor-error", "error": repr(error)})
        return None

    def handle(msg):
        kind = msg.get_message_type()
        if kind == MT.METHOD_CALL and msg.get_interface() == NOTIFICATIONS:
            member = msg.get_member()
            args = unpack_body(msg)
            if member == "Notify" and msg.get_signature() == "susssasa{sv}i":
                app_name, replaces_id, app_icon, summary, body, actions, hints, expire = args
                pairs = [{"key": actions[i], "label": actions[i + 1]} for i in range(0, len(actions) - 1, 2)]
                pending[(msg.get_sender(), msg.get_serial())] = {
                    "event": "notify", "sender": msg.get_sender(), "appname": app_name,
                    "replaces_id": replaces_id, "app_icon": app_icon, "summary": summary, "body": body,
                    "actions": pairs, "hints": summarize_hints(hints), "expire_timeout": expire}
            elif member == "CloseNotification" and msg.get_signature() == "u":
                log({"event": "close-request", "sender": msg.get_sender(), "id": args[0]})
                pending[(msg.get_sender(), msg.get_serial())] = {"event": "close-request-reply", "id": args[0]}
            else:
                pending[(msg.get_sender(), msg.get_serial())] = {"event": "call", "member": member,
                                                                 "sender": msg.get_sender()}
        elif kind in (MT.METHOD_RETURN, MT.ERROR):
            record = pending.pop((msg.get_destination(), msg.get_reply_serial()), None)
            if record is None:
                return
            if kind == MT.ERROR:
                args = unpack_body(msg)
                record["error"] = msg.get_error_name()
                record["message"] = args[0] if args else ""
                record["event"] += "-error"
                log(record)
            elif record["event"] == "notify":
                args = unpack_body(msg)
                record["id"] = args[0] if args else None
                log(record)
        elif kind == MT.SIGNAL and msg.get_interface() == NOTIFICATIONS:
            member = msg.get_member()
            args = unpack_body(msg)
            if member == "NotificationClosed" and len(args) == 2:
                log({"event": "closed", "id": args[0], "reason": args[1], "destination": msg.get_destination()})
            elif member == "ActionInvoked" and len(args) == 2:
                log({"event": "action-invoked", "id": args[0], "action_key": args[1],
                     "destination": msg.get_destination()})
            else:
                log({"event": "signal", "member": member, "args": list(args), "destination": msg.get_destination()})
        elif kind == MT.SIGNAL and msg.get_member() == "NameOwnerChanged":
            args = unpack_body(msg)
            if len(args) == 3 and args[0] == NOTIFICATIONS:
                log({"event": "server", "owner": args[2], "previous_owner": args[1]})

    conn.add_filter(on_message)
    rules = [
        f"type='method_call',interface='{NOTIFICATIONS}'",
        f"type='signal',interface='{NOTIFICATIONS}'",
        "type='method_return'",
        "type='error'",
        f"type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='{NOTIFICATIONS}'",
    ]
    conn.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.Monitoring",
                   "BecomeMonitor", GLib.Variant("(asu)", (rules, 0)), None, Gio.DBusCallFlags.NONE, 10000, None)
    with open(os.path.join(rig_dir, "monitor.ready"), "w") as f:
        f.write(f"{os.getpid()}\n")
    loop = GLib.MainLoop()
    conn.connect("closed", lambda *_: loop.quit())  # the bus went away: nothing left to watch
    loop.run()


# ---------------------------------------------------------------------------------------------
# on-display: dunst runs its rules' scripts when it moves a notification to the screen
# (queues_update) and again when a shown one is replaced; argv = appname summary body icon urgency,
# the rest in DUNST_* variables (DUNST_TIMEOUT in milliseconds).

def cmd_on_display(rig_dir, argv):
    env = os.environ
    record = {
        "id": int(env.get("DUNST_ID", "0") or 0),
        "appname": env.get("DUNST_APP_NAME", ""),
        "summary": env.get("DUNST_SUMMARY", ""),
        "body": env.get("DUNST_BODY", ""),
        "icon": argv[3] if len(argv) > 3 else "",
        "icon_path": env.get("DUNST_ICON_PATH", ""),
        "urgency": env.get("DUNST_URGENCY", ""),
        "category": env.get("DUNST_CATEGORY", ""),
        "desktop_entry": env.get("DUNST_DESKTOP_ENTRY", ""),
        "stack_tag": env.get("DUNST_STACK_TAG", ""),
        "urls": env.get("DUNST_URLS", ""),
        "timeout_ms": int(env.get("DUNST_TIMEOUT", "0") or 0),
        "progress": int(env.get("DUNST_PROGRESS", "-1") or -1),
        "time": round(time.time(), 6),
    }
    append_json(os.path.join(rig_dir, "dunst-displayed.jsonl"), record)


# ---------------------------------------------------------------------------------------------
# dmenu: dunst writes one line per action of the shown notifications, "#<label> (<summary>)
# [<id>,<key>]" (then any URLs), and acts on the one line read back (src/menu.c).

def cmd_dmenu(rig_dir):
    data = sys.stdin.read()
    dunst_dir = os.path.join(rig_dir, "dunst")
    pick_path = os.path.join(dunst_dir, "dmenu-pick.json")
    with open(os.path.join(dunst_dir, "dmenu-input.log"), "a", encoding="utf-8") as f:
        f.write(f"--- {time.time():.6f}\n{data}\n")
    try:
        with open(pick_path, encoding="utf-8") as f:
            pick = json.load(f)
        os.unlink(pick_path)
    except (FileNotFoundError, ValueError):
        return  # someone opened the menu by hand: answer nothing, dunst does nothing
    lines = data.split("\n")
    suffix = f"[{pick['id']},{pick['key']}]"
    chosen = None
    for i, line in enumerate(lines):
        if line.endswith(suffix):
            start = i  # a summary holding a newline spreads an entry over lines: rejoin it
            while start > 0 and not lines[start].startswith("#"):
                start -= 1
            chosen = "\n".join(lines[start:i + 1])
            break
    result = {"token": pick["token"], "chosen": chosen, "menu": [l for l in lines if l]}
    tmp = os.path.join(dunst_dir, "dmenu-result.json.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(result, f)
    os.replace(tmp, os.path.join(dunst_dir, "dmenu-result.json"))
    if chosen is not None:
        sys.stdout.write(chosen + "\n")
        sys.stdout.flush()


# ---------------------------------------------------------------------------------------------
# shown / invoke / close

def current_state(rig_dir):
    """Open notifications (from the monitor log) joined with dunst's display log."""
    events = read_jsonl(os.path.join(rig_dir, "notifications.jsonl"))
    open_ = {}
    for event in events:
        kind = event.get("event")
        if kind == "notify" and event.get("id"):
            open_[event["id"]] = event
        elif kind == "closed":
            open_.pop(event.get("id"), None)
        elif kind == "server" and not event.get("owner"):
            open_.clear()  # dunst left the bus: it closes nothing on the way out
    displayed = {}
    for record in read_jsonl(os.path.join(rig_dir, "dunst-displayed.jsonl")):
        displayed[record["id"]] = record
    out = []
    for nid in sorted(open_):
        n = open_[nid]
        shown = displayed.get(nid)
        out.append({
            "id": nid,
            "appname": n["appname"],
            "summary": n["summary"],
            "body": n["body"],
            "app_icon": n["app_icon"],
            "actions": n["actions"],
            "hints": n["hints"],
            "expire_timeout": n["expire_timeout"],
            "replaces_id": n["replaces_id"],
            "sender": n["sender"],
            "notified_at": n["time"],
            "displayed": shown is not None,
            "displayed_at": shown["time"] if shown else None,
            "dunst": None if shown is None else {
                k: shown[k] for k in ("urgency", "timeout_ms", "category", "desktop_entry", "icon",
                                      "icon_path", "stack_tag", "urls")},
        })
    return out, len(events)


def shown_list(rig_dir, include_waiting=False):
    notifications, _ = current_state(rig_dir)
    return [n for n in notifications if include_waiting or n["displayed"]]


def wait_events(rig_dir, offset, predicate, timeout):
    """Waits for monitor-log events after the first `offset` ones that satisfy predicate."""
    deadline = time.monotonic() + timeout
    while True:
        events = read_jsonl(os.path.join(rig_dir, "notifications.jsonl"))[offset:]
        found = [e for e in events if predicate(e)]
        if found or time.monotonic() >= deadline:
            return found
        time.sleep(0.02)


def event_count(rig_dir):
    return len(read_jsonl(os.path.join(rig_dir, "notifications.jsonl")))


def dunst_call(rig_dir, method, signature=None, args=()):
    from gi.repository import Gio, GLib
    address = rig_env(rig_dir).get("DBUS_SESSION_BUS_ADDRESS")
    if not address:
        die(f"{rig_dir}/env names no session bus")
    conn = Gio.DBusConnection.new_for_address_sync(
        address,
        Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
        None, None)
    try:
        params = GLib.Variant(signature, args) if signature else None
        conn.call_sync(NOTIFICATIONS, NOTIFICATIONS_PATH, DUNST_IFACE, method, params, None,
                       Gio.DBusCallFlags.NO_AUTO_START, 10000, None)
    except GLib.Error as error:
        die(f"dunst refused {DUNST_IFACE}.{method}: {error.message}")
    finally:
        conn.close_sync(None)


def print_json(record):
    print(json.dumps(record, ensure_ascii=False, default=json_default), flush=True)


def cmd_shown(rig_dir, include_waiting, wait_count, timeout):
    deadline = time.monotonic() + timeout
    while True:
        notifications = shown_list(rig_dir, include_waiting)
        if len(notifications) >= wait_count or time.monotonic() >= deadline:
            break
        time.sleep(0.02)
    for n in notifications:
        print_json(n)
    if len(notifications) < wait_count:
        die(f"{len(notifications)} notification(s) shown after {timeout:g} s; waited for {wait_count}")


def do_action_key(n):
    """The key dunst's do_action (middle click, `dunstctl action`) invokes (notification.c)."""
    keys = [a["key"] for a in n["actions"]]
    if "default" in keys:
        return "default"
    if len(keys) == 1:
        return keys[0]
    return None


def cmd_invoke(rig_dir, key, target_id, timeout):
    notifications = shown_list(rig_dir)
    if not notifications:
        die("no notification is shown")
    if target_id is None:
        target = notifications[-1]
    else:
        target = next((n for n in notifications if n["id"] == target_id), None)
        if target is None:
            die(f"notification {target_id} is not shown (shown: {[n['id'] for n in notifications]})")
    keys = [a["key"] for a in target["actions"]]
    if key is None:
        key = do_action_key(target)
        if key is None:
            die(f"notification {target['id']} offers {keys or 'no actions'}; name the key to invoke")
    elif key not in keys:
        die(f"notification {target['id']} offers no action {key!r} (it offers {keys})")
    if "]" in key:
        die(f"dunst's menu cannot carry an action key holding ']': {key!r}")

    dunst_dir = os.path.join(rig_dir, "dunst")
    with open(os.path.join(dunst_dir, "menu.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one context menu at a time (dunst refuses a second)
        token = uuid.uuid4().hex
        result_path = os.path.join(dunst_dir, "dmenu-result.json")
        try:
            os.unlink(result_path)
        except FileNotFoundError:
            pass
        tmp = os.path.join(dunst_dir, "dmenu-pick.json.tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump({"id": target["id"], "key": key, "token": token}, f)
        os.replace(tmp, os.path.join(dunst_dir, "dmenu-pick.json"))
        offset = event_count(rig_dir)
        dunst_call(rig_dir, "ContextMenuCall")
        found = wait_events(rig_dir, offset, lambda e: e.get("event") == "action-invoked"
                            and e.get("id") == target["id"] and e.get("action_key") == key, timeout)
        try:
            os.unlink(os.path.join(dunst_dir, "dmenu-pick.json"))
        except FileNotFoundError:
            pass
    if not found:
        try:
            with open(result_path, encoding="utf-8") as f:
                menu = json.load(f).get("menu")
        except (FileNotFoundError, ValueError):
            menu = "dunst did not open its menu"
        die(f"dunst sent no ActionInvoked({target['id']}, {key!r}) within {timeout:g} s; menu: {menu}")
    event = found[0]
    print_json({"id": event["id"], "action_key": event["action_key"], "destination": event["destination"]})


def cmd_close(rig_dir, close_all, timeout):
    notifications = shown_list(rig_dir)
    if not notifications:
        die("no notification is shown")
    offset = event_count(rig_dir)
    if close_all:
        expected = {n["id"] for n in notifications}
        dunst_call(rig_dir, "NotificationCloseAll")
    else:
        # dunst keeps its shown list sorted by urgency (highest first), then id (oldest first),
        # and NotificationCloseLast closes the head of that list (queues.c, notification_cmp).
        top = min(notifications, key=lambda n: (-URGENCY_RANK.get((n["dunst"] or {}).get("urgency"), 1), n["id"]))
        expected = {top["id"]}
        dunst_call(rig_dir, "NotificationCloseLast")
    deadline = time.monotonic() + timeout
    closed = []
    while True:
        closed = [e for e in wait_events(rig_dir, offset, lambda e: e.get("event") == "closed", 0)]
        if expected <= {e["id"] for e in closed} or time.monotonic() >= deadline:
            break
        time.sleep(0.02)
    for event in closed:
        print_json({"id": event["id"], "reason": event["reason"], "destination": event["destination"]})
    missing = expected - {e["id"] for e in closed}
    if missing:
        die(f"dunst sent no NotificationClosed for {sorted(missing)} within {timeout:g} s")


def main(argv):
    # dunst's hooks get notification text as arguments (which may start with "-"): no argparse.
    if len(argv) >= 2 and argv[0] == "on-display":
        cmd_on_display(os.path.abspath(argv[1]), argv[2:])
        return
    if len(argv) >= 2 and argv[0] == "dmenu":
        cmd_dmenu(os.path.abspath(argv[1]))
        return
    import argparse
    parser = argparse.ArgumentParser(prog="rig_notifications.py", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("monitor"); p.add_argument("dir"); p.add_argument("address")
    p = sub.add_parser("shown")
    p.add_argument("dir")
    p.add_argument("--all", action="store_true", help="also notifications dunst holds back (paused)")
    p.add_argument("--wait", type=int, default=0, metavar="N", help="wait until N are shown")
    p.add_argument("--timeout", type=float, default=10.0)
    p = sub.add_parser("invoke")
    p.add_argument("dir"); p.add_argument("key", nargs="?")
    p.add_argument("--id", type=int)
    p.add_argument("--timeout", type=float, default=5.0)
    p = sub.add_parser("close")
    p.add_argument("dir"); p.add_argument("--all", action="store_true")
    p.add_argument("--timeout", type=float, default=5.0)
    args = parser.parse_args(argv)
    rig_dir = os.path.abspath(args.dir)
    if args.command == "monitor":
        cmd_monitor(rig_dir, args.address)
    elif args.command == "shown":
        cmd_shown(rig_dir, args.all, args.wait, args.timeout)
    elif args.command == "invoke":
        cmd_invoke(rig_dir, args.key, args.id, args.timeout)
    elif args.command == "close":
        cmd_close(rig_dir, args.all, args.timeout)


if __name__ == "__main__":
    main(sys.argv[1:])
