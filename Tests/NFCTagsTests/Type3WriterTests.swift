import NDEF
import NFCSim
import NFCTags
import PropertyBased
import Testing

/// The Type 3 writer against the simulated FeliCa Lite-S: the §7 order (WriteF 0F, data, then
/// WriteF 00 with the new Ln) torn after every command, capacity edges, read-only, an object
/// swapped before the commit.
@Suite struct Type3WriterTests {
    static let idm = VirtualType3Tag.defaultIDm


    /// A Lite-S whose NDEF service holds `message` (raw bytes: the writer never decodes them).
    static func tag(holding message: [UInt8], blocksPerUpdate: Int = 1, presence: FieldPresence = FieldPresence()) throws -> VirtualType3Tag {
        let capacity = (VirtualType3Tag.liteSBlocks - 1) * 16
        let attribute = Type3AttributeBlock.encode(blocksPerCheck: 4, blocksPerUpdate: blocksPerUpdate, maxBlocks: VirtualType3Tag.liteSBlocks - 1,
                                                   ndefLength: message.count)
        var tag = try VirtualType3Tag(image: attribute + message + [UInt8](repeating: 0, count: capacity - message.count), presence: presence)
        tag.maxBlocksPerUpdate = blocksPerUpdate
        return tag
    }

    /// What the real reader makes of the chip: the message, or the error it refuses it with.
    static func read(_ tag: VirtualType3Tag) async -> Result<[UInt8], TagReadError> {
        var tag = tag
        tag.presence = FieldPresence()
        do { return .success(try await Type3Tag.readNDEF(over: InProcessTransport(tag), idm: idm).ndefBytes) } catch {
            return .failure(error)
        }
    }

    @Test func tearingAfterEveryCommandReadsOldNewOrWriteInProgress() async {
        await propertyCheck(count: 60, input: Gen.int(in: 0...208), Gen.int(in: 0...208), Gen.int(in: 1...4), Gen.int(in: 0...0xFFFF)) { oldSize, newSize, nbw, seed in
            let old = Type2WritePlanTests.bytes(oldSize, seed: seed), new = Type2WritePlanTests.bytes(newSize, seed: seed ^ 0x3C3C)
            var command = 1
            while true {
                let tag = try Self.tag(holding: old, blocksPerUpdate: nbw, presence: FieldPresence(removeAfterCommands: command))
                let transport = InProcessTransport(tag)
                var finished = false
                do {
                    try await Type3Writer.write(new, idm: Self.idm, over: transport)
                    finished = true
                } catch let error as TagWriteError {
                    #expect(error.isRemoval, "gone after \(command): \(error)")
                }
                let left = await transport.object
                switch await Self.read(left) {
                case .success(let bytes):
                    #expect(bytes == old || bytes == new, "gone after \(command): \(bytes.count) bytes")
                case .failure(let error):
                    // Between WriteF 0F and the commit the reader refuses the object cleanly.
                    #expect(error == .writeInProgress, "gone after \(command): \(error)")
                }
                if finished {
                    #expect(try await Self.read(left).get() == new)
                    break
                }
                command += 1
            }
        }
    }

    @Test func theOrderIsWriteFlagDataThenLengthAndNbwGroupsBlocks() async throws {
        let old = Array("an old message".utf8), new = Type2WritePlanTests.bytes(70, seed: 7)
        let transport = InProcessTransport(try Self.tag(holding: old, blocksPerUpdate: 2))
        let report = try await Type3Writer.write(new, idm: Self.idm, over: transport)
        let updates = await transport.commands.filter { $0[1] == FeliCaFrame.updateCode }
        // Block list elements 80 NN after LEN 08 IDm 01 09 00 NN.
        let blocks = updates.map { frame in (0..<Int(frame[13])).map { Int(frame[15 + 2 * $0]) } }
        #expect(blocks == [[0], [1, 2], [3, 4], [5], [0]])
        #expect(updates.first?[25] == Type3AttributeBlock.writeInProgress)
        #expect(Array(updates.first![27...29]) == [0, 0, UInt8(old.count)], "the old Ln stays while the data changes")
        let last = try Type3AttributeBlock(updates.last!.suffix(16))
        #expect(last.writeFlag == 0 && last.ndefLength == 70)
        // POLLING just before the commit.
        let commands = await transport.commands
        #expect(commands[commands.count - 4] == FeliCaFrame.pollingAny || commands.contains(FeliCaFrame.pollingAny))
        #expect(report.changed)
        let again = try await Type3Writer.write(new, idm: Self.idm, over: transport)
        #expect(!again.changed, "the same message is not written twice")
    }

    @Test func exactlyFullFitsOneByteOverIsRefusedBeforeAnyUpdate() async throws {
        let full = Type2WritePlanTests.bytes(208, seed: 1)
        let transport = InProcessTransport(try Self.tag(holding: []))
        try await Type3Writer.write(full, idm: Self.idm, over: transport)
        #expect(try await Type3Tag.readNDEF(over: transport, idm: Self.idm).ndefBytes == full)
        let empty = InProcessTransport(try Self.tag(holding: []))
        await #expect(throws: TagWriteError.refused(.doesNotFit(needed: 209, available: 208))) {
            try await Type3Writer.write(full + [0], idm: Self.idm, over: empty)
        }
        #expect(await empty.commands.allSatisfy { $0[1] != FeliCaFrame.updateCode })
    }

    @Test func readOnlyIsRefusedAndMadeOnlyWhenAsked() async throws {
        let message = Array("keep me".utf8)
        let transport = InProcessTransport(try Self.tag(holding: message))
        let driver = Type3Driver(transport: transport, idm: Self.idm)
        #expect(try await driver.status().access == .readWrite)
        _ = try await driver.makeReadOnly(options: WriteOptions())
        let status = try await driver.status()
        #expect(status.access == .readOnly && status.used == message.count && status.capacity == 208)
        let before = await transport.commands.count
        await #expect(throws: TagWriteError.refused(.readOnly)) { try await driver.write([], options: WriteOptions()) }
        #expect(await transport.commands.dropFirst(before).allSatisfy { $0[1] != FeliCaFrame.updateCode })
        #expect(try await driver.readNDEF().ndefBytes == message)
        #expect(try await driver.makeReadOnly(options: WriteOptions()).changed == false)

        var odd = try Self.tag(holding: message)
        odd.write(Type3AttributeBlock.encode(blocksPerCheck: 4, blocksPerUpdate: 1, maxBlocks: 13, readWriteFlag: 0x02, ndefLength: 7), atBlock: 0)
        await #expect(throws: TagWriteError.refused(.capabilityContainer(.invalidField("RWFlag", value: 2, offset: 10)))) {
            try await Type3Writer.write([], idm: Self.idm, over: InProcessTransport(odd))
        }
    }

    @Test func aHalfWrittenObjectIsRefusedByTheReaderAndWrittenAgain() async throws {
        var tag = try Self.tag(holding: Array("old".utf8))
        tag.write(Type3AttributeBlock.encode(blocksPerCheck: 4, blocksPerUpdate: 1, maxBlocks: 13, writeFlag: 0x0F, ndefLength: 3), atBlock: 0)
        let transport = InProcessTransport(tag)
        await #expect(throws: TagReadError.writeInProgress) { try await Type3Tag.readNDEF(over: transport, idm: Self.idm) }
        let driver = Type3Driver(transport: transport, idm: Self.idm)
        #expect(try await driver.status().used == 0)
        await #expect(throws: TagWriteError.self) { try await driver.makeReadOnly(options: WriteOptions()) }
        _ = try await driver.write(Array("new".utf8), options: WriteOptions())
        #expect(try await driver.readNDEF().ndefBytes == Array("new".utf8))
    }

    @Test func anotherObjectBeforeTheCommitIsRefused() async throws {
        let first = try Self.tag(holding: Array("first".utf8))
        let second = try VirtualType3Tag(message: nil, idm: [0x01, 0x2E, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66])
        // Check of block 0, WriteF 0F, one data block: the other object answers POLLING.
        let transport = InProcessTransport(SwappedObject(first: first, second: second, commandsBeforeSwap: 3))
        await #expect(throws: TagWriteError.differentObject) {
            try await Type3Writer.write(Array("written".utf8), idm: Self.idm, over: transport)
        }
        #expect(await transport.commands.last == FeliCaFrame.pollingAny, "the commit was not sent")
        let object = await transport.object
        #expect(await Self.read(object.first) == .failure(.writeInProgress))
        #expect(object.second.memory == second.memory)
    }
}
