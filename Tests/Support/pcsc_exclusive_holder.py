#!/usr/bin/env python3
'''A second PC/SC client, as a wallet or smart-card app would be: waits for a card in the first
reader pcscd lists, connects with SCARD_SHARE_EXCLUSIVE, holds it --hold seconds, disconnects.
Prints "held" and "released" as it goes. Uses PCSCLITE_CSOCK_NAME like every pcsc-lite client.

    pcsc_exclusive_holder.py --hold 8
'''
import argparse
import sys
import time

from smartcard.scard import (SCARD_LEAVE_CARD, SCARD_PROTOCOL_T0, SCARD_PROTOCOL_T1, SCARD_S_SUCCESS,
                             SCARD_SCOPE_USER, SCARD_SHARE_EXCLUSIVE, SCARD_STATE_PRESENT, SCARD_STATE_UNAWARE,
                             SCardConnect, SCardDisconnect, SCardEstablishContext, SCardGetStatusChange,
                             SCardListReaders, SCardReleaseContext)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--hold', type=float, default=5)
    parser.add_argument('--wait', type=float, default=15, help='seconds to wait for a card')
    args = parser.parse_args()
    rv, context = SCardEstablishContext(SCARD_SCOPE_USER)
    if rv != SCARD_S_SUCCESS:
        sys.exit(f'no pcscd: {rv:#x}')
    rv, readers = SCardListReaders(context, [])
    if rv != SCARD_S_SUCCESS or not readers:
        sys.exit('pcscd lists no reader')
    states = [(readers[0], SCARD_STATE_UNAWARE)]
    deadline = time.monotonic() + args.wait
    while True:
        rv, states = SCardGetStatusChange(context, 500, states)
        if states[0][1] & SCARD_STATE_PRESENT:
            break
        if time.monotonic() > deadline:
            sys.exit('no card came')
        states = [(name, event & ~0x2) for name, event, _ in states]
    rv, card, _ = SCardConnect(context, readers[0], SCARD_SHARE_EXCLUSIVE, SCARD_PROTOCOL_T0 | SCARD_PROTOCOL_T1)
    if rv != SCARD_S_SUCCESS:
        sys.exit(f'exclusive connect failed: {rv & 0xffffffff:#x}')
    print('held', flush=True)
    time.sleep(args.hold)
    SCardDisconnect(card, SCARD_LEAVE_CARD)
    print('released', flush=True)
    SCardReleaseContext(context)


if __name__ == '__main__':
    main()
