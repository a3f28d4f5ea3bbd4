import NDEF
import NFCSim
import NFCTags
import PropertyBased
import TestSupport
import Testing

/// A chip as it leaves the factory before NDEF formatting: CC page and data area zero.
func blankType2(_ product: Type2Product, presence: FieldPresence = FieldPresence()) throws -> VirtualType2Tag {
    try VirtualType2Tag(product: product, image: Type2MemoryImage.blank(product: product, uid: VirtualType2Tag.defaultUID), presence: presence)
}

/// Formatting, making read-only and NTAG21x passwords through ``Type2Driver`` against the
/// simulated chip, which enforces lock bits, the OTP CC, AUTH0/PROT and PWD_AUTH as the data
/// sheets describe them.
@Suite struct Type2FormatLockPasswordTests {
    static let password: [UInt8] = [0x12, 0x34, 0x56, 0x78]

    static func driver<Object: VirtualObject>(_ transport: InProcessTransport<Object>) -> Type2Driver {
        Type2Driver(transport: transport, uid: nil)
    }

    /// The error an operation ended with, nil when it succeeded.
    static func failure(_ body: () async throws -> Void) async -> TagWriteError? {
        do { try await body() } catch { return error as? TagWriteError ?? .didNotVerify }
        return nil
    }

    static func writes<Object>(_ transport: InProcessTransport<Object>) async -> [[UInt8]] {
        await transport.commands.filter { $0.first == Type2Command.writeCode }
    }

    // MARK: Formatting

    @Test(arguments: [(Type2Product.ntag213, "e1101200"), (.ntag215, "e1103e00"), (.ntag216, "e1106d00"),
                      (.ntag210, "e1100600"), (.ntag212, "e1101000"), (.ultralightEV1_48, "e1100600"),
                      (.ultralightEV1_128, "e1101000")])
    func formatsABlankChipOnlyWhenAsked(product: Type2Product, cc: String) async throws {
        let transport = InProcessTransport(try blankType2(product))
        await #expect(throws: TagWriteError.refused(.notFormatted)) {
            _ = try await Self.driver(transport).write(poster.encoded(), options: WriteOptions())
        }
        #expect(await Self.writes(transport).isEmpty)
        let blank = try await Self.driver(transport).status()
        #expect(!blank.formatted && blank.capacity == TLVAreaWritePlan.largestMessage(in: product.ccDataAreaSize))

        let report = try await Self.driver(transport).write(poster.encoded(), options: WriteOptions(formatIfBlank: true))
        #expect(report.formatted && report.changed)
        #expect(Array(await transport.object.memory[12..<16]) == hex(cc))
        #expect(try await Type2Tag.readNDEF(over: transport).message == poster)
        let status = try await Self.driver(transport).status()
        #expect(status.formatted && status.access == .readWrite && status.used == poster.encoded().count)
        #expect(status.passwordProtected == false)
    }

    @Test func aChipOfUnknownMemoryIsNotFormatted() async throws {
        // The original Ultralight has no GET_VERSION; a storage-card link does not pass it.
        try await Self.expectUnknownMemoryRefused(InProcessTransport(try blankType2(.ultralight)))
        try await Self.expectUnknownMemoryRefused(InProcessTransport(try blankType2(.ntag213), capabilities: storageCardLink))
    }

    static func expectUnknownMemoryRefused(_ transport: InProcessTransport<VirtualType2Tag>) async throws {
        let error = await #expect(throws: TagWriteError.self) {
            _ = try await Self.driver(transport).write(poster.encoded(), options: WriteOptions(formatIfBlank: true))
        }
        guard case .refused(.cannotFormat(let why))? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(why.contains("size of its memory is unknown"))
        #expect(await Self.writes(transport).isEmpty)
    }

    @Test func aCapabilityContainerHoldingOtherBitsIsNotFormatted() async throws {
        var tag = try blankType2(.ntag213)
        tag.write([0x00, 0x00, 0x00, 0x40], atPage: 3)     // one-time programmable: 0x40 cannot go
        let transport = InProcessTransport(tag)
        let error = await Self.failure { _ = try await Self.driver(transport).write(poster.encoded(), options: WriteOptions(formatIfBlank: true)) }
        guard case .refused(.cannotFormat(let why))? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(why.contains("00000040"))
        #expect(await Self.writes(transport).isEmpty)
    }

    /// Taken away after every command of format + write: the chip reads as blank, empty or the
    /// new message, never anything else.
    @Test func formattingIsTearSafe() async throws {
        let new = message(encodedSize: 100)
        var commands = 1
        while true {
            var tag = try blankType2(.ntag213, presence: FieldPresence(removeAfterCommands: commands))
            // Leftovers a reader would choke on: an NDEF TLV claiming 65 535 bytes.
            tag.write([0x03, 0xFF, 0xFF, 0xFF] + [UInt8](repeating: 0x5A, count: 40), atPage: 4)
            let transport = InProcessTransport(tag)
            let error = await Self.failure { _ = try await Self.driver(transport).write(new.encoded(), options: WriteOptions(formatIfBlank: true)) }
            if let error {
                #expect(error.isRemoval, "\(error)")
                var left = await transport.object
                left.presence = FieldPresence()
                if left.memory[12..<16].allSatisfy({ $0 == 0 }) {
                    #expect(try await !Type2Tag.readNDEF(over: InProcessTransport(left)).formatted)
                } else {
                    // Formatted: never the leftovers.
                    let bytes = try await Type2Tag.readNDEF(over: InProcessTransport(left)).ndefBytes
                    #expect(bytes == [] || bytes == new.encoded(), "gone after \(commands)")
                }
                commands += 1
                continue
            }
            var chip = await transport.object
            chip.presence = FieldPresence()
            #expect(try await Type2Tag.readNDEF(over: InProcessTransport(chip)).message == new)
            break
        }
        #expect(commands > 10)
    }

    /// The property over chips, leftover bytes in a blank data area, message sizes and the
    /// command after which the object leaves: blank, empty or the new message, nothing else.
    @Test func formattingLeftoversIsTearSafe() async {
        await propertyCheck(count: 100, input: Gen.element(of: [Type2Product.ntag213, .ntag215, .ntag216, .ntag210]),
                            Gen.int(in: 0...100), Gen.int(in: 1...24), Gen.int(in: 0...0xFFFF)) { product, fill, commands, seed in
            let product = product!    // element(of:) a non-empty list
            var generator = seed
            func next() -> UInt8 { generator = (generator &* 1_103_515_245 &+ 12_345) & 0x7FFF_FFFF; return UInt8(truncatingIfNeeded: generator >> 16) }
            var tag = try blankType2(product, presence: FieldPresence(removeAfterCommands: commands))
            // Leftovers: an old NDEF TLV header over random bytes (the CC was cleared, not the data).
            tag.write([0x03, 0x08 + next() % 0x20] + (2..<product.userMemory).map { _ in next() }, atPage: 4)
            let capacity = TLVAreaWritePlan.largestMessage(in: product.ccDataAreaSize)
            let new = (0..<(capacity * fill / 100)).map { _ in next() }
            let transport = InProcessTransport(tag)
            let error = await Self.failure { _ = try await Self.driver(transport).write(new, options: WriteOptions(formatIfBlank: true)) }
            var left = await transport.object
            left.presence = FieldPresence()
            if let error { #expect(error.isRemoval, "\(error)") }
            if left.memory[12..<16].allSatisfy({ $0 == 0 }) {
                #expect(error != nil)
                return
            }
            let bytes = try await Type2Tag.readNDEF(over: InProcessTransport(left)).ndefBytes
            #expect(bytes == [] || bytes == new, "\(product.name) gone after \(commands): \(bytes.count) bytes")
            if error == nil { #expect(bytes == new) }
        }
    }

    // MARK: Making read-only

    @Test(arguments: [(Type2Product.ntag213, "ff0f3f"), (.ntag215, "ff000f"), (.ntag216, "ff3f7f"), (.ntag210, nil)] as [(Type2Product, String?)])
    func makesReadOnlyThenRefusesWrites(product: Type2Product, dynamicLock: String?) async throws {
        let transport = InProcessTransport(try VirtualType2Tag(product: product, message: poster))
        let report = try await Self.driver(transport).makeReadOnly(options: WriteOptions())
        #expect(report.changed)
        let chip = await transport.object
        #expect(chip.memory[15] == 0x0F)
        #expect(Array(chip.memory[10..<12]) == [0xFF, 0xFF])
        if let dynamicLock, let page = product.configurationPages?.dynamicLock {
            #expect(Array(chip.memory[(page * 4)..<(page * 4 + 4)]) == hex(dynamicLock) + [0xBD])
        }
        #expect(try await Self.driver(transport).status().access == .readOnly)
        await #expect(throws: TagWriteError.refused(.readOnly)) {
            _ = try await Self.driver(transport).write(message(encodedSize: 20).encoded(), options: WriteOptions())
        }
        #expect(try await Type2Tag.readNDEF(over: transport).message == poster)
        // The lock bits themselves refuse a WRITE that skips the CC check, first and last data page alike.
        var locked = await transport.object
        #expect(locked.respond(to: [0xA2, 0x04, 0, 0, 0, 0]) == .nak(0))
        _ = locked.reactivate()
        #expect(locked.respond(to: [0xA2, UInt8(product.lastUserPage), 0, 0, 0, 0]) == .nak(0))
        // Again: nothing left to set.
        #expect(try await Self.driver(transport).makeReadOnly(options: WriteOptions()).changed == false)
    }

    @Test func aChipWhoseLockBitsAreUnknownOrBlankIsNotLocked() async throws {
        let ntag212 = InProcessTransport(try VirtualType2Tag(product: .ntag212, message: poster))
        let error = await Self.failure { _ = try await Self.driver(ntag212).makeReadOnly(options: WriteOptions()) }
        guard case .refused(.cannotFormat)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(await Self.writes(ntag212).isEmpty)
        let blank = InProcessTransport(try blankType2(.ntag213))
        await #expect(throws: TagWriteError.refused(.notFormatted)) {
            _ = try await Self.driver(blank).makeReadOnly(options: WriteOptions())
        }
        #expect(await Self.writes(blank).isEmpty)
    }

    /// Taken away after every command of make-read-only: the message reads as it was, and the
    /// object says read-write or read-only, nothing else.
    @Test func lockingIsTearSafe() async throws {
        var commands = 1
        while true {
            let transport = InProcessTransport(try VirtualType2Tag(product: .ntag216, message: poster,
                                                                   presence: FieldPresence(removeAfterCommands: commands)))
            if let error = await Self.failure({ _ = try await Self.driver(transport).makeReadOnly(options: WriteOptions()) }) {
                #expect(error.isRemoval, "\(error)")
                var left = await transport.object
                left.presence = FieldPresence()
                let rest = InProcessTransport(left)
                #expect(try await Type2Tag.readNDEF(over: rest).message == poster, "gone after \(commands)")
                let status = try await Self.driver(rest).status()
                #expect(status.formatted && status.used == poster.encoded().count, "gone after \(commands)")
                commands += 1
                continue
            }
            break
        }
        #expect(commands > 6)
    }

    /// Block-locking bits freeze the lock bits they cover (static BL 9-4, NTAG213 dynamic BL 16-19);
    /// CFGLCK locks CFG0/CFG1.
    @Test func blockLockingBitsAndCFGLCKInTheSimulatedChip() throws {
        var tag = try VirtualType2Tag(product: .ntag213, message: poster)
        #expect(tag.respond(to: [0xA2, 0x02, 0, 0, 0x02, 0x00]) == .frame([]))    // BL 9-4
        #expect(tag.respond(to: [0xA2, 0x02, 0, 0, 0xF0, 0xFF]) == .frame([]))    // L4-L15: only L10-L15 take
        #expect(Array(tag.memory[10..<12]) == [0x02, 0xFC])
        #expect(tag.respond(to: [0xA2, 0x04, 1, 2, 3, 4]) == .frame([]))
        #expect(tag.respond(to: [0xA2, 0x0A, 1, 2, 3, 4]) == .nak(0))
        _ = tag.reactivate()
        #expect(tag.respond(to: [0xA2, 0x28, 0x00, 0x00, 0x01, 0x00]) == .frame([]))    // BL 16-19
        #expect(tag.respond(to: [0xA2, 0x28, 0xFF, 0x0F, 0x00, 0x00]) == .frame([]))
        #expect(Array(tag.memory[160..<164]) == [0xFC, 0x0F, 0x01, 0xBD])
        #expect(tag.respond(to: [0xA2, 0x10, 1, 2, 3, 4]) == .frame([]))
        #expect(tag.respond(to: [0xA2, 0x14, 1, 2, 3, 4]) == .nak(0))
        _ = tag.reactivate()
        #expect(tag.respond(to: [0xA2, 0x2A, 0x40, 0x05, 0x00, 0x00]) == .frame([]))    // CFGLCK
        #expect(tag.respond(to: [0xA2, 0x29, 0x04, 0x00, 0x00, 0x04]) == .nak(0))
    }

    // MARK: Passwords

    @Test func aProtectedChipNeedsItsPassword() async throws {
        var tag = try VirtualType2Tag(product: .ntag215, message: poster)
        tag.protect(from: 4, password: Self.password, acknowledge: [0xAB, 0xCD])
        let transport = InProcessTransport(tag)
        #expect(try await Self.driver(transport).status().passwordProtected == true)
        let new = message(encodedSize: 60)

        await #expect(throws: TagWriteError.refused(.passwordRequired)) {
            _ = try await Self.driver(transport).write(new.encoded(), options: WriteOptions())
        }
        #expect(await Self.writes(transport).isEmpty)
        await #expect(throws: TagWriteError.refused(.wrongPassword)) {
            _ = try await Self.driver(transport).write(new.encoded(), options: WriteOptions(password: [0, 0, 0, 0]))
        }
        #expect(await Self.writes(transport).isEmpty)

        _ = try await Self.driver(transport).write(new.encoded(), options: WriteOptions(password: Self.password))
        #expect(try await Type2Tag.readNDEF(over: transport).message == new)
        // PWD and PACK are the image's, and read as zeros.
        let pages = try #require(Type2Product.ntag215.configurationPages)
        #expect(Array(await transport.object.memory[(pages.password * 4)..<(pages.passwordAcknowledge * 4 + 2)]) == Self.password + [0xAB, 0xCD])
        var chip = await transport.object
        _ = chip.reactivate()
        // READ rolls over past the last page (PACK) to page 0.
        #expect(chip.respond(to: Type2Command.read(page: UInt8(pages.password)).frame) == .frame([UInt8](repeating: 0, count: 8) + Array(chip.memory[0..<8])))
    }

    @Test func theChipTakesThePasswordItsImageHolds() async throws {
        // A factory image: PWD FF FF FF FF.
        var tag = try VirtualType2Tag(product: .ntag213, message: poster)
        #expect(tag.respond(to: Type2PasswordProtection.authenticate([0xFF, 0xFF, 0xFF, 0xFF])) == .frame([0x00, 0x00]))
        // Another image's PWD and PACK: FF FF FF FF is refused, the image's password is taken.
        let pages = try #require(Type2Product.ntag213.configurationPages)
        var image = tag.memory
        image.replaceSubrange((pages.password * 4)..<(pages.password * 4 + 8), with: Self.password + [0x5A, 0xA5, 0, 0])
        tag = try VirtualType2Tag(product: .ntag213, image: image)
        #expect(tag.respond(to: Type2PasswordProtection.authenticate([0xFF, 0xFF, 0xFF, 0xFF])) == .nak(0))
        _ = tag.reactivate()
        #expect(tag.respond(to: Type2PasswordProtection.authenticate(Self.password)) == .frame([0x5A, 0xA5]))
        // A reader's WRITE of PWD changes it.
        #expect(tag.respond(to: [Type2Command.writeCode, UInt8(pages.password), 1, 2, 3, 4]) == .frame([]))
        _ = tag.reactivate()
        #expect(tag.respond(to: Type2PasswordProtection.authenticate([1, 2, 3, 4])) == .frame([0x5A, 0xA5]))
    }

    @Test func aReadProtectedChipIsReadOnlyWithItsPassword() async throws {
        var tag = try VirtualType2Tag(product: .ntag215, message: poster)
        tag.protect(from: 4, password: Self.password, readsToo: true)
        for link in [LinkCapabilities.unrestricted, pn532Link] {
            let transport = InProcessTransport(tag, capabilities: link)
            await #expect(throws: TagReadError.passwordRequired) { try await Type2Tag.readNDEF(over: transport) }
            await #expect(throws: TagReadError.wrongPassword) { try await Type2Tag.readNDEF(over: transport, password: [0, 0, 0, 0]) }
            #expect(try await Type2Tag.readNDEF(over: transport, password: Self.password).message == poster)
            #expect(try await Type2Driver(transport: transport, uid: nil, password: Self.password).readNDEF().message == poster)
            await #expect(throws: TagWriteError.refused(.wrongPassword)) {
                try await Type2Driver(transport: transport, uid: nil, password: [0, 0, 0, 0]).status()
            }
            let status = try await Type2Driver(transport: transport, uid: nil, password: Self.password).status()
            #expect(status.formatted && status.passwordProtected == true && status.used == poster.encoded().count)
        }
        // Protected from a later page: the first pages read, the rest needs the password.
        var late = try VirtualType2Tag(product: .ntag215, message: message(encodedSize: 200))
        late.protect(from: 20, password: Self.password, readsToo: true)
        await #expect(throws: TagReadError.passwordRequired) { try await Type2Tag.readNDEF(over: InProcessTransport(late)) }
    }

    @Test func aPasswordDoesNotHinderReadingAnUnprotectedChip() async throws {
        // Not its password, but reading is not protected (writing is): the read goes on, and the
        // chip never sees the password (a wrong one would count against its AUTHLIM).
        var tag = try VirtualType2Tag(product: .ntag213, message: poster)
        tag.protect(from: 4, password: Self.password)
        let transport = InProcessTransport(tag)
        #expect(try await Type2Tag.readNDEF(over: transport, password: [0, 0, 0, 0]).message == poster)
        #expect(await !transport.commands.contains { $0.first == Type2PasswordProtection.authenticateCode })
        // A chip without a password (the original Ultralight) is read as it is.
        let ultralight = try VirtualType2Tag(product: .ultralight, message: poster)
        #expect(try await Type2Tag.readNDEF(over: InProcessTransport(ultralight), password: Self.password).message == poster)
    }

    @Test func aReadProtectedChipReadsAndWritesWithItsPassword() async throws {
        var tag = try VirtualType2Tag(product: .ntag213, message: poster)
        tag.protect(from: 4, password: Self.password, readsToo: true)
        let transport = InProcessTransport(tag)
        await #expect(throws: TagWriteError.refused(.passwordRequired)) {
            _ = try await Self.driver(transport).write([], options: WriteOptions())
        }
        await #expect(throws: TagWriteError.refused(.passwordRequired)) {
            try await Self.driver(transport).status()
        }
        _ = try await Self.driver(transport).write([], options: WriteOptions(password: Self.password))
        let lock = try await Self.driver(transport).makeReadOnly(options: WriteOptions(password: Self.password))
        #expect(lock.changed)
    }

    @Test func aWriteNAKedOnAnUnknownChipWithoutPasswordIsPasswordRequired() async throws {
        // Over a storage-card link the configuration pages are not known: the chip's NAK decides.
        var tag = try VirtualType2Tag(product: .ntag213, message: poster)
        tag.protect(from: 4, password: Self.password)
        let transport = InProcessTransport(tag, capabilities: storageCardLink)
        await #expect(throws: TagWriteError.refused(.passwordRequired)) {
            _ = try await Self.driver(transport).write(message(encodedSize: 40).encoded(), options: WriteOptions())
        }
        #expect(await Self.writes(transport).count == 1)
        #expect(try await Type2Tag.readNDEF(over: InProcessTransport(await transport.object)).message == poster)
        // And PWD_AUTH cannot cross such a link: refused before anything is sent.
        let error = await Self.failure { _ = try await Self.driver(transport).write([], options: WriteOptions(password: Self.password)) }
        guard case .refused(.unsupported(let why))? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(why.contains("password"))
    }
}
