/// A Wi-Fi Simple Configuration record (`application/vnd.wfa.wsc`, Wi-Fi Alliance WSC 2.0 NFC
/// configuration token): network credentials as type-length-value attributes.
///
/// The attribute list is the source of truth; credentials are views of it.
public struct WiFiSimpleConfig: Hashable, Sendable {
    /// One WSC attribute: a 16-bit type and its value.
    public struct Attribute: Hashable, Sendable {
        public var type: UInt16
        public var value: [UInt8]

        public init(type: UInt16, value: [UInt8]) {
            self.type = type
            self.value = value
        }
    }

    /// The attribute types this codec reads.
    public enum AttributeType {
        public static let credential: UInt16 = 0x100E
        public static let networkIndex: UInt16 = 0x1026
        public static let ssid: UInt16 = 0x1045
        public static let authenticationType: UInt16 = 0x1003
        public static let encryptionType: UInt16 = 0x100F
        public static let networkKey: UInt16 = 0x1027
        public static let macAddress: UInt16 = 0x1020
        public static let version: UInt16 = 0x104A
        public static let vendorExtension: UInt16 = 0x1049
    }

    /// One network's credential (attribute 0x100E).
    public struct Credential: Hashable, Sendable {
        public var attributes: [Attribute]

        public init(attributes: [Attribute]) {
            self.attributes = attributes
        }

        func value(_ type: UInt16) -> [UInt8]? { attributes.first { $0.type == type }?.value }

        public var ssid: [UInt8]? { value(AttributeType.ssid) }
        public var networkKey: [UInt8]? { value(AttributeType.networkKey) }
        public var authenticationType: UInt16? { value(AttributeType.authenticationType).flatMap(Self.uint16) }
        public var encryptionType: UInt16? { value(AttributeType.encryptionType).flatMap(Self.uint16) }
        public var macAddress: [UInt8]? { value(AttributeType.macAddress) }
        public var networkIndex: UInt8? { value(AttributeType.networkIndex).flatMap { $0.count == 1 ? $0[0] : nil } }

        static func uint16(_ bytes: [UInt8]) -> UInt16? { bytes.count == 2 ? UInt16(bytes[0]) << 8 | UInt16(bytes[1]) : nil }
    }

    /// Authentication type bits (WSC 2.0 table 32) and their names.
    public static let authenticationNames: [(UInt16, String)] = [
        (0x0001, "Open"), (0x0002, "WPA-Personal"), (0x0004, "Shared"), (0x0008, "WPA-Enterprise"),
        (0x0010, "WPA2-Enterprise"), (0x0020, "WPA2-Personal"),
    ]
    /// Encryption type bits (WSC 2.0 table 33) and their names.
    public static let encryptionNames: [(UInt16, String)] = [
        (0x0001, "None"), (0x0002, "WEP"), (0x0004, "TKIP"), (0x0008, "AES"),
    ]

    /// Names of the bits set in `value`; unnamed bits as `0x0040`.
    public static func names(of value: UInt16, in table: [(UInt16, String)]) -> [String] {
        (0..<16).compactMap { bit -> String? in
            let mask = UInt16(1) << bit
            guard value & mask != 0 else { return nil }
            return table.first { $0.0 == mask }?.1 ?? Hex.code(mask)
        }
    }

    /// The payload: the source of truth. Checked well formed at init; the views below parse it on use.
    public var payload: [UInt8] { Array(payloadBytes) }

    /// A view into the decoded input, so decoding a record copies nothing; equality compares contents.
    private let payloadBytes: ArraySlice<UInt8>

    /// The top-level attributes, in order.
    public var attributes: [Attribute] { Self.attributes(in: payloadBytes) }

    /// Every Credential attribute, parsed.
    public var credentials: [Credential] {
        attributes.filter { $0.type == AttributeType.credential }
            .map { Credential(attributes: Self.attributes(in: $0.value[...])) }
    }

    static let mediaType = "application/vnd.wfa.wsc"

    public init(attributes: [Attribute]) throws(NDEFError) {
        var bytes: [UInt8] = []
        for attribute in attributes {
            guard attribute.value.count <= 0xFFFF else {
                throw .invalidPayload(type: Self.mediaType, problem: .invalidValue(field: "attribute length", value: attribute.value.count), offset: 0)
            }
            bytes += BigEndian.bytes(attribute.type) + BigEndian.bytes(UInt16(attribute.value.count)) + attribute.value
        }
        try self.init(payload: bytes)
    }

    /// Checks that the attributes, and those inside each credential, are well formed; copies nothing.
    public init(payload: [UInt8]) throws(NDEFError) {
        try self.init(payloadBytes: payload[...])
    }

    init(payloadBytes payload: ArraySlice<UInt8>) throws(NDEFError) {
        var reader = PayloadReader(type: Self.mediaType, bytes: payload)
        while !reader.isAtEnd {
            let (type, range) = try Self.nextAttribute(&reader)
            if type == AttributeType.credential {
                var inner = PayloadReader(type: Self.mediaType, bytes: payload, range: range)
                while !inner.isAtEnd { _ = try Self.nextAttribute(&inner) }
            }
        }
        self.payloadBytes = payload
    }

    private static func nextAttribute(_ reader: inout PayloadReader) throws(NDEFError) -> (UInt16, Range<Int>) {
        let type = try reader.u16("attribute type")
        let length = Int(try reader.u16("attribute length"))
        return (type, try reader.take(length, "attribute value"))
    }

    /// The attributes in bytes already checked well formed.
    private static func attributes(in bytes: ArraySlice<UInt8>) -> [Attribute] {
        var result: [Attribute] = []
        var index = bytes.startIndex
        while index + 4 <= bytes.endIndex {
            let type = UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            let end = min(index + 4 + length, bytes.endIndex)
            result.append(Attribute(type: type, value: Array(bytes[(index + 4)..<end])))
            index = end
        }
        return result
    }
}
