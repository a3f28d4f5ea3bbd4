import Logging
import NFCScanKit
import POSIXEvents
import Systemd

/// The live sources of the system conditions (Docs/conditions.md), started for the daemon: which
/// watch serves which condition, and how a service's properties read as "holds".
enum ConditionSources {
    /// Starts every source of a system condition not in `ignored`; each reports through `report`
    /// (from the bus's thread or `descriptors`, the loop that watches the camera's and rfkill's
    /// descriptors). A source this machine lacks is logged and leaves its condition unknown; none
    /// is fatal. The watches run while the returned values are kept.
    static func start(bus: BusConnection, systemBus: BusConnection?, descriptors: PollLoop, configuration: Daemon.Configuration,
                      ignored: Set<BackgroundPause>, logger: Logger,
                      report: @escaping @Sendable (ConditionSource, Bool?) -> Void) -> [any ConditionWatch] {
        var watches: [any ConditionWatch] = []
        func wanted(_ condition: BackgroundPause) -> Bool { !ignored.contains(condition) }
        func absent(_ source: ConditionSource, _ why: String) {
            logger.notice("\(source.rawValue) cannot be watched (\(why)): it does not pause background reading")
        }
        if wanted(.camera), let pattern = configuration.cameraDevices {
            if let watch = CameraWatch(pattern: pattern, loop: descriptors, changed: { report(.camera, $0) }) { watches.append(watch) } else { absent(.camera, pattern) }
        }
        if wanted(.airplaneMode), let device = configuration.rfkillDevice {
            if let watch = RfkillWatch(path: device, loop: descriptors, changed: { report(.rfkill, $0) }) { watches.append(watch) } else { absent(.rfkill, device) }
        }
        if let systemBus {
            if wanted(.airplaneMode) {
                do {
                    let watch = try BusPropertyWatch(bus: systemBus, service: "org.freedesktop.NetworkManager",
                                                     path: "/org/freedesktop/NetworkManager",
                                                     interface: "org.freedesktop.NetworkManager") { report(.networkManager, $0.flatMap(radiosOff)) }
                    watches.append(watch)
                } catch { absent(.networkManager, "\(error)") }
            }
            if wanted(.lockedAfterRestart) || wanted(.screenOff) {
                let marker = UnlockMarker(runtimeDirectory: configuration.runtimeDirectory)
                if marker == nil, wanted(.lockedAfterRestart) { absent(.logindLock, "no runtime directory to remember an unlock in") }
                let watchLock = wanted(.lockedAfterRestart), watchIdle = wanted(.screenOff)
                let locked: @Sendable (Bool?) -> Void = { if watchLock { report(.logindLock, $0) } }
                let idle: @Sendable (Bool?) -> Void = { if watchIdle { report(.logindIdle, $0) } }
                do {
                    let watch = try LoginSessionWatch(bus: systemBus, marker: marker, lockedAfterRestart: locked, idle: idle)
                    watches.append(watch)
                } catch { absent(.logindLock, "\(error)") }
            }
        } else {
            logger.notice("no system bus: logind and NetworkManager cannot be watched")
        }
        if wanted(.airplaneMode) {
            do {
                let watch = try BusPropertyWatch(bus: bus, service: "org.gnome.SettingsDaemon.Rfkill", path: "/org/gnome/SettingsDaemon/Rfkill",
                                                 interface: "org.gnome.SettingsDaemon.Rfkill") { report(.desktopAirplaneMode, $0.flatMap(desktopAirplaneMode)) }
                watches.append(watch)
            } catch { absent(.desktopAirplaneMode, "\(error)") }
        }
        if wanted(.screenOff) {
            do { watches.append(try ScreenSaverWatch(bus: bus, changed: { report(.screenSaver, $0) })) } catch { absent(.screenSaver, "\(error)") }
        }
        return watches
    }

    /// NetworkManager's airplane mode: Wi-Fi off (by software or switch) and mobile radios off,
    /// what `nmcli radio all off` and the desktops' airplane-mode switches leave.
    static func radiosOff(_ properties: [String: DBusValue]) -> Bool? {
        guard let wifi = properties["WirelessEnabled"]?.boolValue else { return nil }
        let wifiOff = !wifi || properties["WirelessHardwareEnabled"]?.boolValue == false
        let wwanOff = properties["WwanEnabled"]?.boolValue == false || properties["WwanHardwareEnabled"]?.boolValue == false
        return wifiOff && wwanOff
    }

    /// The desktop's switch (gsd-rfkill): airplane mode set by the person, or by a hardware switch.
    static func desktopAirplaneMode(_ properties: [String: DBusValue]) -> Bool? {
        guard let set = properties["AirplaneMode"]?.boolValue else { return nil }
        return set || properties["HardwareAirplaneMode"]?.boolValue == true
    }
}

/// A live source of system conditions (Docs/conditions.md): it reports from the bus's thread, a
/// task of its own lookup, or the daemon's ``PollLoop`` while it runs, and ``cancel()`` ends it.
/// The one protocol every watch ``ConditionSources/start`` makes conforms to.
protocol ConditionWatch: Sendable {
    /// Stops watching (subscriptions cancelled, descriptors given back to the loop); idempotent.
    func cancel()
}

extension CameraWatch: ConditionWatch {}
extension RfkillWatch: ConditionWatch {}
extension BusPropertyWatch: ConditionWatch {}
extension LoginSessionWatch: ConditionWatch {}
extension ScreenSaverWatch: ConditionWatch {}
