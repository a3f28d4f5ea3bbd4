// The daemon core's test rig: a DaemonCore driven in process, inputs in and effects out, used by
// the core's suites (DaemonCoreTests, DeclaredAppCoreTests, DefaultAppCoreTests, WriteSessionTests).
import NDEF
import NDEFReport
@testable import NFCDaemon
import NFCObjects
import NFCTags

/// A core that has started and opened one reader (generation 1), with the effects of each step.
struct CoreRig {
    var core = DaemonCore()
    var nextCall = 1
    /// A stand-in identity for readers (the runtime uses ObjectIdentifier of the reader object).
    final class Token: Sendable {}
    let readerToken = Token()
    var readerID: ReaderID { ObjectIdentifier(readerToken) }

    init(reader: Bool = true, configuration: DaemonCore.Configuration = .init()) {
        core = DaemonCore(configuration: configuration)
        _ = core.handle(.started)
        if reader {
            _ = core.handle(.reading(generation: 1, .readerAdded(readerID, name: "ACS ACR122U", backend: .pcsc)))
            _ = core.handle(.reading(generation: 1, .opened))
        }
    }

    @discardableResult
    mutating func send(_ input: DaemonInput) -> [DaemonEffect] { core.handle(input) }

    /// A request from `caller`; returns the effects and the call's number. A caller met for the
    /// first time is identified as the runtime would (``app(for:)``), its effects then follow.
    mutating func request(_ request: DaemonRequest, from caller: String = ":1.10") -> (call: CallID, effects: [DaemonEffect]) {
        let call = nextCall
        nextCall += 1
        var effects = core.handle(.request(call, caller: caller, request))
        if effects.contains(.identify(caller)) {
            effects.removeAll { $0 == .identify(caller) }
            effects += core.handle(.identified(caller, apps[caller] ?? Self.app(for: caller, registering: request)))
        }
        return (call, effects)
    }

    /// Who each caller is, where a test says so; others are ``app(for:)``.
    var apps: [String: CallerApp] = [:]

    /// An unsandboxed app named after its connection; one that registers a handler is the app its
    /// registration names (as its desktop entry would name it).
    static func app(for caller: String, sandboxed: Bool = false, registering request: DaemonRequest? = nil) -> CallerApp {
        if case .register(_, let handler) = request {
            let key = handler.desktopEntry ?? "/usr/bin/\(handler.appName.lowercased())"
            return CallerApp(key: key, appID: handler.desktopEntry, name: handler.appName, icon: handler.appIcon ?? "", sandboxed: sandboxed,
                             summary: "\(key), pid 1")
        }
        let key = "org.example.App\(caller.filter(\.isNumber))"
        return CallerApp(key: key, appID: key, name: "App \(caller)", icon: "", sandboxed: sandboxed, summary: "\(key), pid 1")
    }

    var paused: [String] { core.pausedReasons.map(\.rawValue) }

    static func answer(_ effects: [DaemonEffect], _ call: CallID) -> BusAnswer? {
        for case .reply(call, let answer) in effects { return answer }
        return nil
    }

    static func object(uri: String, uid: [UInt8] = [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]) -> ScannedObject {
        object(NDEFMessage(URIRecord(uri: uri).record()), uid: uid)
    }

    static func object(_ message: NDEFMessage, uid: [UInt8] = [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]) -> ScannedObject {
        let bytes = message.encoded()
        return ScannedObject(readerName: "ACS ACR122U", backend: .pcsc, identifier: uid,
                             technology: .iso14443A(atqa: [0x00, 0x44], sak: 0, ats: []),
                             reading: TagReading(platform: .type2, product: "NTAG215", uid: uid, capacity: 496,
                                                 ndefBytes: bytes, roundTrips: 2))
    }
}
