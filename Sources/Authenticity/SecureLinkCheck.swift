import NDEF
import NFCTags

/// What checking one link against the configured templates found: the report's
/// `"secure_link"` on the link's record.
public struct SecureLinkFinding: Hashable, Sendable {
    /// The link's record, its index among the message's records.
    public var recordIndex: Int
    /// The template it matched (its section in the keys file).
    public var template: String
    /// Its MAC verifies under the template's keys.
    public var verified: Bool
    /// The chip's UID and read counter, decrypted; nil unless verified (what a link that does
    /// not verify says of itself is not to be believed).
    public var uid: [UInt8]?
    public var counter: Int?
    /// A verified link whose counter is not above the last one seen for that chip: the same
    /// link read before (copied), not a fresh read of the chip.
    public var replayed: Bool

    public init(recordIndex: Int, template: String, verified: Bool, uid: [UInt8]? = nil, counter: Int? = nil, replayed: Bool = false) {
        self.recordIndex = recordIndex
        self.template = template
        self.verified = verified
        self.uid = uid
        self.counter = counter
        self.replayed = replayed
    }
}

/// The outcome of a link's cryptography, before replay is considered.
public struct SecureLinkVerdict: Hashable, Sendable {
    public var verified: Bool
    public var picc: SecureDynamicMessage.PICCData?
}

extension SecureLinkTemplate {
    /// Whether `link` is this template filled in by a chip holding its keys: nil when the link
    /// is not of this template at all.
    public func verify(_ link: String, aes: any AES128) -> SecureLinkVerdict? {
        guard let parts = match(link) else { return nil }
        guard let picc = SecureDynamicMessage.decrypt(parts.piccData, mode: mode, metaReadKey: metaReadKey, aes: aes),
              let expected = SecureDynamicMessage.mac(parts.macInput, picc: picc, mode: mode, fileReadKey: fileReadKey, aes: aes),
              Self.equalInConstantTime(expected, parts.mac) else {
            return SecureLinkVerdict(verified: false, picc: nil)
        }
        return SecureLinkVerdict(verified: true, picc: picc)
    }

    /// The link a chip with this template's keys writes for `picc` (the simulator's object).
    /// `random`: the PICCData's padding (5 bytes, LRP 13: then its PICCRand).
    public func link(for picc: SecureDynamicMessage.PICCData, random: [UInt8], aes: any AES128) -> String? {
        guard !hasEncryptedFileData,
              let encrypted = SecureDynamicMessage.encrypt(picc, mode: mode, metaReadKey: metaReadKey, random: random, aes: aes) else { return nil }
        return fill(piccData: encrypted, enc: nil) { SecureDynamicMessage.mac($0, picc: picc, mode: mode, fileReadKey: fileReadKey, aes: aes) }
    }

    private static func equalInConstantTime(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

extension AuthenticityChecks {
    /// Every top-level link record of `reading` that one of the templates describes, checked;
    /// a verified one's counter is remembered (``secureLinkCounters``) and a replay found.
    func secureLinks(in reading: TagReading) -> [SecureLinkFinding] {
        guard !secureLinks.isEmpty, let message = reading.message else { return [] }
        var findings: [SecureLinkFinding] = []
        for (index, record) in message.records.enumerated() {
            guard case .uri(let uri)? = try? record.content() else { continue }
            let link = uri.uri
            for template in secureLinks {
                guard let verdict = template.verify(link, aes: aes) else { continue }
                var finding = SecureLinkFinding(recordIndex: index, template: template.name, verified: verdict.verified)
                if let picc = verdict.picc {
                    finding.uid = picc.uid
                    finding.counter = picc.counter
                    finding.replayed = secureLinkCounters.remember(uid: picc.uid, counter: picc.counter)
                }
                findings.append(finding)
                break
            }
        }
        return findings
    }
}
