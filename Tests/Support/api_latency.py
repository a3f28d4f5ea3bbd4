#!/usr/bin/env python3
"""Calls nfcscand's API and measures how long each answer takes: `--calls N` sequential
`Get(PausedReasons)` calls from one client, or `--clients C --seconds S` clients on connections of
their own calling Get, GetAll and GetManagedObjects as fast as they are answered for S seconds.
Prints one JSON line: calls, unanswered, p50_ms, p99_ms, worst_ms. Exit 1 when a call failed."""
import argparse
import json
import sys
import threading
import time

import dbus

SCANNER = ("org.nfcscan.Scanner1", "/org/nfcscan/Scanner1")


def one_client(stop_at, count, latencies, failures, lock):
    bus = dbus.bus.BusConnection(_address())
    scanner = bus.get_object(*SCANNER, introspect=False)
    properties = dbus.Interface(scanner, "org.freedesktop.DBus.Properties")
    manager = dbus.Interface(scanner, "org.freedesktop.DBus.ObjectManager")
    calls = [lambda: properties.Get("org.nfcscan.Scanner1", "PausedReasons", timeout=5),
             lambda: properties.GetAll("org.nfcscan.Scanner1", timeout=5),
             lambda: manager.GetManagedObjects(timeout=5)]
    index = 0
    while (count is not None and index < count) or (count is None and time.monotonic() < stop_at):
        started = time.monotonic()
        try:
            calls[0 if count is not None else index % len(calls)]()
            elapsed = time.monotonic() - started
            with lock:
                latencies.append(elapsed)
        except dbus.DBusException as error:
            with lock:
                failures.append(str(error))
        index += 1
    bus.close()


def _address():
    import os
    return os.environ["DBUS_SESSION_BUS_ADDRESS"]


def percentile(values, fraction):
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, help="sequential Get calls from one client")
    parser.add_argument("--clients", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    latencies, failures, lock = [], [], threading.Lock()
    stop_at = time.monotonic() + args.seconds
    threads = [threading.Thread(target=one_client, args=(stop_at, args.calls, latencies, failures, lock))
               for _ in range(1 if args.calls else args.clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    ms = lambda value: None if value is None else round(value * 1000, 2)
    print(json.dumps({"calls": len(latencies) + len(failures), "unanswered": len(failures),
                      "p50_ms": ms(percentile(latencies, 0.5)), "p99_ms": ms(percentile(latencies, 0.99)),
                      "worst_ms": ms(max(latencies) if latencies else None),
                      "failures": failures[:3]}))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
