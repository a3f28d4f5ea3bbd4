import DBusValues
import Logging
import NFCCopy
import NFCScanKit
import POSIXEvents
import ServiceLifecycle
import Systemd

/// The live sources of the system conditions (Docs/conditions.md), made for the daemon: which
/// watch serves which condition, and how a service's properties read as "holds".
enum ConditionSources {
    /// One watch for each source of a system condition not in `ignored`, made inert: each is a
    /// `Service` of nfcscand's group and reports through `report` (from the bus's thread, its own
    /// task, or `descriptors`, the loop that watches the camera's and rfkill's descriptors) only
    /// while it runs. Whether this machine has the source is found out then (``ConditionWatch``).
    static func watches(bus: BusConnection, systemBus: BusConnection?, descriptors: PollLoop, configuration: Daemon.Configuration,
                        ignored: Set<BackgroundPause>, logger: Logger,
                        report: @escaping @Sendable (ConditionSource, Bool?) -> Void) -> [any ConditionWatch] {
        var watches: [any ConditionWatch] = []
        func wanted(_ condition: BackgroundPause) -> Bool { !ignored.contains(condition) }
        if wanted(.camera), let pattern = configuration.cameraDevices {
            watches.append(CameraWatch(pattern: pattern, loop: descriptors, logger: logger) { report(.camera, $0) })
        }
        if wanted(.airplaneMode), let device = configuration.rfkillDevice {
            watches.append(RfkillWatch(path: device, loop: descriptors, logger: logger) { report(.rfkill, $0) })
        }
        if let systemBus {
            if wanted(.airplaneMode) {
                watches.append(BusPropertyWatch(source: .networkManager, bus: systemBus, service: "org.freedesktop.NetworkManager",
                                                path: "/org/freedesktop/NetworkManager", interface: "org.freedesktop.NetworkManager",
                                                logger: logger) { report(.networkManager, $0.flatMap(radiosOff)) })
            }
            if wanted(.lockedAfterRestart) || wanted(.screenOff) {
                let marker = UnlockMarker(runtimeDirectory: configuration.runtimeDirectory)
                if marker == nil, wanted(.lockedAfterRestart) {
                    logger.notice("\(ConditionSource.logindLock.rawValue) cannot be watched (no runtime directory to remember an unlock in): it does not pause background reading")
                }
                let watchLock = wanted(.lockedAfterRestart), watchIdle = wanted(.screenOff)
                let locked: @Sendable (Bool?) -> Void = { if watchLock { report(.logindLock, $0) } }
                let idle: @Sendable (Bool?) -> Void = { if watchIdle { report(.logindIdle, $0) } }
                watches.append(LoginSessionWatch(bus: systemBus, marker: marker, logger: logger, lockedAfterRestart: locked, idle: idle))
            }
        } else {
            logger.notice("no system bus: logind and NetworkManager cannot be watched")
        }
        if wanted(.airplaneMode) {
            watches.append(BusPropertyWatch(source: .desktopAirplaneMode, bus: bus, service: "org.gnome.SettingsDaemon.Rfkill",
                                            path: "/org/gnome/SettingsDaemon/Rfkill", interface: "org.gnome.SettingsDaemon.Rfkill",
                                            logger: logger) { report(.desktopAirplaneMode, $0.flatMap(desktopAirplaneMode)) })
        }
        if wanted(.screenOff) {
            watches.append(ScreenSaverWatch(bus: bus, logger: logger) { report(.screenSaver, $0) })
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

/// A live source of system conditions (Docs/conditions.md), one `Service` of nfcscand's group:
/// it watches only while it runs, so the group, which stops the daemon first, decides when
/// reports end (no watch is left behind by whoever made it, and none starts in an initialiser).
protocol ConditionWatch: Service {
    /// Which source it is: the log names it when this machine lacks it.
    var source: ConditionSource { get }
    var logger: Logger { get }
    /// Reports the state now and each change until graceful shutdown or cancellation, then lets
    /// go of what it watched (subscriptions cancelled, descriptors given back to the loop).
    /// Throws at once when this machine lacks the source.
    func watch() async throws
}

extension ConditionWatch {
    /// A source this machine lacks is logged and its condition stays unknown; the watch then
    /// waits for the group's end all the same, since a service that returns on its own ends the
    /// group and with it nfcscand.
    func run() async {
        do {
            try await watch()
        } catch {
            logger.notice("\(source.rawValue) cannot be watched (\(error)): it does not pause background reading")
            try? await gracefulShutdown()
        }
    }
}

/// Why a source cannot be watched here: the device node or directory it names.
struct SourceUnavailable: Error, CustomStringConvertible {
    let description: String
    init(_ what: String) { description = what }
}
