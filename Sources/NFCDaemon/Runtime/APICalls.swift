import DBusValues
import NFCBusAPI
import NFCDispatch
import Systemd

/// The bus adapter of the API's methods: decodes a call's arguments into a ``DaemonRequest``, or
/// answers at once when they are not what the method takes. Nothing here decides: what a
/// well-formed request means is the core's.
enum APICalls {
    /// Why a call gets no request: the D-Bus error it is answered with.
    struct Refusal: Error, Equatable {
        var name: String
        var message: String
    }

    /// The request `call` makes, or nil when it was answered here (malformed, unknown).
    static func decode(_ call: BusMethodCall) -> DaemonRequest? {
        switch request(path: call.path, interface: call.interface, member: call.member,
                       signature: call.signature, arguments: call.arguments) {
        case .success(let request): return request
        case .failure(let refusal):
            call.fail(refusal.name, refusal.message)
            return nil
        }
    }

    /// The decoding itself, free of the bus so that it can be fuzzed: whatever a peer sends (any
    /// `arguments`, even ones that disagree with `signature`) gives a request or a refusal, never a trap.
    static func request(path: String, interface: String, member: String, signature: String,
                        arguments: [DBusValue]) -> Result<DaemonRequest, Refusal> {
        if path == ScannerAPI.path {
            return scanner(interface, member, signature, Arguments(arguments))
        }
        if path.hasPrefix(ScannerAPI.sessionsPath + "/"), let id = Int(path.dropFirst(ScannerAPI.sessionsPath.count + 1)) {
            return session(path, interface, member, signature, Arguments(arguments), id)
        }
        if path.hasPrefix(ScannerAPI.writesPath + "/"), let id = Int(path.dropFirst(ScannerAPI.writesPath.count + 1)) {
            guard interface == ScannerAPI.writeSessionInterface, member == "Cancel" else { return unknown(path, interface, member) }
            guard signature.isEmpty else { return refuse("Cancel takes no arguments") }
            return .success(.cancelWrite(session: id))
        }
        return unknown(path, interface, member)
    }

    /// The arguments of a call, where one that is missing reads as nil.
    private struct Arguments {
        let values: [DBusValue]
        init(_ values: [DBusValue]) { self.values = values }
        subscript(_ index: Int) -> DBusValue? { values.indices.contains(index) ? values[index] : nil }
    }

    private static func scanner(_ interface: String, _ member: String, _ signature: String,
                                _ arguments: Arguments) -> Result<DaemonRequest, Refusal> {
        switch (interface, member) {
        case (ScannerAPI.interface, "RegisterHandler"): return register(signature, arguments)
        case (ScannerAPI.interface, "UnregisterHandler"):
            guard signature == "u", let id = arguments[0]?.intValue, let id32 = UInt32(exactly: id) else {
                return refuse("UnregisterHandler takes the registration number (u)")
            }
            return .success(.unregister(id32))
        case (ScannerAPI.interface, "StartScanSession"):
            guard signature == "a{sv}", let values = arguments[0]?.stringKeyedValue else {
                return refuse("StartScanSession takes options (a{sv})")
            }
            do { return .success(.startSession(try ScanSessionOptions(values))) } catch { return refuse(error.description) }
        case (ScannerAPI.interface, "StartWriteSession"):
            guard signature == "a{sv}", let values = arguments[0]?.stringKeyedValue else {
                return refuse("StartWriteSession takes options (a{sv})")
            }
            do { return .success(.startWrite(try WriteSessionOptions(values))) } catch { return refuse(error.description) }
        case (ScannerAPI.interface, "ListApps"):
            guard signature.isEmpty else { return refuse("ListApps takes no arguments") }
            return .success(.listApps)
        case (ScannerAPI.interface, "Inhibit"):
            guard signature == "sss", let what = arguments[0]?.stringValue, let who = arguments[1]?.stringValue,
                  let why = arguments[2]?.stringValue else {
                return refuse("Inhibit takes what, who and why (sss)")
            }
            guard what == "background" else { return refuse("Inhibit: what must be \"background\", not \"\(what)\"") }
            return .success(.inhibit(who: who, why: why))
        default:
            return unknown(ScannerAPI.path, interface, member)
        }
    }

    private static func session(_ path: String, _ interface: String, _ member: String, _ signature: String,
                                _ arguments: Arguments, _ id: Int) -> Result<DaemonRequest, Refusal> {
        switch (interface, member) {
        case (ScannerAPI.sessionInterface, "Invalidate"):
            guard signature == "s", let message = arguments[0]?.stringValue else {
                return refuse("Invalidate takes a message for the person (s), or \"\"")
            }
            return .success(.invalidate(session: id, message: message))
        case (ScannerAPI.sessionInterface, "RestartPolling"):
            return .success(.restartPolling(session: id))
        case (ObjectTree.properties, "Set"):
            // The tree lets through only a Set of AlertMessage, the one writable property.
            guard let text = arguments[2]?.stringValue else {
                return refuse("AlertMessage is a string (s)")
            }
            return .success(.setAlertMessage(session: id, text))
        default:
            return unknown(path, interface, member)
        }
    }

    private static func register(_ signature: String, _ arguments: Arguments) -> Result<DaemonRequest, Refusal> {
        guard signature == "oa{sv}", let handlerPath = arguments[0]?.stringValue,
              let options = arguments[1]?.stringKeyedValue else {
            return refuse("RegisterHandler takes the handler object (o) and options (a{sv})")
        }
        guard let appName = options["app-name"]?.stringValue else { return refuse("option \"app-name\" (s) is required") }
        guard let filterValues = options["filters"]?.arrayValue else { return refuse("option \"filters\" (aa{sv}) is required") }
        var filters: [[String: String]] = []
        for (index, value) in filterValues.prefix(HandlerRegistry.maximumFiltersPerRegistration + 1).enumerated() {
            guard let fields = value.stringKeyedValue else { return refuse("filter \(index) is not a dictionary (a{sv})") }
            var strings: [String: String] = [:]
            // In key order, so that a filter with several faults always gets the same answer.
            for (key, field) in fields.sorted(by: { $0.key < $1.key }) {
                guard let string = field.stringValue else { return refuse("filter \(index): \"\(key)\" must be a string") }
                strings[key] = string
            }
            filters.append(strings)
        }
        do {
            return .success(.register(handlerPath: handlerPath,
                                      try HandlerRequest(appName: appName, appIcon: options["app-icon"]?.stringValue,
                                                         desktopEntry: options["desktop-entry"]?.stringValue, filterFields: filters)))
        } catch {
            return refuse("\(error)")
        }
    }

    private static func refuse(_ message: String) -> Result<DaemonRequest, Refusal> {
        .failure(Refusal(name: ScannerAPI.ErrorName.invalidArgs, message: message))
    }

    private static func unknown(_ path: String, _ interface: String, _ member: String) -> Result<DaemonRequest, Refusal> {
        .failure(Refusal(name: BusMethodCall.unknownMethod, message: "\(interface).\(member) is not a method of \(path)"))
    }
}
