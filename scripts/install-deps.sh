#!/usr/bin/env bash
# Installs every system and Python dependency nfcscan's build, demo and tests need on Debian 12.
# Idempotent: skips apt when every package is already present and the vpcd driver is unpacked.
# Needs root (or sudo) for apt.
#
# gettext: msgfmt compiles the copy catalogs (make mo), msgmerge merges them (make pot), msginit
# starts a new language (Docs/translating.md).
#
# make deb and its test (Tests/Package/package-test.sh) need dpkg-dev (dpkg-shlibdeps), binutils
# (strip), debootstrap (the clean Debian 12 root), lintian; bash-completion and tmux are for
# trying the completions on this machine too.
#
# The scan sheet (nfcscan-sheet, Sources/nfcscan-sheet) is drawn with GTK 4 and libadwaita:
# libgtk-4-dev and libadwaita-1-dev build it (4.8 and 1.2 on Debian 12: it uses nothing newer).
# Its test (make sheet-test) reads it as a screen reader does: at-spi2-core (the accessibility bus
# and registry), python3-pyatspi and gir1.2-atspi-2.0 (Tests/Support/sheet_atspi.py); imagemagick
# takes the screenshots (desktop-rig.sh screenshot); fonts-wqy-microhei (1.6 MB, against 56 MB for
# fonts-noto-cjk) draws the Chinese sheet, which is boxes without a CJK font.
# xdg-desktop-portal brings xdg-permission-store, where nfcscand keeps the person's answers (the
# tests and the demo start their own on a private bus, its database in their own directory:
# desktop-rig.sh --permission-store); bubblewrap lays out a Flatpak app's sandbox for the tests
# (Tests/Support/flatpak_sandbox.sh) without installing Flatpak.
# python3-jsonschema (4.10 on Debian 12: draft 2020-12) checks every test's nfcscan --json output
# against its schema in Docs/schemas (Tests/Support/json_schema.py).
# Web NFC's tests (make webnfc-test, the webnfc e2e scenario) run the extension in real browsers:
# chromium with chromium-driver and python3-selenium, and firefox-esr over its own Marionette
# protocol (Tests/Support/browser.py; no geckodriver). Both run headless, with every name but
# loopback resolving to nothing and their own background traffic off.
#
# The vpcd driver (Debian's vsmartcard-vpcd) is not installed: the package's
# /etc/reader.conf.d/vpcd makes the system pcscd listen on 0.0.0.0:35963 and 35964, so anyone on
# the machine's network could insert cards into every PC/SC program. Its .deb is downloaded
# instead (apt checks it against the signed index) and unpacked into .deps/vpcd, which only the
# private pcscd of scripts/private-pcscd.sh (its own network namespace) loads.
#
# mosquitto (the broker the MQTT tests start on their own loopback port) comes with a system service,
# enabled on machines that run systemd. Debian 12's /etc/mosquitto/mosquitto.conf names no listener,
# and mosquitto 2 then listens on localhost:1883 only, so it is left as Debian ships it.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(
  pkg-config
  libnfc-dev libnfc-bin libnfc-examples
  libpcsclite-dev pcscd pcsc-tools
  libssl-dev openssl
  libsystemd-dev systemd
  dbus dunst xvfb libnotify-bin python3-dbusmock python3-pyscard python3-dbus python3-gi xdg-utils socat
  python3-jsonschema
  util-linux iproute2
  libglib2.0-dev-bin
  libmosquitto-dev mosquitto mosquitto-clients
  gettext
  libclang-rt-14-dev
  dpkg-dev debootstrap lintian binutils bash-completion tmux
  libgtk-4-dev libadwaita-1-dev at-spi2-core python3-pyatspi gir1.2-atspi-2.0 imagemagick fonts-wqy-microhei
  xdg-desktop-portal bubblewrap
  chromium chromium-driver python3-selenium firefox-esr
)
PIP_PACKAGES=(ndeflib:ndef)   # distribution:module (ndeflib installs the module ndef)
VPCD_PACKAGE=vsmartcard-vpcd
VPCD_DIR=.deps/vpcd   # scripts/private-pcscd.sh loads $VPCD_DIR/usr/lib/pcsc/drivers/serial/libifdvpcd.so

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
need_vpcd=0
[ -e "$VPCD_DIR/usr/lib/pcsc/drivers/serial/libifdvpcd.so" ] || need_vpcd=1
if [ ${#missing[@]} -gt 0 ] || [ "$need_vpcd" = 1 ]; then
  as_root apt-get update -qq
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ "$need_vpcd" = 1 ]; then
  echo "install-deps: unpacking $VPCD_PACKAGE into $VPCD_DIR (not installed: it would open the system pcscd to the network)"
  work=$(mktemp -d "${TMPDIR:-/tmp}/nfcscan-vpcd.XXXXXX")
  mkdir -p "$(dirname "$VPCD_DIR")"
  unpacked=$(mktemp -d "$VPCD_DIR.partial.XXXXXX")   # beside $VPCD_DIR: the rename below is atomic
  trap 'rm -rf "$work" "$unpacked"' EXIT
  # As root, apt downloads as its sandbox user _apt, who must be able to write there.
  if [ "$(id -u)" -eq 0 ] && id _apt >/dev/null 2>&1; then chown _apt "$work"; fi
  # apt-get download checks the file's hash against the index whose signature `apt-get update`
  # verified, and refuses a package it cannot authenticate.
  (cd "$work" && apt-get download -qq "$VPCD_PACKAGE")
  debs=("$work"/"$VPCD_PACKAGE"_*.deb)
  [ -f "${debs[0]}" ] || { echo "install-deps: apt-get download $VPCD_PACKAGE left no .deb" >&2; exit 1; }
  # The same check, said out loud: the file unpacked is the one the signed index names.
  version=$(dpkg-deb -f "${debs[0]}" Version)
  expected=$(apt-cache show --no-all-versions "$VPCD_PACKAGE=$version" | sed -n 's/^SHA256: //p' | head -n 1)
  actual=$(sha256sum "${debs[0]}" | cut -d' ' -f1)
  if [ -z "$expected" ] || [ "$expected" != "$actual" ]; then
    echo "install-deps: ${debs[0]##*/} does not match apt's index (SHA256 ${actual}, expected ${expected:-none}); not unpacked" >&2
    exit 1
  fi
  dpkg-deb -x "${debs[0]}" "$unpacked"
  chmod 755 "$unpacked"
  [ -e "$unpacked/usr/lib/pcsc/drivers/serial/libifdvpcd.so" ] \
    || { echo "install-deps: $VPCD_PACKAGE $version holds no usr/lib/pcsc/drivers/serial/libifdvpcd.so" >&2; exit 1; }
  # Only the driver: the package's /etc/reader.conf.d/vpcd is what opens the system pcscd.
  rm -rf "$unpacked/etc"
  echo "$VPCD_PACKAGE $version sha256:$actual" >"$unpacked/VERSION"
  rm -rf "$VPCD_DIR"
  mv -T "$unpacked" "$VPCD_DIR"   # one rename: a half-unpacked tree never looks complete
fi

if dpkg-query -W -f='${Status}' "$VPCD_PACKAGE" 2>/dev/null | grep -q "install ok installed"; then
  echo "install-deps: note: $VPCD_PACKAGE is installed system-wide, so the system pcscd listens on" \
    "0.0.0.0:35963 and 35964 whenever it runs; nfcscan does not need it (sudo apt-get purge $VPCD_PACKAGE removes it)"
fi

PY=${PYTHON:-python3}
for p in "${PIP_PACKAGES[@]}"; do
  "$PY" -c "import ${p#*:}" 2>/dev/null || "$PY" -m pip install -q --disable-pip-version-check "${p%%:*}"
done
echo "install-deps: all dependencies present"
