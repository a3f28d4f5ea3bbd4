import NDEF

/// One Type 2 WRITE (A2): four bytes to one page.
public struct Type2PageWrite: Hashable, Sendable {
    public var page: Int
    public var bytes: [UInt8]

    /// The command frame, without the CRC the backend adds.
    public var frame: [UInt8] { [Type2Command.writeCode, UInt8(page)] + bytes }
}

/// Why a message cannot be written to a Type 2 object; nothing has been sent when one is given.
public enum Type2WriteRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// The capability container does not say NDEF (a blank chip): it must be formatted first.
    case notFormatted
    /// The capability container is malformed or of a mapping version this writer does not know.
    case capabilityContainer(CapabilityContainerError)
    /// The capability container's write access is not "granted".
    case readOnly
    /// The data area's TLVs cannot be walked, so where the message goes is unknown.
    case unreadableLayout(TLVError)
    /// The plan needs the whole data area as read; `available` bytes from the CC page were given.
    case memoryIncomplete(needed: Int, available: Int)
    /// The NDEF TLV needs `needed` bytes (type, 1- or 3-byte length, message); `available` bytes
    /// are free from where it goes to the end of the data area or the first reserved area.
    case doesNotFit(needed: Int, available: Int)

    public var description: String {
        switch self {
        case .notFormatted: "not formatted for NDEF"
        case .capabilityContainer(let error): error.description
        case .readOnly: "read-only (capability container)"
        case .unreadableLayout(let error): "data area unreadable: \(error)"
        case .memoryIncomplete(let needed, let available): "memory read \(available) of \(needed) bytes"
        case .doesNotFit(let needed, let available): "message needs \(needed) bytes, \(available) free"
        }
    }
}

/// The WRITEs that replace a Type 2 object's NDEF message in the tear-safe order of NFC Forum
/// Type 2 Tag §7.5.3, so an object taken away after any of them reads as the old message, an
/// empty one or the new one:
///
/// 1. **Empty**: the page holding the TLV's first length byte is written with that byte 0 (the
///    rest of the page already as in the end state), and the page holding the TLV type 03 when
///    it is another page. When the TLV goes where a Terminator was, the length page goes first
///    (the Terminator still ends the walk); otherwise the type page goes first (what follows it
///    is already 00, or it already is 03).
/// 2. **Body**: every other page that changes, in address order: the message, the 3-byte length's
///    last two bytes, the Terminator. A reader stops at the empty TLV and never sees them.
/// 3. **Commit**: the length page again, with the real first length byte (0xFF of the 3-byte
///    form, or the 1-byte length): one WRITE, so the message appears whole or not at all.
///
/// Pages whose bytes do not change are not written. The message goes where the NDEF TLV is, or
/// where the Terminator is, or after the last non-NULL TLV (Lock and Memory Control TLVs and the
/// bytes before the message are never changed). It must end before the data area does and before
/// the first area a Lock or Memory Control TLV reserves after it. Bytes after the new Terminator
/// are left as they are: readers stop at the message.
public struct Type2WritePlan: Hashable, Sendable {
    /// The WRITEs, in the order they must be sent.
    public let writes: [Type2PageWrite]
    /// Data-area bytes the NDEF TLV may use from where it goes.
    public let available: Int
    /// The data area (from page 4) once every write is done.
    public let dataArea: [UInt8]

    /// Plans writing `message` (the encoded NDEF message; empty for an empty message).
    /// - Parameters:
    ///   - memory: the object's memory from the capability container page (3) on, through the end
    ///     of the data area, as read.
    ///   - userMemory: the chip's user memory from GET_VERSION, when known (bounds the CC as the
    ///     reader does).
    public init(memory: [UInt8], userMemory: Int?, message: [UInt8]) throws(Type2WriteRefusal) {
        let cc: Type2CapabilityContainer
        do { cc = try Type2CapabilityContainer(memory.prefix(4)) } catch {
            if case .notNDEF = error { throw .notFormatted }
            throw .capabilityContainer(error)
        }
        guard cc.write == .granted else { throw .readOnly }
        let capacity = Type2Tag.capacity(of: cc, userMemory: userMemory)
        guard memory.count >= 4 + capacity else { throw .memoryIncomplete(needed: 4 + capacity, available: memory.count) }
        let data = Array(memory[4..<(4 + capacity)])

        let blocks: [TLVBlock]
        do { blocks = try TLVWalker.blocks(in: data) } catch { throw .unreadableLayout(error) }
        let start = blocks.first { $0.tag == .ndefMessage || $0.tag == .terminator }?.offset
            ?? blocks.last { $0.tag != .null }?.valueRange.upperBound ?? 0

        // The TLV ends before the first reserved area at or after where it starts.
        var limit = capacity
        for block in blocks where block.tag == .lockControl || block.tag == .memoryControl {
            let reserved: Range<Int>
            do { reserved = try Type2Tag.reservedArea(of: block, data: data) } catch { throw .unreadableLayout(error) }
            let inData = (reserved.lowerBound - Type2Tag.dataAreaStart)..<(reserved.upperBound - Type2Tag.dataAreaStart)
            guard inData.upperBound > start, !inData.isEmpty else { continue }
            limit = min(limit, max(start, inData.lowerBound))
        }
        available = limit - start
        guard let tlv = TLVWalker.encode(.ndefMessage, value: message) else {
            throw .doesNotFit(needed: message.count + 4, available: available)
        }
        guard tlv.count <= available else { throw .doesNotFit(needed: tlv.count, available: available) }

        var final = data
        final.replaceSubrange(start..<(start + tlv.count), with: tlv)
        if start + tlv.count < limit { final[start + tlv.count] = TLVBlock.Tag.terminator.rawValue }
        guard final != data else {
            (writes, dataArea) = ([], final)
            return
        }
        var staging = final
        staging[start + 1] = 0

        let size = Type2Product.pageSize
        var current = data
        var writes: [Type2PageWrite] = []
        func write(_ page: Int, from image: [UInt8]) {
            let range = (page * size)..<((page + 1) * size)
            guard current[range] != image[range] else { return }
            current.replaceSubrange(range, with: image[range])
            writes.append(Type2PageWrite(page: Type2Product.firstUserPage + page, bytes: Array(image[range])))
        }
        let typePage = start / size, lengthPage = (start + 1) / size
        if data[start] == TLVBlock.Tag.terminator.rawValue {
            write(lengthPage, from: staging)
            write(typePage, from: staging)
        } else {
            write(typePage, from: staging)
            write(lengthPage, from: staging)
        }
        for page in 0..<(capacity / size) where page != lengthPage { write(page, from: staging) }
        write(lengthPage, from: final)
        self.writes = writes
        dataArea = final
    }
}
