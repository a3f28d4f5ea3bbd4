#!/usr/bin/python3
"""An installed app started through its desktop entry's Exec line, for nfcscand's end-to-end
tests: exec_test_app.py RECORD ARG...

Appends one JSON line to RECORD and exits 0:
  {"argv": [ARG...], "files": {PATH: {"mode": "0600", "json": <the file parsed>, or "text": <it>}},
   "fds": [descriptors open besides 0, 1 and 2, with what they point at], "stdin": <what fd 0 is>,
   "sid_is_pid": <whether it leads a session of its own>}
"files" holds each ARG that names an existing file.
"""

import json
import os
import stat
import sys


def main():
    record, args = sys.argv[1], sys.argv[2:]
    files = {}
    for arg in args:
        if os.path.isfile(arg):
            with open(arg, "rb") as f:
                content = f.read()
            entry = {"mode": "%04o" % stat.S_IMODE(os.stat(arg).st_mode)}
            try:
                entry["json"] = json.loads(content)
            except ValueError:
                entry["text"] = content.decode("utf-8", "replace")
            files[arg] = entry
    listing = os.open("/proc/self/fd", os.O_RDONLY | os.O_DIRECTORY)
    fds = []
    for name in os.listdir(listing):
        fd = int(name)
        if fd > 2 and fd != listing:
            try:
                fds.append(f"{fd} -> {os.readlink(f'/proc/self/fd/{fd}')}")
            except OSError:
                pass
    os.close(listing)
    line = {"argv": args, "files": files, "fds": fds, "stdin": os.readlink("/proc/self/fd/0"),
            "sid_is_pid": os.getsid(0) == os.getpid()}
    with open(record, "a", encoding="utf-8") as f:
        f.write(json.dumps(line) + "\n")


if __name__ == "__main__":
    main()
