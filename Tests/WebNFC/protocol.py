#!/usr/bin/python3
"""Runs protocol.html in headless Chromium and Firefox with the extension and fake_host.py
installed as the native host (a user-level host manifest of the test's own), then checks what the
host received: hello with the page's origin from the browser, focus, one host scan shared by the
page's readers and cancelled once, writes as PROTOCOL.md's RECORDs. Prints one line per case and
a summary; exits 1 when a case failed. Run with Debian's /usr/bin/python3 (python3-selenium).

    protocol.py [--browser chromium|firefox|all]"""
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Support"))
from browser import run_in_browsers, wait_until  # noqa: E402

EXTENSION = os.path.join(HERE, "..", "..", "browser-extension")


def host_cases(messages, origin):
    ops = [m.get("op") for m in messages]
    scans = [m["id"] for m in messages if m.get("op") == "scan"]
    cancels = [m["id"] for m in messages if m.get("op") == "cancel"]
    writes = [m for m in messages if m.get("op") == "write"]
    hello = messages[0] if messages else {}
    return [
        ("host: hello first, with the origin the browser gave", hello.get("op") == "hello" and hello.get("origin") == origin and isinstance(hello.get("language"), str), hello),
        ("host: hello only once", ops.count("hello") == 1, ops),
        ("host: focus reported as active and visible", {"op": "focus", "active": True, "visible": True} in messages, [m for m in messages if m.get("op") == "focus"]),
        ("host: one scan per run of activated readers, each cancelled once", len(scans) == 2 and cancels == scans, (scans, cancels)),
        ("host: writes as RECORDs, overwrite true by default",
         len(writes) == 3 and writes[0]["records"] == [{"recordType": "text", "mediaType": None, "id": None, "encoding": "utf-8", "lang": "en", "data": "ZmluZQ==", "records": None}]
         and all(w["overwrite"] is True for w in writes), writes[:1]),
        ("host: makeReadOnly sent once", ops.count("makeReadOnly") == 1, ops),
    ]


def host_messages(log):
    if not os.path.exists(log):
        return []
    with open(log) as f:
        return [json.loads(line) for line in f]


def cancelled_twice(log):
    messages = host_messages(log)
    return messages if sum(m.get("op") == "cancel" for m in messages) >= 2 else None


def run(browser_class, server):
    with tempfile.TemporaryDirectory(prefix="nfcscan-webnfc-") as temp:
        log = os.path.join(temp, "fake-host.log")
        # The browsers pass their environment on to the native hosts they start.
        os.environ["NFCSCAN_FAKE_HOST_LOG"] = log
        browser = browser_class(EXTENSION, temp)
        browser.install_native_host(os.path.join(HERE, "fake_host.py"))
        with browser:
            browser.open(server.url("protocol.html"))
            page = browser.wait_for("return window.done && window.results", timeout=20, message="protocol.html did not finish")
            # The last cancel is sent as the page finishes; wait for the host to have it.
            messages = wait_until(lambda: cancelled_twice(log), message="the fake host did not get two cancels")
    results = [(r["name"], r["ok"], r.get("why", "")) for r in page]
    return results + host_cases(messages, server.url().rstrip("/"))


def main():
    return run_in_browsers(__doc__.splitlines()[0], HERE, run)


if __name__ == "__main__":
    sys.exit(main())
