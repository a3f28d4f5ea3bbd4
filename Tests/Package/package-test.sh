#!/usr/bin/env bash
# The Debian package on a clean Debian 12 system without the Swift toolchain: installs the .deb
# into a debootstrap root (Debian's packages only) and runs it there (Tests/Package/in-chroot.sh):
# nfcscan --version, nfcscan decode of the sample, nfcscan readers in Chinese (the packaged catalog,
# with no locale but C.UTF-8 in the root) and English, nfcsim pn532 read by nfcscan --json through
# libnfc, nfcscand on a private bus answering GetManagedObjects (started by hand with the example
# nfcscand.conf, and by D-Bus activation through the packaged activation file), completion of
# `nfcscan re<TAB>` in bash (complete -p, and a real TAB in tmux), then removal. Last, lintian:
# no error and no warning (its info tags are explained in Docs/service.md).
#
# Usage: Tests/Package/package-test.sh PACKAGE.deb
# Environment:
#   NFCSCAN_TEST_CACHE     where the root is kept (default /var/cache/nfcscan-test): made once
#                          with debootstrap (a few minutes, from the Debian mirror apt uses), then
#                          reused by every later run on the machine, also from another clone
#   NFCSCAN_DEBIAN_MIRROR  the mirror (default: the one apt's sources name for bookworm)
#
# The clean system: a debootstrap --variant=minbase root of bookworm with, as test-only extras,
# dbus-daemon, dbus-bin, dbus-session-bus-common, bash-completion and tmux. The package's own
# dependencies (libnfc6, libpcsclite1, libsystemd0 ...) are not in it: apt installs them from the
# package's Depends. Their .debs are downloaded into the cached root's apt cache the first time
# (and whenever Depends change); the install itself runs where there is no network.
#
# Isolation: every run works on an overlay of the cached root (its changes go to a temporary
# directory; the cache is never changed by a test), inside `unshare --mount --pid --net`: its own
# mounts (proc, a /dev with null/zero/random/urandom/tty and a private devpts), its own process
# tree (whatever is left running dies with it) and a network namespace with no interface up, so
# nothing in it can reach or listen on any network. No service is started on the host, no mount
# outlives the run (the namespace goes with it; a trap unmounts too).
#
# Exit status: 0 every check passed; 1 a check failed (the output says which); 64 usage;
# 69 a tool is missing or the root cannot be made (debootstrap, network); 77 not root, or
# namespaces are not allowed here.
set -euo pipefail
cd "$(dirname "$0")/../.."

usage() { echo "usage: Tests/Package/package-test.sh PACKAGE.deb" >&2; exit 64; }
TESTLIB_NAME="package-test"   # say (standard output); in-chroot.sh uses the same library in the root
# shellcheck source=Tests/Support/testlib.sh
. Tests/Support/testlib.sh
die() { local status=$1; shift; echo "package-test: $*" >&2; exit "$status"; }

# --- Inside the namespaces (the script calls itself): mount, chroot, run the checks. ---
if [ "${1:-}" = --inside ]; then
  base=$2 work=$3
  merged=$work/merged
  mounts=()
  cleanup_inside() {
    local i
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[i]}" 2>/dev/null || true; done
  }
  trap cleanup_inside EXIT
  mount --make-rprivate /
  mkdir -p "$work/upper" "$work/overlay-work" "$merged"
  if mount -t overlay overlay -o "lowerdir=$base,upperdir=$work/upper,workdir=$work/overlay-work" "$merged" 2>/dev/null; then
    mounts+=("$merged")
  else
    echo "package-test: no overlayfs here; copying the root instead (slower)"
    cp -a "$base/." "$merged/"
  fi
  mount -t proc proc "$merged/proc"; mounts+=("$merged/proc")
  mount -t tmpfs -o mode=755,nosuid devtmp "$merged/dev"; mounts+=("$merged/dev")
  for node in null zero random urandom tty; do
    touch "$merged/dev/$node"
    mount --bind "/dev/$node" "$merged/dev/$node"; mounts+=("$merged/dev/$node")
  done
  mkdir -p "$merged/dev/pts" "$merged/dev/shm"
  mount -t devpts -o newinstance,ptmxmode=0666,mode=620,gid=5 devpts "$merged/dev/pts"; mounts+=("$merged/dev/pts")
  ln -s pts/ptmx "$merged/dev/ptmx"
  ln -s /proc/self/fd "$merged/dev/fd"
  mount -t tmpfs -o mode=1777 shm "$merged/dev/shm"; mounts+=("$merged/dev/shm")
  mount -t tmpfs -o mode=755 run "$merged/run"; mounts+=("$merged/run")
  mkdir -p "$merged/tmp/nfcscan-test"
  cp "$work/package.deb" "$work/poster.ndef" Tests/Package/in-chroot.sh Tests/Support/testlib.sh "$merged/tmp/nfcscan-test/"
  chmod -R a+rX "$merged/tmp/nfcscan-test"
  status=0
  env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 TERM=xterm-256color \
    DEBIAN_FRONTEND=noninteractive NFCSCAN_VERSION="$NFCSCAN_VERSION" \
    chroot "$merged" /bin/bash /tmp/nfcscan-test/in-chroot.sh /tmp/nfcscan-test </dev/null || status=$?
  # What the installed nfcscan --json printed follows its schema (the one validator of every test).
  if [ -s "$merged/tmp/nfcscan-test/scan.json" ]; then
    if /usr/bin/python3 Tests/Support/json_schema.py scan "$merged/tmp/nfcscan-test/scan.json"; then
      say "  ok   the installed nfcscan's --json follows Docs/schemas/scan.schema.json"
    else
      status=1
    fi
  fi
  exit "$status"
fi

[ $# -eq 1 ] || usage
deb=$1
[ -f "$deb" ] || die 64 "$deb does not exist: make deb builds it (make package-test does both)"
[ "$(id -u)" -eq 0 ] || die 77 "needs root (debootstrap, chroot, mounts in a private namespace): run it with sudo"
for tool in debootstrap unshare chroot dpkg-deb lintian flock; do
  command -v "$tool" >/dev/null || die 69 "$tool is missing (scripts/install-deps.sh installs it: make deps)"
done
unshare --mount --pid --net --fork true 2>/dev/null \
  || die 77 "cannot make mount, PID and network namespaces here (unshare --mount --pid --net failed); a container needs CAP_SYS_ADMIN"

version=$(dpkg-deb -f "$deb" Version)
package=$(dpkg-deb -f "$deb" Package)
[ "$package" = nfcscan ] || die 64 "$deb is not the nfcscan package (Package: $package)"

# --- The cached root. ---
suite=bookworm
mirror=${NFCSCAN_DEBIAN_MIRROR:-$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 2>/dev/null \
  | awk -v s="$suite" '$2 == s { print $1; exit }')}
mirror=${mirror:-http://deb.debian.org/debian/}
# The suites a Debian 12 system follows, from the same places apt does (updates, security).
sources=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 2>/dev/null \
  | awk -v s="$suite" '$2 == s || $2 == s "-updates" || $2 == s "-security" { print "deb " $1 " " $2 " main" }' | sort -u)
[ -n "$sources" ] || sources="deb $mirror $suite main"
extras=dbus-daemon,dbus-bin,dbus-session-bus-common,bash-completion,tmux
key=$(printf '%s\n' "format 1" "$suite" "$mirror" "$sources" "$extras" | sha256sum | cut -c1-12)
cache=${NFCSCAN_TEST_CACHE:-/var/cache/nfcscan-test}
base=$cache/$suite-$key
mkdir -p "$cache"
exec 9>"$cache/.lock"

make_root() {
  local partial log
  # A run killed while making a root leaves its .partial.* behind (we hold the lock: none is in use).
  rm -rf "$cache"/.partial.*
  partial=$(mktemp -d "$cache/.partial.XXXXXX")
  log=$partial.log
  trap 'rm -rf "$partial" "$log"' EXIT
  say "making the clean Debian 12 root once: debootstrap --variant=minbase $suite from $mirror (a few minutes; log: $log)"
  debootstrap --variant=minbase --components=main --include="$extras" "$suite" "$partial" "$mirror" >"$log" 2>&1 &
  local pid=$! last=
  while kill -0 "$pid" 2>/dev/null; do
    sleep 10
    local line; line=$(grep -E '^I: (Retrieving|Validating|Extracting|Installing|Configuring|Unpacking)' "$log" | tail -n 1 | cut -c1-70 || true)
    [ -n "$line" ] && [ "$line" != "$last" ] && say "  debootstrap: ${line#I: }" && last=$line
  done
  wait "$pid" || { tail -n 20 "$log" >&2; die 69 "debootstrap failed (above; is $mirror reachable? NFCSCAN_DEBIAN_MIRROR names another)"; }
  # Nothing installed later may start a service (invoke-rc.d asks policy-rc.d; 101: refused).
  printf '#!/bin/sh\n# nfcscan package test: no service starts in this root.\nexit 101\n' >"$partial/usr/sbin/policy-rc.d"
  chmod 755 "$partial/usr/sbin/policy-rc.d"
  printf '%s\n' "$sources" >"$partial/etc/apt/sources.list"
  # Keep every downloaded .deb: they are the cache that lets later installs run offline.
  echo 'Binary::apt::APT::Keep-Downloaded-Packages "true";' >"$partial/etc/apt/apt.conf.d/90nfcscan-keep"
  rm -rf "$partial/var/cache/apt/archives/"*.deb
  in_root "$partial" apt-get update -qq >>"$log" 2>&1 \
    || { tail -n 20 "$log" >&2; die 69 "apt-get update in the new root failed (above)"; }
  [ ! -e "$partial/opt/swift" ] && ! ls "$partial"/usr/lib/*/libswiftCore.so >/dev/null 2>&1 \
    || die 69 "the new root holds a Swift toolchain: it would not prove anything"
  date -u +%FT%TZ >"$partial/.nfcscan-test-root"
  # Other roots (another mirror or format) go: one is enough.
  find "$cache" -mindepth 1 -maxdepth 1 -name "$suite-*" ! -name "$suite-$key" -exec rm -rf {} +
  mv -T "$partial" "$base"   # one rename: a half-made root is never used
  rm -f "$log"
  trap - EXIT
  say "root ready: $base ($(du -sh "$base" | cut -f1))"
}

# A command in a root with the host's network, for apt downloads (private mounts, no services).
in_root() {
  local root=$1; shift
  cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
  unshare --mount --pid --fork --kill-child bash -c '
    root=$1; shift
    mount --make-rprivate /
    mount -t proc proc "$root/proc"
    trap "umount -l \"$root/proc\" 2>/dev/null || true" EXIT
    env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive chroot "$root" "$@"
  ' in-root "$root" "$@"
}

flock 9
[ -e "$base/.nfcscan-test-root" ] || make_root
# The package's Depends into the root's apt cache: a no-op (and no network) once they are there.
cp "$deb" "$base/tmp/package.deb"
if ! in_root "$base" apt-get install --download-only -y -qq --no-install-recommends /tmp/package.deb >"$cache/download.log" 2>&1; then
  # Stale lists (the mirror moved on): refresh once and retry.
  in_root "$base" apt-get update -qq >>"$cache/download.log" 2>&1 || true
  in_root "$base" apt-get install --download-only -y -qq --no-install-recommends /tmp/package.deb >>"$cache/download.log" 2>&1 \
    || { tail -n 20 "$cache/download.log" >&2; rm -f "$base/tmp/package.deb"; die 69 "cannot download the package's dependencies into the root (above)"; }
fi
rm -f "$base/tmp/package.deb"
say "clean root: $base (made $(cat "$base/.nfcscan-test-root")); $(ls "$base"/var/cache/apt/archives/*.deb 2>/dev/null | wc -l) dependency .debs cached"
flock -s 9   # others may test on the same root meanwhile; nobody remakes it under us

work=$(mktemp -d "${TMPDIR:-/tmp}/nfcscan-package-test.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
cp "$deb" "$work/package.deb"
cp Docs/samples/poster.ndef "$work/poster.ndef"
say "installing $(basename "$deb") ($version) into an overlay of it, in private mount, PID and network namespaces"
status=0
NFCSCAN_VERSION=$version unshare --mount --pid --net --fork --kill-child \
  bash "$0" --inside "$base" "$work" || status=$?
[ "$status" -eq 0 ] || die 1 "FAIL: the package did not pass on the clean system (above)"

say "lintian $(basename "$deb")"
lintian_status=0
lintian_out=$(lintian --fail-on error,warning "$deb" 2>&1) || lintian_status=$?
grep -v '^running with root privileges' <<<"$lintian_out" || true
[ "$lintian_status" -eq 0 ] \
  || die 1 "FAIL: lintian reports errors or warnings (above): fix them, or explain each in Docs/service.md and override it"
say "PASS: $(basename "$deb") installs and runs on Debian 12 without the Swift toolchain; lintian: no errors or warnings"
