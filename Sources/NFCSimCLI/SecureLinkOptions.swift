import ArgumentParser
import Authenticity
import LibCrypto
import NDEF
import NFCSim

/// `nfcsim vpcd --type type4 --secure-link …`: an NTAG 424 DNA-like object whose link is a fresh
/// secure dynamic message on every read (Docs/authenticity.md), made by Authenticity's own
/// ``SecureLinkTemplate`` with OpenSSL, so what nfcscan checks and what the simulator writes
/// follow one description of the scheme.
struct SecureLinkOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Make the object an NTAG 424 DNA-like chip with secure dynamic messages (Type 4 only): its link is this template with {picc_data} and {cmac} filled afresh on every read, the read counter one more each time (a link without placeholders gets ?picc_data={picc_data}&cmac={cmac}).", valueName: "url"))
    var secureLink: String?

    @Option(help: ArgumentHelp("The key (16 bytes in hex) the --secure-link object encrypts and MACs with, as both its SDMMetaReadKey and SDMFileReadKey (default: all zeros, as from the factory).", valueName: "hex"))
    var sunKey: String?

    @Flag(help: "The --secure-link object runs its secure dynamic messages in LRP mode (AN12304), not AES.")
    var lrp = false

    func validate(type4: Bool, object: ObjectOptions) throws {
        guard let secureLink else {
            if sunKey != nil || lrp { throw ValidationError("--sun-key and --lrp are for a --secure-link object") }
            return
        }
        guard type4 else { throw ValidationError("--secure-link is for --type type4") }
        if object.uri != nil || object.text != nil || object.ndef != nil || object.dump != nil {
            throw ValidationError("--secure-link is the object's message; give it without --uri, --text, --ndef or --dump")
        }
        if try template(secureLink).hasEncryptedFileData { throw ValidationError("--secure-link: nfcsim makes no {enc} (encrypted file data)") }
    }

    func template(_ url: String) throws -> SecureLinkTemplate {
        var key = [UInt8](repeating: 0, count: 16)
        if let sunKey {
            guard case .success(let bytes) = Hex.decode(sunKey), bytes.count == 16 else { throw ValidationError("--sun-key needs 16 bytes in hex (32 digits)") }
            key = bytes
        }
        do {
            return try SecureLinkTemplate(name: "nfcsim", url: url, mode: lrp ? .lrp : .aes, metaReadKey: key, fileReadKey: key)
        } catch {
            throw ValidationError("--secure-link: \(error)")
        }
    }

    /// The object's message source for a chip with `uid`; nil without --secure-link.
    func source(uid: [UInt8]) throws -> SecureLinkSource? {
        guard let secureLink else { return nil }
        return SecureLinkSource(template: try template(secureLink), uid: uid)
    }
}

/// The chip's side of a secure dynamic message: the link for its next read counter.
struct SecureLinkSource: DynamicMessage {
    let template: SecureLinkTemplate
    let uid: [UInt8]
    /// The last read's counter (the chip's SDMReadCtr starts at 0; the first read is 1).
    private(set) var counter = 0

    init(template: SecureLinkTemplate, uid: [UInt8]) {
        self.template = template
        self.uid = uid
    }

    mutating func next() -> NDEFMessage? {
        guard counter < 0xFFFFFF else { return nil }
        counter += 1
        let random = (0..<(template.mode == .aes ? 5 : 13)).map { _ in UInt8.random(in: 0...255) }
        guard let link = template.link(for: .init(uid: uid, counter: counter), random: random, aes: OpenSSL()) else { return nil }
        return NDEFMessage(URIRecord(uri: link).record())
    }
}
