"""Driver for Benchmarks/write-bench.sh: writes a full NTAG216 (an 868-byte message filling the data
area) RUNS times over each backend, beside libnfc's `nfc-mfultralight w` writing the same message,
and a one-character change of a full message (nfcscan writes only the pages that change).

Usage: python3 Benchmarks/write_bench.py BIN_DIR RUNS
"""
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time

import bench_rigs
from bench_rigs import emulated_pn532, fmt, pn532_tag_command, private_pcscd, run_timed, serial_bytes

BIN, RUNS = sys.argv[1], int(sys.argv[2])
bench_rigs.BIN = BIN

DATA_AREA = 0x6D * 8                      # NTAG216: 872 bytes from page 4
MESSAGE = DATA_AREA - 4                   # the TLV with a 3-byte length fills it
PAGES = 231                               # NTAG216 pages, as nfc-mfultralight dumps them


def message_bytes(fill, size=MESSAGE):
    """One text record of exactly `size` bytes, its text repeating `fill`."""
    header = 7
    text = (fill * 400).encode()[: size - header - 3]
    payload = b"\x02en" + text
    record = bytes([0xC1, 1]) + len(payload).to_bytes(4, "big") + b"T" + payload
    assert len(record) == size
    return record


def written(env, expected):
    """What a separate `nfcscan --json` reads is `expected`."""
    done = subprocess.run([f"{BIN}/nfcscan", "--json", "--timeout", "10"], env=env, capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        sys.exit(f"write-bench: the read-back failed ({done.returncode}): {done.stderr}")
    record = json.loads(done.stdout)["records"][0]
    if bytes.fromhex(record["payload"]) != expected[7:]:
        sys.exit("write-bench: the object does not hold what was written")


class Runs:
    def __init__(self):
        self.wall, self.commands, self.serial = [], set(), set()

    def add(self, seconds, lines, is_command):
        self.wall.append(seconds * 1000)
        self.commands.add(sum(1 for _, line in lines if is_command(line)))
        self.serial.add(serial_bytes(lines))

    def line(self, name, unit):
        return (f"    {name}: {unit} {fmt(self.commands)}, {max(self.serial)} bytes on the link per run; "
                f"median wall {statistics.median(self.wall):.0f} ms (min {min(self.wall):.0f}, max {max(self.wall):.0f})")


def nfcscan_write(env, path, runs, trace, is_command, extra=()):
    trace.mark()
    seconds, done = run_timed([f"{BIN}/nfcscan", "write", "--ndef", path, "--timeout", "10", *extra], env)
    if done.returncode != 0:
        sys.exit(f"write-bench: nfcscan write failed ({done.returncode}): {done.stderr}")
    runs.add(seconds, trace.since_mark(), is_command)


def libnfc(work, messages, paths):
    sim, trace, env = emulated_pn532(work, "ntag216", paths[0], name="write-ntag216")
    try:
        ours, small, peer = Runs(), Runs(), Runs()
        for i in range(RUNS):
            nfcscan_write(env, paths[1 - i % 2], ours, trace, pn532_tag_command)
            written(env, messages[1 - i % 2])
        # One character changed near the end of a full message: only the pages that differ.
        current = messages[1 - (RUNS - 1) % 2]
        for i in range(RUNS):
            changed = bytearray(current)
            changed[-3] = ord("A") + i % 26 if changed[-3] != ord("A") + i % 26 else ord("z")
            path = os.path.join(work, f"small{i}.ndef")
            with open(path, "wb") as f:
                f.write(changed)
            nfcscan_write(env, path, small, trace, pn532_tag_command)
            current = bytes(changed)
            written(env, current)
        # The peer: nfc-mfultralight w of a whole dump holding the other message (OTP, lock and
        # UID pages declined at its prompts, as a person keeping the object usable would).
        image = os.path.join(work, "image.bin")
        done = subprocess.run(["nfc-mfultralight", "r", image], env=env, capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            sys.exit(f"write-bench: nfc-mfultralight r failed: {done.stdout}{done.stderr}")
        base = open(image, "rb").read()
        for i in range(RUNS):
            target = messages[i % 2]
            tlv = bytes([0x03, 0xFF]) + len(target).to_bytes(2, "big") + target
            dump = base[:16] + tlv + base[16 + len(tlv):]
            path = os.path.join(work, f"dump{i}.bin")
            with open(path, "wb") as f:
                f.write(dump)
            trace.mark()
            start = time.monotonic()
            done = subprocess.run(["nfc-mfultralight", "w", path], env=env, input="n\nn\nn\nn\n", capture_output=True,
                                  text=True, timeout=60)
            seconds = time.monotonic() - start
            if done.returncode != 0:
                sys.exit(f"write-bench: nfc-mfultralight w failed ({done.returncode}): {done.stdout}{done.stderr}")
            peer.add(seconds, trace.since_mark(), pn532_tag_command)
            written(env, target)
    finally:
        sim.send_signal(signal.SIGTERM)
        sim.wait(timeout=10)
    print(f"(a) libnfc, PN532 emulator on a pty, {RUNS} runs each; every write read back by a separate nfcscan --json")
    print(ours.line("nfcscan write (whole message changes; reads, UID check and read-back included)", "tag commands"))
    print(small.line("nfcscan write (one character changed)", "tag commands"))
    print(peer.line("nfc-mfultralight w (every data page; no read-back)", "tag commands"))


def pcsc(work, messages, paths):
    for reader in ("storage-card", "acr122u"):
        rig, trace, socket = private_pcscd(work, f"write-{reader}", ["--type", "ntag216", "--reader", reader, "--ndef", paths[0]])
        try:
            env = dict(os.environ, PCSCLITE_CSOCK_NAME=socket, LIBNFC_DEVICE="pn532_uart:/nonexistent", LIBNFC_AUTO_SCAN="false")
            runs = Runs()
            for i in range(RUNS):
                nfcscan_write(env, paths[1 - i % 2], runs, trace, lambda line: line.startswith("nfcsim: > ff "))
                written(env, messages[1 - i % 2])
        finally:
            rig.send_signal(signal.SIGTERM)
            rig.wait(timeout=20)
        print(f"(b) PC/SC, private pcscd + nfcsim vpcd --reader {reader}, {RUNS} runs")
        print(runs.line("nfcscan write (whole message changes)", "APDUs"))


def main():
    load = open("/proc/loadavg").read().split()[:3]
    print(f"write-bench: {time.strftime('%Y-%m-%d %H:%M')}, load average {' '.join(load)}, {RUNS} runs")
    with tempfile.TemporaryDirectory() as work:
        messages = [message_bytes("Summer concert in the park. "), message_bytes("Winter market on the square! ")]
        paths = []
        for i, message in enumerate(messages):
            paths.append(os.path.join(work, f"message{i}.ndef"))
            with open(paths[-1], "wb") as f:
                f.write(message)
        print(f"NTAG216, {MESSAGE}-byte NDEF message (the TLV fills the {DATA_AREA}-byte data area)")
        libnfc(work, messages, paths)
        pcsc(work, messages, paths)
    load = open("/proc/loadavg").read().split()[:3]
    print(f"write-bench: done, load average {' '.join(load)}")


main()
