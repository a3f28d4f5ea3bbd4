import NDEF

/// Reads the NDEF message of an NFC Forum Type 4 object (ISO-DEP: DESFire, NTAG 424, phones'
/// host card emulation), following the Type 4 Tag NDEF detection and read procedures:
///
/// 1. SELECT the NDEF application by AID D2760000850101 (mapping 2.0/3.0); on 6A 82 try the
///    mapping 1.0 AID D2760000850100 (older tags and phones), which also selects files with P2 00.
/// 2. SELECT the capability container file E103 and READ BINARY it (15 bytes, then the rest
///    when CCLEN is larger).
/// 3. SELECT the NDEF file the CC names; READ BINARY its length: NLEN (2 bytes), or ENLEN
///    (4 bytes) when the CC has the extended NDEF File Control TLV.
/// 4. READ BINARY the message in chunks of at most MLe (and what the link delivers), with
///    extended-length APDUs when the CC's MLe exceeds 256 and the link carries them.
///
/// 5. An NXP chip's originality signature, Read_Sig (``readSignature(_:uid:cc:)``).
///
/// Every response's status word is checked; only 90 00 continues. Chunks that start past offset
/// 32 767 (only in mapping 3.0's large files) use READ BINARY with an offset data object (INS B1,
/// ``ExtendedReadBinary``), whose response header takes up to 4 bytes of MLe.
public enum Type4Tag {
    public static let applicationV2: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]
    public static let applicationV1: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x00]
    public static let capabilityContainerFile: UInt16 = 0xE103
    /// Largest offset READ BINARY (B0) can address.
    static let maxShortOffset = 0x7FFF

    public static func readNDEF(over transport: some TagTransport, uid: [UInt8]? = nil) async throws(TagReadError) -> TagReading {
        var link = CountedLink(transport)
        let cc: Type4CapabilityContainer, version1: Bool
        do { (cc, version1) = try await open(&link) } catch .noNDEFApplication {
            let originality = await readSignature(&link, uid: uid, cc: nil)
            var reading = TagReading.blank(platform: .type4, product: nil, uid: uid, roundTrips: link.roundTrips)
            reading.originality = originality
            return reading
        }
        guard cc.read == .granted else { throw .readAccessDenied }
        try await select(file: cc.ndefFileID, version1: version1, &link, "SELECT NDEF file")
        let message = try await readMessage(&link, cc: cc)
        let originality = await readSignature(&link, uid: uid, cc: cc)
        var reading = TagReading(platform: .type4, product: nil, uid: uid, capacity: cc.maxNDEFSize - cc.lengthFieldSize,
                                 ndefBytes: message, roundTrips: link.roundTrips)
        reading.originality = originality
        return reading
    }

    /// Steps 1 and 2: SELECT the NDEF application (v2, else v1) and read the capability
    /// container. Returns it and whether the mapping 1.0 application answered.
    static func open(_ link: inout CountedLink) async throws(TagReadError) -> (Type4CapabilityContainer, version1: Bool) {
        var version1 = false
        let selectV2 = try await exchange(&link, .init(ins: 0xA4, p1: 0x04, p2: 0x00, data: applicationV2, le: 0x100), "SELECT NDEF application")
        if selectV2.status == .fileNotFound {
            let selectV1 = try await exchange(&link, .init(ins: 0xA4, p1: 0x04, p2: 0x00, data: applicationV1), "SELECT NDEF application v1")
            guard selectV1.status != .fileNotFound else { throw .noNDEFApplication }
            try check(selectV1, "SELECT NDEF application v1")
            version1 = true
        } else {
            try check(selectV2, "SELECT NDEF application")
        }

        try await select(file: capabilityContainerFile, version1: version1, &link, "SELECT capability container")
        var ccBytes = try await readBinary(&link, offset: 0, length: 15, "READ BINARY capability container")
        let ccLength = Int(ccBytes[0]) << 8 | Int(ccBytes[1])
        if ccLength > 15 && ccLength <= 0xFF {
            ccBytes += try await readBinary(&link, offset: 15, length: ccLength - 15, "READ BINARY capability container")
        }
        do { return (try Type4CapabilityContainer(ccBytes), version1) } catch { throw .capabilityContainer(error) }
    }

    /// Steps 3 and 4 on the selected NDEF file: its length field (NLEN or ENLEN), bounded by the
    /// file's size, then the message.
    static func readMessage(_ link: inout CountedLink, cc: Type4CapabilityContainer) async throws(TagReadError) -> [UInt8] {
        let lengthField = cc.lengthFieldSize
        let lengthBytes = try await readBinary(&link, offset: 0, length: lengthField, "READ BINARY NLEN")
        let messageLength = lengthBytes.reduce(0) { $0 << 8 | Int($1) }
        let capacity = cc.maxNDEFSize - lengthField
        guard messageLength <= capacity else { throw .invalidNDEFLength(messageLength, maximum: capacity) }
        return try await readFile(&link, cc: cc, from: lengthField, count: messageLength, "READ BINARY NDEF message")
    }

    /// `count` bytes of the selected file from `offset`, in chunks of at most MLe (and what the
    /// link delivers); B1 past offset 32 767.
    static func readFile(_ link: inout CountedLink, cc: Type4CapabilityContainer, from offset: Int, count: Int,
                         _ name: String) async throws(TagReadError) -> [UInt8] {
        let caps = link.transport.capabilities
        let linkLimit = caps.maxResponseLength - 2
        let apduLimit = caps.extendedLengthAPDUs ? 0x10000 : 0x100
        let chunk = min(cc.maxReadLength, linkLimit, apduLimit)
        guard chunk > 0 else { throw .unsupported("a link that delivers no response data") }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            let at = offset + bytes.count
            if at <= maxShortOffset {
                bytes += try await readBinary(&link, offset: at, length: min(chunk, count - bytes.count), name)
            } else {
                let length = min(chunk - 4, count - bytes.count)
                guard length > 0 else { throw .unsupported("READ BINARY B1 with an MLe of \(chunk)") }
                bytes += try await readBinaryExtended(&link, offset: at, length: length)
            }
        }
        return bytes
    }

    /// `length` bytes from an offset past 32 767, through INS B1.
    static func readBinaryExtended(_ link: inout CountedLink, offset: Int, length: Int) async throws(TagReadError) -> [UInt8] {
        let name = "READ BINARY (B1) NDEF message"
        let response = try await exchange(&link, ExtendedReadBinary.command(offset: offset, length: length), name)
        try check(response, name)
        guard let data = ExtendedReadBinary.data(inResponse: response.data) else {
            throw .unexpectedResponse(command: name, expected: length + ExtendedReadBinary.headerLength(for: length), received: response.data.count)
        }
        guard data.count == length else { throw .unexpectedResponse(command: name, expected: length, received: data.count) }
        return data
    }

    static func exchange(_ link: inout CountedLink, _ command: CommandAPDU, _ name: String) async throws(TagReadError) -> ResponseAPDU {
        if command.needsExtendedLength && !link.transport.capabilities.extendedLengthAPDUs {
            throw .transport(.notSupported("extended-length APDUs"))
        }
        let raw = try await link.send(command.bytes)
        guard let response = ResponseAPDU(raw) else {
            throw .unexpectedResponse(command: name, expected: 2, received: raw.count)
        }
        return response
    }

    static func check(_ response: ResponseAPDU, _ name: String) throws(TagReadError) {
        guard response.status == .success else { throw .status(command: name, response.status) }
    }

    static func select(file: UInt16, version1: Bool, _ link: inout CountedLink, _ name: String) async throws(TagReadError) {
        // Mapping 2.0 selects by file identifier with "first or only occurrence, no FCI" (P2 0C);
        // mapping 1.0 used P2 00.
        let command = CommandAPDU(ins: 0xA4, p1: 0x00, p2: version1 ? 0x00 : 0x0C, data: [UInt8(file >> 8), UInt8(file & 0xFF)])
        try check(try await exchange(&link, command, name), name)
    }

    /// Exactly `length` bytes from `offset` of the selected file: a shorter answer is an error,
    /// never silently a shorter message.
    static func readBinary(_ link: inout CountedLink, offset: Int, length: Int, _ name: String) async throws(TagReadError) -> [UInt8] {
        let command = CommandAPDU(ins: 0xB0, p1: UInt8(offset >> 8), p2: UInt8(offset & 0xFF), le: length)
        let response = try await exchange(&link, command, name)
        try check(response, name)
        guard response.data.count == length else {
            throw .unexpectedResponse(command: name, expected: length, received: response.data.count)
        }
        return response.data
    }
}

extension Type4CapabilityContainer {
    /// Bytes of the NDEF file's length field: NLEN (2), or ENLEN (4) with the extended NDEF File
    /// Control TLV.
    public var lengthFieldSize: Int { extended ? 4 : 2 }
}
