import DesktopEntries
import NDEF
import NDEFReport
import NFCDispatch
import Testing

/// The report the daemon would get for `records`: encoded to bytes, decoded strictly, reported.
func report(_ records: NDEFRecord...) throws -> ReportValue {
    try report(records)
}

func report(_ records: [NDEFRecord]) throws -> ReportValue {
    let bytes = NDEFMessage(records: records).encoded()
    return try MessageReport().report(NDEFMessage(decoding: bytes))
}

/// Records as real objects carry them.
enum Records {
    static func uri(_ uri: String) -> NDEFRecord { URIRecord(uri: uri).record() }

    static func text(_ text: String) throws -> NDEFRecord { try TextRecord(text: text).record() }

    static func poster(_ uri: String, title: String) throws -> NDEFRecord {
        try SmartPoster(uri: URIRecord(uri: uri), titles: [TextRecord(text: title)]).record()
    }

    static func absoluteURI(_ uri: String) -> NDEFRecord { NDEFRecord(tnf: .absoluteURI, type: uri, payload: []) }

    static func media(_ type: String, _ payload: [UInt8] = [1, 2, 3]) -> NDEFRecord { NDEFRecord(tnf: .media, type: type, payload: payload) }

    static func contact(_ name: String) -> NDEFRecord {
        media("text/vcard", Array("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:\(name)\r\nEND:VCARD\r\n".utf8))
    }

    static func external(_ type: String) -> NDEFRecord { NDEFRecord(tnf: .external, type: type, payload: [0x42]) }

    static func app(_ package: String) -> NDEFRecord {
        NDEFRecord(tnf: .external, type: "android.com:pkg", payload: Array(package.utf8))
    }

    static func wifi(_ ssid: String) throws -> NDEFRecord {
        try wifi(ssid: Array(ssid.utf8))
    }

    /// A Wi-Fi credential; `authentication` and `encryption` are the WSC bit masks (nil: absent).
    static func wifi(ssid: [UInt8], key: [UInt8]? = nil, authentication: UInt16? = nil, encryption: UInt16? = nil) throws -> NDEFRecord {
        typealias Attribute = WiFiSimpleConfig.Attribute
        typealias Types = WiFiSimpleConfig.AttributeType
        func word(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
        var attributes = [Attribute(type: Types.ssid, value: ssid)]
        if let authentication { attributes.append(Attribute(type: Types.authenticationType, value: word(authentication))) }
        if let encryption { attributes.append(Attribute(type: Types.encryptionType, value: word(encryption))) }
        if let key { attributes.append(Attribute(type: Types.networkKey, value: key)) }
        let credential = try WiFiSimpleConfig(attributes: attributes)
        let config = try WiFiSimpleConfig(attributes: [Attribute(type: WiFiSimpleConfig.AttributeType.credential, value: credential.payload)])
        return media("application/vnd.wfa.wsc", config.payload)
    }
}

/// A registry with one registration per entry, in order; returns the registry and the numbers.
func makeRegistry(_ entries: [(app: String, filters: [HandlerFilter])], owner: String = ":1.1") throws -> (HandlerRegistry, [UInt32]) {
    var registry = HandlerRegistry()
    var ids: [UInt32] = []
    for entry in entries {
        ids.append(try registry.register(HandlerRequest(appName: entry.app, filters: entry.filters), owner: owner, handlerPath: "/org/example/Handler"))
    }
    return (registry, ids)
}

/// The app a report goes to, by name.
func winner(_ registry: HandlerRegistry, _ report: ReportValue) -> String? {
    registry.match(report)?.app.appName
}

/// An installed app's desktop entry `id` (`.desktop` added) with `keys` after `Type` and `Name`.
func installedApp(_ id: String, name: String, _ keys: String) throws -> DesktopEntry {
    let text = "[Desktop Entry]\nType=Application\nName=\(name)\n\(keys)\n"
    return try DesktopEntry(id: #require(DesktopFileID(relativePath: id + ".desktop")), path: "/usr/share/applications/\(id).desktop",
                            file: DesktopEntryFile(bytes: Array(text.utf8)))
}
