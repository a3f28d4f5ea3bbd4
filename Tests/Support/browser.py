"""Headless browsers with nfcscan's Web NFC extension, for the project's browser tests.

    from browser import Browser, StaticServer

    with StaticServer(directory) as server, Browser(extension_dir, temp_dir) as browser:
        browser.install_native_host(host_program)      # optional, before or after start
        browser.open(server.url("page.html"))
        browser.wait_for("return window.done === true")
        result = browser.run_async("const done = arguments[arguments.length - 1]; done(await f());")

Browser is Chromium (Debian's chromium and chromium-driver, python3-selenium 4.8; run with
/usr/bin/python3). FirefoxBrowser is firefox-esr driven over its own Marionette protocol (Debian
has no geckodriver), with the extension installed as a temporary add-on; it has the same methods.
BROWSERS names both.

Each browser gets a fresh profile under the temp dir, so a test can install a native messaging
host for it alone (install_native_host): Chromium on Linux reads user-level host manifests from
<user-data-dir>/NativeMessagingHosts/, Firefox from $HOME/.mozilla/native-messaging-hosts/, and
Firefox runs with HOME set to a directory of the temp dir. Nothing leaves the machine: host names
other than loopback resolve to nothing (Chromium) or go to a proxy that is not there (Firefox),
and the browsers' own background traffic is switched off."""
import argparse
import functools
import http.server
import json
import os
import socket
import subprocess
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

FIREFOX = os.environ.get("NFCSCAN_TEST_FIREFOX", "/usr/lib/firefox-esr/firefox-esr")

# Pinned by the "key" in the extension's manifest; the native host manifest allows this ID.
EXTENSION_ID = "ckmecppcjoplgmlapmdfjdgpekbhibcg"
# browser_specific_settings.gecko.id in the manifest.
GECKO_ID = "webnfc@nfcscan.org"
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
        """The URL of `path` on this server; `host` may be any of the browser's loopback_names."""
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


def native_host_manifest(program_path, name, allowed):
    manifest = {"name": name, "description": "nfcscan Web NFC host (test)", "path": os.path.abspath(program_path), "type": "stdio"}
    return {**manifest, **allowed}


def chromium_flags(extension_dir, user_data_dir, loopback_names=()):
    """The command line the tests start Chromium with, one flag a line so it can be read."""
    # The rules apply to IP literals as well, so loopback addresses are excluded by name too.
    host_rules = [*(f"MAP {name} 127.0.0.1" for name in loopback_names),
                  "MAP * ~NOTFOUND", "EXCLUDE localhost", "EXCLUDE 127.0.0.1", "EXCLUDE [::1]"]
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


class _Started:
    """Either browser as a context manager: started on entry, quit on exit."""

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.quit()


class Browser(_Started):
    """Headless Chromium driven by chromedriver, with the unpacked extension at
    `extension_dir` and a profile of its own under `temp_dir`.

    `loopback_names` are host names the browser resolves to 127.0.0.1, e.g. to reach the
    StaticServer under a name that is not a secure context."""

    name = "chromium"

    def __init__(self, extension_dir, temp_dir, loopback_names=(), timeout=10):
        self.extension_dir = os.path.abspath(extension_dir)
        self.user_data_dir = os.path.join(os.fspath(temp_dir), "chromium-profile")
        os.makedirs(self.user_data_dir, exist_ok=True)
        self.loopback_names = tuple(loopback_names)
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
        manifest = native_host_manifest(program_path, name, {"allowed_origins": [f"chrome-extension://{EXTENSION_ID}/"]})
        path = os.path.join(self.native_hosts_dir, f"{name}.json")
        with open(path, "w") as f:
            json.dump(manifest, f, indent=2)
        return path

    def start(self):
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in chromium_flags(self.extension_dir, self.user_data_dir, self.loopback_names):
            options.add_argument(flag)
        # NFCSCAN_TEST_CHROMEDRIVER_LOG=FILE: chromedriver's verbose log, with Chromium's own output.
        log = os.environ.get("NFCSCAN_TEST_CHROMEDRIVER_LOG")
        service = Service(CHROMEDRIVER, log_path=log, service_args=["--verbose"]) if log else Service(CHROMEDRIVER)
        self.driver = webdriver.Chrome(service=service, options=options)
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


class _Marionette:
    """Firefox's remote protocol, what geckodriver speaks to it: each message is its length in
    decimal, a colon, and JSON; a command is [0, id, name, params], its answer [1, id, error,
    result]."""

    def __init__(self, port, timeout):
        self._sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self._buffer = b""
        self._id = 0
        self._read()  # the server's greeting

    def _read(self):
        while b":" not in self._buffer:
            self._recv()
        length, self._buffer = self._buffer.split(b":", 1)
        while len(self._buffer) < int(length):
            self._recv()
        message, self._buffer = self._buffer[: int(length)], self._buffer[int(length):]
        return json.loads(message)

    def _recv(self):
        chunk = self._sock.recv(65536)
        if not chunk:
            raise ConnectionError("Firefox closed its Marionette connection")
        self._buffer += chunk

    def call(self, name, params=None):
        self._id += 1
        data = json.dumps([0, self._id, name, params or {}]).encode()
        self._sock.sendall(str(len(data)).encode() + b":" + data)
        while True:
            kind, id_, error, result = self._read()
            if kind == 1 and id_ == self._id:
                if error:
                    raise RuntimeError(f"{name}: {error.get('error')}: {error.get('message')}")
                return result

    def close(self):
        self._sock.close()


def firefox_prefs(loopback_names=()):
    """The profile's user.js: Marionette on a port Firefox picks (it writes it to
    MarionetteActivePort), loopback_names resolved to 127.0.0.1, and everything else sent to a
    proxy on the discard port, where nothing listens. Marionette's own recommended preferences
    switch off updates, telemetry and the other background services."""
    loopback = ["localhost", "127.0.0.1", "[::1]", *loopback_names]
    prefs = {
        "marionette.port": 0,
        "network.dns.localDomains": ",".join(loopback_names),
        "network.proxy.type": 1,
        "network.proxy.http": "127.0.0.1",
        "network.proxy.http_port": 9,
        "network.proxy.ssl": "127.0.0.1",
        "network.proxy.ssl_port": 9,
        "network.proxy.no_proxies_on": ",".join(loopback),
        "network.proxy.allow_hijacking_localhost": False,
        "network.trr.mode": 5,
        "browser.shell.checkDefaultBrowser": False,
        "datareporting.policy.dataSubmissionEnabled": False,
        "toolkit.telemetry.enabled": False,
    }
    return "".join(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n" for k, v in prefs.items())


class FirefoxBrowser(_Started):
    """Headless firefox-esr with the extension at `extension_dir` installed as a temporary
    add-on (as about:debugging does), a profile and a HOME of its own under `temp_dir`. Same
    methods as Browser; scripts run as Marionette's WebDriver:ExecuteScript bodies."""

    name = "firefox"

    def __init__(self, extension_dir, temp_dir, loopback_names=(), timeout=10):
        self.extension_dir = os.path.abspath(extension_dir)
        self.profile_dir = os.path.join(os.fspath(temp_dir), "firefox-profile")
        self.home_dir = os.path.join(os.fspath(temp_dir), "firefox-home")
        os.makedirs(self.profile_dir, exist_ok=True)
        os.makedirs(self.home_dir, exist_ok=True)
        self.loopback_names = tuple(loopback_names)
        self.timeout = timeout
        self._process = None
        self._marionette = None

    @property
    def native_hosts_dir(self):
        return os.path.join(self.home_dir, ".mozilla", "native-messaging-hosts")

    def install_native_host(self, program_path, name=NATIVE_HOST_NAME):
        """Writes the user-level native host manifest for `name` running `program_path`,
        allowing this extension only."""
        os.makedirs(self.native_hosts_dir, exist_ok=True)
        manifest = native_host_manifest(program_path, name, {"allowed_extensions": [GECKO_ID]})
        path = os.path.join(self.native_hosts_dir, f"{name}.json")
        with open(path, "w") as f:
            json.dump(manifest, f, indent=2)
        return path

    def start(self):
        with open(os.path.join(self.profile_dir, "user.js"), "w") as f:
            f.write(firefox_prefs(self.loopback_names))
        port_file = os.path.join(self.profile_dir, "MarionetteActivePort")
        if os.path.exists(port_file):
            os.remove(port_file)
        env = {**os.environ, "HOME": self.home_dir}
        self._process = subprocess.Popen(
            [FIREFOX, "--headless", "--marionette", "--no-remote", "--profile", self.profile_dir],
            env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        try:
            port = wait_until(lambda: _read_port(port_file), timeout=self.timeout * 3,
                              message="Firefox did not open its Marionette port")
            self._marionette = _Marionette(port, self.timeout * 3)
            self._marionette.call("WebDriver:NewSession", {"capabilities": {}})
            self.check_extension_loaded()
        except BaseException:
            self.quit()
            raise
        return self

    def check_extension_loaded(self):
        """Installs the extension as a temporary add-on; fails unless it loads under its gecko ID."""
        installed = self._marionette.call("Addon:Install", {"path": self.extension_dir, "temporary": True})["value"]
        if installed != GECKO_ID:
            raise RuntimeError(f"the extension loaded as {installed!r}, not {GECKO_ID}")
        return installed

    def open(self, url):
        self._marionette.call("WebDriver:Navigate", {"url": url})

    def run(self, script, *args):
        return self._marionette.call("WebDriver:ExecuteScript", {"script": script, "args": list(args)})["value"]

    def run_async(self, script, *args, timeout=None):
        """As Browser.run_async."""
        params = {"script": f"(async () => {{ {script} }})();", "args": list(args), "scriptTimeout": int((timeout or self.timeout) * 1000)}
        return self._marionette.call("WebDriver:ExecuteAsyncScript", params)["value"]

    def wait_for(self, script, *args, timeout=None, message=""):
        """As Browser.wait_for."""
        return wait_until(lambda: self.run(script, *args), timeout=timeout or self.timeout,
                          message=message or f"timed out waiting for: {script}")

    def quit(self):
        if self._marionette is not None:
            try:
                self._marionette.call("Marionette:Quit", {"flags": ["eForceQuit"]})
            except (OSError, RuntimeError):
                pass
            self._marionette.close()
            self._marionette = None
        if self._process is not None:
            try:
                self._process.wait(timeout=self.timeout)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
            self._process = None



def _read_port(path):
    try:
        with open(path) as f:
            return int(f.read().strip() or 0)
    except (OSError, ValueError):
        return 0


BROWSERS = {"chromium": Browser, "firefox": FirefoxBrowser}


def run_in_browsers(description, pages_dir, run):
    """The command line of the browser test scripts: --browser chromium|firefox|all (default all).
    run(browser_class, server) returns one browser's (case, ok, why) rows, server serving
    pages_dir; each row is printed, then a summary. Returns the exit status (1: a case failed)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--browser", choices=[*BROWSERS, "all"], default="all")
    choice = parser.parse_args().browser
    names = list(BROWSERS) if choice == "all" else [choice]
    started = time.monotonic()
    failed = total = 0
    with StaticServer(pages_dir) as server:
        for name in names:
            for case, ok, why in run(BROWSERS[name], server):
                total += 1
                if ok:
                    print(f"ok    {name:8}  {case}")
                else:
                    failed += 1
                    print(f"FAIL  {name:8}  {case}: {why}")
    print(f"{total - failed} passed, {failed} failed, {total} cases ({', '.join(names)}) in {time.monotonic() - started:.1f} s")
    return 1 if failed else 0
