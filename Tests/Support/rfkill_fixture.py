#!/usr/bin/env python3
'''A stand-in for /dev/rfkill: a FIFO carrying the kernel's 8-byte rfkill events (struct
rfkill_event: u32 idx, u8 type, u8 op, u8 soft, u8 hard), for nfcscand --rfkill-device.

    rfkill_fixture.py PATH hold TYPE...     make the FIFO, queue an ADD event per radio (all
                                            unblocked, numbered from 0) as the kernel does on
                                            open, print "ready", keep the FIFO open until killed
    rfkill_fixture.py PATH block IDX...     a CHANGE event: radio IDX soft-blocked
    rfkill_fixture.py PATH unblock IDX...   a CHANGE event: radio IDX unblocked
    rfkill_fixture.py PATH hard IDX...      a CHANGE event: radio IDX blocked by its switch

TYPE is wlan, bluetooth, uwb, wimax, wwan, gps, fm or nfc. A radio's type is remembered in
PATH.types so later events carry it.
'''
import os
import signal
import struct
import sys
import time

TYPES = {'wlan': 1, 'bluetooth': 2, 'uwb': 3, 'wimax': 4, 'wwan': 5, 'gps': 6, 'fm': 7, 'nfc': 8}
ADD, CHANGE = 0, 2


def event(idx, kind, op, soft, hard):
    return struct.pack('<IBBBB', idx, kind, op, soft, hard)


def main():
    path, command, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    if command == 'hold':
        if not os.path.exists(path):
            os.mkfifo(path, 0o600)
        kinds = [TYPES[name] for name in args]
        with open(path + '.types', 'w') as types:
            types.write(' '.join(str(k) for k in kinds))
        # Read-write: the queued events stay in the pipe until nfcscand opens and reads it.
        fd = os.open(path, os.O_RDWR)
        os.write(fd, b''.join(event(i, k, ADD, 0, 0) for i, k in enumerate(kinds)))
        print('ready', flush=True)
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        while True:
            time.sleep(3600)
    kinds = [int(k) for k in open(path + '.types').read().split()]
    soft, hard = {'block': (1, 0), 'unblock': (0, 0), 'hard': (0, 1)}[command]
    fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
    os.write(fd, b''.join(event(int(i), kinds[int(i)], CHANGE, soft, hard) for i in args))
    os.close(fd)


if __name__ == '__main__':
    main()
