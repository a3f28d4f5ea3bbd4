"""What the benchmarks share: the simulators with their traces (nfcsim pn532 on a pty, nfcsim vpcd in
a private pcscd), timed runs, and counting the frames in a trace. `BIN` (the release binaries'
directory) is set by the benchmark that imports this module."""
import os
import signal
import subprocess
import sys
import threading
import time

BIN = None
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def wait_for(path, what, seconds=10):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if os.path.exists(path):
            return
        time.sleep(0.05)
    sys.exit(f"bench: {what} did not start")


class Trace:
    """The simulator's --trace lines, each stamped when it arrived, read on a thread."""

    def __init__(self, stream):
        self.lines, self.taken = [], 0
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self.thread.start()

    def _read(self, stream):
        for line in stream:
            with self.lock:
                self.lines.append((time.monotonic(), line.rstrip("\n")))

    def since_mark(self):
        """The lines since the last call."""
        time.sleep(0.2)                    # let the simulator finish writing
        with self.lock:
            lines, self.taken = self.lines[self.taken:], len(self.lines)
        return lines

    mark = since_mark


def span_ms(lines, is_command):
    """Milliseconds from the first command to the reply after the last one."""
    stamps = [i for i, (_, line) in enumerate(lines) if is_command(line)]
    if not stamps:
        return 0.0
    last = min(stamps[-1] + 1, len(lines) - 1)
    return (lines[last][0] - lines[stamps[0]][0]) * 1000


def pn532_tag_command(line):
    # "nfcsim: > 00 00 ff LEN LCS d4 40 ..." (or an extended frame "00 00 ff ff ff LENM LENL LCS d4 ..")
    words = line.split()
    if len(words) < 8 or words[1] != ">":
        return False
    body = words[10:] if words[5:7] == ["ff", "ff"] else words[7:]
    return len(body) >= 2 and body[0] == "d4" and body[1] in ("40", "42")


def run_timed(argv, env):
    start = time.monotonic()
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60)
    return time.monotonic() - start, done


def serial_bytes(lines):
    """Bytes that crossed the PN532's serial line (frames both ways, ACKs included)."""
    return sum(len(line.split()) - 2 for _, line in lines if line.startswith(("nfcsim: > ", "nfcsim: < ")))


def emulated_pn532(work, kind, ndef, name=None, extra=()):
    """`nfcsim pn532 --type KIND --ndef NDEF --trace` on a pty: (sim, trace, the environment libnfc needs).
    The caller stops the simulator."""
    link = os.path.join(work, f"pn532-{name or kind}")    # a link of its own for each simulator
    sim = subprocess.Popen([f"{BIN}/nfcsim", "pn532", "--type", kind, "--ndef", ndef, "--link", link, "--trace", *extra],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    trace = Trace(sim.stderr)
    wait_for(link, "nfcsim pn532")
    return sim, trace, dict(os.environ, LIBNFC_DEVICE=f"pn532_uart:{link}", LIBNFC_AUTO_SCAN="false")


def private_pcscd(work, name, vpcd_arguments):
    """A private pcscd with `nfcsim vpcd ARGUMENTS --trace`, its card in the reader: (rig, trace, socket).
    The caller stops the rig (SIGTERM: the script stops pcscd and nfcsim and cleans up)."""
    out_path = os.path.join(work, f"{name}.out")
    with open(out_path, "w") as out:
        rig = subprocess.Popen([f"{ROOT}/scripts/private-pcscd.sh", "--", f"{BIN}/nfcsim", "vpcd"] + vpcd_arguments + ["--trace"],
                               stdout=out, stderr=subprocess.PIPE, text=True)
    trace = Trace(rig.stderr)
    socket = None
    end = time.monotonic() + 15
    while time.monotonic() < end and socket is None:
        with open(out_path) as f:
            text = f.read()
        if "the card is in the reader" in text:
            socket = next(l.split("=", 1)[1] for l in text.splitlines() if l.startswith("PCSCLITE_CSOCK_NAME="))
        time.sleep(0.1)
    if socket is None:
        rig.send_signal(signal.SIGTERM)
        sys.exit(f"bench: the private pcscd with nfcsim vpcd {' '.join(vpcd_arguments)} did not start")
    time.sleep(1.5)                        # vpcd polls: let pcscd see the card
    return rig, trace, socket


def fmt(values):
    return "/".join(str(v) for v in sorted(values, key=str))
