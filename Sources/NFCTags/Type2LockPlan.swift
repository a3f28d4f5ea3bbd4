import NDEF

/// Making a formatted Type 2 object read-only for good, in an order where an object taken away
/// after any WRITE still reads its message and says no more than it is: the CC's write access to
/// 0x0F first (readers and writers then treat it as read-only), then the static lock bits (page 2
/// bytes 2–3: pages 3–15 and their block-locking bits), then the chip's dynamic lock bits (pages
/// 16 on, RFUI bits left 0). Every one of these bits is one-time programmable; a WRITE ORs them in,
/// so bits already set are not written again.
public struct Type2LockPlan: Hashable, Sendable {
    /// The WRITEs, in order; each is read back and checked.
    public let writes: [Type2PageWrite]

    /// - Parameters:
    ///   - product: the chip GET_VERSION named, when known.
    ///   - header: pages 0–3 as read (lock bytes, CC).
    ///   - layout: the data area as read; its message, read as the reader reads it (around the
    ///     reserved areas), must be a valid NDEF message, or nothing is made permanent.
    ///   - dynamicLockBytes: the dynamic lock page as read, for a chip that has one.
    ///   - link: what the link to the chip carries (a storage-card link hides which chip it is,
    ///     and so where its dynamic lock bits are: see ``checkReachable(product:lastDataPage:link:)``).
    public init(product: Type2Product?, header: [UInt8], layout: Type2DataLayout, dynamicLockBytes: [UInt8]?,
                link: LinkCapabilities) throws(WriteRefusal) {
        guard header.count >= 16 else { throw .memoryIncomplete(needed: 16, available: header.count) }
        if let message = layout.message, !message.isEmpty {
            do { _ = try NDEFMessage(decoding: message) } catch {
                throw .unsupported("its message does not read cleanly (\(error)); write it again first")
            }
        }
        let lastDataPage = Type2Tag.ccPage + layout.data.count / Type2Product.pageSize
        try Self.checkReachable(product: product, lastDataPage: lastDataPage, link: link)
        var writes: [Type2PageWrite] = []
        var cc = Array(header[12..<16])
        if cc[3] != 0x0F {
            cc[3] = 0x0F
            writes.append(Type2PageWrite(page: Type2Tag.ccPage, bytes: cc))
        }
        if header[10..<12] != Type2StaticLock.lockingEverything[2...] {
            writes.append(Type2PageWrite(page: Type2StaticLock.page, bytes: Type2StaticLock.lockingEverything))
        }
        if lastDataPage > Type2StaticLock.lastPage {
            guard let lock = product?.dynamicLock, let page = product?.configurationPages?.dynamicLock,
                  let current = dynamicLockBytes, current.count >= 4 else {
                throw .cannotFormat("its dynamic lock bytes could not be read")
            }
            let wanted = lock.lockingEverything
            if zip(current.prefix(3), wanted.prefix(3)).contains(where: { $0 & $1 != $1 }) {
                writes.append(Type2PageWrite(page: page, bytes: wanted))
            }
        }
        self.writes = writes
    }

    /// Refuses, before anything is written, a lock whose bits cannot be found: a data area that
    /// ends at or before page 15 is locked by the static lock bits every chip has (page 2), but
    /// memory past it by dynamic lock bits in a page each chip places differently, known only
    /// from the chip's name (GET_VERSION) and the table of chips. A PC/SC storage-card link
    /// (``LinkCapabilities/passesType2Extensions`` false) does not pass GET_VERSION, so there
    /// the lock is `unsupported` whatever the chip, and the text says which reader would do it;
    /// a chip that did not say its name, or one the table has no dynamic lock for (NTAG212,
    /// Ultralight EV1 128), cannot be locked by this writer at all.
    public static func checkReachable(product: Type2Product?, lastDataPage: Int, link: LinkCapabilities) throws(WriteRefusal) {
        guard lastDataPage > Type2StaticLock.lastPage else { return }
        if product?.dynamicLock != nil, product?.configurationPages?.dynamicLock != nil { return }
        if product == nil, !link.passesType2Extensions { throw .unsupported(storageCardLock) }
        throw .cannotFormat("where the lock bits of its memory past the first 48 bytes are is not known for this chip")
    }

    /// Why a storage-card link cannot lock a chip of more than 48 bytes, and what can.
    public static let storageCardLock = "locking it through this reader: a PC/SC storage-card link passes only READ and WRITE to the chip, not GET_VERSION, so which chip it is, and where the lock bits of its memory past the first 48 bytes are, stays unknown; a reader that passes the chip's own commands can lock it (a PC/SC reader with a pass-through such as an ACR122U, or a libnfc reader such as a PN532)"

    /// Whether a page read back after `write` holds every bit it set (OTP bits: a set bit that
    /// reads 0 did not take; bytes the chip ignores were written as 0).
    public static func took(_ write: Type2PageWrite, readBack page: ArraySlice<UInt8>) -> Bool {
        page.count >= 4 && zip(page.prefix(4), write.bytes).allSatisfy { $0 & $1 == $1 }
    }
}
