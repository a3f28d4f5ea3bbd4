'''python3-dbusmock template: the session's screensaver as org.freedesktop.ScreenSaver (the
interface GNOME, KDE and xfce4-screensaver all serve): GetActive and the ActiveChanged signal,
with SetActive for tests to blank and unblank the "screen".

    python3 -m dbusmock --template Tests/Support/freedesktop_screensaver.py
'''
import dbus  # noqa: F401  (dbusmock templates run with it imported)

BUS_NAME = 'org.freedesktop.ScreenSaver'
MAIN_OBJ = '/org/freedesktop/ScreenSaver'
MAIN_IFACE = 'org.freedesktop.ScreenSaver'
SYSTEM_BUS = False


def load(mock, parameters):
    mock.AddMethods(MAIN_IFACE, [
        ('GetActive', '', 'b', 'ret = self.is_active'),
        ('SetActive', 'b', 'b', 'self.is_active = bool(args[0]); '
                                'self.EmitSignal("", "ActiveChanged", "b", [self.is_active]); ret = True'),
        ('GetActiveTime', '', 'u', 'ret = 0'),
        ('SimulateUserActivity', '', '', ''),
    ])
    mock.is_active = bool(parameters.get('active', False))
