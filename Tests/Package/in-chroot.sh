#!/bin/bash
# The checks Tests/Package/package-test.sh runs inside the clean Debian 12 root (chrooted, in
# private mount, PID and network namespaces). Not meant to be run on a real system: it installs
# and purges the package and adds a user.
#
# Usage (inside the root): in-chroot.sh DIR   (DIR holds package.deb, poster.ndef, this script and
# Tests/Support/testlib.sh, which package-test.sh copies beside it)
# Environment: NFCSCAN_VERSION, the version the package must report.
# Exit status: 0 every check passed; 1 a check failed (the line before says which).
set -euo pipefail
dir=${1:?usage: in-chroot.sh DIR}
version=${NFCSCAN_VERSION:?NFCSCAN_VERSION must be set}
failures=0
pids=()
TESTLIB_NAME="package-test"   # say, wait_for, name_owned (Tests/Support/testlib.sh)
# shellcheck source=Tests/Support/testlib.sh
. "$dir/testlib.sh"
pass() { say "[chroot] ok: $*"; }
fail() { say "[chroot] FAIL: $*" >&2; failures=$((failures + 1)); }
cleanup() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  su_tester "tmux kill-server" >/dev/null 2>&1 || true
}
trap cleanup EXIT

# 1. No Swift toolchain here, before or after.
no_toolchain() {
  ! command -v swift >/dev/null && [ ! -e /opt/swift ] \
    && [ -z "$(find / -xdev \( -name 'libswiftCore.so*' -o -name 'libFoundation.so*' -o -name 'libdispatch.so*' \) -print -quit)" ]
}
if no_toolchain; then pass "no Swift toolchain or runtime library in the root"; else fail "the root holds a Swift toolchain or runtime"; fi

# 2. Install: apt resolves Depends from Debian's packages, from the cached .debs (there is no
#    network here; --no-download would be the same, but apt 2.6 then looks for the local .deb by
#    its archive name and fails).
if apt-get install -y -q --no-install-recommends "$dir/package.deb" >"$dir/apt.log" 2>&1; then
  pass "apt-get install ./package.deb: $(sed -n 's/^Setting up \([^ ]*\) .*/\1/p' "$dir/apt.log" | tr '\n' ' ')"
else
  cat "$dir/apt.log" >&2; fail "apt-get install of the package"; exit 1
fi
for b in nfcscan nfcscand nfcsim; do
  libs=$(ldd "/usr/bin/$b" 2>&1)
  if grep -Eq 'not found|libswift|libFoundation|libdispatch' <<<"$libs"; then
    echo "$libs" >&2; fail "$b: a library is missing or it loads the Swift runtime"
  fi
done
no_toolchain && pass "ldd: every library of nfcscan, nfcscand, nfcsim found; none of Swift's" || fail "toolchain files appeared"

# Web NFC: the browsers' manifests name the host, which is the one binary under its own name
# (it explains itself when started by a person, and speaks only to a browser on its pipes).
host=/usr/libexec/nfcscan/nfcscan-webnfc-host
manifests_ok=1
for m in /etc/chromium/native-messaging-hosts/org.nfcscan.webnfc.json /usr/lib/mozilla/native-messaging-hosts/org.nfcscan.webnfc.json; do
  grep -q "\"path\": \"$host\"" "$m" 2>/dev/null || { manifests_ok=0; fail "$m names $host"; }
done
[ "$manifests_ok" = 1 ] && pass "the Chromium and Firefox host manifests name $host (none under /etc/opt)"
! dpkg -L nfcscan | grep -q "^/etc/opt" || fail "the package installed something under /etc/opt"
if [ "$(readlink -f "$host")" = /usr/bin/nfcscan ] && "$host" --help </dev/null 2>&1 | grep -q "started by the nfcscan Web NFC browser extension" \
  && [ -f /usr/share/nfcscan/browser-extension/manifest.json ] && [ -f /usr/share/nfcscan/browser-extension/webnfc-page.js ]; then
  pass "the Web NFC host is nfcscan under its name, and the extension's files are in /usr/share/nfcscan/browser-extension"
else
  fail "the Web NFC host or the extension's files"
fi

# A person's account runs everything below, as on a desktop.
useradd --create-home --shell /bin/bash tester
as_tester=(setpriv --reuid=tester --regid=tester --init-groups env HOME=/home/tester USER=tester LOGNAME=tester SHELL=/bin/bash)
tester=("${as_tester[@]}" bash -c)
# name_owned asks tester's bus as tester: a session bus takes connections from its own user only.
TESTLIB_DBUS_AS=("${as_tester[@]}")
su_tester() { "${tester[@]}" "cd; $1"; }
# In the background (`bg_tester CMD &`): the program replaces the subshell, so $! is its pid.
bg_tester() { exec "${tester[@]}" "cd; exec $1"; }

# 3. --version.
out=$(su_tester "nfcscan --version" 2>&1) || true
[ "$out" = "nfcscan $version" ] && pass "nfcscan --version: $out" || fail "nfcscan --version said \"$out\", expected \"nfcscan $version\""
out=$(su_tester "nfcscand --version" 2>&1) || true
[ "$out" = "nfcscand $version" ] && pass "nfcscand --version: $out" || fail "nfcscand --version said \"$out\""

# 4. decode of the sample.
out=$(su_tester "nfcscan decode $dir/poster.ndef" 2>&1) || true
if grep -q "Smart poster: https://example.com/summer-concert" <<<"$out" && grep -q "Android app: com.example.concerts" <<<"$out"; then
  pass "nfcscan decode poster.ndef: $(head -n 1 <<<"$out")"
else
  echo "$out" >&2; fail "nfcscan decode poster.ndef"
fi

# 4b. The Chinese catalog (/usr/share/locale/zh_CN/LC_MESSAGES/nfcscan.mo) through libintl, in a
#     root with no locale but C.UTF-8 (nfcscan needs none other); no reader here yet.
out=$(su_tester "LANG=zh_CN.UTF-8 nfcscan readers" 2>&1) || true
# Each says where connecting a reader is explained (the man page that the package installs).
if [ "$out" = $'未找到读卡器。请连接读卡器后重试。\n如何连接读卡器，请看“man nfcscan”（READERS）。' ] \
   && [ "$(su_tester "LANG=C nfcscan readers" 2>&1)" = $'No reader was found. Connect one and try again.\nTo connect one, see “man nfcscan” (READERS).' ] \
   && [ -e /usr/share/man/man1/nfcscan.1.gz ]; then
  pass "LANG=zh_CN.UTF-8 nfcscan readers: ${out//$'\n'/ }"
else
  echo "$out" >&2; fail "nfcscan readers in Chinese (the installed catalog)"
fi

# 5. A simulated poster on a simulated PN532, read through the libnfc Debian ships (libnfc6).
bg_tester "nfcsim pn532 --type ntag215 --uri https://example.com/summer-concert --link /tmp/reader --for 120" >/tmp/nfcsim.log 2>&1 &
pids+=($!)
if wait_for "the simulated reader" 10 test -e /tmp/reader; then
  out=$(su_tester "LIBNFC_DEVICE=pn532_uart:/tmp/reader LIBNFC_AUTO_SCAN=false nfcscan --json --timeout 10" 2>/tmp/nfcscan.err) || true
  # Checked against Docs/schemas/scan.schema.json outside the root (package-test.sh: the clean
  # system has no python3-jsonschema, and needs none).
  printf '%s\n' "$out" >"$dir/scan.json"
  if grep -q '"uri":"https://example.com/summer-concert"' <<<"$out" && grep -q '"backend":"libnfc"' <<<"$out" && grep -q '"product":"NTAG215"' <<<"$out"; then
    pass "nfcsim pn532 + nfcscan --json through libnfc: NTAG215, https://example.com/summer-concert"
  else
    echo "$out" >&2; cat /tmp/nfcscan.err /tmp/nfcsim.log >&2; fail "nfcscan --json did not read the simulated poster"
  fi
else
  cat /tmp/nfcsim.log >&2; fail "nfcsim pn532 did not make its reader"
fi

# 6. nfcscand on a private session bus (the dbus-daemon Debian ships), with the example
#    configuration (its setting switched on), then started by D-Bus activation.
su_tester "sed 's/^#ignore = /ignore = /' /usr/share/doc/nfcscan/examples/nfcscand.conf > nfcscand.conf"
bus() { su_tester "dbus-send --bus=unix:path=/tmp/bus/socket --print-reply --reply-timeout=5000 $*" 2>&1; }
# GetManagedObjects answered (a method return, not an error) and the reply matches $1.
managed_objects() {
  out=$(bus "--dest=org.nfcscan.Scanner1 /org/nfcscan/Scanner1 org.freedesktop.DBus.ObjectManager.GetManagedObjects") \
    && grep -q '^method return' <<<"$out" && grep -q "$1" <<<"$out"
}
# Whether anything owns the name (name_owned): asking this of the bus never starts a service;
# calling the name itself does, so waiting on managed_objects alone would race the by-hand daemon
# against one the bus activates (the loser exits 75: the name is taken).
start_bus() {
  mkdir -p /tmp/bus && chown tester: /tmp/bus
  bg_tester "dbus-daemon --session --address=unix:path=/tmp/bus/socket --nofork --nopidfile" >/tmp/dbus.log 2>&1 &
  pids+=($!)
  wait_for "the private bus's socket" 10 test -S /tmp/bus/socket
}
if start_bus; then
  # The simulated reader of step 5 too: it must show up as a Reader1 object.
  DBUS_SESSION_BUS_ADDRESS=unix:path=/tmp/bus/socket LIBNFC_DEVICE=pn532_uart:/tmp/reader LIBNFC_AUTO_SCAN=false \
    bg_tester "nfcscand --config ~/nfcscand.conf --camera-devices '' --rfkill-device ''" >/tmp/nfcscand.log 2>&1 &
  daemon=$!; pids+=("$daemon")
  if wait_for "nfcscand on the bus" 20 name_owned unix:path=/tmp/bus/socket org.nfcscan.Scanner1 \
    && wait_for "the reader in GetManagedObjects" 20 managed_objects '"org.nfcscan.Reader1"'; then
    pass "nfcscand (by hand, example nfcscand.conf): GetManagedObjects lists the simulated reader: $(grep -o 'object path "/org/nfcscan/Scanner1/readers/[^"]*"' <<<"$out" | head -n 1)"
    ver=$(bus "--dest=org.nfcscan.Scanner1 /org/nfcscan/Scanner1 org.freedesktop.DBus.Properties.Get string:org.nfcscan.Scanner1 string:Version")
    grep -q "\"$version\"" <<<"$ver" && pass "Version property: $version" || { echo "$ver" >&2; fail "Version property"; }
  else
    echo "$out" >&2; cat /tmp/nfcscand.log >&2; fail "nfcscand did not answer GetManagedObjects within 20 s"
  fi
  kill -TERM "$daemon" 2>/dev/null || true
  daemon_status=0; wait "$daemon" || daemon_status=$?
  [ "$daemon_status" -eq 0 ] && pass "nfcscand stops cleanly on SIGTERM" || { cat /tmp/nfcscand.log >&2; fail "nfcscand exited $daemon_status on SIGTERM"; }
  # No nfcscand now: the call makes the bus start one from /usr/share/dbus-1/services.
  if wait_for "GetManagedObjects by D-Bus activation" 20 managed_objects 'array \['; then
    pass "D-Bus activation (/usr/share/dbus-1/services/org.nfcscan.Scanner1.service): GetManagedObjects answers"
  else
    echo "$out" >&2; cat /tmp/dbus.log >&2; fail "D-Bus activation of nfcscand"
  fi
else
  cat /tmp/dbus.log >&2; fail "the private dbus-daemon did not start"
fi

# 7. Completion in bash: the packaged script through bash-completion's loader, then a real TAB
#    in an interactive login shell in tmux (what a person gets: /etc/profile.d/bash_completion.sh).
out=$(su_tester '
  source /usr/share/bash-completion/bash_completion
  _completion_loader nfcscan
  complete -p nfcscan
  spec=$(complete -p nfcscan); fn=${spec##*-F }; fn=${fn%% *}
  COMP_LINE="nfcscan re"; COMP_POINT=${#COMP_LINE}; COMP_WORDS=(nfcscan re); COMP_CWORD=1
  "$fn" nfcscan re nfcscan
  echo "COMPREPLY=${COMPREPLY[*]}"' 2>&1) || true
if grep -q '^complete .* nfcscan$' <<<"$out" && grep -qx 'COMPREPLY=readers' <<<"$out"; then
  pass "bash: $(grep '^complete' <<<"$out"); nfcscan re -> readers"
else
  echo "$out" >&2; fail "bash completion of nfcscan re"
fi
pane() { su_tester "tmux capture-pane -p -t t" 2>/dev/null; }
su_tester "tmux new-session -d -s t -x 120 -y 30 'bash --login -i'"
if wait_for "bash's prompt in tmux" 10 eval 'pane | grep -q "\\$"' \
  && su_tester "tmux send-keys -t t 'nfcscan re' Tab" && wait_for "the completion in tmux" 10 eval 'pane | grep -q "nfcscan readers"'; then
  pass "tmux: typing nfcscan re<TAB> in bash gives: $(pane | grep -o 'nfcscan readers.*' | head -n 1)"
else
  pane >&2; fail "tmux: nfcscan re<TAB> did not complete to readers"
fi
su_tester "tmux kill-server" >/dev/null 2>&1 || true
for f in /usr/share/bash-completion/completions/nfcsim /usr/share/zsh/vendor-completions/_nfcscan \
  /usr/share/zsh/vendor-completions/_nfcsim /usr/share/fish/vendor_completions.d/nfcscan.fish \
  /usr/share/fish/vendor_completions.d/nfcsim.fish; do
  [ -s "$f" ] || fail "$f is missing"
done
pass "zsh and fish completions and nfcsim's bash completion in place"

# 8. Removal: every file goes (postrm too runs without udev).
for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
if apt-get purge -y -q nfcscan >"$dir/purge.log" 2>&1 && [ ! -e /usr/bin/nfcscan ] \
  && [ -z "$(dpkg -L nfcscan 2>/dev/null)" ] && [ ! -e /usr/share/doc/nfcscan ]; then
  pass "apt-get purge nfcscan: nothing of it left"
else
  cat "$dir/purge.log" >&2; fail "purge"
fi

if [ "$failures" -eq 0 ]; then say "[chroot] all checks passed"; else say "[chroot] $failures check(s) failed"; exit 1; fi
