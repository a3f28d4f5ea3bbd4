#!/usr/bin/python3
"""The scan sheet (nfcscan-sheet) as an assistive technology sees it, through AT-SPI (pyatspi).

    sheet_atspi.py dump [--app NAME]          the app's tree, one line per node:
                                              depth*2 spaces, role<TAB>name<TAB>text<TAB>states
    sheet_atspi.py has ROLE NAME [--app NAME] exit 0 when a node has that role and name
    sheet_atspi.py has-part ROLE TEXT [--app NAME]
                                              exit 0 when a node of that role has a name holding
                                              TEXT (a message naming an app whose name varies)
    sheet_atspi.py press LABEL [--app NAME]   the button named LABEL is pressed (its first action)
    sheet_atspi.py key NAME                   a key (Escape, Return, Tab, or a keysym number such as
                                              0xff1b) typed at the focused window, through the
                                              registry (XTest on X11); no app needed

The application is found by name on the desktop (default nfcscan-sheet, the sheet's prgname).
Exit status: 0 done; 1 not found (no such app or node); 2 usage. Used by Tests/Sheet/sheet-test.sh
and meant for later end-to-end tests of nfcscand's sheet. Needs the AT-SPI bus of the session the
sheet runs in (AT_SPI_BUS on the X root window, or org.a11y.Bus on the session bus).
"""
import sys

import pyatspi


# The keysyms `key` knows by name (X11/keysymdef.h); pyatspi's KEY_SYM takes the number.
KEYSYMS = {"Escape": 0xFF1B, "Return": 0xFF0D, "Tab": 0xFF09, "space": 0x20}


def find_app(name):
    desktop = pyatspi.Registry.getDesktop(0)
    for i in range(desktop.childCount):
        app = desktop.getChildAtIndex(i)
        if app is not None and app.name == name:
            return app
    return None


def text_of(node):
    try:
        text = node.queryText()
    except NotImplementedError:
        return ""
    return text.getText(0, text.characterCount)


def states_of(node):
    states = node.getState()
    wanted = [pyatspi.STATE_SHOWING, pyatspi.STATE_FOCUSED, pyatspi.STATE_FOCUSABLE]
    return ",".join(pyatspi.stateToString(s) for s in wanted if states.contains(s))


def walk(node, depth=0):
    yield depth, node
    for i in range(node.childCount):
        child = node.getChildAtIndex(i)
        if child is not None:
            yield from walk(child, depth + 1)


def clean(value):
    return value.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def main(argv):
    args = list(argv[1:])
    app_name = "nfcscan-sheet"
    if "--app" in args:
        i = args.index("--app")
        if i + 1 >= len(args):
            return usage()
        app_name = args[i + 1]
        del args[i:i + 2]
    if not args:
        return usage()
    command, rest = args[0], args[1:]
    if command == "key" and len(rest) == 1:
        try:
            keysym = KEYSYMS[rest[0]] if rest[0] in KEYSYMS else int(rest[0], 0)
        except ValueError:
            return usage()
        pyatspi.Registry.generateKeyboardEvent(keysym, None, pyatspi.KEY_SYM)
        return 0
    app = find_app(app_name)
    if app is None:
        print(f"sheet_atspi: no application {app_name!r} on the AT-SPI desktop", file=sys.stderr)
        return 1
    if command == "dump" and not rest:
        for depth, node in walk(app):
            print("  " * depth + "\t".join([node.getRoleName(), clean(node.name or ""),
                                            clean(text_of(node)), states_of(node)]))
        return 0
    if command in ("has", "has-part") and len(rest) == 2:
        role, name = rest
        for _, node in walk(app):
            # GTK 4.8 leaves hidden widgets out of the tree: a node found is one on screen.
            if node.getRoleName() == role and (node.name == name if command == "has" else name in (node.name or "")):
                return 0
        return 1
    if command == "press" and len(rest) == 1:
        for _, node in walk(app):
            if node.getRole() == pyatspi.ROLE_PUSH_BUTTON and node.name == rest[0]:
                action = node.queryAction()
                if action.nActions < 1:
                    break
                return 0 if action.doAction(0) else 1
        print(f"sheet_atspi: no button {rest[0]!r} in {app_name}", file=sys.stderr)
        return 1
    return usage()


def usage():
    print(__doc__.strip(), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
