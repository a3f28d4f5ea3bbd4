/// Puts any ``VirtualObject`` in the emulated PN532's field: the object answers the frames, this
/// wrapper adds what the reader learns during activation.
public struct PN532VirtualObjectTarget<Object: VirtualObject>: PN532Target {
    public var object: Object
    public let identity: PN532TargetIdentity

    public init(_ object: Object, identity: PN532TargetIdentity) {
        self.object = object
        self.identity = identity
    }

    public var isPresent: Bool { object.isPresent }

    public mutating func activate() -> Bool { object.reactivate() }

    public mutating func exchange(_ command: [UInt8]) -> PN532TargetReply {
        object.respond(to: command).pn532
    }
}

extension VirtualReply {
    /// The answer as the PN532 receives it on the air.
    public var pn532: PN532TargetReply {
        switch self {
        case .frame(let bytes): .data(bytes)
        case .nak(let code): .nak(code)
        case .silence: .silence
        }
    }
}

extension VirtualType2Tag {
    /// The tag as a PN532 finds it: its ATQA and SAK (00 44 and 00 unless a dump says otherwise, as
    /// the NTAG21x and Ultralight data sheets do), its UID.
    public var pn532Target: PN532VirtualObjectTarget<VirtualType2Tag> {
        PN532VirtualObjectTarget(self, identity: .iso14443A(sensRes: atqa, selRes: sak, nfcid1: uid, ats: nil))
    }
}

extension VirtualType4Tag {
    /// An NXP UID for ISO-DEP objects.
    public static let pn532DefaultUID: [UInt8] = [0x04, 0x6E, 0x21, 0x5A, 0x3C, 0x91, 0x80]
    /// A DESFire-like ATS: TL 06, T0 75 (FSCI 5: 64 bytes), TA1 77, TB1 81, TC1 02, one historical byte 80.
    public static let pn532DefaultATS: [UInt8] = [0x06, 0x75, 0x77, 0x81, 0x02, 0x80]

    /// The object as a PN532 finds it: ATQA 03 44, SAK 20 (ISO-DEP), `uid`, `ats`.
    public func pn532Target(uid: [UInt8] = pn532DefaultUID, ats: [UInt8] = pn532DefaultATS) -> PN532VirtualObjectTarget<VirtualType4Tag> {
        PN532VirtualObjectTarget(self, identity: .iso14443A(sensRes: [0x03, 0x44], selRes: 0x20, nfcid1: uid, ats: ats))
    }
}
