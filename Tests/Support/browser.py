"""Headless Chromium with nfcscan's Web NFC extension, for the project's browser tests.

    from browser import Browser, StaticServer

    with StaticServer(directory) as server, Browser(extension_dir, temp_dir) as browser:
        browser.open(server.url("page.html"))
        browser.wait_for("return window.done === true")
        result = browser.run_async("const [done] = arguments; done(await f());")

Uses Debian's chromium and chromium-driver packages and python3-selenium 4.8; run it with
/usr/bin/python3. The browser gets a fresh profile under the temp dir, so a test can install a
native messaging host for it alone: Chromium on Linux reads user-level host manifests from
<user-data-dir>/NativeMessagingHosts/ (see Browser.install_native_host). Nothing leaves the
machine: every host name but localhost resolves to nothing, and the browser's own background
traffic is switched off."""
import functools
import http.server
import json
import os
import threading
import time

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

# The binary behind Debian's /usr/bin/chromium: that wrapper adds flags of its own (an empty
# --load-extension, --enable-remote-extensions, GPU rasterization) that a test does not want.
CHROMIUM = os.environ.get("NFCSCAN_TEST_CHROMIUM", "/usr/lib/chromium/chromium")
CHROMEDRIVER = os.environ.get("NFCSCAN_TEST_CHROMEDRIVER", "/usr/bin/chromedriver")

# Pinned by the "key" in the extension's manifest; the native host manifest allows this ID.
EXTENSION_ID = "ckmecppcjoplgmlapmdfjdgpekbhibcg"
NATIVE_HOST_NAME = "org.nfcscan.webnfc"


class StaticServer:
    """Serves a directory over HTTP on 127.0.0.1 (never another interface), on a port the
    kernel picks, from a thread of this process."""

    def __init__(self, directory):
        handler = functools.partial(_QuietHandler, directory=os.fspath(directory))
        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def url(self, path="", host="127.0.0.1"):
        """The URL of `path` on this server; `host` may be any name the browser maps to
        127.0.0.1 (see Browser's extra_host_rules)."""
        return f"http://{host}:{self.port}/{path.lstrip('/')}"

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".js": "text/javascript"}

    def log_message(self, *args):
        pass

    def end_headers(self):
        # Pages are reloaded between tests; an old copy must never answer.
        self.send_header("Cache-Control", "no-store")
        super().end_headers()


def chromium_flags(extension_dir, user_data_dir, extra_host_rules=()):
    """The command line the tests start Chromium with, one flag a line so it can be read."""
    # The rules apply to IP literals as well, so loopback addresses are excluded by name too.
    host_rules = [*extra_host_rules, "MAP * ~NOTFOUND", "EXCLUDE localhost", "EXCLUDE 127.0.0.1", "EXCLUDE [::1]"]
    return [
        "--headless=new",
        # The tests run as root here, and Chromium's sandbox refuses to start as root.
        "--no-sandbox",
        f"--user-data-dir={user_data_dir}",
        f"--load-extension={extension_dir}",
        # Chrome 137+ ignores --load-extension unless this feature is off; Debian's Chromium 156
        # honours it either way.
        "--disable-features=DisableLoadExtensionCommandLineSwitch,HttpsUpgrades,MediaRouter,OptimizationHints",
        f"--host-resolver-rules={', '.join(host_rules)}",
        "--no-proxy-server",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-default-apps",
        "--disable-domain-reliability",
        "--disable-client-side-phishing-detection",
        "--disable-breakpad",
        "--disable-crash-reporter",
        "--metrics-recording-only",
        "--no-pings",
        "--password-store=basic",
        "--disable-dev-shm-usage",
        "--window-size=800,600",
    ]


class Browser:
    """Headless Chromium driven by chromedriver, with the unpacked extension at
    `extension_dir` and a profile of its own under `temp_dir`.

    `extra_host_rules` are --host-resolver-rules entries put before the rule that resolves
    everything but localhost to nothing, e.g. "MAP insecure.test 127.0.0.1" to reach the
    StaticServer under a name that is not a secure context."""

    def __init__(self, extension_dir, temp_dir, extra_host_rules=(), timeout=10):
        self.extension_dir = os.path.abspath(extension_dir)
        self.user_data_dir = os.path.join(os.fspath(temp_dir), "chromium-profile")
        os.makedirs(self.user_data_dir, exist_ok=True)
        self.extra_host_rules = tuple(extra_host_rules)
        self.timeout = timeout
        self.driver = None

    @property
    def native_hosts_dir(self):
        return os.path.join(self.user_data_dir, "NativeMessagingHosts")

    def install_native_host(self, program_path, name=NATIVE_HOST_NAME):
        """Writes the user-level native host manifest for `name` running `program_path`,
        allowing this extension only. Chromium reads it at each connectNative, so this works
        before or after start()."""
        os.makedirs(self.native_hosts_dir, exist_ok=True)
        manifest = {
            "name": name,
            "description": "nfcscan Web NFC host (test)",
            "path": os.path.abspath(program_path),
            "type": "stdio",
            "allowed_origins": [f"chrome-extension://{EXTENSION_ID}/"],
        }
        path = os.path.join(self.native_hosts_dir, f"{name}.json")
        with open(path, "w") as f:
            json.dump(manifest, f, indent=2)
        return path

    def start(self):
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in chromium_flags(self.extension_dir, self.user_data_dir, self.extra_host_rules):
            options.add_argument(flag)
        self.driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        self.driver.set_script_timeout(self.timeout)
        self.check_extension_loaded()
        return self

    def check_extension_loaded(self):
        """Fails unless the extension runs under its pinned ID: its own files only load at
        chrome-extension://<that ID>/ when it does."""
        self.driver.get(f"chrome-extension://{EXTENSION_ID}/manifest.json")
        text = self.driver.execute_script("return document.body ? document.body.innerText : ''")
        try:
            name = json.loads(text)["name"]
        except (ValueError, KeyError, TypeError):
            raise RuntimeError(f"the extension did not load as {EXTENSION_ID} from {self.extension_dir}") from None
        return name

    def open(self, url):
        self.driver.get(url)

    def run(self, script, *args):
        return self.driver.execute_script(script, *args)

    def run_async(self, script, *args, timeout=None):
        """Runs `script` as an async function body; it ends by calling arguments[arguments.length
        - 1] with its result, as Selenium's execute_async_script asks."""
        if timeout is not None:
            self.driver.set_script_timeout(timeout)
        try:
            return self.driver.execute_async_script(f"(async () => {{ {script} }})();", *args)
        finally:
            if timeout is not None:
                self.driver.set_script_timeout(self.timeout)

    def wait_for(self, script, *args, timeout=None, message=""):
        """Polls `script` (a function body returning a value) until it returns something truthy;
        returns that value."""
        try:
            return WebDriverWait(self.driver, timeout or self.timeout, poll_frequency=0.05).until(
                lambda d: d.execute_script(script, *args)
            )
        except TimeoutException:
            raise TimeoutError(message or f"timed out waiting for: {script}") from None

    def quit(self):
        if self.driver is not None:
            self.driver.quit()
            self.driver = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.quit()


def wait_until(condition, timeout=10, message="", interval=0.05):
    """Calls `condition` until it returns something truthy (returned), for conditions outside
    the browser such as a native host's log; raises TimeoutError after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise TimeoutError(message or "timed out waiting for a condition")
        time.sleep(interval)
