import NDEF
import NFCSim
import NFCTags
import TestSupport
import Testing

/// A write to be locked after it (``WriteOptions/lockAfter``) refuses, before its first command
/// that changes the object, whatever would make the lock refuse (issue 21): the plan knows the
/// link's capabilities, and the writers count no WRITE when it says no.
@Suite struct LockFirstTests {
    static let new = NDEFMessage(URIRecord(uri: "https://example.com/new-poster").record())

    static func writes<Object>(_ transport: InProcessTransport<Object>) async -> [[UInt8]] {
        await transport.commands.filter { $0.first == Type2Command.writeCode }
    }

    static func header(of tag: VirtualType2Tag) -> [UInt8] { Array(tag.memory[0..<16]) }

    // MARK: The pure plan

    /// Over a storage-card link GET_VERSION does not pass, so an NTAG213's dynamic lock bits
    /// (past the first 48 bytes) cannot be found: the write plan refuses, naming what would.
    @Test func aWritePlanToBeLockedRefusesWhereTheLinkCannotReachTheLockBits() throws {
        let tag = try VirtualType2Tag(product: .ntag213, message: poster)
        let memory = Type2WritePlanTests.memory(of: tag)
        let context = Type2LockContext(product: nil, header: Self.header(of: tag), dynamicLockBytes: nil, link: storageCardLink)
        #expect(throws: WriteRefusal.unsupported(Type2LockPlan.storageCardLock)) {
            try Type2WritePlan(memory: memory, userMemory: nil, message: Self.new.encoded(), lock: context)
        }
        #expect(Type2LockPlan.storageCardLock.contains("ACR122U"))
        // The same write, not to be locked, is planned.
        let plan = try Type2WritePlan(memory: memory, userMemory: nil, message: Self.new.encoded())
        #expect(!plan.writes.isEmpty && plan.lock == nil)
        // Known chip, link that passes its commands: the plan carries the lock (CC, static, dynamic).
        let known = Type2LockContext(product: .ntag213, header: Self.header(of: tag),
                                     dynamicLockBytes: Array(tag.memory[(0x28 * 4)..<(0x28 * 4 + 4)]), link: .unrestricted)
        let locked = try Type2WritePlan(memory: memory, userMemory: 144, message: Self.new.encoded(), lock: known)
        #expect(locked.lock?.writes.map(\.page) == [3, 2, 0x28])
    }

    /// A 48-byte data area is locked by the static lock bits alone, which a storage-card link
    /// reaches with UPDATE BINARY: planned.
    @Test func aSmallChipIsLockedThroughAStorageCardLink() throws {
        let tag = try VirtualType2Tag(product: .ntag210, message: poster)
        let context = Type2LockContext(product: nil, header: Self.header(of: tag), dynamicLockBytes: nil, link: storageCardLink)
        let plan = try Type2WritePlan(memory: Type2WritePlanTests.memory(of: tag), userMemory: nil, message: Self.new.encoded(), lock: context)
        #expect(plan.lock?.writes.map(\.page) == [3, 2])
    }

    /// A message that would not read cleanly once written cannot be locked either: refused with
    /// the write.
    @Test func aPlanRefusesAMessageItCouldNotLock() throws {
        let tag = try VirtualType2Tag(product: .ntag213, message: poster)
        let context = Type2LockContext(product: .ntag213, header: Self.header(of: tag),
                                       dynamicLockBytes: Array(tag.memory[(0x28 * 4)..<(0x28 * 4 + 4)]), link: .unrestricted)
        let error = #expect(throws: WriteRefusal.self) {
            try Type2WritePlan(memory: Type2WritePlanTests.memory(of: tag), userMemory: 144, message: [0xD1, 0x01], lock: context)
        }
        guard case .unsupported(let why)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(why.contains("does not read cleanly"))
    }

    // MARK: The writers, counting commands

    @Test func aStorageCardWriteToBeLockedSendsNoWrite() async throws {
        let transport = InProcessTransport(try VirtualType2Tag(product: .ntag213, message: poster), capabilities: storageCardLink)
        let before = await transport.object.memory
        let driver = Type2Driver(transport: transport, uid: nil)
        await #expect(throws: TagWriteError.refused(.unsupported(Type2LockPlan.storageCardLock))) {
            try await driver.write(Self.new.encoded(), options: WriteOptions(lockAfter: true))
        }
        #expect(await Self.writes(transport).isEmpty)
        #expect(await transport.object.memory == before)
        // Not to be locked, the same link writes it.
        _ = try await driver.write(Self.new.encoded(), options: WriteOptions())
        #expect(try await Type2Tag.readNDEF(over: transport).message == Self.new)
    }

    /// NTAG212: GET_VERSION names it, but where its dynamic lock bits are is not in the table.
    @Test func aChipWhoseLockBitsAreUnknownIsNotWrittenToBeLocked() async throws {
        let transport = InProcessTransport(try VirtualType2Tag(product: .ntag212, message: poster))
        let error = await #expect(throws: TagWriteError.self) {
            try await Type2Driver(transport: transport, uid: nil).write(Self.new.encoded(), options: WriteOptions(lockAfter: true))
        }
        guard case .refused(.cannotFormat)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(await Self.writes(transport).isEmpty)
        // Blank and to be formatted: refused before the format too.
        let blank = InProcessTransport(try blankType2(.ntag212))
        await #expect(throws: TagWriteError.self) {
            try await Type2Driver(transport: blank, uid: nil).write(Self.new.encoded(), options: WriteOptions(formatIfBlank: true, lockAfter: true))
        }
        #expect(await Self.writes(blank).isEmpty)
    }

    /// AUTH0 at the dynamic lock page: the data area writes without the password, the lock
    /// needs it; a write to be locked asks for it before its first WRITE.
    @Test func thePasswordIsCheckedThroughTheLockPages() async throws {
        var tag = try VirtualType2Tag(product: .ntag215, message: poster)
        let lockPage = try #require(Type2Product.ntag215.configurationPages?.dynamicLock)
        tag.protect(from: lockPage, password: [1, 2, 3, 4])
        let transport = InProcessTransport(tag)
        await #expect(throws: TagWriteError.refused(.passwordRequired)) {
            try await Type2Driver(transport: transport, uid: nil).write(Self.new.encoded(), options: WriteOptions(lockAfter: true))
        }
        #expect(await Self.writes(transport).isEmpty)
        _ = try await Type2Driver(transport: transport, uid: nil).write(Self.new.encoded(), options: WriteOptions())
        #expect(try await Type2Tag.readNDEF(over: transport).message == Self.new)
    }

    @Test func aType4WriteToBeLockedSendsNothing() async throws {
        let transport = InProcessTransport(try VirtualType4Tag(message: poster))
        await #expect(throws: TagWriteError.refused(.unsupported(Type4Driver.noStandardLock))) {
            try await Type4Driver(transport: transport, uid: nil).write(Self.new.encoded(), options: WriteOptions(lockAfter: true))
        }
        #expect(await transport.commands.isEmpty)
    }

    /// A MIFARE Classic sector whose key B is not the delivery key cannot have its trailer
    /// changed: the write to be locked is refused before its first WRITE.
    @Test func aClassicWriteToBeLockedNeedsKeyBFirst() async throws {
        var chip = try VirtualMifareClassic(size: .classic1K, message: poster)
        var trailer = chip.block(23)
        trailer.replaceSubrange(10..<16, with: [0x0B, 0x0B, 0x0B, 0x0B, 0x0B, 0x0B])
        trailer.replaceSubrange(0..<6, with: MifareClassicNDEF.ndefKeyA)
        chip.write(trailer, atBlock: 23)
        let transport = InProcessTransport(chip)
        let driver = MifareClassicDriver(transport: transport, uid: MifareClassicWriteTests.uid, size: .classic1K)
        await #expect(throws: TagWriteError.refused(.keysRefused(sector: 5))) {
            try await driver.write(Self.new.encoded(), options: WriteOptions(lockAfter: true))
        }
        #expect(await MifareClassicWriteTests.writeCommands(transport).isEmpty)
        #expect(try await driver.readNDEF().message == poster)
        // With the delivery key B everywhere, written then locked.
        let plain = InProcessTransport(try VirtualMifareClassic(size: .classic1K, message: poster))
        let ready = MifareClassicDriver(transport: plain, uid: MifareClassicWriteTests.uid, size: .classic1K)
        _ = try await ready.write(Self.new.encoded(), options: WriteOptions(lockAfter: true))
        #expect(try await ready.makeReadOnly(options: WriteOptions()).changed)
    }
}
