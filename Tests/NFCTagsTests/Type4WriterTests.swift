import NDEF
import NFCSim
import NFCTags
import Testing

/// The Type 4 writer and driver over the transport seam against the real simulated object:
/// written, verified, read back; refusals before any UPDATE BINARY; another object brought in
/// mid-write; removal after each command.
@Suite struct Type4WriterTests {
    static func updates<Object>(_ transport: InProcessTransport<Object>) async -> [[UInt8]] {
        await transport.commands.filter { $0.count > 1 && $0[1] == Type4WritePlan.updateBinary }
    }

    @Test(arguments: [(VirtualType4Tag.Mapping.version2, LinkCapabilities.unrestricted), (.version1, pn532Link),
                      (.version3Extended, shortAPDULink)])
    func writesVerifiesAndReadsBack(mapping: VirtualType4Tag.Mapping, link: LinkCapabilities) async throws {
        let transport = InProcessTransport(try VirtualType4Tag(mapping: mapping, message: poster, fileSize: 0x400), capabilities: link)
        let new = message(encodedSize: 700)
        let report = try await Type4Writer.write(new.encoded(), over: transport)
        #expect(report.changed)
        #expect(report.roundTrips == (await transport.roundTrips))
        #expect(try await Type4Tag.readNDEF(over: transport).message == new)
        let updates = await Self.updates(transport)
        let field = mapping == .version3Extended ? 4 : 2
        // Length 0 first, the body in chunks the link carries, the length last.
        #expect(updates.first == [0x00, 0xD6, 0x00, 0x00, UInt8(field)] + [UInt8](repeating: 0, count: field))
        #expect(updates.last?.suffix(2) == [0x02, 0xBC])
        #expect(updates.allSatisfy { $0.count <= link.maxResponseLength })
        // The same message again: nothing written.
        let again = try await Type4Writer.write(new.encoded(), over: transport)
        #expect(!again.changed)
        #expect(await Self.updates(transport).count == updates.count)
    }

    @Test func tooLargeReadOnlyAndBlankAreRefusedBeforeAnyUpdate() async throws {
        let small = InProcessTransport(try VirtualType4Tag(message: poster, fileSize: 0x40))
        _ = try await Type4Writer.write([UInt8](repeating: 0x20, count: 62), over: small)
        await #expect(throws: TagWriteError.refused(.doesNotFit(needed: 65, available: 64))) {
            try await Type4Writer.write([UInt8](repeating: 0x20, count: 63), over: small)
        }
        var cc = VirtualType4Tag.capabilityContainer(mapping: .version2, maxReadLength: 0xFF, fileSize: 0x40)
        cc[cc.count - 1] = 0xFF
        let locked = InProcessTransport(VirtualType4Tag(mapping: .version2, capabilityContainer: cc,
                                                        ndefFile: [0x00, UInt8(poster.encoded().count)] + poster.encoded()
                                                            + [UInt8](repeating: 0, count: 0x40 - 2 - poster.encoded().count),
                                                        maxReadLength: 0xFF))
        await #expect(throws: TagWriteError.refused(.readOnly)) {
            try await Type4Writer.write([], over: locked)
        }
        var blank = try VirtualType4Tag(message: nil)
        blank.statusOverrides[0xA4] = .fileNotFound
        let unformatted = InProcessTransport(blank)
        await #expect(throws: TagWriteError.refused(.notFormatted)) {
            try await Type4Writer.write(poster.encoded(), over: unformatted)
        }
        #expect(await Self.updates(locked).isEmpty)
        #expect(await Self.updates(unformatted).isEmpty)

        // Through the driver: formatting and locking are not standard for Type 4, and said so.
        let driver = Type4Driver(transport: unformatted, uid: nil)
        await #expect(throws: TagWriteError.refused(.cannotFormat(Type4Driver.noStandardFormat))) {
            try await driver.write(poster.encoded(), options: WriteOptions(formatIfBlank: true))
        }
        let status = try await driver.status()
        #expect(!status.formatted)
        await #expect(throws: TagWriteError.self) { try await Type4Driver(transport: small, uid: nil).makeReadOnly(options: WriteOptions()) }
        let lockedStatus = try await Type4Driver(transport: locked, uid: nil).status()
        #expect(lockedStatus.access == .readOnly && lockedStatus.used == poster.encoded().count && lockedStatus.capacity == 62)
        let smallStatus = try await Type4Driver(transport: small, uid: nil).status()
        #expect(smallStatus.access == .readWrite && smallStatus.used == 62)
    }

    /// Commands before the first UPDATE BINARY: SELECT application, SELECT CC, READ CC, SELECT
    /// NDEF file, READ NLEN, READ the 35-byte message.
    static let readsBeforeWriting = 6

    @Test(arguments: [0, 1, 2])
    func anotherObjectIsRefusedBeforeTheCommit(updatesBeforeSwap: Int) async throws {
        let first = try VirtualType4Tag(message: poster, fileSize: 0x400)
        let second = try VirtualType4Tag(message: poster, fileSize: 0x400)
        // The new message takes 2 body chunks: length 0, chunk, chunk, check, commit.
        let transport = InProcessTransport(SwappedObject(first: first, second: second,
                                                         commandsBeforeSwap: Self.readsBeforeWriting + updatesBeforeSwap + 1))
        let new = message(encodedSize: 400)
        await #expect(throws: TagWriteError.differentObject) {
            try await Type4Writer.write(new.encoded(), over: transport)
        }
        let object = await transport.object
        // The second object was never selected: it refused every command and holds its message.
        #expect(try await Type4Tag.readNDEF(over: InProcessTransport(object.second)).message == poster)
        let firstHolds = try await Type4Tag.readNDEF(over: InProcessTransport(object.first)).ndefBytes
        #expect(firstHolds == poster.encoded() || firstHolds == [])
    }

    @Test func theCheckBeforeTheCommitIsWhatRefusesTheSwap() async throws {
        // Swapped right before the check: every UPDATE reached the first object, the check the second.
        let first = try VirtualType4Tag(message: poster, fileSize: 0x400)
        let second = try VirtualType4Tag(message: poster, fileSize: 0x400)
        let transport = InProcessTransport(SwappedObject(first: first, second: second, commandsBeforeSwap: Self.readsBeforeWriting + 3))
        await #expect(throws: TagWriteError.differentObject) {
            try await Type4Writer.write(message(encodedSize: 400).encoded(), over: transport)
        }
        let commands = await transport.commands
        #expect(commands.last?[1] == 0xB0)                          // the check, not the commit
        #expect(try await Type4Tag.readNDEF(over: InProcessTransport(await transport.object.first)).ndefBytes == [])
    }

    @Test func removedMidWriteLeavesOldEmptyOrNew() async throws {
        let new = message(encodedSize: 400)
        for commands in 1...14 {
            let tag = try VirtualType4Tag(message: poster, fileSize: 0x400, presence: FieldPresence(removeAfterCommands: commands))
            let transport = InProcessTransport(tag, capabilities: shortAPDULink)
            do {
                try await Type4Writer.write(new.encoded(), over: transport)
                #expect(commands >= 13, "written with the object gone after \(commands) commands")
            } catch {
                #expect(error.isRemoval, "\(error)")
            }
            var left = await transport.object
            left.presence = FieldPresence()
            _ = left.reactivate()
            let bytes = try await Type4Tag.readNDEF(over: InProcessTransport(left)).ndefBytes
            #expect(bytes == poster.encoded() || bytes == [] || bytes == new.encoded(), "gone after \(commands)")
        }
    }
}
