"""Driver for Benchmarks/idle-cpu.sh: CPU of `nfcscan --continuous` with one reader and no object.

Usage: python3 Benchmarks/idle_cpu.py BIN_DIR SECONDS [libnfc|pcsc ...]
"""
import os
import signal
import subprocess
import sys
import time

BIN, WINDOW = sys.argv[1], float(sys.argv[2])
BACKENDS = sys.argv[3:] or ["libnfc", "pcsc"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TICK = os.sysconf("SC_CLK_TCK")
TARGET = 0.5                                  # % of one core (issue 3)


def sample(pid):
    """(utime+stime in seconds, {thread: (on-CPU ns, voluntary + involuntary switches)})."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])   # utime, stime (fields 14 and 15 of proc(5))
    threads = {}
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                ns = int(f.read().split()[0])
            switches = 0
            with open(f"/proc/{pid}/task/{task}/status") as f:
                for line in f:
                    if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                        switches += int(line.split()[1])
            threads[task] = (ns, switches)
        except FileNotFoundError:
            pass
    return ticks / TICK, threads


def thread_delta(start, end):
    """On-CPU seconds and switches of the threads alive at the end (threads that ended are left out)."""
    ns = sum(v[0] - start.get(t, (0, 0))[0] for t, v in end.items())
    switches = sum(v[1] - start.get(t, (0, 0))[1] for t, v in end.items())
    return ns / 1e9, switches


def measure(processes):
    """Samples every named process at the start and end of the window; prints each one's share of a core."""
    time.sleep(3)                             # start-up (opening readers) is not idle time
    for name, pid in processes:
        if not os.path.exists(f"/proc/{pid}"):
            sys.exit(f"idle-cpu: {name} (pid {pid}) ended before the window")
    start = {pid: sample(pid) for _, pid in processes}
    t0 = time.monotonic()
    time.sleep(WINDOW)
    elapsed = time.monotonic() - t0
    load = " ".join(open("/proc/loadavg").read().split()[:3])
    results = []
    for name, pid in processes:
        if not os.path.exists(f"/proc/{pid}"):
            sys.exit(f"idle-cpu: {name} (pid {pid}) ended during the window")
        end = sample(pid)
        cpu = end[0] - start[pid][0]
        precise, switches = thread_delta(start[pid][1], end[1])
        wakeups = switches / elapsed
        percent = cpu / elapsed * 100
        verdict = "" if not name.startswith("nfcscan") else (" (target < 0.5 %: met)" if percent < TARGET else " (target < 0.5 %: NOT MET)")
        print(f"    {name}: {cpu:.2f} s CPU (utime+stime) in {elapsed:.1f} s = {percent:.3f} % of one core{verdict}; "
              f"on-CPU {precise * 1000:.1f} ms by schedstat = {precise / elapsed * 100:.3f} %; "
              f"{wakeups:.1f} context switches/s")
        results.append(percent)
    print(f"    load average at the end: {load}")
    return results


def stop(process):
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def libnfc(work):
    link = os.path.join(work, "pn532")
    # The object would arrive after a day: an empty field for the whole window.
    sim = subprocess.Popen([f"{BIN}/nfcsim", "pn532", "--type", "ntag216", "--uri", "https://example.com",
                            "--after", "86400", "--link", link], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    scan = None
    try:
        for _ in range(100):
            if os.path.exists(link):
                break
            time.sleep(0.05)
        env = dict(os.environ, LIBNFC_DEVICE=f"pn532_uart:{link}", LIBNFC_AUTO_SCAN="false")
        scan = subprocess.Popen([f"{BIN}/nfcscan", "--continuous"], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        print(f"(a) libnfc: nfcscan --continuous on the PN532 emulator (empty field), {WINDOW:.0f} s")
        return measure([("nfcscan", scan.pid), ("nfcsim pn532 (the emulated reader)", sim.pid)])
    finally:
        if scan:
            stop(scan)
        stop(sim)


def pcsc(work):
    out_path = os.path.join(work, "pcscd.out")
    with open(out_path, "w") as out:
        rig = subprocess.Popen([f"{ROOT}/scripts/private-pcscd.sh"], stdout=out, stderr=subprocess.DEVNULL)
    client = None
    try:
        socket = None
        for _ in range(150):
            text = open(out_path).read()
            if "PCSC_READER=" in text:
                socket = next(l.split("=", 1)[1] for l in text.splitlines() if l.startswith("PCSCLITE_CSOCK_NAME="))
                break
            time.sleep(0.1)
        if socket is None:
            sys.exit("idle-cpu: the private pcscd did not start")
        state = socket.rsplit("/run/", 1)[0]
        pcscd = next(int(p) for p in os.listdir("/proc") if p.isdigit() and _cmdline(p).startswith("pcscd")
                     and state in _cmdline(p))
        env = dict(os.environ, PCSCLITE_CSOCK_NAME=socket, LIBNFC_AUTO_SCAN="false")
        env.pop("LIBNFC_DEVICE", None)
        client = subprocess.Popen([f"{BIN}/nfcscan", "--continuous"], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(2)
        name = "nfcscan"
        if client.poll() is not None:
            # No PC/SC backend in nfcscan yet: the same PCSCReader waiting in pcsc-readers-probe.
            client = subprocess.Popen([f"{BIN}/pcsc-readers-probe", "read", str(WINDOW + 30)], env=env,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            name = "pcsc-readers-probe read (nfcscan has no PC/SC backend yet; the same PCSCReader wait)"
        print(f"(b) PC/SC: {name.split(' (')[0]} waiting on a private pcscd with a vpcd reader and no card, {WINDOW:.0f} s")
        return measure([(name, client.pid), ("pcscd (with the vpcd driver)", pcscd)])
    finally:
        if client:
            stop(client)
        rig.send_signal(signal.SIGTERM)       # the script stops pcscd and cleans up
        rig.wait(timeout=15)


def daemon(work):
    """nfcscand on a private session bus with the PN532 emulator (empty field) as its reader."""
    link = os.path.join(work, "pn532-daemon")
    socket = os.path.join(work, "bus")
    bus = subprocess.Popen(["dbus-daemon", "--config-file=/usr/share/dbus-1/session.conf", "--nofork",
                            "--nopidfile", f"--address=unix:path={socket}"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    sim = subprocess.Popen([f"{BIN}/nfcsim", "pn532", "--type", "ntag216", "--uri", "https://example.com",
                            "--after", "86400", "--link", link], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    nfcscand = None
    try:
        for _ in range(100):
            if os.path.exists(link) and os.path.exists(socket):
                break
            time.sleep(0.05)
        env = dict(os.environ, LIBNFC_DEVICE=f"pn532_uart:{link}", LIBNFC_AUTO_SCAN="false",
                   PCSCLITE_CSOCK_NAME=os.path.join(work, "no-pcscd.comm"),
                   DBUS_SESSION_BUS_ADDRESS=f"unix:path={socket}")
        nfcscand = subprocess.Popen([f"{BIN}/nfcscand"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        print(f"(c) nfcscand: the daemon with one reader (PN532 emulator, empty field) on a private session bus, {WINDOW:.0f} s")
        return measure([("nfcscand", nfcscand.pid), ("nfcsim pn532 (the emulated reader)", sim.pid),
                        ("dbus-daemon (private session bus)", bus.pid)])
    finally:
        if nfcscand:
            stop(nfcscand)
        stop(sim)
        stop(bus)


def _cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def main():
    import tempfile
    load = " ".join(open("/proc/loadavg").read().split()[:3])
    print(f"idle-cpu: {time.strftime('%Y-%m-%d %H:%M')}, load average {load}, window {WINDOW:.0f} s, "
          f"clock tick {1000 / TICK:.0f} ms")
    with tempfile.TemporaryDirectory() as work:
        for backend in BACKENDS:
            {"libnfc": libnfc, "pcsc": pcsc, "daemon": daemon}[backend](work)


main()
