/// A Signature record (`Sig`, NFC Forum Signature RTD 2.0), parsed but never verified: what it
/// claims to sign and who vouches for it is shown, not trusted.
public struct SignatureRecord: Hashable, Sendable {
    /// The signature itself, or a URI where it can be fetched.
    public enum Signature: Hashable, Sendable {
        case bytes([UInt8])
        case uri(String)
    }

    /// Version byte: 0x20 for 2.0, the only version decoded.
    public var version: UInt8
    /// Signature type code: 0 none (a marker), 1–11 defined (``signatureTypeName``).
    public var signatureType: UInt8
    public var hashType: UInt8
    public var signature: Signature
    /// Certificate format code: 0 X.509, 1 M2M.
    public var certificateFormat: UInt8
    public var certificates: [[UInt8]]
    /// Where the rest of the certificate chain can be fetched, when not embedded.
    public var certificateURI: String?

    public init(signatureType: UInt8, hashType: UInt8 = 2, signature: Signature, certificateFormat: UInt8 = 0,
                certificates: [[UInt8]] = [], certificateURI: String? = nil) {
        self.version = Self.supportedVersion
        self.signatureType = signatureType
        self.hashType = hashType
        self.signature = signature
        self.certificateFormat = certificateFormat
        self.certificates = certificates
        self.certificateURI = certificateURI
    }

    static let typeName = "Sig"
    static let supportedVersion: UInt8 = 0x20

    public static let signatureTypeNames: [UInt8: String] = [
        0x01: "RSASSA-PSS-1024", 0x02: "RSASSA-PKCS1-v1_5-1024", 0x03: "DSA-1024", 0x04: "ECDSA-P192",
        0x05: "RSASSA-PSS-2048", 0x06: "RSASSA-PKCS1-v1_5-2048", 0x07: "DSA-2048", 0x08: "ECDSA-P224",
        0x09: "ECDSA-K233", 0x0A: "ECDSA-B233", 0x0B: "ECDSA-P256",
    ]
    public static let hashTypeNames: [UInt8: String] = [0x02: "SHA-256"]
    public static let certificateFormatNames: [UInt8: String] = [0x00: "X.509", 0x01: "M2M"]

    /// The signature algorithm's name, `0x..` for an unassigned code, nil for a marker (type 0).
    public var signatureTypeName: String? {
        signatureType == 0 ? nil : Self.signatureTypeNames[signatureType] ?? Hex.code(signatureType)
    }
    public var hashTypeName: String { Self.hashTypeNames[hashType] ?? Hex.code(hashType) }
    public var certificateFormatName: String { Self.certificateFormatNames[certificateFormat] ?? Hex.code(certificateFormat) }

    public init(payload: [UInt8]) throws(NDEFError) {
        try self.init(payloadBytes: payload[...])
    }

    /// Decodes a payload in place, for records decoded from a message (their payloads are views).
    init(payloadBytes payload: ArraySlice<UInt8>) throws(NDEFError) {
        var reader = PayloadReader(type: Self.typeName, bytes: payload)
        version = try reader.u8("version")
        guard version == Self.supportedVersion else { throw reader.error(.invalidValue(field: "version", value: Int(version)), at: 0) }
        let signatureFlags = try reader.u8("signature type")
        signatureType = signatureFlags & 0x7F
        hashType = try reader.u8("hash type")
        let signatureLength = Int(try reader.u16("signature length"))
        signature = signatureFlags & 0x80 != 0
            ? .uri(try reader.utf8(signatureLength, "signature URI"))
            : .bytes(try reader.bytes(signatureLength, "signature"))
        let certificateFlags = try reader.u8("certificate chain flags")
        certificateFormat = certificateFlags >> 4 & 0x07
        var chain: [[UInt8]] = []
        for _ in 0..<Int(certificateFlags & 0x0F) {
            chain.append(try reader.bytes(Int(try reader.u16("certificate length")), "certificate"))
        }
        certificates = chain
        certificateURI = certificateFlags & 0x80 != 0
            ? try reader.utf8(Int(try reader.u16("certificate URI length")), "certificate URI")
            : nil
        try reader.expectEnd()
    }

    /// The payload bytes. Throws when a field is longer than its length field can say.
    public func payload() throws(NDEFError) -> [UInt8] {
        func tooLong(_ field: String, _ value: Int) -> NDEFError {
            .invalidPayload(type: Self.typeName, problem: .invalidValue(field: field, value: value), offset: 0)
        }
        guard signatureType < 0x80 else { throw tooLong("signature type", Int(signatureType)) }
        guard certificateFormat < 8 else { throw tooLong("certificate format", Int(certificateFormat)) }
        guard certificates.count < 16 else { throw tooLong("certificate count", certificates.count) }
        var out: [UInt8] = [version]
        let signatureBytes: [UInt8]
        switch signature {
        case .bytes(let bytes): out.append(signatureType); signatureBytes = bytes
        case .uri(let uri): out.append(0x80 | signatureType); signatureBytes = Array(uri.utf8)
        }
        guard signatureBytes.count <= 0xFFFF else { throw tooLong("signature length", signatureBytes.count) }
        out.append(hashType)
        out += BigEndian.bytes(UInt16(signatureBytes.count)) + signatureBytes
        out.append((certificateURI == nil ? 0 : 0x80) | certificateFormat << 4 | UInt8(certificates.count))
        for certificate in certificates {
            guard certificate.count <= 0xFFFF else { throw tooLong("certificate length", certificate.count) }
            out += BigEndian.bytes(UInt16(certificate.count)) + certificate
        }
        if let certificateURI {
            let bytes = Array(certificateURI.utf8)
            guard bytes.count <= 0xFFFF else { throw tooLong("certificate URI length", bytes.count) }
            out += BigEndian.bytes(UInt16(bytes.count)) + bytes
        }
        return out
    }
}
