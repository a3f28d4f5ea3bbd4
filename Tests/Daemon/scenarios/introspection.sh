# shellcheck shell=bash

# Introspection as an app's D-Bus library does it (dbus-python: Introspect, then an XML parser) on
# every kind of object nfcscand exports, and on the parents sd-bus answers for on its behalf: each
# parses; the manager, a reader, a scan session and a write session answer with Docs/dbus/*.xml byte for byte.
scenario_introspection() {
  begin introspection
  sim --after 60 --for 1 # a reader, with nothing near it while the scenario runs
  daemon
  wait_for "the reader object" 15 eval 'busctl --address="$DBUS_SESSION_BUS_ADDRESS" --user call org.nfcscan.Scanner1 /org/nfcscan/Scanner1 org.freedesktop.DBus.ObjectManager GetManagedObjects | grep -q pn532_uart' || true
  # One line per object: PATH, then "ok", its interfaces and child nodes, or "error" and why.
  "$PY" - "$DIR" >"$DIR/introspection.log" 2>&1 <<'EOF' || true
import sys, dbus, xml.etree.ElementTree as ET
out = sys.argv[1]
bus = dbus.SessionBus()
def proxy(path, interface):
    return dbus.Interface(bus.get_object("org.nfcscan.Scanner1", path, introspect=False), interface)
session = proxy("/org/nfcscan/Scanner1", "org.nfcscan.Scanner1").StartScanSession(dbus.Dictionary({}, signature="sv"))
write = proxy("/org/nfcscan/Scanner1", "org.nfcscan.Scanner1").StartWriteSession(dbus.Dictionary({"erase": True}, signature="sv"))
readers = sorted(proxy("/org/nfcscan/Scanner1", "org.freedesktop.DBus.ObjectManager").GetManagedObjects())
for kind, path in [("root", "/"), ("org", "/org"), ("nfcscan", "/org/nfcscan"), ("manager", "/org/nfcscan/Scanner1"),
                   *[("reader", r) for r in readers], ("session", session), ("write", write)]:
    try:
        text = str(proxy(path, "org.freedesktop.DBus.Introspectable").Introspect())
        open(f"{out}/introspect-{kind}.xml", "w", encoding="utf-8").write(text)
        node = ET.fromstring(text)
        print(kind, path, "ok", ",".join(i.get("name") for i in node.findall("interface")),
              ",".join(n.get("name") for n in node.findall("node")))
    except Exception as e:
        print(kind, path, "error", type(e).__name__, str(e).replace("\n", " "))
EOF
  introspected() { sed -n "s/^$1 [^ ]* //p" "$DIR/introspection.log" | head -n 1; }
  check "a reader to introspect" grep -q '^reader ' "$DIR/introspection.log"
  check "a scan session to introspect" grep -q '^session ' "$DIR/introspection.log"
  local kind file
  check "a write session to introspect" grep -q '^write ' "$DIR/introspection.log"
  for kind in manager reader session write; do
    case $kind in manager) file=org.nfcscan.Scanner1.xml;; reader) file=org.nfcscan.Reader1.xml;; session) file=org.nfcscan.ScanSession1.xml;;
      write) file=org.nfcscan.WriteSession1.xml;; esac
    check "the $kind's introspection parses: $(introspected $kind)" grep -q '^ok ' <(introspected $kind)
    check "the $kind's introspection is Docs/dbus/$file" cmp -s "$DIR/introspect-$kind.xml" "$ROOT/Docs/dbus/$file"
  done
  check "/ parses and leads to org: $(introspected root)" grep -qE '^ok [^ ]* (.*,)?org(,|$)' <(introspected root)
  check "/org parses and leads to nfcscan: $(introspected org)" grep -qE '^ok [^ ]* (.*,)?nfcscan(,|$)' <(introspected org)
  check "/org/nfcscan parses and leads to Scanner1: $(introspected nfcscan)" grep -qE '^ok [^ ]* (.*,)?Scanner1(,|$)' <(introspected nfcscan)
  finish
}
