// Fuzz target `options`: the arguments of the daemon's D-Bus methods, above all the `a{sv}` options
// of RegisterHandler, StartScanSession and StartWriteSession, through the production decoder (APICalls.request, which
// the daemon runs on every call). An app can send any value the bus can carry, so the fuzz bytes
// are a small program that builds D-Bus values (see `ValueProgram`): dictionaries, arrays,
// variants and structures nested up to the bus's depth, every basic type, known option and filter
// keys, and long strings made from a few bytes.
//
// Beyond "no crash", a decoded request keeps every bound the registry and the session queue rely
// on, and says the same thing when it is spelt again as the a{sv} an app would send (so what was
// accepted is exactly what the daemon stores).
import DBusValues
@testable import NFCDaemon
import NFCDispatch
import NFCObjects
import NFCScanKit
import NDEFReport
import NFCBusAPI
import Systemd

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    var program = ValueProgram(input)
    let call = program.call()
    let outcome = APICalls.request(path: call.path, interface: call.interface, member: call.member,
                                   signature: call.signature, arguments: call.arguments)
    if APICalls.request(path: call.path, interface: call.interface, member: call.member,
                        signature: call.signature, arguments: call.arguments) != outcome {
        violated("decoding the same call twice gives two outcomes", input)
    }
    switch outcome {
    case .failure(let refusal):
        if refusal.message.isEmpty { violated("refusal without a message", input) }
        let expected = ValueProgram.isMethod(call) ? ScannerAPI.ErrorName.invalidArgs : BusMethodCall.unknownMethod
        if refusal.name != expected { violated("\(call.member) on \(call.path) refused as \(refusal.name), expected \(expected)", input) }
    case .success(let request):
        check(request, call, input)
    }
    return 0
}

private func check(_ request: DaemonRequest, _ call: ValueProgram.Call, _ input: [UInt8]) {
    func expect(_ signature: String) {
        if call.signature != signature { violated("\(call.member) accepted with signature \(call.signature)", input) }
    }
    switch request {
    case .register(let handlerPath, let handler):
        expect("oa{sv}")
        if handlerPath != call.arguments[0].stringValue { violated("handler path changed", input) }
        check(handler, input)
        // Spelt again as an app would, the request decodes to itself.
        let again = APICalls.request(path: ScannerAPI.path, interface: ScannerAPI.interface, member: "RegisterHandler",
                                     signature: "oa{sv}", arguments: [.objectPath(handlerPath), options(of: handler)])
        if again != .success(request) { violated("registration re-spelt as \(options(of: handler)) decodes to \(again)", input) }
    case .startSession(let options):
        expect("a{sv}")
        if let object = options.object, object.isEmpty || object.utf8.count > ScanSessionOptions.maximumObjectLength
            || object.contains(where: \.isNewline) {
            violated("session object \(object.debugDescription) out of bounds", input)
        }
        if let alert = options.alertMessage, alert.isEmpty || alert.utf8.count > ScanSessionOptions.maximumAlertLength {
            violated("session alert message of \(alert.utf8.count) bytes", input)
        }
        if !(1...ScanSessionOptions.maximumTimeout).contains(options.timeout) { violated("session timeout \(options.timeout)", input) }
        if let password = options.password, password.bytes.count != SessionPassword.length {
            violated("a session password of \(password.bytes.count) bytes", input)
        }
        let spelt = spelling(of: options)
        let again = APICalls.request(path: ScannerAPI.path, interface: ScannerAPI.interface, member: "StartScanSession",
                                     signature: "a{sv}", arguments: [spelt])
        if again != .success(request) { violated("session options re-spelt as \(spelt) decode to \(again)", input) }
    case .startWrite(let options):
        expect("a{sv}")
        check(options, input)
        let spelt = spelling(of: options)
        let again = APICalls.request(path: ScannerAPI.path, interface: ScannerAPI.interface, member: "StartWriteSession",
                                     signature: "a{sv}", arguments: [spelt])
        if again != .success(request) { violated("write options re-spelt as \(spelt) decode to \(again)", input) }
    case .cancelWrite(let session):
        expect("")
        if ValueProgram.writeSession(call.path) != session { violated("write session \(session) decoded from \(call.path)", input) }
    case .listApps:
        expect("")
    case .unregister(let id):
        expect("u")
        if call.arguments[0].intValue != Int(id) { violated("registration number changed", input) }
    case .inhibit(let who, let why):
        expect("sss")
        if call.arguments[1].stringValue != who || call.arguments[2].stringValue != why { violated("inhibitor texts changed", input) }
    case .invalidate(let session, _), .restartPolling(let session), .setAlertMessage(let session, _):
        if ValueProgram.session(call.path) != session { violated("session \(session) decoded from \(call.path)", input) }
    }
}

/// What the registry and the notifications rely on (HandlerRequest's documented bounds).
private func check(_ handler: HandlerRequest, _ input: [UInt8]) {
    let name = handler.appName
    if name.isEmpty || name.utf8.count > HandlerRequest.maximumAppNameLength || name.first!.isWhitespace
        || name.last!.isWhitespace || name.unicodeScalars.contains(where: DisplayText.isUnsafe) {
        violated("app name \(name.debugDescription) out of bounds", input)
    }
    if let icon = handler.appIcon, icon.isEmpty || icon.utf8.count > HandlerRequest.maximumAppIconLength
        || icon.unicodeScalars.contains(where: DisplayText.isUnsafe) {
        violated("app icon of \(icon.utf8.count) bytes", input)
    }
    if let entry = handler.desktopEntry, entry.isEmpty || entry.utf8.count > HandlerRequest.maximumDesktopEntryLength
        || !entry.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0) }) {
        violated("desktop entry \(entry.debugDescription) out of bounds", input)
    }
    if handler.filters.isEmpty || handler.filters.count > HandlerRegistry.maximumFiltersPerRegistration {
        violated("\(handler.filters.count) filters", input)
    }
    for filter in handler.filters {
        let bounded = switch filter.kind {
        case .uri(let scheme, let host, let prefix):
            !scheme.isEmpty && scheme.utf8.count <= HandlerFilter.maximumSchemeLength
                && (host?.utf8.count ?? 1) <= HandlerFilter.maximumHostLength && host?.isEmpty != true
                && (prefix?.utf8.count ?? 1) <= HandlerFilter.maximumPathPrefixLength && prefix?.hasPrefix("/") != false
                && (prefix == nil || host != nil)
        case .mediaType(let type), .externalType(let type), .androidPackage(let type):
            !type.isEmpty && type.utf8.count <= HandlerFilter.maximumTypeLength
        }
        if !bounded { violated("filter \(filter) out of bounds", input) }
    }
}

/// The RegisterHandler options an app would send for `handler` (a desktop entry with the
/// `.desktop` suffix the decoder drops).
private func options(of handler: HandlerRequest) -> DBusValue {
    var options: [String: DBusValue] = [
        "app-name": .string(handler.appName),
        "filters": .array(elementSignature: "a{sv}", handler.filters.map { .vardict(fields(of: $0).mapValues(DBusValue.string)) }),
    ]
    if let icon = handler.appIcon { options["app-icon"] = .string(icon) }
    if let entry = handler.desktopEntry { options["desktop-entry"] = .string(entry + ".desktop") }
    return .vardict(options)
}

private func fields(of filter: HandlerFilter) -> [String: String] {
    switch filter.kind {
    case .uri(let scheme, let host, let prefix):
        var fields = ["uri-scheme": scheme]
        fields["uri-host"] = host
        fields["uri-path-prefix"] = prefix
        return fields
    case .mediaType(let type): return ["media-type": type]
    case .externalType(let type): return ["external-type": type]
    case .androidPackage(let package): return ["android-package": package]
    }
}

/// What the write session and the drivers rely on (WriteSessionOptions' documented bounds).
private func check(_ options: WriteSessionOptions, _ input: [UInt8]) {
    let write = options.write
    if let message = write.message, message.count > WriteInput.maximumMessage { violated("a message of \(message.count) bytes", input) }
    if write.message == nil, !write.lock { violated("a write session that does nothing", input) }
    if let password = write.options.password, password.count != SessionPassword.length {
        violated("a password of \(password.count) bytes", input)
    }
    if options.session.multiple || options.session.alertMessage != nil { violated("scan-only options in a write session", input) }
    if !(1...ScanSessionOptions.maximumTimeout).contains(options.session.timeout) { violated("write session timeout \(options.session.timeout)", input) }
}

/// The StartWriteSession options an app would send for `options`: the message as bytes (what a
/// link or a text became), or erase, or lock alone.
private func spelling(of options: WriteSessionOptions) -> DBusValue {
    let write = options.write
    var values: [String: DBusValue] = ["timeout": .uint32(UInt32(options.session.timeout)), "lock": .boolean(write.lock),
                                       "format": .boolean(write.options.formatIfBlank)]
    switch write.message {
    case .none: break
    case .some([]): values["erase"] = .boolean(true)
    case .some(let bytes): values["message"] = .array(elementSignature: "y", bytes.map(DBusValue.byte))
    }
    if let password = write.options.password { values["password"] = .array(elementSignature: "y", password.map(DBusValue.byte)) }
    if let object = options.session.object { values["object"] = .string(object) }
    if let language = options.session.language { values["language"] = .string(language.rawValue) }
    return .vardict(values)
}

private func spelling(of options: ScanSessionOptions) -> DBusValue {
    var values: [String: DBusValue] = ["multiple": .boolean(options.multiple), "timeout": .uint32(UInt32(options.timeout))]
    if let object = options.object { values["object"] = .string(object) }
    if let alert = options.alertMessage { values["alert-message"] = .string(alert) }
    if let language = options.language { values["language"] = .string(language.rawValue) }
    if let password = options.password { values["password"] = .array(elementSignature: "y", password.bytes.map(DBusValue.byte)) }
    return .vardict(values)
}

/// Builds one method call from the fuzz bytes; reading past the end gives zeros, so every input
/// is a program. The first byte picks the method (or, past the known ones, a path, interface
/// and member spelt by the input); the second how many arguments follow and whether the
/// signature is theirs (as on the bus) or spelt by the input. Each value starts with an opcode
/// byte (see `value`).
struct ValueProgram {
    struct Call {
        var path: String, interface: String, member: String, signature: String, arguments: [DBusValue]
    }

    static let sessionPath = ScannerAPI.sessionsPath + "/1"
    static let writeSessionPath = ScannerAPI.writesPath + "/1"
    static let methods: [(path: String, interface: String, member: String)] = [
        (ScannerAPI.path, ScannerAPI.interface, "RegisterHandler"),
        (ScannerAPI.path, ScannerAPI.interface, "StartScanSession"),
        (ScannerAPI.path, ScannerAPI.interface, "UnregisterHandler"),
        (ScannerAPI.path, ScannerAPI.interface, "Inhibit"),
        (sessionPath, ScannerAPI.sessionInterface, "Invalidate"),
        (sessionPath, ScannerAPI.sessionInterface, "RestartPolling"),
        (sessionPath, ObjectTree.properties, "Set"),
        // Added last: the seeds name methods by their place here (make_seeds.py).
        (ScannerAPI.path, ScannerAPI.interface, "ListApps"),
        (ScannerAPI.path, ScannerAPI.interface, "StartWriteSession"),
        (writeSessionPath, ScannerAPI.writeSessionInterface, "Cancel"),
    ]

    /// Method choices below this pick one of ``methods``; the rest spell a call of their own.
    static let methodChoices = 240

    /// The number of the session object at `path`, if it is one.
    static func session(_ path: String) -> Int? {
        path.hasPrefix(ScannerAPI.sessionsPath + "/") ? Int(path.dropFirst(ScannerAPI.sessionsPath.count + 1)) : nil
    }

    /// Whether `call` names one of the API's methods (refusals of these are InvalidArgs).
    /// The number of the write session object at `path`, if it is one.
    static func writeSession(_ path: String) -> Int? {
        path.hasPrefix(ScannerAPI.writesPath + "/") ? Int(path.dropFirst(ScannerAPI.writesPath.count + 1)) : nil
    }

    static func isMethod(_ call: Call) -> Bool {
        let path = session(call.path) != nil ? sessionPath : writeSession(call.path) != nil ? writeSessionPath : call.path
        return methods.contains { $0.path == path && $0.interface == call.interface && $0.member == call.member }
    }

    /// Strings an app is likely to send, so the fuzzer need not guess them byte by byte.
    static let words: [String] = ["app-name", "app-icon", "desktop-entry", "filters"]
        + HandlerFilter.Key.allCases.map(\.rawValue)
        + ["object", "multiple", "alert-message", "timeout", "language", "background", "AlertMessage",
           "message", "uri", "text", "text-language", "erase", "lock", "format", "password", "https://example.com/new",
           "https", "HTTP", "example.com", "EXAMPLE.com.", "[::1]", "/posters", "/a/../b/%7e", "text/vcard", "image/*",
           "*/*", "example.com:ticket", "android.com:pkg", "com.example.app", "org.example.App.desktop",
           "en", "zh_CN.UTF-8", "zh-Hans", "badge", " Posters ", "\u{202E}evil", "a\nb", ScannerAPI.sessionsPath + "/2"]

    /// The D-Bus spec's limit: 32 nested arrays and 32 nested structures.
    static let maximumDepth = 64
    /// Keeps one input's work bounded (arrays of empty values cost no input bytes).
    static let maximumValues = 20_000

    private let bytes: [UInt8]
    private var position = 0
    private var values = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func next() -> UInt8 {
        defer { position += 1 }
        return position < bytes.count ? bytes[position] : 0
    }

    mutating func call() -> Call {
        let choice = Int(next())
        let (path, interface, member) = choice < Self.methodChoices
            ? Self.methods[choice % Self.methods.count]
            : (text(), text(), text())
        let shape = next()
        var arguments: [DBusValue] = []
        for _ in 0..<(shape & 0x7) { arguments.append(value(depth: 0)) }
        let signature = shape & 0x80 == 0 ? arguments.map(\.signature).joined() : text()
        return Call(path: path, interface: interface, member: member, signature: signature, arguments: arguments)
    }

    /// A string of up to 255 bytes of input (invalid UTF-8 repaired, as the bus would refuse it).
    mutating func text() -> String {
        let count = Int(next())
        var utf8: [UInt8] = []
        for _ in 0..<count { utf8.append(next()) }
        return String(decoding: utf8, as: UTF8.self)
    }

    mutating func value(depth: Int) -> DBusValue {
        values += 1
        let opcode = next()
        if depth >= Self.maximumDepth || values > Self.maximumValues { return .string("") }
        switch opcode % 20 {
        case 0: return .string(text())
        case 1: return .string(Self.words[Int(next()) % Self.words.count])
        case 2:
            // A long string from three bytes: a word repeated up to 2,047 times (past every bound).
            let count = Int(next()) << 3 | Int(next() >> 5)
            let unit = Self.words[Int(next()) % Self.words.count]
            return .string(String(repeating: unit, count: count))
        case 3: return .objectPath(text())
        case 4: return .signature(text())
        case 5: return .boolean(next() & 1 == 1)
        case 6: return .byte(next())
        case 7: return .int16(Int16(bitPattern: UInt16(integer(2))))
        case 8: return .uint16(UInt16(integer(2)))
        case 9: return .int32(Int32(bitPattern: UInt32(integer(4))))
        case 10, 11: return .uint32(UInt32(integer(4)))
        case 12: return .int64(Int64(bitPattern: integer(8)))
        case 13: return .uint64(integer(8))
        case 14: return .double(Double(bitPattern: integer(8)))
        case 15: return .unixFD(Int32(bitPattern: UInt32(integer(4))))
        case 16:
            let count = Int(next())
            var elements: [DBusValue] = []
            for _ in 0..<count { elements.append(value(depth: depth + 1)) }
            return .array(elementSignature: elements.first?.signature ?? "a{sv}", elements)
        case 17:
            // Keys are usually strings, values usually variants, as in a{sv}.
            let count = Int(next() % 32)
            var entries: [DBusDictEntry] = []
            for _ in 0..<count {
                let key = value(depth: depth + 1)
                let inner = value(depth: depth + 1)
                entries.append(DBusDictEntry(key, next() & 1 == 0 ? .variant(inner) : inner))
            }
            return .dictionary(keySignature: entries.first?.key.signature ?? "s",
                               valueSignature: entries.first?.value.signature ?? "v", entries)
        case 18:
            let count = Int(next() % 4)
            var fields: [DBusValue] = []
            for _ in 0..<count { fields.append(value(depth: depth + 1)) }
            return .structure(fields)
        default: return .variant(value(depth: depth + 1))
        }
    }

    private mutating func integer(_ count: Int) -> UInt64 {
        var result: UInt64 = 0
        for index in 0..<count { result |= UInt64(next()) << (8 * index) }
        return result
    }
}
