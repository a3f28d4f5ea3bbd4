import NDEF

// How each platform's read takes the chip's originality signature: which chips carry one, the
// command that reads it, and what a refusal, silence or a link that cannot carry the command
// means. At most one exchange per read (plus a re-activation where a refusal idles the chip);
// the evidence goes on the reading (``TagReading/originality``) for Authenticity's verdict.

extension Type2Tag {
    /// Why a link without NXP's own commands gives no signature.
    static let signatureNotCarried = "this reader passes only reads and writes to the chip (a PC/SC storage-card reader): neither which chip it is nor its signature can be asked"

    /// READ_SIG (3C 00) for a chip GET_VERSION named as one of a signing family; nil for any other
    /// (unknown chips, chips without GET_VERSION). A NAK or silence is ``OriginalityEvidence/missing(_:)``
    /// (a genuine NTAG21x or Ultralight EV1 always answers) and idles the chip, so it is activated
    /// again, as after a refused GET_VERSION. The password does not guard READ_SIG.
    ///
    /// A link that passes neither GET_VERSION nor READ_SIG cannot tell the chip either: an object
    /// with NXP's UID (manufacturer 04; or no UID known) is ``OriginalityEvidence/notCarried(_:reason:)``,
    /// named NTAG21x, the signing family such a reader most often holds; nothing is sent.
    static func readSignature(_ link: inout CountedLink, product: Type2Product?, uid: [UInt8]?) async throws(TagReadError) -> OriginalityEvidence? {
        guard link.transport.capabilities.passesType2Extensions else {
            guard (uid?.first ?? 0x04) == 0x04 else { return nil }
            return .notCarried(product?.originality ?? .ntag21x, reason: signatureNotCarried)
        }
        guard let family = product?.originality else { return nil }
        let answer: [UInt8]
        do { answer = try await link.exchange(Type2Command.readSignature.frame) } catch {
            switch error {
            case .notSupported(let what): return .notCarried(family, reason: "this reader cannot send \(what)")
            case .timeout, .protocolError:
                try await link.reactivate()
                return .missing(family)
            default: throw link.mapped(error)
            }
        }
        guard answer.count != 1 else {
            try await link.reactivate()
            return .missing(family)
        }
        // Any other answer is the chip's, whatever its length: the verdict judges it.
        return .signature(family, answer)
    }
}

extension Type4Tag {
    /// Read_Sig in ISO 7816-4 wrapping (NTAG 424 DNA NT4H2421Gx §10.12; DESFire EV2/EV3): CLA 90,
    /// INS 3C, address 00; the answer is the 56-byte signature and `91 00`.
    public static let readSignature = CommandAPDU(cla: 0x90, ins: 0x3C, p1: 0x00, p2: 0x00, data: [0x00], le: 0x100)
    /// Bytes of a Read_Sig signature (secp224r1: r and s, 28 bytes each).
    public static let signatureLength = 56

    /// The factory capability container of an NTAG 424 DNA: CCLEN 23 (it names the proprietary
    /// file E105 after the NDEF file E104). DESFire EV2/EV3 formatted for NDEF (NXP AN11004) carry
    /// the 15-byte CC.
    static let ntag424CCLength = 0x17

    /// Read_Sig, sent only to a chip whose UID is NXP's (7 bytes, manufacturer 04): a phone, a
    /// random-UID chip or another maker's answers nothing checkable, so it costs no exchange. Sent
    /// after the NDEF read, with the NDEF application selected (where open implementations send it
    /// to an NTAG 424 DNA, without authentication), or with none selected when the chip has no
    /// NDEF application (a DESFire answers at card level). Only a 56-byte
    /// answer with `91 00` (or `91 90`, which AN12196's example shows for an unauthenticated
    /// read) is a signature; anything else (`6E 00`, `91 1C`, `91 AE` with a random UID enabled)
    /// says the chip is not one of these families, and gives nil, as does a link that fails now:
    /// the message is already whole. The family is NTAG 424 DNA when the CC is its factory one,
    /// else DESFire (the verdict tries every secp224r1 key of NXP's either way).
    static func readSignature(_ link: inout CountedLink, uid: [UInt8]?, cc: Type4CapabilityContainer?) async -> OriginalityEvidence? {
        guard let uid, uid.count == 7, uid[0] == 0x04 else { return nil }
        guard let raw = try? await link.exchange(readSignature.bytes), let response = ResponseAPDU(raw),
              response.status == StatusWord(0x9100) || response.status == StatusWord(0x9190),
              response.data.count == signatureLength else { return nil }
        let family: OriginalityFamily = cc?.length == ntag424CCLength ? .ntag424DNA : .desfire
        return .signature(family, response.data)
    }
}

extension OriginalityFamily {
    /// The signing family an ISO 15693 UID (most significant byte first) names: E0, NXP's
    /// manufacturer code 04, IC type 01 (the ICODE SLI family), and the type indicator in bits
    /// 4–3 of the next byte (NXP's ICODE UID format, as the Proxmark3 and Flipper Zero ICODE
    /// tables read it): 01 ICODE SLIX2, 11 ICODE DNA (NTAG 5 shares it). SLI (00) and SLIX (10)
    /// have no READ SIGNATURE: nil, as for every other chip.
    public static func icode(uid: [UInt8]?) -> OriginalityFamily? {
        guard let uid, uid.count == 8, uid[0] == 0xE0, uid[1] == 0x04, uid[2] == 0x01 else { return nil }
        return uid[3] & 0x18 == 0x08 || uid[3] & 0x18 == 0x18 ? .icode : nil
    }
}

extension Type5Command {
    /// ICODE's custom command READ SIGNATURE (BD) with NXP's manufacturer code 04: `00` and the
    /// 32-byte signature.
    public static let readSignatureCode: UInt8 = 0xBD
    public static let nxpManufacturer: UInt8 = 0x04
    public static let readSignature: [UInt8] = [flags, readSignatureCode, nxpManufacturer]
}

extension Type5Tag {
    /// Why a link without raw ISO 15693 commands gives no signature.
    static let signatureNotCarried = "this reader passes only block reads and writes to the chip (PC/SC storage-card commands), not the command that reads its signature"

    /// READ SIGNATURE for an ICODE SLIX2 or DNA (``OriginalityFamily/icode(uid:)``); nil for any
    /// other chip. `rawCommands`: whether the link carries ISO 15693 commands beyond the block
    /// reads and writes (GET SYSTEM INFORMATION's flag: a PC/SC storage-card link carries
    /// neither). An error answer or silence is ``OriginalityEvidence/missing(_:)``; an ISO 15693
    /// chip stays ready after either, so nothing is re-activated.
    static func readSignature(_ link: inout CountedLink, uid: [UInt8]?, rawCommands: Bool) async throws(TagReadError) -> OriginalityEvidence? {
        guard let family = OriginalityFamily.icode(uid: uid) else { return nil }
        guard rawCommands else { return .notCarried(family, reason: signatureNotCarried) }
        let answer: [UInt8]
        do { answer = try await link.exchange(Type5Command.readSignature) } catch {
            switch error {
            case .notSupported(let what): return .notCarried(family, reason: "this reader cannot send \(what)")
            case .timeout, .protocolError: return .missing(family)
            default: throw link.mapped(error)
            }
        }
        guard answer.first == 0x00, answer.count > 1 else { return .missing(family) }
        return .signature(family, Array(answer.dropFirst()))
    }
}
