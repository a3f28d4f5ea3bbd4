#!/usr/bin/env bash
# Installs every system and Python dependency nfcscan's build, demo and tests need on Debian 12.
# Idempotent: skips apt when every package is already present. Needs root (or sudo) for apt.
set -euo pipefail

APT_PACKAGES=(
  pkg-config
  libnfc-dev libnfc-bin libnfc-examples
  libpcsclite-dev pcscd pcsc-tools vsmartcard-vpcd
  libsystemd-dev systemd
  dbus dunst xvfb libnotify-bin python3-dbusmock python3-pyscard python3-dbus python3-gi xdg-utils socat
  util-linux iproute2
  libglib2.0-dev-bin
  libclang-rt-14-dev
)
PIP_PACKAGES=(ndeflib)

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

PY=${PYTHON:-python3}
for p in "${PIP_PACKAGES[@]}"; do
  "$PY" -c "import ${p}" 2>/dev/null || "$PY" -m pip install -q --disable-pip-version-check "$p"
done
echo "install-deps: all dependencies present"
