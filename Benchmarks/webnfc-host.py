#!/usr/bin/python3
"""What one page's Web NFC host costs (Docs/performance.md, issue 22): started as a browser
starts it, the time to its first answer (a write the specification refuses, answered without
nfcscand), its memory and threads, and the CPU it uses idle for 5 s with its page open.

    dbus-run-session -- python3 Benchmarks/webnfc-host.py HOST [RUNS]

HOST is nfcscan-webnfc-host (a link to an nfcscan binary under that name); RUNS default 10.
Prints the median, lowest and highest of each figure."""
import json
import os
import statistics
import struct
import subprocess
import sys
import time

host, runs = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 10
ticks_per_second = os.sysconf("SC_CLK_TCK")


def one():
    process = subprocess.Popen([host], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def send(message):
        body = json.dumps(message).encode()
        process.stdin.write(struct.pack("=I", len(body)) + body)
        process.stdin.flush()

    started = time.monotonic()
    send({"op": "hello", "origin": "https://example.com", "language": "en"})
    send({"op": "write", "id": 1, "records": [{"recordType": ":local", "data": "AA=="}]})
    length = struct.unpack("=I", process.stdout.read(4))[0]
    answer = json.loads(process.stdout.read(length))
    assert answer["name"] == "TypeError", answer
    first = (time.monotonic() - started) * 1000
    status = dict(line.split(":", 1) for line in open(f"/proc/{process.pid}/status"))
    rss = int(status["VmRSS"].split()[0])
    threads = int(status["Threads"])
    before = sum(int(x) for x in open(f"/proc/{process.pid}/stat").read().split()[13:15])
    time.sleep(5)
    after = sum(int(x) for x in open(f"/proc/{process.pid}/stat").read().split()[13:15])
    process.stdin.close()
    process.wait()
    return first, rss, threads, (after - before) / ticks_per_second * 1000


results = [one() for _ in range(runs)]
for index, (name, unit) in enumerate([("first answer", "ms"), ("resident memory", "KiB"), ("threads", ""), ("CPU idle for 5 s", "ms")]):
    values = [r[index] for r in results]
    print(f"{name}: median {statistics.median(values):.1f} {unit} (lowest {min(values):.1f}, highest {max(values):.1f}; {runs} runs)")
