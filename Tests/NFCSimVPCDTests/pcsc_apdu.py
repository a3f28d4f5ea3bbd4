"""Sends APDUs to the card in a PC/SC reader through pyscard and prints what came back, as JSON.

Run with Debian's /usr/bin/python3 (python3-pyscard). PCSCLITE_CSOCK_NAME chooses the pcscd.

    pcsc_apdu.py --reader "nfcsim 00 00" --wait 5 FFCA000000 FFB0000410

Output: {"readers": [...], "atr": "3b8f...", "responses": ["04...9000", ...]} on standard output.
Exit status 0 when every APDU got an answer, 2 when no card came within --wait seconds, 3 when
the reader is not there, 4 when a transmit failed (the answer is then null).
"""
import argparse
import json
import sys

from smartcard.scard import (SCARD_E_TIMEOUT, SCARD_PROTOCOL_T0, SCARD_PROTOCOL_T1, SCARD_S_SUCCESS,
                             SCARD_SCOPE_USER, SCARD_SHARE_SHARED, SCARD_STATE_PRESENT, SCARD_STATE_UNAWARE,
                             SCARD_UNPOWER_CARD, SCardConnect, SCardDisconnect, SCardEstablishContext,
                             SCardGetErrorMessage, SCardGetStatusChange, SCardListReaders,
                             SCardReleaseContext, SCardTransmit)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--reader", required=True, help="reader name (exact)")
    parser.add_argument("--wait", type=float, default=5.0, help="seconds to wait for a card")
    parser.add_argument("apdus", nargs="*", help="APDUs in hex")
    args = parser.parse_args()

    result = {"readers": [], "atr": None, "responses": []}
    status, context = SCardEstablishContext(SCARD_SCOPE_USER)
    if status != SCARD_S_SUCCESS:
        print("no pcscd: " + SCardGetErrorMessage(status), file=sys.stderr)
        return 3
    try:
        status, readers = SCardListReaders(context, [])
        result["readers"] = list(readers) if status == SCARD_S_SUCCESS else []
        if args.reader not in result["readers"]:
            print(json.dumps(result))
            return 3
        # Wait for the card, bounded: each call blocks until a change or the remaining time.
        state = [(args.reader, SCARD_STATE_UNAWARE)]
        status, state = SCardGetStatusChange(context, 0, state)
        remaining = int(args.wait * 1000)
        while not (state[0][1] & SCARD_STATE_PRESENT):
            if remaining <= 0:
                print(json.dumps(result))
                return 2
            step = min(remaining, 500)
            status, new_state = SCardGetStatusChange(context, step, [(args.reader, state[0][1])])
            remaining -= step
            if status == SCARD_S_SUCCESS:
                state = new_state
            elif status != SCARD_E_TIMEOUT:
                print("SCardGetStatusChange: " + SCardGetErrorMessage(status), file=sys.stderr)
                return 3
        result["atr"] = bytes(state[0][2]).hex()

        status, card, protocol = SCardConnect(context, args.reader, SCARD_SHARE_SHARED,
                                              SCARD_PROTOCOL_T0 | SCARD_PROTOCOL_T1)
        if status != SCARD_S_SUCCESS:
            print("SCardConnect: " + SCardGetErrorMessage(status), file=sys.stderr)
            print(json.dumps(result))
            return 4
        failed = False
        for apdu in args.apdus:
            status, response = SCardTransmit(card, protocol, list(bytes.fromhex(apdu)))
            if status != SCARD_S_SUCCESS:
                print("SCardTransmit %s: %s" % (apdu, SCardGetErrorMessage(status)), file=sys.stderr)
                result["responses"].append(None)
                failed = True
                break
            result["responses"].append(bytes(response).hex())
        SCardDisconnect(card, SCARD_UNPOWER_CARD)
        print(json.dumps(result))
        return 4 if failed else 0
    finally:
        SCardReleaseContext(context)


if __name__ == "__main__":
    sys.exit(main())
