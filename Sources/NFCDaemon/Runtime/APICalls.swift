import NFCDispatch
import Systemd

/// The bus adapter of the API's methods: decodes a call's arguments into a ``DaemonRequest``, or
/// answers at once when they are not what the method takes. Nothing here decides: what a
/// well-formed request means is the core's.
enum APICalls {
    /// The request `call` makes, or nil when it was answered here (malformed, unknown).
    static func decode(_ call: BusMethodCall) -> DaemonRequest? {
        if call.path == ScannerAPI.path { return scanner(call) }
        if call.path.hasPrefix(ScannerAPI.sessionsPath + "/"), let id = Int(call.path.dropFirst(ScannerAPI.sessionsPath.count + 1)) {
            return session(call, id)
        }
        call.fail(BusMethodCall.unknownMethod, "\(call.interface).\(call.member) is not a method of \(call.path)")
        return nil
    }

    private static func scanner(_ call: BusMethodCall) -> DaemonRequest? {
        switch (call.interface, call.member) {
        case (ScannerAPI.interface, "RegisterHandler"): return register(call)
        case (ScannerAPI.interface, "UnregisterHandler"):
            guard call.signature == "u", let id = call.arguments.first?.intValue, let id32 = UInt32(exactly: id) else {
                return refuse(call, "UnregisterHandler takes the registration number (u)")
            }
            return .unregister(id32)
        case (ScannerAPI.interface, "StartScanSession"):
            guard call.signature == "a{sv}", let values = call.arguments[0].stringKeyedValue else {
                return refuse(call, "StartScanSession takes options (a{sv})")
            }
            do { return .startSession(try ScanSessionOptions(values)) } catch { return refuse(call, error.description) }
        case (ScannerAPI.interface, "Inhibit"):
            guard call.signature == "sss", let what = call.arguments[0].stringValue, let who = call.arguments[1].stringValue,
                  let why = call.arguments[2].stringValue else {
                return refuse(call, "Inhibit takes what, who and why (sss)")
            }
            guard what == "background" else { return refuse(call, "Inhibit: what must be \"background\", not \"\(what)\"") }
            return .inhibit(who: who, why: why)
        default:
            call.fail(BusMethodCall.unknownMethod, "\(call.interface).\(call.member) is not a method of \(call.path)")
            return nil
        }
    }

    private static func session(_ call: BusMethodCall, _ id: Int) -> DaemonRequest? {
        switch (call.interface, call.member) {
        case (ScannerAPI.sessionInterface, "Invalidate"):
            guard call.signature == "s", let message = call.arguments[0].stringValue else {
                return refuse(call, "Invalidate takes a message for the person (s), or \"\"")
            }
            return .invalidate(session: id, message: message)
        case (ScannerAPI.sessionInterface, "RestartPolling"):
            return .restartPolling(session: id)
        case (ObjectTree.properties, "Set"):
            // The tree lets through only a Set of AlertMessage, the one writable property.
            guard let text = call.arguments[2].stringValue else {
                return refuse(call, "AlertMessage is a string (s)")
            }
            return .setAlertMessage(session: id, text)
        default:
            call.fail(BusMethodCall.unknownMethod, "\(call.interface).\(call.member) is not a method of \(call.path)")
            return nil
        }
    }

    private static func register(_ call: BusMethodCall) -> DaemonRequest? {
        guard call.signature == "oa{sv}", let handlerPath = call.arguments[0].stringValue,
              let options = call.arguments[1].stringKeyedValue else {
            return refuse(call, "RegisterHandler takes the handler object (o) and options (a{sv})")
        }
        guard let appName = options["app-name"]?.stringValue else { return refuse(call, "option \"app-name\" (s) is required") }
        guard let filterValues = options["filters"]?.arrayValue else { return refuse(call, "option \"filters\" (aa{sv}) is required") }
        var filters: [[String: String]] = []
        for (index, value) in filterValues.prefix(HandlerRegistry.maximumFiltersPerRegistration + 1).enumerated() {
            guard let fields = value.stringKeyedValue else { return refuse(call, "filter \(index) is not a dictionary (a{sv})") }
            var strings: [String: String] = [:]
            for (key, field) in fields {
                guard let string = field.stringValue else { return refuse(call, "filter \(index): \"\(key)\" must be a string") }
                strings[key] = string
            }
            filters.append(strings)
        }
        do {
            return .register(handlerPath: handlerPath,
                             try HandlerRequest(appName: appName, appIcon: options["app-icon"]?.stringValue,
                                                desktopEntry: options["desktop-entry"]?.stringValue, filterFields: filters))
        } catch {
            return refuse(call, "\(error)")
        }
    }

    private static func refuse(_ call: BusMethodCall, _ message: String) -> DaemonRequest? {
        call.fail(ScannerAPI.ErrorName.invalidArgs, message)
        return nil
    }
}
