/// Bluetooth pairing data handed over by an object: BR/EDR (`application/vnd.bluetooth.ep.oob`,
/// Bluetooth Secure Simple Pairing OOB) and Low Energy (`application/vnd.bluetooth.le.oob`).
///
/// Both carry EIR/AD structures (length, type, data); the payload is the source of truth.
public struct BluetoothOOB: Hashable, Sendable {
    public enum Transport: Hashable, Sendable {
        /// BR/EDR: a 2-byte length and the 6-byte device address precede the EIR structures.
        case classic
        /// Low Energy: AD structures only; the address is the `0x1B` structure.
        case lowEnergy
    }

    /// One EIR/AD structure.
    public struct DataStructure: Hashable, Sendable {
        public var type: UInt8
        public var data: [UInt8] {
            get { Array(bytes) }
            set { bytes = newValue[...] }
        }
        /// A view into the payload, so decoding copies nothing; equality compares contents.
        private var bytes: ArraySlice<UInt8>

        public init(type: UInt8, data: [UInt8]) {
            self.init(type: type, bytes: data[...])
        }

        init(type: UInt8, bytes: ArraySlice<UInt8>) {
            self.type = type
            self.bytes = bytes
        }
    }

    /// EIR/AD data types this codec reads (Bluetooth Assigned Numbers, "Common Data Types").
    public enum DataType {
        public static let shortenedLocalName: UInt8 = 0x08
        public static let completeLocalName: UInt8 = 0x09
        public static let classOfDevice: UInt8 = 0x0D
        public static let appearance: UInt8 = 0x19
        public static let leDeviceAddress: UInt8 = 0x1B
        public static let leRole: UInt8 = 0x1C
    }

    public let transport: Transport
    public var payload: [UInt8] { Array(payloadBytes) }
    /// A view into the decoded input, so decoding a record does not copy it; equality compares contents.
    private let payloadBytes: ArraySlice<UInt8>
    /// The device address, most significant byte first (as people read it).
    public let address: [UInt8]?
    public let structures: [DataStructure]

    static let classicType = "application/vnd.bluetooth.ep.oob"
    static let lowEnergyType = "application/vnd.bluetooth.le.oob"

    public init(transport: Transport, payload: [UInt8]) throws(NDEFError) {
        try self.init(transport: transport, payloadBytes: payload[...])
    }

    init(transport: Transport, payloadBytes payload: ArraySlice<UInt8>) throws(NDEFError) {
        var reader = PayloadReader(type: transport == .classic ? Self.classicType : Self.lowEnergyType, bytes: payload)
        var address: [UInt8]?
        if transport == .classic {
            let length = Int(try reader.u16("OOB data length", littleEndian: true))
            guard length == payload.count else { throw reader.error(.invalidValue(field: "OOB data length", value: length), at: 0) }
            address = Array(try reader.slice(6, "device address").reversed())
        }
        var structures: [DataStructure] = []
        while !reader.isAtEnd {
            let length = Int(try reader.u8("data structure length"))
            // A zero length is a padding byte (as written by some writers); skip it.
            if length == 0 { continue }
            let type = try reader.u8("data structure type")
            structures.append(DataStructure(type: type, bytes: try reader.slice(length - 1, "data structure \(Hex.code(type))")))
        }
        if transport == .lowEnergy, let le = structures.first(where: { $0.type == DataType.leDeviceAddress }) {
            guard le.data.count == 7 else {
                throw reader.error(.invalidValue(field: "LE device address length", value: le.data.count), at: 0)
            }
            address = le.data.prefix(6).reversed()
        }
        self.transport = transport
        self.payloadBytes = payload
        self.address = address
        self.structures = structures
    }

    func data(_ type: UInt8) -> [UInt8]? { structures.first { $0.type == type }?.data }

    /// `AA:BB:CC:DD:EE:FF`.
    public var addressString: String? {
        address.map { $0.map { Hex.string([$0]).uppercased() }.joined(separator: ":") }
    }

    /// The complete local name, else the shortened one (UTF-8; invalid bytes become U+FFFD).
    public var localName: String? {
        (data(DataType.completeLocalName) ?? data(DataType.shortenedLocalName)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The 24-bit class of device (BR/EDR).
    public var classOfDevice: UInt32? {
        guard let bytes = data(DataType.classOfDevice), bytes.count == 3 else { return nil }
        return UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16
    }

    /// LE address type: `public` or `random`.
    public var addressType: String? {
        guard transport == .lowEnergy, let le = data(DataType.leDeviceAddress), le.count == 7 else { return nil }
        return le[6] & 0x01 == 0 ? "public" : "random"
    }

    /// LE role (`0x1C`).
    public var role: String? {
        guard let bytes = data(DataType.leRole), bytes.count == 1 else { return nil }
        return switch bytes[0] {
        case 0: "peripheral"
        case 1: "central"
        case 2: "peripheral-preferred"
        case 3: "central-preferred"
        default: nil
        }
    }

    /// GAP appearance value (`0x19`).
    public var appearance: UInt16? {
        guard let bytes = data(DataType.appearance), bytes.count == 2 else { return nil }
        return UInt16(bytes[0]) | UInt16(bytes[1]) << 8
    }
}
