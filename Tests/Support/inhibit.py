#!/usr/bin/python3
"""Holds an nfcscand inhibitor (org.nfcscan.Scanner1.Inhibit) for --hold SECONDS, as a wallet app
would: prints `inhibited` once it has the descriptor, then closes it (or, with --exit, ends
without closing it: the kernel closes it). Run with Debian's /usr/bin/python3."""
import argparse
import os
import sys
import time

import dbus

parser = argparse.ArgumentParser()
parser.add_argument("--hold", type=float, required=True)
parser.add_argument("--who", default="Test Wallet")
parser.add_argument("--exit", action="store_true", help="end the process instead of closing the descriptor")
args = parser.parse_args()
bus = dbus.SessionBus()
scanner = bus.get_object("org.nfcscan.Scanner1", "/org/nfcscan/Scanner1", introspect=False)
fd = scanner.Inhibit("background", args.who, "paying", dbus_interface="org.nfcscan.Scanner1").take()
print("inhibited", flush=True)
time.sleep(args.hold)
if args.exit:
    os._exit(0)
os.close(fd)
print("released", flush=True)
time.sleep(0.5)
