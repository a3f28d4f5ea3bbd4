#!/usr/bin/env bash
# Runs a command as Flatpak would lay out its sandbox, for tests of how nfcscand identifies a
# sandboxed caller (CallerIdentification: /proc/PID/root/.flatpak-info):
#
#   flatpak_sandbox.sh [--writable DIR]... APP_ID -- COMMAND [ARG...]
#
# --writable DIR: DIR stays writable inside (as Flatpak's --filesystem=DIR), e.g. where a test app
# records what it received.
#
# bubblewrap (`bwrap`) with
#   - the host's tree read-only: every entry of / bound read-only at its own place (links as
#     links), which is what `--ro-bind / /` gives, except that / itself is then bwrap's own tmpfs:
#     with `--ro-bind / /` the mount point /.flatpak-info cannot be made (bwrap: "Can't create
#     file at /.flatpak-info: Read-only file system"), and with `--bind / /` it would be made in
#     the host's real root, where every process would find it;
#   - `--proc /proc` and `--dev /dev` of its own, `--unshare-pid`, `--die-with-parent`;
#   - a /.flatpak-info as Flatpak writes it ([Application] name and runtime, [Instance] with a
#     random instance-id, branch, arch, flatpak-version, the bus proxies; [Context]), handed over
#     with `--ro-bind-data FD /.flatpak-info`, as flatpak itself does; FLATPAK_ID set as Flatpak sets it;
#   - the environment kept, DBUS_SESSION_BUS_ADDRESS included: its socket (unix:path=…) must be
#     inside the bound tree, which holds everything but /proc and /dev (an abstract socket works too:
#     the network namespace is the host's). Unlike Flatpak there is no bus proxy: the command
#     talks to the bus directly, and the daemon sees the sandboxed process's own PID.
#
# Here (Debian 12, bubblewrap 0.8.0, root in a container) this works as it stands, without
# --unshare-user; as an unprivileged user bwrap makes a user namespace by itself (Debian 12 allows
# unprivileged ones). Exit status: the command's; 2 on a usage error.
set -euo pipefail

usage() { echo "usage: flatpak_sandbox.sh [--writable DIR]... APP_ID -- COMMAND [ARG...]" >&2; exit 2; }
writable=()
while [[ $# -gt 0 && "$1" == --writable ]]; do
  [[ $# -ge 2 && -d "$2" ]] || usage
  writable+=("$(readlink -f "$2")")
  shift 2
done
[[ $# -ge 3 && "$2" == "--" ]] || usage
app_id=$1
shift 2
# The shape of an application ID (Flatpak checks more; this only keeps the file well-formed).
[[ "$app_id" =~ ^[A-Za-z_][A-Za-z0-9_.-]{0,254}$ ]] || { echo "flatpak_sandbox.sh: '$app_id' is not an application ID" >&2; exit 2; }
command -v bwrap >/dev/null || { echo "flatpak_sandbox.sh: no bwrap (apt install bubblewrap)" >&2; exit 2; }

case "${DBUS_SESSION_BUS_ADDRESS:-}" in
  unix:path=*)
    socket=${DBUS_SESSION_BUS_ADDRESS#unix:path=}
    socket=${socket%%,*}
    case "$socket" in /proc/*|/dev/*) echo "flatpak_sandbox.sh: the bus socket $socket is not in the bound tree" >&2; exit 2 ;; esac
    ;;
esac

arch=$(uname -m)
instance=$(( (RANDOM << 15 | RANDOM) + 1 ))
info=$(mktemp)
cat >"$info" <<EOF
[Application]
name=$app_id
runtime=runtime/org.freedesktop.Platform/$arch/23.08

[Instance]
instance-id=$instance
instance-path=$HOME/.var/app/$app_id
app-path=/var/lib/flatpak/app/$app_id/$arch/stable/0000000000000000000000000000000000000000000000000000000000000000/files
app-commit=0000000000000000000000000000000000000000000000000000000000000000
runtime-path=/var/lib/flatpak/runtime/org.freedesktop.Platform/$arch/23.08/0000000000000000000000000000000000000000000000000000000000000000/files
runtime-commit=0000000000000000000000000000000000000000000000000000000000000000
branch=stable
arch=$arch
flatpak-version=1.14.4
session-bus-proxy=true
system-bus-proxy=true

[Context]
shared=ipc;
sockets=session-bus;
EOF
exec {info_fd}<"$info"
rm -f "$info"

args=(--die-with-parent --unshare-pid --proc /proc --dev /dev)
for entry in / /.[!.]* /*; do
  [[ "$entry" == / ]] && continue
  [[ -e "$entry" || -L "$entry" ]] || continue
  case "$entry" in /proc|/dev|/.flatpak-info) continue ;; esac
  if [[ -L "$entry" ]]; then
    args+=(--symlink "$(readlink "$entry")" "$entry")
  else
    args+=(--ro-bind "$entry" "$entry")
  fi
done
for dir in "${writable[@]}"; do args+=(--bind "$dir" "$dir"); done
args+=(--perms 0444 --ro-bind-data "$info_fd" /.flatpak-info --setenv FLATPAK_ID "$app_id")

exec bwrap "${args[@]}" -- "$@"
