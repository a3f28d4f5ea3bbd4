'''python3-dbusmock template: the desktop's airplane-mode switch as GNOME's settings daemon (and
Phosh) serve it, org.gnome.SettingsDaemon.Rfkill on the session bus. Tests flip AirplaneMode
with org.freedesktop.DBus.Properties.Set, as the desktop's quick settings do; the change is
announced with PropertiesChanged.

    python3 -m dbusmock --template Tests/Support/gsd_rfkill.py
'''
import dbus

BUS_NAME = 'org.gnome.SettingsDaemon.Rfkill'
MAIN_OBJ = '/org/gnome/SettingsDaemon/Rfkill'
MAIN_IFACE = 'org.gnome.SettingsDaemon.Rfkill'
SYSTEM_BUS = False


def load(mock, parameters):
    mock.AddProperties(MAIN_IFACE, dbus.Dictionary({
        'AirplaneMode': bool(parameters.get('AirplaneMode', False)),
        'HardwareAirplaneMode': bool(parameters.get('HardwareAirplaneMode', False)),
        'HasAirplaneMode': True,
        'ShouldShowAirplaneMode': True,
    }, signature='sv'))
