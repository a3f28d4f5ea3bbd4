#!/usr/bin/python3
"""Rounds of what a wallet app and a scanning app do to nfcscand, back to back (issue 11, "Faults
and load it must survive", first item). One round:

  1. Inhibit("background", ...) -> fd      PausedReasons becomes exactly ["reader-in-use"] and
                                           every reader object is gone (the readers are released)
  2. close the fd                          the readers come back (--readers of them, announced with
                                           InterfacesAdded) and PausedReasons becomes [] without
                                           ever saying "no-reader" on the way
  3. StartScanSession({})                  PausedReasons becomes exactly ["scan-session"]
  4. ScanSession1.Invalidate("")           the session is invalidated ("user-canceled") and
                                           PausedReasons becomes [] (the readers still there)

Every check waits on a condition (a signal, or the property read back) with a deadline
(--step-timeout) that only bounds a failure: nothing sleeps for a fixed time. PausedReasons is
followed through PropertiesChanged of /org/nfcscan/Scanner1; "no-reader" seen there at any point
after the first round started is a failure.

Stops at the first failure, or when nfcscand leaves the bus (it crashed: the caller looks at its
exit status). Prints one line of JSON as the last line of stdout:
  {"rounds": <completed here>, "seconds": <elapsed>, "failure": <text or null>, "daemon_gone": <bool>,
   "no_reader_blips": <releases that passed through no-reader, with --tolerate-no-reader>}
Exit 0 when every round passed, 1 on a failed check, 2 when nfcscand left the bus.
Run it with Debian's /usr/bin/python3 (python3-dbus, python3-gi), DBUS_SESSION_BUS_ADDRESS set.
"""

import argparse
import json
import os
import sys
import time

import dbus
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

SCANNER = "org.nfcscan.Scanner1"
PATH = "/org/nfcscan/Scanner1"
READERS = PATH + "/readers/"
SESSION = "org.nfcscan.ScanSession1"
PROPERTIES = "org.freedesktop.DBus.Properties"
OBJECT_MANAGER = "org.freedesktop.DBus.ObjectManager"


class Failed(Exception):
    """A check did not hold."""


class DaemonGone(Exception):
    """nfcscand left the bus."""


class Watcher:
    """What the client has heard from nfcscand: PausedReasons, the reader objects, and the
    Invalidated signals of its sessions, kept up to date from signals."""

    def __init__(self, bus, owner):
        self.bus = bus
        self.owner = owner
        self.gone = False
        self.paused = None
        self.paused_history = []   # every PausedReasons value PropertiesChanged carried
        self.readers = set()
        self.invalidated = {}      # session path -> reason
        bus.add_signal_receiver(self.on_properties, "PropertiesChanged", PROPERTIES, None, PATH)
        bus.add_signal_receiver(self.on_added, "InterfacesAdded", OBJECT_MANAGER, None, PATH)
        bus.add_signal_receiver(self.on_removed, "InterfacesRemoved", OBJECT_MANAGER, None, PATH)
        bus.add_signal_receiver(self.on_invalidated, "Invalidated", SESSION, None, None, path_keyword="path")
        bus.add_signal_receiver(self.on_owner, "NameOwnerChanged", "org.freedesktop.DBus",
                                "org.freedesktop.DBus", "/org/freedesktop/DBus", arg0=SCANNER)
        scanner = bus.get_object(SCANNER, PATH, introspect=False)
        self.paused = [str(r) for r in scanner.Get(SCANNER, "PausedReasons", dbus_interface=PROPERTIES)]
        objects = scanner.GetManagedObjects(dbus_interface=OBJECT_MANAGER)
        self.readers = {str(p) for p in objects if str(p).startswith(READERS)}

    def on_properties(self, interface, changed, invalidated):
        if interface == SCANNER and "PausedReasons" in changed:
            self.paused = [str(r) for r in changed["PausedReasons"]]
            self.paused_history.append(list(self.paused))

    def on_added(self, path, interfaces):
        if str(path).startswith(READERS):
            self.readers.add(str(path))

    def on_removed(self, path, interfaces):
        self.readers.discard(str(path))

    def on_invalidated(self, reason, message, path=None):
        self.invalidated[str(path)] = str(reason)

    def on_owner(self, name, old, new):
        if old == self.owner and new != self.owner:
            self.gone = True

    def wait(self, what, condition, timeout):
        """Runs the main loop until `condition()` holds (checked after each message); Failed after
        `timeout` seconds (the deadline only bounds a failure: a met condition returns at once)."""
        context = GLib.MainContext.default()
        expired = []
        timer = GLib.timeout_add(int(timeout * 1000), lambda: expired.append(True) and False)
        try:
            while True:
                while context.pending():
                    context.iteration(False)
                if self.gone:
                    raise DaemonGone(f"nfcscand left the bus while waiting for {what}")
                if condition():
                    return
                if expired:
                    raise Failed(f"no {what} within {timeout} s (PausedReasons {self.paused}, "
                                 f"readers {sorted(self.readers)})")
                context.iteration(True)
        finally:
            if not expired:
                GLib.source_remove(timer)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--first-round", type=int, default=1, help="the number of the first round (for messages)")
    parser.add_argument("--readers", type=int, default=2, help="how many reader objects nfcscand serves when all is clear")
    parser.add_argument("--step-timeout", type=float, default=20.0)
    parser.add_argument("--tolerate-no-reader", action="store_true",
                        help="count the rounds whose release passed through no-reader instead of failing (to measure other faults)")
    parser.add_argument("--progress", type=int, default=100, help="a line on stderr every N rounds (0: none)")
    args = parser.parse_args()

    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    owner = str(bus.get_name_owner(SCANNER))
    watch = Watcher(bus, owner)
    scanner = bus.get_object(SCANNER, PATH, introspect=False)
    calls = {"timeout": args.step_timeout}
    step = args.step_timeout
    completed = 0
    blips = 0
    failure = None
    gone = False
    started = time.monotonic()

    def call(method, *arguments, interface=SCANNER, on=scanner):
        try:
            return getattr(on, method)(*arguments, dbus_interface=interface, **calls)
        except dbus.DBusException as error:
            if bus.name_has_owner(SCANNER) and str(bus.get_name_owner(SCANNER)) == owner:
                raise Failed(f"{method}: {error.get_dbus_name()}: {error.get_dbus_message()}")
            raise DaemonGone(f"nfcscand left the bus during {method}")

    def paused_is(expected):
        # Read back as well as heard: the property must say it, not only a signal.
        return lambda: watch.paused == expected and \
            [str(r) for r in call("Get", SCANNER, "PausedReasons", interface=PROPERTIES)] == expected

    try:
        watch.wait(f"{args.readers} readers and background reading on", lambda: len(watch.readers) == args.readers
                   and watch.paused == [], step)
        for round_number in range(args.first_round, args.first_round + args.rounds):
            # 1. A wallet app takes an inhibitor: the readers are released.
            fd = call("Inhibit", "background", "Stress Wallet", "round %d" % round_number).take()
            watch.wait("PausedReasons [reader-in-use] with the readers released",
                       lambda: not watch.readers and paused_is(["reader-in-use"])(), step)
            # 2. It closes the descriptor: the readers come back, never by way of "no-reader".
            mark = len(watch.paused_history)
            os.close(fd)
            watch.wait(f"{args.readers} readers back and PausedReasons []",
                       lambda: len(watch.readers) == args.readers and paused_is([])(), step)
            seen = watch.paused_history[mark:]
            if any("no-reader" in reasons for reasons in seen) and args.tolerate_no_reader:
                blips += 1
            elif any("no-reader" in reasons for reasons in seen):
                raise Failed(f"PausedReasons went {seen} after the release (no-reader on the way)")
            # 3. A scanning app starts a session.
            path = str(call("StartScanSession", dbus.Dictionary({}, signature="sv")))
            watch.wait("PausedReasons [scan-session]", paused_is(["scan-session"]), step)
            # 4. It invalidates it.
            session = bus.get_object(SCANNER, path, introspect=False)
            call("Invalidate", "", interface=SESSION, on=session)
            watch.wait("the session invalidated and PausedReasons []",
                       lambda: watch.invalidated.get(path) == "user-canceled" and paused_is([])(), step)
            watch.invalidated.pop(path, None)
            if len(watch.readers) != args.readers:
                raise Failed(f"{len(watch.readers)} readers after the session, not {args.readers}")
            later = watch.paused_history[mark + len(seen):]
            if any("no-reader" in reasons for reasons in later):
                raise Failed(f"PausedReasons went {later} during the session")
            del watch.paused_history[:]
            completed += 1
            if args.progress and round_number % args.progress == 0:
                print(f"inhibit_session_rounds: {round_number} rounds, {time.monotonic() - started:.1f} s",
                      file=sys.stderr, flush=True)
    except Failed as error:
        failure = f"round {args.first_round + completed}: {error}"
    except DaemonGone as error:
        failure = f"round {args.first_round + completed}: {error}"
        gone = True
    seconds = round(time.monotonic() - started, 2)
    print(json.dumps({"rounds": completed, "seconds": seconds, "failure": failure, "daemon_gone": gone,
                      "no_reader_blips": blips}), flush=True)
    return 2 if gone else 1 if failure else 0


if __name__ == "__main__":
    sys.exit(main())
