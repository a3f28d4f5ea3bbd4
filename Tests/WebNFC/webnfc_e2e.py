#!/usr/bin/python3
"""Web NFC end to end, for the webnfc scenario (Tests/Daemon/scenarios/webnfc.sh): headless
Chromium with the unpacked extension and nfcscan's native host, a page on loopback, nfcscand on
the scenario's private bus with its sheet on the rig's display, and objects a private pcscd's
vpcd reader presents one at a time, each when the scenario's gate N is opened (DIR/gate-N).

    webnfc_e2e.py --dir DIR --build BUILD --extension DIR --support DIR [--browser firefox]

Chromium (the default) goes through every step below. Firefox goes through those that show its
native messaging and origins work the same (1 to 3, and 6): the lock and the hidden tab are the
host's and nfcscand's, the same whichever browser started the host.

Prints one line per check, "ok WHAT" or "FAIL WHAT", for the scenario to count; exits 0 unless
it could not run at all. Every wait is on a condition, with a bound that only a failure reaches.
"""
import argparse
import json
import os
import subprocess
import sys
import time

parser = argparse.ArgumentParser()
parser.add_argument("--dir", required=True)
parser.add_argument("--build", required=True)
parser.add_argument("--extension", required=True)
parser.add_argument("--support", required=True)
parser.add_argument("--browser", choices=["chromium", "firefox"], default="chromium")
args = parser.parse_args()
sys.path.insert(0, args.support)
from browser import Browser, FirefoxBrowser, StaticServer  # noqa: E402
import json_schema  # noqa: E402  (the one validator of nfcscan's --json, Docs/schemas)

PAGES = os.path.dirname(os.path.abspath(__file__))
NFCSCAN = os.path.join(args.build, "nfcscan")
ATSPI = [sys.executable, os.path.join(args.support, "sheet_atspi.py")]


def report(passed, what):
    print(("ok   " if passed else "FAIL ") + what, flush=True)
    return passed


def until(condition, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return condition()


def sheet_has(text):
    return subprocess.run(ATSPI + ["has-part", "label", text], capture_output=True).returncode == 0


def sheet_tree():
    """What the sheet shows now, for the log of a failed check."""
    return subprocess.run(ATSPI + ["dump"], capture_output=True, text=True).stdout


def press(label):
    return subprocess.run(ATSPI + ["press", label], capture_output=True).returncode == 0


def open_gate(n):
    open(os.path.join(args.dir, "gate-%d" % n), "w").close()


def paused_reasons():
    out = subprocess.run(["busctl", "--address=" + os.environ["DBUS_SESSION_BUS_ADDRESS"], "get-property", "org.nfcscan.Scanner1", "/org/nfcscan/Scanner1",
                          "org.nfcscan.Scanner1", "PausedReasons"], capture_output=True, text=True).stdout
    return out.strip()


def daemon_saw_leave():
    """How many times nfcscand has logged that an object read in the background left its reader."""
    try:
        with open(os.path.join(args.dir, "nfcscand.log"), errors="replace") as log:
            return sum(1 for line in log if " left it" in line)
    except OSError:
        return 0


def nfcscan(*arguments, timeout=30):
    return subprocess.run([NFCSCAN, *arguments], capture_output=True, text=True, timeout=timeout)


def outcome(browser, name, seconds=20):
    until(lambda: browser.run("return window.outcomes[arguments[0]] !== undefined", name), seconds)
    return browser.run("return window.outcomes[arguments[0]] ?? null", name)


def main():
    host = os.path.join(args.dir, "nfcscan-webnfc-host")
    os.symlink(NFCSCAN, host)
    kind = FirefoxBrowser if args.browser == "firefox" else Browser
    with StaticServer(PAGES) as server, kind(args.extension, os.path.join(args.dir, "browser")) as browser:
        browser.install_native_host(host)
        url = server.url("e2e.html")
        site = url.split("/")[2]          # 127.0.0.1:PORT, how the sheet names the site
        origin = "http://" + site
        browser.open(url)
        report(browser.run("return typeof NDEFReader === 'function'"), "%s: the page has NDEFReader (the extension is loaded)" % args.browser)

        # 1. The first scan asks the person, naming the site; Allow; the poster's records arrive.
        browser.run("startScan('scan1')")
        report(until(lambda: sheet_has("Allow %s to use items you hold near the reader?" % site), 20),
               "the sheet asks: Allow %s to use items you hold near the reader?" % site)
        report(press("Allow"), "Allow pressed through AT-SPI")
        report(outcome(browser, "scan1") == "resolved", "scan() resolves once the person allowed the site")
        listed = nfcscan("apps").stdout
        report("allowed: " + origin in listed, "the answer is kept under the origin (nfcscan apps: allowed: %s)" % origin)
        open_gate(1)
        report(until(lambda: browser.run("return readings.length") > 0, 15), "a reading event for the poster")
        reading = browser.run("return readings[0] ?? null") or {}
        report(reading.get("serialNumber") == "04:a1:b2:c3:d4:e5:f6", "its serialNumber: %s" % reading.get("serialNumber"))
        records = reading.get("records") or []
        report([(r["recordType"], r.get("text")) for r in records] == [("url", "https://example.com/poster")],
               "its records: one url record, https://example.com/poster (%s)" % records)

        # 2. A write while the page scans: the sheet asks first; Save; the badge is written.
        browser.run("writeBadge('write1')")
        report(until(lambda: sheet_has("%s wants to save information to the" % site), 20),
               "the sheet asks before the write: %s wants to save information to the item." % site)
        report(press("Save"), "Save pressed through AT-SPI")
        if not report(until(lambda: sheet_has("Hold the item near the reader."), 10), "then the sheet asks for the object: Hold the item near the reader."):
            print(sheet_tree())
        open_gate(2)
        report(outcome(browser, "write1", 30) == "resolved", "write() resolves: text, url, JSON and external records written")
        # The page stops scanning: its signal is aborted, and its session ends at once.
        browser.run("stopScan()")
        report(until(lambda: "scan-session" not in paused_reasons(), 5),
               "an aborted signal ends the page's session at once (PausedReasons: %s)" % paused_reasons())

        # 3. nfcscan reads the badge back (a session of its own through nfcscand).
        reader = subprocess.Popen([NFCSCAN, "--json", "--timeout", "30"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        until(lambda: "scan-session" in paused_reasons(), 10)
        open_gate(3)
        out, err = reader.communicate(timeout=40)
        problems = json_schema.problems("scan", out)
        report(not problems, "nfcscan --json follows scan.schema.json %s" % "; ".join(problems)[:300])
        try:
            back = json.loads(out.splitlines()[0])["records"]
        except (IndexError, ValueError, KeyError):
            back = []
        report([r.get("kind") for r in back] == ["text", "uri", "media", "external"], "nfcscan reads four records back (its prompts: %s)" % " / ".join(err.split("\n")).strip()[-200:])
        if len(back) == 4:
            report(back[0].get("text") == "Ada Lovelace" and back[0].get("language") == "en", "the text record: Ada Lovelace, en")
            report(back[1].get("uri") == "https://example.com/attendees/42", "the url record: https://example.com/attendees/42")
            report(back[2].get("mime_type") == "application/json" and bytes.fromhex(back[2]["payload"]) == b'{"seat":"B12"}',
                   "the MIME record: application/json {\"seat\":\"B12\"}")
            report(back[3].get("domain_type") == "example.com:attendee" and back[3]["payload"] == "002a",
                   "the external record: example.com:attendee 00 2a")

        if args.browser == "chromium":
            lock_and_hide(browser, site)
        deny(browser, origin)
    return 0


def lock_and_hide(browser, site):
    # 4. makeReadOnly after the sheet's confirm.
    browser.run("lockBadge('lock1')")
    report(until(lambda: sheet_has("%s wants to lock the" % site), 20), "the sheet asks before the lock: %s wants to lock the item." % site)
    report(sheet_has("This can't be undone."), "and says: This can't be undone.")
    report(press("Lock"), "Lock pressed through AT-SPI")
    until(lambda: sheet_has("Hold the item near the reader."), 10)
    open_gate(4)
    report(outcome(browser, "lock1", 30) == "resolved", "makeReadOnly() resolves after the sheet's confirm (%s)"
           % browser.run("return outcomes.lock1 ?? null"))
    # The locked badge refuses a later write: the same sheet, then NotAllowedError.
    browser.run("writeBadge('write2')")
    if until(lambda: sheet_has("%s wants to save information to the" % site), 20):
        press("Save")
    until(lambda: sheet_has("Hold the item near the reader."), 10)
    open_gate(5)
    report(outcome(browser, "write2", 30) == "NotAllowedError", "a write to the locked badge rejects NotAllowedError (%s)"
           % browser.run("return outcomes.write2 ?? null"))

    # 5. A hidden tab receives nothing: its session ends while another tab is in front. (The
    # locked badge leaves first: a scan started while it is near would read it.)
    until(lambda: os.path.exists(os.path.join(args.dir, "gone-5")), 20)
    first = browser.driver.current_window_handle
    browser.run("startScan('scan2')")
    report(outcome(browser, "scan2") == "resolved", "a second scan resolves without asking again")
    report(until(lambda: "scan-session" in paused_reasons(), 10), "the page's scan session runs")
    received = browser.run("return readings.length")
    browser.driver.switch_to.new_window("tab")
    report(until(lambda: "scan-session" not in paused_reasons(), 10), "the page hidden behind another tab: its session ends")
    departures = daemon_saw_leave()
    open_gate(6)
    # The object comes and goes (2 s) while the page is hidden; the page is brought back only
    # once nfcscand saw it go (pcscd notices a card's removal a little after the simulator ends
    # it, and a session begun while the object is still near takes it at once), so anything the
    # page received came while it was hidden.
    report(until(lambda: os.path.exists(os.path.join(args.dir, "gone-6")) and daemon_saw_leave() > departures, 20),
           "an object came and went meanwhile")
    browser.driver.switch_to.window(first)
    report(browser.run("return readings.length") == received, "the hidden page received nothing (%d readings, %d before)"
           % (browser.run("return readings.length"), received))
    report(until(lambda: "scan-session" in paused_reasons(), 10), "back in front, the page's scan runs again")
    browser.run("stopScan()")



def deny(browser, origin):
    # 6. A site the person denied gets NotAllowedError at once, with no sheet.
    nfcscan("apps", "--deny", origin)
    browser.run("startScan('scan3')")
    report(outcome(browser, "scan3") == "NotAllowedError", "a denied site's scan() rejects NotAllowedError")
    browser.run("writeBadge('write3')")
    report(outcome(browser, "write3") == "NotAllowedError", "and its write() too")
    report(not sheet_has("wants to"), "with no sheet asking")
    nfcscan("apps", "--revoke", origin)


if __name__ == "__main__":
    sys.exit(main())
