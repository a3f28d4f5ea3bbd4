#!/usr/bin/python3
"""A scripted stand-in for nfcscan's native host (org.nfcscan.webnfc), for testing the extension's
side of PROTOCOL.md without nfcscand or a reader. Appends every message it receives, as one JSON
line, to $NFCSCAN_FAKE_HOST_LOG (when set), and answers:

- scan: "started", then one "reading" (the records below) and one "readingerror";
- write: "done", or a NotAllowedError when the first record's text is "refuse";
- makeReadOnly: an error named TypeError (to check that name maps to a TypeError);
- cancel: nothing.

The browser frames messages as a 32-bit length in native byte order, then UTF-8 JSON."""
import base64
import json
import os
import struct
import sys

LOG = os.environ.get("NFCSCAN_FAKE_HOST_LOG") or os.devnull


def b64(data):
    return base64.b64encode(data if isinstance(data, bytes) else data.encode()).decode()


READING_RECORDS = [
    {"recordType": "text", "encoding": "utf-8", "lang": "fr", "data": b64("bonjour")},
    {"recordType": "url", "data": b64("https://example.com/a")},
    {"recordType": "smart-poster", "data": b64(b"\xd1\x01\x05U\x04a.bc"), "records": [
        {"recordType": "url", "data": b64("https://a.bc")},
        {"recordType": ":act", "data": b64(b"\x00")},
    ]},
    {"recordType": "håndværker.dk:abc", "id": "x1", "data": b64(b"\x01\x02")},
    {"recordType": "mime", "mediaType": "application/json", "data": b64('{"a":1}')},
    {"recordType": "empty"},
]


def read_message():
    header = sys.stdin.buffer.read(4)
    if len(header) < 4:
        return None
    (length,) = struct.unpack("=I", header)
    return json.loads(sys.stdin.buffer.read(length).decode())


def send(message):
    data = json.dumps(message).encode()
    sys.stdout.buffer.write(struct.pack("=I", len(data)) + data)
    sys.stdout.buffer.flush()


def answer(m):
    op, id_ = m.get("op"), m.get("id")
    if op == "scan":
        send({"id": id_, "event": "started"})
        send({"id": id_, "event": "reading", "serialNumber": "04:a2:0b:1c", "message": {"records": READING_RECORDS}})
        send({"id": id_, "event": "readingerror"})
    elif op == "write":
        first = m["records"][0]
        if base64.b64decode(first.get("data") or "") == b"refuse":
            send({"id": id_, "event": "error", "name": "NotAllowedError", "message": "the person said no"})
        else:
            send({"id": id_, "event": "done"})
    elif op == "makeReadOnly":
        send({"id": id_, "event": "error", "name": "TypeError", "message": "not a lockable tag"})


def main():
    with open(LOG, "a") as log:
        while True:
            m = read_message()
            if m is None:
                return 0
            log.write(json.dumps(m) + "\n")
            log.flush()
            answer(m)


if __name__ == "__main__":
    sys.exit(main())
