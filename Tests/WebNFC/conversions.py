#!/usr/bin/python3
"""Runs the Web NFC conversion cases (conversions.html) with the extension from
browser-extension/ and no native host installed, in headless Chromium and Firefox, and checks
that the API is absent where the page is not a secure context. Prints one line per case and a
summary; exits 1 when a case failed. Run with Debian's /usr/bin/python3 (python3-selenium).

    conversions.py [--browser chromium|firefox|all]"""
import os
import sys
import tempfile
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Support"))
from browser import run_in_browsers  # noqa: E402

EXTENSION = os.path.join(HERE, "..", "..", "browser-extension")
# A name for 127.0.0.1 that is not loopback by name, so pages under it are not secure contexts.
INSECURE_HOST = "nfcscan-insecure.test"


def insecure_cases(browser, server):
    """An http page under a non-loopback name gets no API (the content scripts do not match it),
    and neither does a loopback frame inside it (matched, but not a secure context)."""
    frame = server.url("frame.html")
    browser.open(server.url(f"insecure-top.html?frame={urllib.parse.quote(frame)}", host=INSECURE_HOST))
    report = browser.wait_for("return window.report", message="the framed page did not report")
    top = browser.run("return [isSecureContext, typeof NDEFReader]")
    return [
        {"name": "insecure origin: no NDEFReader in the top-level page", "ok": top == [False, "undefined"], "why": str(top)},
        {
            "name": "insecure ancestor: no NDEFReader in a loopback frame",
            "ok": report.get("secure") is False and report.get("api") == "undefined" and report.get("sent") == 0,
            "why": str(report),
        },
    ]


def run(browser_class, server):
    with tempfile.TemporaryDirectory(prefix="nfcscan-webnfc-") as temp:
        with browser_class(EXTENSION, temp, loopback_names=[INSECURE_HOST]) as browser:
            browser.open(server.url("conversions.html"))
            results = browser.wait_for("return window.done && window.results", timeout=25, message="conversions.html did not finish")
            return [(r["name"], r["ok"], r.get("why", "")) for r in results + insecure_cases(browser, server)]


def main():
    return run_in_browsers(__doc__.splitlines()[0], HERE, run)


if __name__ == "__main__":
    sys.exit(main())
