#!/usr/bin/python3
"""Times a new connection's first call to nfcscand (ListApps, which waits while nfcscand finds out
who the caller is: GetConnectionCredentials, /proc/PID, the desktop entry) against the same
connection's second call, N times; prints medians and p90 in ms. Run it against a running nfcscand
on the session bus: Benchmarks/first-call.py [N] (Docs/performance.md)."""
import sys, time, statistics
import dbus
n = int(sys.argv[1]) if len(sys.argv) > 1 else 50
first, second = [], []
for _ in range(n):
    bus = dbus.SessionBus(private=True)
    scanner = bus.get_object("org.nfcscan.Scanner1", "/org/nfcscan/Scanner1")
    t0 = time.perf_counter(); scanner.ListApps(dbus_interface="org.nfcscan.Scanner1"); t1 = time.perf_counter()
    scanner.ListApps(dbus_interface="org.nfcscan.Scanner1"); t2 = time.perf_counter()
    first.append((t1 - t0) * 1000); second.append((t2 - t1) * 1000)
    bus.close()
q = lambda xs, p: sorted(xs)[int(len(xs) * p)]
print("first call: median %.2f ms, p90 %.2f ms; second call: median %.2f ms, p90 %.2f ms (n=%d)" % (
    statistics.median(first), q(first, 0.9), statistics.median(second), q(second, 0.9), n))
