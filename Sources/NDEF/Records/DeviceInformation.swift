/// A Device Information record (`Di`, NFC Forum Device Information RTD 1.0): who made the device
/// that wrote the object, as a list of typed data elements.
public struct DeviceInformation: Hashable, Sendable {
    public struct Element: Hashable, Sendable {
        public var type: UInt8
        public var value: [UInt8]

        public init(type: UInt8, value: [UInt8]) {
            self.type = type
            self.value = value
        }
    }

    /// The elements in record order: the source of truth for re-encoding.
    public let elements: [Element]
    public let vendorName: String
    public let modelName: String
    public let uniqueName: String?
    /// The 16-byte UUID.
    public let uuid: [UInt8]?
    public let versionString: String?

    static let typeName = "Di"
    static let textFields: [UInt8: String] = [0: "vendor name", 1: "model name", 2: "unique name", 4: "version string"]

    /// Elements of types 5–255, which the RTD leaves undefined.
    public var otherElements: [Element] { elements.filter { $0.type > 4 } }

    /// The UUID in canonical lowercase 8-4-4-4-12 form.
    public var uuidString: String? {
        uuid.map { bytes in
            let hex = Hex.string(bytes)
            let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
            return parts.joined(separator: "-")
        }
    }

    public init(payload: [UInt8]) throws(NDEFError) {
        try self.init(payloadBytes: payload[...])
    }

    /// Decodes a payload in place, for records decoded from a message (their payloads are views).
    init(payloadBytes payload: ArraySlice<UInt8>) throws(NDEFError) {
        var reader = PayloadReader(type: Self.typeName, bytes: payload)
        var elements: [Element] = []
        var texts: [UInt8: String] = [:]
        var uuid: [UInt8]?
        while !reader.isAtEnd {
            let start = reader.index
            let type = try reader.u8("data element type")
            let length = Int(try reader.u8("data element length"))
            let valueStart = reader.index
            let value = try reader.bytes(length, "data element value")
            if type <= 4, elements.contains(where: { $0.type == type }) {
                throw reader.error(.duplicate("data element of type \(type)"), at: start)
            }
            if let field = Self.textFields[type] {
                guard let text = TextCoding.utf8(value) else { throw reader.error(.invalidText(field: field, encoding: "UTF-8"), at: valueStart) }
                texts[type] = text
            } else if type == 3 {
                guard length == 16 else { throw reader.error(.invalidValue(field: "UUID length", value: length), at: start + 1) }
                uuid = value
            }
            elements.append(Element(type: type, value: value))
        }
        guard let vendor = texts[0], !vendor.isEmpty else { throw reader.error(.missing("vendor name"), at: 0) }
        guard let model = texts[1], !model.isEmpty else { throw reader.error(.missing("model name"), at: 0) }
        self.elements = elements
        self.vendorName = vendor
        self.modelName = model
        self.uniqueName = texts[2]
        self.uuid = uuid
        self.versionString = texts[4]
    }

    public var payload: [UInt8] {
        elements.flatMap { [$0.type, UInt8($0.value.count)] + $0.value }
    }
}
