#!/usr/bin/env python3
"""Decode throughput of ndeflib (the peer) on the same corpus as ndef-bench.

Usage: ndeflib_bench.py CORPUS [SECONDS]
Decodes every message with ndef.message_decoder (strict), which builds a typed record object for
every known record type: the same work ndef-bench does.
"""
import struct
import sys
import time

import ndef


def split(corpus):
    messages, index = [], 0
    while index + 4 <= len(corpus):
        (length,) = struct.unpack_from(">I", corpus, index)
        index += 4
        messages.append(corpus[index:index + length])
        index += length
    return messages


def decode_all(messages):
    records = 0
    for data in messages:
        try:
            records += len(list(ndef.message_decoder(data)))
        except ndef.DecodeError:
            pass
    return records


def main():
    corpus = open(sys.argv[1], "rb").read()
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 3.0
    messages = split(corpus)
    total = sum(len(m) for m in messages)
    per_pass = decode_all(messages)
    passes, start = 0, time.perf_counter()
    while True:
        decode_all(messages)
        passes += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    print(f"ndeflib: {len(messages)} messages, {total} bytes, {per_pass} records per pass; "
          f"{passes} passes in {elapsed:.3f} s; {total * passes / elapsed / 1e6:.3f} MB/s; "
          f"{int(per_pass * passes / elapsed)} records/s")


if __name__ == "__main__":
    main()
