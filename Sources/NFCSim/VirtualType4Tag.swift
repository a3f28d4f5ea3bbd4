import NDEF
import NFCTags

/// An ISO-DEP object with the NFC Forum NDEF application (Type 4 Tag 1.0, 2.0 and 3.0): SELECT by
/// AID and by file identifier, READ BINARY with offset and length (B0, and B1 with an offset data
/// object for mapping 3.0), and the status words the
/// specification and ISO 7816-4 give:
///
/// | situation | status |
/// |---|---|
/// | done | 90 00 |
/// | fewer bytes left than Le (data returned) | 62 82 |
/// | malformed APDU, or Le over MLe, or extended length unsupported | 67 00 |
/// | READ BINARY with no file selected | 69 86 |
/// | application or file not found | 6A 82 |
/// | P1–P2 not allowed (short EF addressing, wrong SELECT P2) | 6A 86 |
/// | offset at or past the end of the file | 6B 00 |
/// | B1 without P1–P2 00 00 or a 3-byte offset data object | 6A 86 |
/// | UPDATE BINARY (D6) to a file the CC does not grant write access to (the CC file itself, or the NDEF file with write access FF or proprietary) | 69 82 |
/// | UPDATE BINARY past the end of the file | 6B 00 |
/// | UPDATE BINARY with more data than the CC's MLc | 67 00 |
/// | instruction not supported | 6D 00 |
/// | class not supported | 6E 00 |
///
/// With a ``signature``, Read_Sig too (the NTAG 424 DNA and DESFire command, ISO 7816-4 wrapped).
public struct VirtualType4Tag: VirtualObject {
    public static let platform = TagPlatform.type4

    /// Which version of the Type 4 mapping the object implements.
    public enum Mapping: Hashable, Sendable {
        /// 1.0: AID D2760000850100, files selected with P2 00, CC version 0x10.
        case version1
        /// 2.0: AID D2760000850101, files selected with P2 0C, CC version 0x20, NLEN.
        case version2
        /// 3.0 with the extended NDEF File Control TLV: ENLEN (4 bytes), CC version 0x30.
        case version3Extended
    }

    public static let ndefFileID: UInt16 = 0xE104

    public let mapping: Mapping
    /// The files by identifier (the CC file E103 and the NDEF file).
    public private(set) var files: [UInt16: [UInt8]]
    /// Largest Le READ BINARY accepts.
    public var maxReadLength: Int
    /// Whether extended-length APDUs are accepted.
    public var acceptsExtendedLength: Bool
    /// Status words to answer instead of the normal one, by instruction byte (fault injection).
    public var statusOverrides: [UInt8: StatusWord] = [:]
    /// The 56-byte originality signature an NTAG 424 DNA or DESFire answers Read_Sig with (CLA 90
    /// INS 3C P1 P2 00 00, data 00: the signature and `91 00`); nil: an object without the
    /// command, which answers class 90 with 6E 00, as any NDEF-only ISO-DEP object does.
    public var signature: [UInt8]?
    public var presence: FieldPresence

    private var applicationSelected = false
    private var currentFile: UInt16?

    /// An object holding `message` (nil: NLEN 0) in an NDEF file of `fileSize` bytes (length
    /// field included), with a CC announcing `maxReadLength` as MLe.
    public init(mapping: Mapping = .version2, message: NDEFMessage?, maxReadLength: Int = 0xFF,
                fileSize: Int = 0x0800, acceptsExtendedLength: Bool? = nil,
                presence: FieldPresence = FieldPresence()) throws(VirtualObjectError) {
        let bytes = message?.encoded() ?? []
        let lengthField = mapping == .version3Extended ? 4 : 2
        guard bytes.count + lengthField <= fileSize else { throw .doesNotFit(needed: bytes.count + lengthField, capacity: fileSize) }
        let length = (0..<lengthField).reversed().map { UInt8(truncatingIfNeeded: bytes.count >> (8 * $0)) }
        let ndefFile = length + bytes + [UInt8](repeating: 0, count: fileSize - lengthField - bytes.count)
        self.init(mapping: mapping, capabilityContainer: Self.capabilityContainer(mapping: mapping, maxReadLength: maxReadLength, fileSize: fileSize),
                  ndefFile: ndefFile, maxReadLength: maxReadLength,
                  acceptsExtendedLength: acceptsExtendedLength ?? (maxReadLength > 0x100), presence: presence)
    }

    /// An object with the given CC and NDEF file contents as they are, for hostile layouts.
    public init(mapping: Mapping, capabilityContainer: [UInt8], ndefFile: [UInt8], maxReadLength: Int,
                acceptsExtendedLength: Bool = false, presence: FieldPresence = FieldPresence()) {
        self.mapping = mapping
        files = [Type4Tag.capabilityContainerFile: capabilityContainer, Self.ndefFileID: ndefFile]
        self.maxReadLength = maxReadLength
        self.acceptsExtendedLength = acceptsExtendedLength
        self.presence = presence
    }

    /// The CC file: CCLEN, mapping version, MLe, MLc, and the (extended) NDEF File Control TLV
    /// granting read and write access.
    public static func capabilityContainer(mapping: Mapping, maxReadLength: Int, fileSize: Int) -> [UInt8] {
        let id = [UInt8(ndefFileID >> 8), UInt8(ndefFileID & 0xFF)]
        let mle = [UInt8(maxReadLength >> 8 & 0xFF), UInt8(maxReadLength & 0xFF)]
        let mlc: [UInt8] = [0x00, 0xFF]
        switch mapping {
        case .version1, .version2:
            let control: [UInt8] = [0x04, 0x06] + id + [UInt8(fileSize >> 8), UInt8(fileSize & 0xFF), 0x00, 0x00]
            return [0x00, 0x0F, mapping == .version1 ? 0x10 : 0x20] + mle + mlc + control
        case .version3Extended:
            let size = (0..<4).reversed().map { UInt8(truncatingIfNeeded: fileSize >> (8 * $0)) }
            return [0x00, 0x11, 0x30] + mle + mlc + [0x06, 0x08] + id + size + [0x00, 0x00]
        }
    }

    var application: [UInt8] { mapping == .version1 ? Type4Tag.applicationV1 : Type4Tag.applicationV2 }

    public var isPresent: Bool { presence.isPresent }

    /// ISO-DEP re-activation (RATS): nothing stays selected.
    public mutating func reactivate() -> Bool {
        guard presence.isPresent else { return false }
        applicationSelected = false
        currentFile = nil
        return true
    }

    public mutating func respond(to frame: [UInt8]) -> VirtualReply {
        guard presence.admit() else { return .silence }
        return .frame(answer(frame).bytes)
    }

    private mutating func answer(_ frame: [UInt8]) -> ResponseAPDU {
        guard let command = CommandAPDU(frame) else { return ResponseAPDU(status: .wrongLength) }
        if let signature, command.cla == Type4Tag.readSignature.cla, command.ins == Type4Tag.readSignature.ins {
            // DESFire native status words: 91 00 done, 91 7E a wrong length or address.
            return command == Type4Tag.readSignature ? ResponseAPDU(data: signature, status: StatusWord(0x9100)) : ResponseAPDU(status: StatusWord(0x917E))
        }
        guard command.cla == 0x00 else { return ResponseAPDU(status: .classNotSupported) }
        if let status = statusOverrides[command.ins] { return ResponseAPDU(status: status) }
        if command.needsExtendedLength && !acceptsExtendedLength { return ResponseAPDU(status: .wrongLength) }
        switch command.ins {
        case 0xA4: return select(command)
        case 0xB0: return readBinary(command)
        case ExtendedReadBinary.instruction: return readBinaryWithOffsetObject(command)
        case Type4WritePlan.updateBinary: return updateBinary(command)
        default: return ResponseAPDU(status: .instructionNotSupported)
        }
    }

    private mutating func select(_ command: CommandAPDU) -> ResponseAPDU {
        switch command.p1 {
        case 0x04:
            guard command.p2 == 0x00 else { return ResponseAPDU(status: .wrongParameters) }
            applicationSelected = command.data == application
            currentFile = nil
            return ResponseAPDU(status: applicationSelected ? .success : .fileNotFound)
        case 0x00:
            guard command.p2 == (mapping == .version1 ? 0x00 : 0x0C) else { return ResponseAPDU(status: .wrongParameters) }
            guard command.data.count == 2 else { return ResponseAPDU(status: .wrongLength) }
            let id = UInt16(command.data[0]) << 8 | UInt16(command.data[1])
            guard applicationSelected, files[id] != nil else { return ResponseAPDU(status: .fileNotFound) }
            currentFile = id
            return ResponseAPDU(status: .success)
        default:
            return ResponseAPDU(status: .wrongParameters)
        }
    }

    private func readBinary(_ command: CommandAPDU) -> ResponseAPDU {
        guard let id = currentFile, let file = files[id] else { return ResponseAPDU(status: .noCurrentFile) }
        guard command.p1 & 0x80 == 0 else { return ResponseAPDU(status: .wrongParameters) }
        guard let le = command.le, command.data.isEmpty, le <= maxReadLength else { return ResponseAPDU(status: .wrongLength) }
        let offset = Int(command.p1) << 8 | Int(command.p2)
        guard offset < file.count else { return ResponseAPDU(status: .wrongOffset) }
        let end = min(file.count, offset + le)
        return ResponseAPDU(data: Array(file[offset..<end]), status: end - offset < le ? .endOfFile : .success)
    }

    /// D6: `data` from the P1–P2 offset of the selected file, when the CC grants write access
    /// to it; the whole command or nothing.
    private mutating func updateBinary(_ command: CommandAPDU) -> ResponseAPDU {
        guard let id = currentFile, let file = files[id] else { return ResponseAPDU(status: .noCurrentFile) }
        guard command.p1 & 0x80 == 0 else { return ResponseAPDU(status: .wrongParameters) }
        guard !command.data.isEmpty, command.le == nil else { return ResponseAPDU(status: .wrongLength) }
        let cc = try? Type4CapabilityContainer(files[Type4Tag.capabilityContainerFile] ?? [])
        guard id != Type4Tag.capabilityContainerFile, let cc, id == cc.ndefFileID, cc.write == .granted else {
            return ResponseAPDU(status: .securityStatusNotSatisfied)
        }
        guard command.data.count <= cc.maxWriteLength else { return ResponseAPDU(status: .wrongLength) }
        let offset = Int(command.p1) << 8 | Int(command.p2)
        guard offset + command.data.count <= file.count else { return ResponseAPDU(status: .wrongOffset) }
        files[id]!.replaceSubrange(offset..<(offset + command.data.count), with: command.data)
        return ResponseAPDU(status: .success)
    }

    /// B1: the offset comes in a `54 03` object, the data goes out in a `53` object, whose
    /// header counts against Le.
    private func readBinaryWithOffsetObject(_ command: CommandAPDU) -> ResponseAPDU {
        guard mapping == .version3Extended else { return ResponseAPDU(status: .instructionNotSupported) }
        guard let id = currentFile, let file = files[id] else { return ResponseAPDU(status: .noCurrentFile) }
        guard command.p1 == 0, command.p2 == 0, let offset = ExtendedReadBinary.offset(inCommandData: command.data) else {
            return ResponseAPDU(status: .wrongParameters)
        }
        guard let le = command.le, le <= maxReadLength, le > 4 else { return ResponseAPDU(status: .wrongLength) }
        guard offset < file.count else { return ResponseAPDU(status: .wrongOffset) }
        var count = min(le - 2, file.count - offset)
        while count + ExtendedReadBinary.headerLength(for: count) > le { count -= 1 }
        let response = ExtendedReadBinary.response(data: Array(file[offset..<(offset + count)]))
        return ResponseAPDU(data: response, status: offset + count == file.count && response.count < le ? .endOfFile : .success)
    }
}
