import NDEF
import NFCObjects
import NFCReaders
@testable import NFCScanKit
import NFCSim
import NFCTags
import Testing

/// ObjectWrite, the one write every face runs (nfcscand's write session; `nfcscan write` can use
/// it too): against the real simulated chip through DetectedObject.perform, its outcome as a
/// WriteResult whose ending is the copy's, and what the object then reads back.
@Suite struct ObjectWriteTests {
    static let old = NDEFMessage(URIRecord(uri: "https://example.com/old").record())

    static func object() throws -> (DetectedObject, InProcessTransport<VirtualType2Tag>) {
        let tag = try VirtualType2Tag(product: .ntag213, message: old)
        let transport = InProcessTransport(tag)
        let object = DetectedObject(identifier: VirtualType2Tag.defaultUID, technology: .iso14443A(atqa: [0x00, 0x44], sak: 0x00, ats: []),
                                    platform: .type2, transport: transport)
        return (object, transport)
    }

    @Test func aLinkIsWrittenVerifiedAndReadsBack() async throws {
        let (object, transport) = try Self.object()
        let result = await ObjectWrite.link("https://example.com/new").run(on: object)
        #expect(result.ending == .done && result.written && !result.locked && result.error == nil)
        #expect(result.report?.changed == true && (result.report?.roundTrips ?? 0) > 0)
        #expect(try await Type2Tag.readNDEF(over: transport).message == NDEFMessage(URIRecord(uri: "https://example.com/new").record()))
        #expect(await ObjectWrite.link("https://example.com/new").run(on: object).ending == .done, "again: the same outcome")
    }

    @Test func tooLargeIsRefusedAndTheObjectKeepsItsMessage() async throws {
        let (object, transport) = try Self.object()
        let result = await ObjectWrite.text(String(repeating: "x", count: 200))!.run(on: object)
        #expect(result.ending == .tooLarge && !result.written)
        guard case .refused(.doesNotFit)? = result.error else { Issue.record("\(String(describing: result.error))"); return }
        #expect(try await Type2Tag.readNDEF(over: transport).message == Self.old)
        #expect(await transport.commands.allSatisfy { $0.first != Type2Command.writeCode })
    }

    @Test func anEraseLeavesAnEmptyMessage() async throws {
        let (object, transport) = try Self.object()
        #expect(await ObjectWrite.erase().run(on: object).ending == .done)
        #expect(try await Type2Tag.readNDEF(over: transport).ndefBytes == [])
    }

    /// Web NFC's `overwrite: false`: an object holding records is left as it was, one holding
    /// none is written.
    @Test func aWriteThatMustNotOverwriteLeavesAFullObjectAlone() async throws {
        let (object, transport) = try Self.object()
        var write = ObjectWrite.link("https://example.com/new")
        write.overwrite = false
        let refused = await write.run(on: object)
        #expect(refused.ending == .notEmpty && !refused.written)
        #expect(await transport.commands.allSatisfy { $0.first != Type2Command.writeCode })
        #expect(await ObjectWrite.erase().run(on: object).ending == .done)
        #expect(await write.run(on: object).ending == .done)
        #expect(try await Type2Tag.readNDEF(over: transport).message == NDEFMessage(URIRecord(uri: "https://example.com/new").record()))
    }

    /// Locking comes only after the verified write, and `done` means locked too.
    @Test func aLockComesAfterTheVerifiedWrite() async throws {
        let (object, transport) = try Self.object()
        let result = await ObjectWrite.link("https://example.com/locked", lock: true).run(on: object)
        #expect(result.written && result.locked && result.ending == .done, "\(result)")
        #expect(try await Type2Tag.readNDEF(over: transport).message == NDEFMessage(URIRecord(uri: "https://example.com/locked").record()))
    }

    /// Issue 21: a write session with lock through a reader that cannot reach the lock bits (a
    /// PC/SC storage-card link: no GET_VERSION, so an NTAG213's dynamic lock page is unknown)
    /// ends `unsupported` before its first WRITE: nothing written, the poster reads as it was,
    /// and the error names what would lock it.
    @Test func aLockTheLinkCannotDoRefusesBeforeTheWrite() async throws {
        let transport = InProcessTransport(try VirtualType2Tag(product: .ntag213, message: Self.old), capabilities: .init(
            maxResponseLength: 258, passesType2Extensions: false, extendedLengthAPDUs: false))
        let object = DetectedObject(identifier: VirtualType2Tag.defaultUID, technology: .iso14443A(atqa: [0x00, 0x44], sak: 0x00, ats: []),
                                    platform: .type2, transport: transport)
        let before = await transport.object.memory
        let result = await ObjectWrite.link("https://example.com/new", lock: true).run(on: object)
        #expect(result.ending == .unsupported && !result.written && !result.locked, "\(result)")
        guard case .refused(.unsupported(let why))? = result.error else { Issue.record("\(String(describing: result.error))"); return }
        #expect(why.contains("storage-card") && why.contains("ACR122U"), "\(why)")
        #expect(await transport.commands.allSatisfy { $0.first != Type2Command.writeCode })
        #expect(await transport.object.memory == before)
        #expect(try await Type2Tag.readNDEF(over: transport).message == Self.old)
    }

    @Test func aMessageIsCheckedAndNamedByWhatItHolds() throws {
        let link = NDEFMessage(URIRecord(uri: "https://example.com/").record()).encoded()
        #expect((try? WriteInput.message(link))?.action == .save(.link))
        #expect((try? WriteInput.message(NDEFMessage(try TextRecord(text: "Hi").record()).encoded()))?.action == .save(.text))
        let two = NDEFMessage(URIRecord(uri: "https://example.com/").record(), try TextRecord(text: "Hi").record()).encoded()
        #expect((try? WriteInput.message(two))?.action == .save(.information))
        #expect(throws: WriteInputFault.self, "a message that does not decode is refused") { try WriteInput.message([0xD1, 0x01, 0x09, 0x55]) }
        #expect(ObjectWrite.text("Hi", language: String(repeating: "a", count: 64)) == nil)
    }

    /// One set of bounds for `nfcscan write` and StartWriteSession, so neither accepts what the other refuses.
    @Test func inputIsBoundedOnceForEveryFace() throws {
        #expect(throws: WriteInputFault.empty) { try WriteInput.link("") }
        #expect(throws: WriteInputFault.notOneLine) { try WriteInput.link("https://example.com/\u{1B}[31m") }
        #expect(throws: WriteInputFault.tooLong(limit: 8192)) { try WriteInput.link(String(repeating: "a", count: 8193)) }
        // What is not a whole link is refused, with the web link it likely meant.
        #expect(throws: WriteInputFault.notALink(suggestion: "https://example.com/menu")) { try WriteInput.link("example.com/menu") }
        #expect(throws: WriteInputFault.notALink(suggestion: nil)) { try WriteInput.link("not a url") }
        #expect(throws: WriteInputFault.notALink(suggestion: nil)) { try WriteInput.link("https://example.com/a menu") }
        for link in ["https://example.com/menu", "mailto:a@example.com", "tel:+15551234", "geo:1,2"] {
            #expect(try WriteInput.link(link) == link)
        }
        #expect(try WriteInput.text("two\nlines") == "two\nlines", "a text may hold several lines")
        #expect(throws: WriteInputFault.tooLong(limit: 65536)) { try WriteInput.text(String(repeating: "a", count: 65537)) }
        #expect(try WriteInput.language("es-419") == "es-419", "region digits are part of IANA tags")
        #expect(throws: WriteInputFault.notALanguage) { try WriteInput.language("en GB") }
        #expect(throws: WriteInputFault.notALanguage) { try WriteInput.language(String(repeating: "a", count: 64)) }
        #expect(throws: WriteInputFault.tooLong(limit: 65536)) { try WriteInput.message(Array(repeating: 0, count: 65537)) }
        #expect(throws: WriteInputFault.empty) { try WriteInput.message([]) }
        #expect(throws: WriteInputFault.notALanguage) { try WriteInput.language("") }
    }
}
