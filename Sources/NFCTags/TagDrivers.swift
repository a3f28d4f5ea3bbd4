/// What activation told the backend about an object that its driver needs.
public struct DriverContext: Hashable, Sendable {
    /// UID, IDm or Jewel ID.
    public var uid: [UInt8]
    /// MIFARE Classic geometry (from the SAK, or the PC/SC card name); nil: assume the largest.
    public var classicSize: MifareClassicSize?
    /// Whether ISO 15693 commands beyond block reads and writes reach a Type 5 object over this
    /// link: GET SYSTEM INFORMATION, and ICODE's READ SIGNATURE.
    public var type5SystemInformation: Bool
    /// The password the person gave for reading (an NTAG21x's; other objects have none).
    public var password: [UInt8]?

    public init(uid: [UInt8], classicSize: MifareClassicSize? = nil, type5SystemInformation: Bool = true, password: [UInt8]? = nil) {
        self.uid = uid
        self.classicSize = classicSize
        self.type5SystemInformation = type5SystemInformation
        self.password = password
    }
}

extension TagPlatform {
    /// The driver for an object of this platform over `transport`.
    public func driver(over transport: any TagTransport, context: DriverContext) -> any TagDriver {
        switch self {
        case .type1: Type1Driver(transport: transport, uid: context.uid)
        case .type2: Type2Driver(transport: transport, uid: context.uid, password: context.password)
        case .type3: Type3Driver(transport: transport, idm: context.uid)
        case .type4: Type4Driver(transport: transport, uid: context.uid)
        case .type5: Type5Driver(transport: transport, uid: context.uid, systemInformation: context.type5SystemInformation)
        case .mifareClassic: MifareClassicDriver(transport: transport, uid: context.uid, size: context.classicSize)
        }
    }
}

extension TagStatus {
    /// The status a read gives where a driver knows no more: formatted, with the access the
    /// caller found, capacity and use from the reading.
    public init(reading: TagReading, access: Access) {
        self.init(platform: reading.platform, product: reading.product, uid: reading.uid, formatted: true, access: access,
                  capacity: reading.capacity, used: reading.ndefBytes.count, roundTrips: reading.roundTrips,
                  originality: reading.originality)
    }
}
