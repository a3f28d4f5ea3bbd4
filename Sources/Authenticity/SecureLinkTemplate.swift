import NDEF

/// One kind of NTAG 424 DNA link the person configured (Docs/authenticity.md): the link as the
/// chips are programmed to write it, with `{picc_data}`, `{cmac}` and optionally `{enc}` where the
/// chip mirrors its data, the SDM mode and the two keys.
///
/// A link matches only when it is the template exactly, byte for byte, with each placeholder
/// filled by hex digits of the exact length: no percent-decoding, no reordering, no parameter
/// twice, nothing before or after. Its keys are never described (``description`` names the
/// template only), so no log or report can carry them.
public struct SecureLinkTemplate: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// Its name in the keys file (its section).
    public var name: String
    public var mode: SecureDynamicMessage.Mode
    /// SDMMetaReadKey: decrypts the PICCData.
    var metaReadKey: [UInt8]
    /// SDMFileReadKey: the MAC's (and the encrypted file data's) key.
    var fileReadKey: [UInt8]
    /// Where the MAC input starts: the chip's SDMMACInputOffset, at one of the placeholders or
    /// at the MAC itself (nothing MACed but the session key's UID and counter).
    public var macInput: MACInput
    let pieces: [Piece]

    /// Where the MAC input starts.
    public enum MACInput: String, Hashable, Sendable, CaseIterable {
        /// At the MAC: the input is empty (NXP's simplest template, `?picc_data=…&cmac=…`).
        case empty
        /// At the encrypted PICCData.
        case piccData = "picc_data"
        /// At the encrypted file data (NXP's choice when the link carries some).
        case enc
    }

    enum Piece: Hashable, Sendable {
        case literal([UInt8])
        case piccData
        case enc
        case cmac
    }

    /// Longest template and longest link considered (an NTAG 424 DNA's NDEF file is 256 bytes).
    public static let maximumLength = 1024
    /// Encrypted file data: up to this many bytes (a multiple of 16).
    static let maximumEncLength = 256

    /// NXP's default parameters, appended to a `url` that has no placeholder.
    static let defaultQuery = "picc_data={picc_data}&cmac={cmac}"

    /// - Parameter macInput: nil: at `{enc}` when the link has it, else empty.
    public init(name: String, url: String, mode: SecureDynamicMessage.Mode, metaReadKey: [UInt8], fileReadKey: [UInt8],
                macInput: MACInput? = nil) throws(SecureLinkTemplateError) {
        guard metaReadKey.count == 16, fileReadKey.count == 16 else { throw .init("a key is 16 bytes (32 hex digits)") }
        var url = url
        if !url.contains("{") { url += (url.contains("?") ? "&" : "?") + Self.defaultQuery }
        guard url.utf8.count <= Self.maximumLength else { throw .init("the link is longer than \(Self.maximumLength) bytes") }
        let pieces = try Self.pieces(of: Array(url.utf8))
        let placeholders = pieces.filter { if case .literal = $0 { false } else { true } }
        guard placeholders.filter({ $0 == .piccData }).count == 1 else { throw .init("the link needs {picc_data} once") }
        guard placeholders.filter({ $0 == .cmac }).count == 1, placeholders.last == .cmac else {
            throw .init("the link needs {cmac} once, after the other placeholders")
        }
        guard placeholders.filter({ $0 == .enc }).count <= 1 else { throw .init("the link has {enc} more than once") }
        if let at = pieces.firstIndex(of: .enc) {
            // Its length is the hex run's: what follows must tell where it ends.
            guard at + 1 < pieces.count, case .literal(let next) = pieces[at + 1], let first = next.first, Hex.digitValue(first) == nil else {
                throw .init("{enc} must be followed by text that starts with no hex digit, such as &cmac=")
            }
        }
        let chosen = macInput ?? (pieces.contains(.enc) ? .enc : .empty)
        if chosen == .enc, !pieces.contains(.enc) { throw .init("mac-input = enc needs {enc} in the link") }
        self.name = name
        self.mode = mode
        self.metaReadKey = metaReadKey
        self.fileReadKey = fileReadKey
        self.macInput = chosen
        self.pieces = pieces
    }

    private static func pieces(of url: [UInt8]) throws(SecureLinkTemplateError) -> [Piece] {
        var pieces: [Piece] = []
        var literal: [UInt8] = []
        var rest = url[...]
        while let byte = rest.first {
            if byte == UInt8(ascii: "}") { throw .init("a } without {") }
            guard byte == UInt8(ascii: "{") else { literal.append(byte); rest = rest.dropFirst(); continue }
            guard let close = rest.firstIndex(of: UInt8(ascii: "}")) else { throw .init("a { without }") }
            let name = String(decoding: rest[rest.index(after: rest.startIndex)..<close], as: UTF8.self)
            let piece: Piece
            switch name {
            case "picc_data": piece = .piccData
            case "enc": piece = .enc
            case "cmac": piece = .cmac
            default: throw .init("unknown placeholder {\(name)} (known: {picc_data}, {enc}, {cmac})")
            }
            if !literal.isEmpty { pieces.append(.literal(literal)); literal = [] }
            pieces.append(piece)
            rest = rest[rest.index(after: close)...]
        }
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        return pieces
    }

    /// Whether the link carries encrypted file data (`{enc}`).
    public var hasEncryptedFileData: Bool { pieces.contains(.enc) }

    public var description: String { "secure link template \(name)" }
    public var debugDescription: String { description }

    /// The parts of a link that matches, as bytes.
    struct Parts: Hashable, Sendable {
        var piccData: [UInt8]
        var enc: [UInt8]?
        var mac: [UInt8]
        /// The link's text from the MAC input's start up to the MAC.
        var macInput: [UInt8]
    }

    /// The parts of `link` when it is this template filled in; nil otherwise.
    func match(_ link: String) -> Parts? {
        let bytes = Array(link.utf8)
        guard bytes.count <= Self.maximumLength else { return nil }
        var at = 0
        var picc: [UInt8]?, enc: [UInt8]?, mac: [UInt8]?
        var starts: [Piece: Int] = [:]
        for piece in pieces {
            starts[piece] = at
            switch piece {
            case .literal(let text):
                guard bytes.count - at >= text.count, bytes[at..<(at + text.count)].elementsEqual(text) else { return nil }
                at += text.count
            case .piccData:
                guard let value = Self.hex(bytes, at: at, digits: mode.piccDataLength * 2) else { return nil }
                picc = value
                at += value.count * 2
            case .cmac:
                guard let value = Self.hex(bytes, at: at, digits: 16) else { return nil }
                mac = value
                at += 16
            case .enc:
                let run = bytes[at...].prefix { Hex.digitValue($0) != nil }.count
                guard run > 0, run % 32 == 0, run / 2 <= Self.maximumEncLength, let value = Self.hex(bytes, at: at, digits: run) else { return nil }
                enc = value
                at += run
            }
        }
        guard at == bytes.count, let picc, let mac, let macEnd = starts[.cmac] else { return nil }
        let macStart: Int
        switch macInput {
        case .empty: macStart = macEnd
        case .piccData: macStart = starts[.piccData] ?? macEnd
        case .enc: macStart = starts[.enc] ?? macEnd
        }
        return Parts(piccData: picc, enc: enc, mac: mac, macInput: Array(bytes[macStart..<macEnd]))
    }

    /// Exactly `digits` hex digits at `at`, as bytes.
    private static func hex(_ bytes: [UInt8], at: Int, digits: Int) -> [UInt8]? {
        guard bytes.count - at >= digits else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(digits / 2)
        var index = at
        while index < at + digits {
            guard let high = Hex.digitValue(bytes[index]), let low = Hex.digitValue(bytes[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    /// The link with its placeholders filled (uppercase hex, as the chip writes it); the MAC is
    /// computed over the filled text by `mac`, given the MAC input.
    func fill(piccData: [UInt8], enc: [UInt8]?, mac: ([UInt8]) -> [UInt8]?) -> String? {
        var out: [UInt8] = []
        var macStart: Int?
        for piece in pieces {
            switch piece {
            case .literal(let text): out += text
            case .piccData:
                if macInput == .piccData { macStart = out.count }
                out += Self.upperHex(piccData)
            case .enc:
                guard let enc else { return nil }
                if macInput == .enc { macStart = out.count }
                out += Self.upperHex(enc)
            case .cmac:
                guard let value = mac(Array(out[(macStart ?? out.count)...])) else { return nil }
                out += Self.upperHex(value)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func upperHex(_ bytes: [UInt8]) -> [UInt8] {
        Array(Hex.string(bytes).uppercased().utf8)
    }
}

/// Why a template cannot be used (the keys file names its line).
public struct SecureLinkTemplateError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
