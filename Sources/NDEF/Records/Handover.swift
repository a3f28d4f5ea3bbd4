/// A Connection Handover record (`Hs`, `Hr`, `Hm`, `Hi`; NFC Forum Connection Handover 1.2–1.5):
/// a version and a nested message of local records naming the alternative carriers.
///
/// The nested message is the source of truth; the properties are views of it.
public struct Handover: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case select = "Hs"
        case request = "Hr"
        case mediation = "Hm"
        case initiate = "Hi"

        /// The stable kind name used in JSON (`handover-select`, …).
        public var name: String {
            switch self {
            case .select: "handover-select"
            case .request: "handover-request"
            case .mediation: "handover-mediation"
            case .initiate: "handover-initiate"
            }
        }
    }

    public var kind: Kind
    public var majorVersion: UInt8
    public var minorVersion: UInt8
    /// The local records after the version byte; nil when the payload is the version byte alone.
    public let message: NDEFMessage?
    public let alternativeCarriers: [AlternativeCarrier]
    /// The random number of the `cr` record (handover request).
    public let collisionResolution: UInt16?
    /// The `err` record (handover select).
    public let error: HandoverError?

    public var versionString: String { "\(majorVersion).\(minorVersion)" }

    public init(kind: Kind, majorVersion: UInt8 = 1, minorVersion: UInt8 = 3, message: NDEFMessage?) throws(NDEFError) {
        try self.init(kind: kind, majorVersion: majorVersion, minorVersion: minorVersion, message: message, layouts: nil)
    }

    public init(kind: Kind, payload: [UInt8]) throws(NDEFError) {
        try self.init(kind: kind, payloadBytes: payload[...], depth: 0)
    }

    /// The nested message is parsed in place: its records are views into `payload`.
    init(kind: Kind, payloadBytes payload: ArraySlice<UInt8>, depth: Int) throws(NDEFError) {
        var reader = PayloadReader(type: kind.rawValue, bytes: payload)
        let version = try reader.u8("version")
        if reader.isAtEnd {
            try self.init(kind: kind, majorVersion: version >> 4, minorVersion: version & 0x0F, message: nil, layouts: nil)
        } else {
            self = try reader.nestedMessage(reader.remaining, depth: depth) { (message, layouts) throws(NDEFError) in
                try Handover(kind: kind, majorVersion: version >> 4, minorVersion: version & 0x0F, message: message, layouts: layouts)
            }
        }
    }

    private init(kind: Kind, majorVersion: UInt8, minorVersion: UInt8, message: NDEFMessage?,
                 layouts: [NDEFParser.RecordLayout]?) throws(NDEFError) {
        guard majorVersion == 1, minorVersion <= 0x0F else {
            throw .invalidPayload(type: kind.rawValue, problem: .invalidValue(field: "major version", value: Int(majorVersion)), offset: 0)
        }
        var carriers: [AlternativeCarrier] = []
        var collision: UInt16?
        var error: HandoverError?
        for (index, record) in (message?.records ?? []).enumerated() {
            let layout = layouts?[index]
            do throws(NDEFError) {
                if record.isWellKnown("ac") {
                    carriers.append(try AlternativeCarrier(payloadBytes: record.payloadBytes))
                } else if record.isWellKnown("cr") {
                    guard collision == nil else {
                        throw NDEFError.invalidPayload(type: kind.rawValue, problem: .duplicate("collision resolution record"), offset: 0)
                    }
                    collision = try Self.collisionResolution(payloadBytes: record.payloadBytes)
                } else if record.isWellKnown("err") {
                    guard error == nil else {
                        throw NDEFError.invalidPayload(type: kind.rawValue, problem: .duplicate("error record"), offset: 0)
                    }
                    error = try HandoverError(payloadBytes: record.payloadBytes)
                }
            } catch let failure {
                throw failure.located(in: layout)
            }
        }
        if kind == .request && (majorVersion, minorVersion) >= (1, 2) && collision == nil {
            throw .invalidPayload(type: kind.rawValue, problem: .missing("collision resolution record (required from version 1.2)"), offset: 0)
        }
        self.kind = kind
        self.majorVersion = majorVersion
        self.minorVersion = minorVersion
        self.message = message
        self.alternativeCarriers = carriers
        self.collisionResolution = collision
        self.error = error
    }

    public var payload: [UInt8] {
        [majorVersion << 4 | minorVersion] + (message?.encoded() ?? [])
    }

    /// The random number of a Collision Resolution record (`cr`).
    public static func collisionResolution(payload: [UInt8]) throws(NDEFError) -> UInt16 {
        try collisionResolution(payloadBytes: payload[...])
    }

    static func collisionResolution(payloadBytes payload: ArraySlice<UInt8>) throws(NDEFError) -> UInt16 {
        var reader = PayloadReader(type: "cr", bytes: payload)
        let number = try reader.u16("random number")
        try reader.expectEnd()
        return number
    }

    public func record(id: [UInt8] = []) -> NDEFRecord {
        NDEFRecord(tnf: .wellKnown, type: kind.rawValue, id: id, payload: payload)
    }
}

/// An Alternative Carrier record (`ac`), local to a handover message.
public struct AlternativeCarrier: Hashable, Sendable {
    public enum PowerState: UInt8, Hashable, Sendable, CaseIterable {
        case inactive = 0, active = 1, activating = 2, unknown = 3

        public var name: String {
            switch self {
            case .inactive: "inactive"
            case .active: "active"
            case .activating: "activating"
            case .unknown: "unknown"
            }
        }
    }

    public var powerState: PowerState
    /// The ID of the record describing the carrier.
    public var carrierDataReference: [UInt8]
    /// IDs of records with auxiliary data.
    public var auxiliaryDataReferences: [[UInt8]]

    public init(powerState: PowerState, carrierDataReference: [UInt8], auxiliaryDataReferences: [[UInt8]] = []) {
        self.powerState = powerState
        self.carrierDataReference = carrierDataReference
        self.auxiliaryDataReferences = auxiliaryDataReferences
    }

    public init(payload: [UInt8]) throws(NDEFError) {
        try self.init(payloadBytes: payload[...])
    }

    /// Decodes a payload in place, for records decoded from a message (their payloads are views).
    init(payloadBytes payload: ArraySlice<UInt8>) throws(NDEFError) {
        var reader = PayloadReader(type: "ac", bytes: payload)
        let flags = try reader.u8("carrier power state")
        guard flags & 0xFC == 0 else { throw reader.error(.invalidValue(field: "reserved power state bits", value: Int(flags)), at: 0) }
        powerState = PowerState(rawValue: flags & 0x03)!
        carrierDataReference = try reader.bytes(Int(try reader.u8("carrier data reference length")), "carrier data reference")
        let count = Int(try reader.u8("auxiliary data reference count"))
        var references: [[UInt8]] = []
        for _ in 0..<count {
            references.append(try reader.bytes(Int(try reader.u8("auxiliary data reference length")), "auxiliary data reference"))
        }
        auxiliaryDataReferences = references
        try reader.expectEnd()
    }

    public var payload: [UInt8] {
        var out: [UInt8] = [powerState.rawValue, UInt8(carrierDataReference.count)]
        out += carrierDataReference
        out.append(UInt8(auxiliaryDataReferences.count))
        for reference in auxiliaryDataReferences { out.append(UInt8(reference.count)); out += reference }
        return out
    }

    public var record: NDEFRecord { NDEFRecord(tnf: .wellKnown, type: "ac", payload: payload) }
}

/// A handover Error record (`err`): why a handover request could not be served.
public struct HandoverError: Hashable, Sendable {
    /// 1 temporary memory shortage, 2 permanent memory shortage, 3 carrier-specific; 4–255 reserved.
    public var reason: UInt8
    public var data: [UInt8]

    public init(reason: UInt8, data: [UInt8]) {
        self.reason = reason
        self.data = data
    }

    public init(payload: [UInt8]) throws(NDEFError) {
        try self.init(payloadBytes: payload[...])
    }

    /// Decodes a payload in place, for records decoded from a message (their payloads are views).
    init(payloadBytes payload: ArraySlice<UInt8>) throws(NDEFError) {
        var reader = PayloadReader(type: "err", bytes: payload)
        reason = try reader.u8("error reason")
        guard reason != 0 else { throw reader.error(.invalidValue(field: "error reason", value: 0), at: 0) }
        let fixedLength: Int? = switch reason { case 1, 3: 1; case 2: 4; default: nil }
        data = try reader.bytes(fixedLength ?? reader.remaining, "error data")
        try reader.expectEnd()
    }

    public var payload: [UInt8] { [reason] + data }
}

/// A Handover Carrier record (`Hc`): names a carrier by type when there is no carrier configuration record.
public struct HandoverCarrier: Hashable, Sendable {
    public var carrierTypeFormat: TypeNameFormat
    public var carrierType: [UInt8]
    public var carrierData: [UInt8]

    public init(carrierTypeFormat: TypeNameFormat, carrierType: [UInt8], carrierData: [UInt8] = []) {
        self.carrierTypeFormat = carrierTypeFormat
        self.carrierType = carrierType
        self.carrierData = carrierData
    }

    static let typeName = "Hc"

    public init(payload: [UInt8]) throws(NDEFError) {
        try self.init(payloadBytes: payload[...])
    }

    /// Decodes a payload in place, for records decoded from a message (their payloads are views).
    init(payloadBytes payload: ArraySlice<UInt8>) throws(NDEFError) {
        var reader = PayloadReader(type: Self.typeName, bytes: payload)
        let ctf = try reader.u8("carrier type format")
        guard ctf & 0xF8 == 0 else { throw reader.error(.invalidValue(field: "reserved carrier type format bits", value: Int(ctf)), at: 0) }
        carrierTypeFormat = TypeNameFormat(rawValue: ctf)!
        carrierType = try reader.bytes(Int(try reader.u8("carrier type length")), "carrier type")
        carrierData = reader.rest()
    }

    public var payload: [UInt8] {
        [carrierTypeFormat.rawValue, UInt8(carrierType.count)] + carrierType + carrierData
    }

    public func record(id: [UInt8] = []) -> NDEFRecord {
        NDEFRecord(tnf: .wellKnown, type: Self.typeName, id: id, payload: payload)
    }
}
