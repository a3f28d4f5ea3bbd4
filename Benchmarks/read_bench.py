"""Driver for Benchmarks/read-bench.sh: reads a full NTAG216 over libnfc and PC/SC, RUNS times each;
then (c) each PC/SC reader personality of nfcsim vpcd (storage-card, acr122u, part3) with a full
NTAG216, a 2 KB Type 4 NDEF file and a full MIFARE Classic 1K, and (d) the last two over libnfc.

Usage: python3 Benchmarks/read_bench.py BIN_DIR RUNS [personalities]
  personalities: only (c) and (d).
"""
import json
import math
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time

import bench_rigs
from bench_rigs import Trace, emulated_pn532, fmt, pn532_tag_command, private_pcscd, run_timed, serial_bytes, span_ms, wait_for

BIN, RUNS = sys.argv[1], int(sys.argv[2])
bench_rigs.BIN = BIN
ONLY_PERSONALITIES = sys.argv[3:] == ["personalities"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# NTAG216: CC on page 3, data area pages 4..221 (CC size byte 0x6D: 872 bytes).
PAGE = 4
DATA_AREA = 0x6D * 8                      # 872 bytes
MESSAGE = DATA_AREA - 4                   # NDEF TLV with a 3-byte length fills it: 868 bytes
PN532_FRAME = 252                         # largest InDataExchange response a PN532 carries
READ_BYTES = 16                           # one Type 2 READ (or one PC/SC FF B0 of 16 bytes)


def message_bytes(size=MESSAGE):
    """One long text record, exactly `size` bytes."""
    header = 7                            # MB|ME|TNF=1, type length, 4-byte payload length, "T"
    text = ("Summer concert in the park. " * 80).encode()[: size - header - 3]
    payload = b"\x02en" + text
    record = bytes([0xC1, 1]) + len(payload).to_bytes(4, "big") + b"T" + payload
    assert len(record) == size
    return record


def minimum(frame_bytes):
    """Fewest commands that bring back the CC page and the whole data area, frame_bytes at a time."""
    return math.ceil((PAGE + DATA_AREA) / frame_bytes)


class Runs:
    """Figures of one tool over RUNS reads."""

    def __init__(self):
        self.wall, self.link, self.trips, self.commands, self.serial = [], [], set(), set(), set()

    def add(self, wall, lines, is_command, trips=None):
        self.wall.append(wall)
        self.link.append(span_ms(lines, is_command))
        self.commands.add(sum(1 for _, line in lines if is_command(line)))
        self.serial.add(serial_bytes(lines))
        if trips is not None:
            self.trips.add(trips)

    def times(self):
        wall = [w * 1000 for w in self.wall]
        return (f"median wall {statistics.median(wall):.0f} ms (min {min(wall):.0f}, max {max(wall):.0f}), "
                f"first command to last reply {statistics.median(self.link):.1f} ms (median)")


def libnfc(work, ndef):
    sim, trace, env = emulated_pn532(work, "ntag216", ndef, name="full-ntag216")
    try:
        trace.mark()
        ours, peer = Runs(), Runs()
        for _ in range(RUNS):
            seconds, done = run_timed([f"{BIN}/nfcscan", "--json", "--timeout", "10"], env)
            if done.returncode != 0:
                sys.exit(f"read-bench: nfcscan failed ({done.returncode}): {done.stderr}")
            document = json.loads(done.stdout)
            assert len(bytes.fromhex(document["records"][0]["payload"])) == MESSAGE - 7
            ours.add(seconds, trace.since_mark(), pn532_tag_command, document["object"].get("round_trips", "absent"))
        for i in range(RUNS):
            dump = os.path.join(work, f"dump{i}.bin")
            seconds, done = run_timed(["nfc-mfultralight", "r", dump], env)
            if done.returncode != 0 or "231 of 231 pages read" not in done.stdout:
                sys.exit(f"read-bench: nfc-mfultralight failed ({done.returncode}): {done.stdout}{done.stderr}")
            peer.add(seconds, trace.since_mark(), pn532_tag_command)
    finally:
        sim.send_signal(signal.SIGTERM)
        sim.wait(timeout=10)
    print(f"(a) libnfc, PN532 emulator on a pty (frames of at most {PN532_FRAME} bytes), {RUNS} runs each")
    print(f"    minimum possible: {minimum(PN532_FRAME)} commands for CC + data area "
          f"({PAGE + DATA_AREA} bytes / {PN532_FRAME}), {minimum(PN532_FRAME) + 1} with GET_VERSION")
    for name, runs in (("nfcscan --json", ours), ("nfc-mfultralight r (all 231 pages)", peer)):
        trips = f"round_trips {fmt(runs.trips)} (JSON), " if runs.trips else ""
        serial = max(runs.serial)
        print(f"    {name}: {trips}tag commands {fmt(runs.commands)} (trace: InDataExchange + InCommunicateThru), "
              f"{serial} bytes on the serial line per run (all frames; {serial * 10 / 115200 * 1000:.0f} ms at 115200 baud)")
        print(f"        {runs.times()}")


def pcsc(work, ndef):
    rig, trace, socket = private_pcscd(work, "pcscd", ["--type", "ntag216", "--ndef", ndef])
    try:
        env = dict(os.environ, PCSCLITE_CSOCK_NAME=socket, LIBNFC_AUTO_SCAN="false")
        env.pop("LIBNFC_DEVICE", None)
        apdu = lambda line: line.startswith("nfcsim: > ff ")
        # nfcscan itself when it has the PC/SC backend.
        _, probe = run_timed([f"{BIN}/nfcscan", "--json", "--timeout", "5"], env)
        use_nfcscan = probe.returncode == 0 and json.loads(probe.stdout)["object"]["backend"] == "pcsc"
        trace.mark()
        runs = Runs()
        for _ in range(RUNS):
            if use_nfcscan:
                seconds, done = run_timed([f"{BIN}/nfcscan", "--json", "--timeout", "10"], env)
                document = json.loads(done.stdout)
                assert len(bytes.fromhex(document["records"][0]["payload"])) == MESSAGE - 7
                trip = document["object"].get("round_trips", "absent")
            else:
                seconds, trip = probe_read(env)
            runs.add(seconds, trace.since_mark(), apdu, trip)
    finally:
        rig.send_signal(signal.SIGTERM)    # the script stops pcscd and nfcsim and cleans up
        rig.wait(timeout=15)
    tool = "nfcscan --json" if use_nfcscan else "pcsc-readers-probe read (nfcscan has no PC/SC backend yet)"
    print(f"(b) PC/SC, private pcscd + nfcsim vpcd (READ-only link: {READ_BYTES} bytes per FF B0), {RUNS} runs")
    print(f"    minimum possible: {minimum(READ_BYTES)} READs for CC + data area ({PAGE + DATA_AREA} bytes / {READ_BYTES})")
    print(f"    {tool}: round_trips {fmt(runs.trips)}, APDUs {fmt(runs.commands)} (trace, the FF CA for the UID included)")
    print(f"        {runs.times()}" + ("" if use_nfcscan else " (wall: to the printed message)"))


def probe_read(env):
    """pcsc-readers-probe read: time from start to the line with the message; it then waits for removal."""
    start = time.monotonic()
    probe = subprocess.Popen([f"{BIN}/pcsc-readers-probe", "read", "20"], env=env, stdout=subprocess.PIPE, text=True)
    trip = None
    for line in probe.stdout:
        if line.startswith("ndef="):
            seconds = time.monotonic() - start
            fields = dict(f.split("=", 1) for f in line.split())
            assert len(bytes.fromhex(fields["ndef"])) == MESSAGE
            trip = int(fields["roundTrips"])
            break
        if line.startswith(("readError", "readerError", "error", "timeout")):
            sys.exit(f"read-bench: pcsc-readers-probe: {line.strip()}")
    probe.terminate()
    probe.wait(timeout=10)
    return seconds, trip


# (c) and (d): objects and the fewest exchanges that read them.
TYPE4_MESSAGE = 2046                      # the whole 2048-byte NDEF file (NLEN + message)
CLASSIC_MESSAGE = 700                     # 704-byte TLV in 15 sectors of 48 bytes (720)
OBJECTS = [
    # type, message bytes, minimum per link kind: storage-card APDUs / PN532-style pass-through
    ("ntag216", MESSAGE, {"storage": minimum(READ_BYTES), "pass": f"{minimum(PN532_FRAME)} (+1 GET_VERSION)"}),
    # SELECT application, SELECT CC, READ CC, SELECT NDEF file, READ BINARY of 2048 bytes at MLe 255.
    ("type4", TYPE4_MESSAGE, {"storage": 4 + math.ceil(2048 / 255), "pass": 4 + math.ceil(2048 / 255)}),
    # AUTHENTICATE sector 0, READ MAD blocks 1-2 and its trailer (the general purpose byte, as
    # AN10787 asks), then 15 sectors: one AUTHENTICATE and the 44 blocks the 704-byte TLV covers.
    # (PC/SC sends LOAD KEYS for the MAD key and the NDEF key besides: APDUs, not round trips.)
    ("classic1k", CLASSIC_MESSAGE, {"storage": 1 + 3 + 15 + 44, "libnfc": 1 + 3 + 15 + 44}),
]
USB_CCID_MS = 4.0                         # one CCID exchange over USB full speed: bulk out, the reader, bulk in
AIR_KBPS = 106                            # ISO 14443 A: 9 bits a byte on the air (parity)
SERIAL_BAUD = 115200                      # a PN532 on a UART: 10 bits a byte


def hold_ms(exchanges, air_bytes, serial_bytes=0):
    """How long the object must stay still on a real reader: per-exchange cost plus the bytes'
    time on the air (and on the serial line for a PN532 on a UART)."""
    if serial_bytes:
        return serial_bytes * 10 / SERIAL_BAUD * 1000 + air_bytes * 9 / AIR_KBPS
    return exchanges * USB_CCID_MS + air_bytes * 9 / AIR_KBPS


def personalities(work):
    print(f"(c) PC/SC reader personalities (nfcsim vpcd --reader), pcsc-readers-probe read, {RUNS} runs each;"
          f" hold time from {USB_CCID_MS:.0f} ms a CCID exchange + {AIR_KBPS} kbit/s on the air (9 bits a byte)")
    for kind, size, floor in OBJECTS:
        ndef = os.path.join(work, f"{kind}.ndef")
        with open(ndef, "wb") as f:
            f.write(message_bytes(size))
        for reader in ("storage-card", "acr122u", "part3"):
            rig, trace, socket = private_pcscd(work, f"{kind}-{reader}", ["--type", kind, "--reader", reader, "--ndef", ndef])
            try:
                env = dict(os.environ, PCSCLITE_CSOCK_NAME=socket)
                trace.mark()
                fields, read_us, air = None, [], []
                for _ in range(RUNS):
                    fields = probe_fields(env, size)
                    read_us.append(int(fields["readUs"]))
                    # APDU bytes both ways, a stand-in for the bytes on the air.
                    lines = trace.since_mark()
                    air.append(sum(len(line.split()) - 2 for _, line in lines if line.startswith(("nfcsim: > ", "nfcsim: < "))))
            finally:
                rig.send_signal(signal.SIGTERM)
                rig.wait(timeout=15)
            apdus, trips = int(fields["apdus"]), int(fields["roundTrips"])
            least = floor["pass"] if fields["link"] != "storage-card" and "pass" in floor else floor["storage"]
            print(f"    {kind} ({size}-byte message), {reader}: link {fields['link']}, round trips {trips}, APDUs {apdus}"
                  f" (minimum round trips {least}), read {statistics.median(read_us) / 1000:.1f} ms median"
                  f" (min {min(read_us) / 1000:.1f}), hold still ~{hold_ms(apdus, statistics.median(air)):.0f} ms"
                  f" ({statistics.median(air):.0f} APDU bytes)")


def probe_fields(env, size):
    """One pcsc-readers-probe read of the object in the reader: its `ndef=` line's fields."""
    probe = subprocess.Popen([f"{BIN}/pcsc-readers-probe", "read", "20"], env=env, stdout=subprocess.PIPE, text=True)
    fields = None
    for line in probe.stdout:
        if line.startswith("ndef="):
            fields = dict(f.split("=", 1) for f in line.split() if "=" in f)
            assert len(bytes.fromhex(fields["ndef"])) == size, (len(fields["ndef"]) // 2, size)
            break
        if line.startswith(("readError", "readerError", "error", "timeout")):
            sys.exit(f"read-bench: pcsc-readers-probe: {line.strip()}")
    probe.terminate()
    probe.wait(timeout=10)
    return fields


def libnfc_others(work):
    print(f"(d) libnfc (PN532 emulator on a pty), nfcscan --json, {RUNS} runs each; hold time from the serial bytes"
          f" at {SERIAL_BAUD} baud + the air")
    for kind, size, floor in OBJECTS:
        if kind == "type4":
            print("    type4: nfcsim pn532 has no --type type4 (the emulator's ISO-DEP target is used by tests only)")
            continue
        sim, trace, env = emulated_pn532(work, kind, os.path.join(work, f"{kind}.ndef"))
        try:
            trace.mark()
            runs = Runs()
            for _ in range(RUNS):
                seconds, done = run_timed([f"{BIN}/nfcscan", "--json", "--timeout", "10"], env)
                if done.returncode != 0:
                    sys.exit(f"read-bench: nfcscan failed ({done.returncode}): {done.stderr}")
                document = json.loads(done.stdout)
                runs.add(seconds, trace.since_mark(), pn532_tag_command, document["object"].get("round_trips", "absent"))
        finally:
            sim.send_signal(signal.SIGTERM)
            sim.wait(timeout=10)
        serial = max(runs.serial)
        least = floor.get("libnfc", floor.get("pass"))
        print(f"    {kind} ({size}-byte message): round trips {fmt(runs.trips)} (minimum round trips {least}), {serial} serial bytes a run"
              f" (set-up and polling included), hold still ~{hold_ms(0, serial, serial):.0f} ms; {runs.times()}")


def main():
    load = open("/proc/loadavg").read().split()[:3]
    print(f"read-bench: {time.strftime('%Y-%m-%d %H:%M')}, load average {' '.join(load)}, {RUNS} runs")
    with tempfile.TemporaryDirectory() as work:
        ndef = os.path.join(work, "message.ndef")
        with open(ndef, "wb") as f:
            f.write(message_bytes())
        if not ONLY_PERSONALITIES:
            print(f"NTAG216, {MESSAGE}-byte NDEF message (TLV fills the {DATA_AREA}-byte data area)")
            libnfc(work, ndef)
            pcsc(work, ndef)
        personalities(work)
        libnfc_others(work)
    load = open("/proc/loadavg").read().split()[:3]
    print(f"read-bench: done, load average {' '.join(load)}")


main()
