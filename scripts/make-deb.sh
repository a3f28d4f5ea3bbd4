#!/usr/bin/env bash
# Makes the Debian package nfcscan_<version>_<arch>.deb, offline, from a staging tree that
# `make install PREFIX=/usr DESTDIR=ROOT` filled with the static build (`make deb` does both;
# Docs/service.md, "Debian package", lists what the package holds and why).
#
# Usage: scripts/make-deb.sh ROOT VERSION OUTPUT.deb
#   ROOT     the staging tree (usr/bin/nfcscan ...); completed here in place, then packed
#   VERSION  the package version (the Makefile reads it from Sources/CommandLineIO/Version.swift)
#   OUTPUT   the .deb to write
# Environment: DEB_MAINTAINER (default: the author of the last commit), SOURCE_DATE_EPOCH
# (default: the last commit's time; every file's time in the package is clamped to it).
#
# What it adds to ROOT: stripped binaries; gzipped man pages; /usr/share/doc/nfcscan (copyright,
# changelog.gz, examples/nfcscand.conf); DEBIAN/ (control with Depends computed by
# dpkg-shlibdeps from the binaries — the scan sheet's libraries, GTK 4 and libadwaita, as
# Recommends only, so the package installs on a kiosk without a desktop —, postinst/postrm that only ask a running udev to reload its
# rules, md5sums). Nothing outside ROOT, OUTPUT and a temporary directory is written.
#
# Exit status: 0 built; 64 usage; 65 a binary still loads the Swift runtime (not a static build:
# `make static-release`) or needs a library that is not found; 66 ROOT lacks a file;
# 69 a tool is missing (dpkg-deb, dpkg-shlibdeps: Debian packages dpkg, dpkg-dev).
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { echo "usage: scripts/make-deb.sh ROOT VERSION OUTPUT.deb" >&2; exit 64; }
[ $# -eq 3 ] || usage
root=$1 version=$2 output=$3
[[ $version =~ ^[0-9][A-Za-z0-9.+~]*$ ]] || { echo "make-deb: \"$version\" is not a Debian version (from Sources/CommandLineIO/Version.swift)" >&2; exit 64; }
for tool in dpkg-deb dpkg-shlibdeps strip gzip; do
  command -v "$tool" >/dev/null || { echo "make-deb: $tool is missing (scripts/install-deps.sh installs it: make deps)" >&2; exit 69; }
done
# One binary holds the three commands (Sources/nfcscan/main.swift); the others are links to it.
binaries=(nfcscan)
links=(nfcscand nfcsim)
# The scan sheet's window (GTK 4, libadwaita), which nfcscand starts: a binary of its own, so
# that nfcscan never links a toolkit and a machine without one needs none.
sheet=usr/libexec/nfcscan/nfcscan-sheet
for b in "${binaries[@]/#/usr/bin/}" "$sheet"; do
  [ -x "$root/$b" ] || { echo "make-deb: $root/$b is missing: run make deb (it stages the tree first)" >&2; exit 66; }
done
for l in "${links[@]}"; do
  [ "$(readlink "$root/usr/bin/$l")" = nfcscan ] || { echo "make-deb: $root/usr/bin/$l is not a link to nfcscan: run make deb" >&2; exit 66; }
done
root=$(realpath "$root")
arch=$(dpkg --print-architecture)
maintainer=${DEB_MAINTAINER:-$(git log -1 --format='%an <%ae>' 2>/dev/null || true)}
[ -n "$maintainer" ] || { echo "make-deb: no maintainer: set DEB_MAINTAINER='Name <address>'" >&2; exit 64; }
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)

work=$(mktemp -d "${TMPDIR:-/tmp}/nfcscan-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

# 1. The binaries must not need the toolchain: no Swift runtime, Foundation or Dispatch loaded
#    from anywhere, and every library they do load found.
for b in "${binaries[@]/#/usr/bin/}" "$sheet"; do
  libs=$(ldd "$root/$b")
  if grep -E 'libswift|libFoundation|libdispatch|libBlocksRuntime|lib_FoundationICU' <<<"$libs" >&2; then
    echo "make-deb: $b loads the Swift runtime above: package a static build (make static-release, or plain make deb)" >&2
    exit 65
  fi
  if grep 'not found' <<<"$libs" >&2; then
    echo "make-deb: $b needs the libraries above, which are not installed here" >&2
    exit 65
  fi
done
# Symbols go (as dh_strip does); the Swift metadata sections the runtime reads stay.
strip --remove-section=.comment --remove-section=.note "${binaries[@]/#/$root/usr/bin/}" "$root/$sheet"

# 2. Man pages gzipped, reproducibly (no name, no time in the header).
find "$root/usr/share/man" -type f -name '*.[0-9]' -exec gzip -9nf {} +

# 3. /usr/share/doc/nfcscan: copyright, changelog, the example configuration.
doc=$root/usr/share/doc/nfcscan
install -d "$doc/examples"
install -m 644 systemd/nfcscand.conf.example "$doc/examples/nfcscand.conf"
date_rfc=$(date -u -R -d "@$SOURCE_DATE_EPOCH")
year=$(date -u +%Y -d "@$SOURCE_DATE_EPOCH")
cat >"$work/changelog" <<EOF
nfcscan ($version) unstable; urgency=medium

  * Built by make deb from commit $commit of the nfcscan repository;
    its git log is the history of changes.

 -- $maintainer  $date_rfc
EOF
gzip -9n <"$work/changelog" >"$doc/changelog.gz"
cat >"$doc/copyright" <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: nfcscan
Upstream-Contact: $maintainer
Comment: Built by make deb from the nfcscan repository (commit $commit). The binaries are
 linked statically (swift build --static-swift-stdlib) against the Swift standard library,
 FoundationEssentials, Dispatch and the Swift packages below; their licenses follow.

Files: *
Copyright: $year the nfcscan authors
License: nfcscan
 The nfcscan repository does not state a license yet; until it does, ask its maintainers
 (above) before redistributing this package.

Files: usr/bin/*
Copyright: Apple Inc. and the Swift project authors
License: Apache-2.0 with Runtime Library Exception
 Statically linked: the Swift standard library and runtime, FoundationEssentials
 (swift-foundation), Dispatch (swift-corelibs-libdispatch), swift-argument-parser,
 swift-log, swift-service-lifecycle, swift-system, swift-collections, swift-async-algorithms.
 .
 Licensed under the Apache License, Version 2.0, with the Runtime Library Exception: portions
 of the Swift software compiled into a program ("Object form") may be distributed without the
 attribution that sections 4(a), 4(b) and 4(d) of the License would otherwise require.
 .
 On Debian systems, the complete text of the Apache License, Version 2.0, is in
 /usr/share/common-licenses/Apache-2.0.
EOF

# 4. Permissions as Debian expects them (the staging tree took the builder's umask).
find "$root" -type d -exec chmod 755 {} +
find "$root/usr" "$root/etc" -type f -exec chmod 644 {} +
chmod 755 "${binaries[@]/#/$root/usr/bin/}" "$root/$sheet"

# 5. DEBIAN/: Depends from the libraries the binaries load (dpkg-shlibdeps reads the shlibs and
#    symbols files of the installed libnfc6, libpcsclite1, libsystemd0, libc6 ...). The sheet's
#    (libgtk-4-1, libadwaita-1-0, libglib2.0-0 ...) go to Recommends (-dRecommends), so that the
#    package installs on a kiosk without a desktop. One call, so a library both need is only in
#    Depends (dpkg-shlibdeps drops from a weaker field what a stronger one holds).
mkdir -p "$work/src/debian" "$root/DEBIAN"
printf 'Source: nfcscan\n\nPackage: nfcscan\nArchitecture: any\n' >"$work/src/debian/control"
fields=$(cd "$work/src" && dpkg-shlibdeps -O -dDepends "${binaries[@]/#/$root/usr/bin/}" -dRecommends "$root/$sheet" \
  2>"$work/shlibdeps.err") \
  || { cat "$work/shlibdeps.err" >&2; echo "make-deb: dpkg-shlibdeps failed (above)" >&2; exit 65; }
depends=$(sed -n 's/^shlibs:Depends=//p' <<<"$fields")
sheet_recommends=$(sed -n 's/^shlibs:Recommends=//p' <<<"$fields")
[ -n "$sheet_recommends" ] || { cat "$work/shlibdeps.err" >&2; echo "make-deb: dpkg-shlibdeps found no library for $sheet" >&2; exit 65; }
[ -n "$depends" ] || { cat "$work/shlibdeps.err" >&2; echo "make-deb: dpkg-shlibdeps found no dependencies" >&2; exit 65; }
# libmosquitto is opened on first use (CNFC/CMosquitto/shim.h), so dpkg-shlibdeps cannot see it.
depends="$depends, libmosquitto1 (>= 1.6)"
installed_size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat >"$root/DEBIAN/control" <<EOF
Package: nfcscan
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $installed_size
Depends: $depends
Recommends: pcscd, $sheet_recommends
Section: utils
Priority: optional
Description: read the contactless (NFC) chips on posters, badges, toys and labels
 nfcscan reads the small contactless chips on posters, badges, toys and product
 labels through USB and serial readers (libnfc: PN53x, ACR122) and PC/SC readers
 (pcscd), and says in plain words what they hold: links, text, contacts, Wi-Fi
 and Bluetooth pairing data, app records; or JSON for scripts.
 .
 nfcscand is its background service for the desktop session (a systemd user
 unit and D-Bus activation): it offers what an object holds in a desktop
 notification and hands it to the app that registered for it, over a D-Bus
 API. nfcsim presents virtual objects on simulated readers, for testing without
 hardware.
 .
 Web pages written for Web NFC scan and write objects in Chromium and Firefox
 through the browser extension in /usr/share/nfcscan/browser-extension and its
 native messaging host; each site is asked once.
 .
 In-app scans show a small window of nfcscand's own, the scan sheet; it needs
 GTK 4 and libadwaita, which are recommended, not required, so that the
 package installs on a machine without a desktop.
 .
 Shell completions for bash, zsh and fish are included.
EOF
# Only the udev rule needs the system told: a running udev reloads its rules. Nothing is
# started, enabled or triggered: the person enables the user service (Docs/service.md).
for script in postinst postrm; do
  case $script in postinst) when='[ "$1" = configure ]';; postrm) when='[ "$1" = remove ] || [ "$1" = purge ]';; esac
  cat >"$root/DEBIAN/$script" <<EOF
#!/bin/sh
# nfcscan $script: a running udev re-reads its rules, so that 70-nfcscan-readers.rules (USB
# readers for the person at the seat) takes effect on the next reader plugged in.
set -e
if { $when; } && [ -S /run/udev/control ] && command -v udevadm >/dev/null 2>&1; then
	udevadm control --reload-rules || true
fi
exit 0
EOF
  chmod 755 "$root/DEBIAN/$script"
done
(cd "$root" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
# The browsers' manifests for the Web NFC host under /etc are the administrator's to change.
(cd "$root" && find etc -type f | LC_ALL=C sort | sed 's|^|/|') >"$root/DEBIAN/conffiles"
[ -s "$root/DEBIAN/conffiles" ] || rm "$root/DEBIAN/conffiles"
chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
[ ! -f "$root/DEBIAN/conffiles" ] || chmod 644 "$root/DEBIAN/conffiles"

# 6. Pack: owned by root, every time clamped to the commit's.
find "$root" -newermt "@$SOURCE_DATE_EPOCH" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
dpkg-deb --root-owner-group -Zxz --build "$root" "$output" >/dev/null
size=$(stat -c %s "$output")
echo "make-deb: $output ($((size / 1024)) KiB; installed $installed_size KiB)"
echo "make-deb: Depends: $depends"
echo "make-deb: Recommends: pcscd, $sheet_recommends"
echo "make-deb: check it with: lintian $output; install it with: sudo apt install ./$output"
