"""What nfcscand's session test clients share (scan_session_client.py, write_session_client.py):
the JSON-lines record, peeking at another app's session, and the session's signals, which may come
before StartScanSession/StartWriteSession has answered with its path, so they are kept until then.
Debian's /usr/bin/python3 (python3-dbus, python3-gi)."""

import json

import dbus

SCANNER = "org.nfcscan.Scanner1"
PATH = "/org/nfcscan/Scanner1"
PROPERTIES = "org.freedesktop.DBus.Properties"


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
