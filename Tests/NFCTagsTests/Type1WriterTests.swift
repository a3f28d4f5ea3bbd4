import NDEF
import NFCSim
import NFCTags
import PropertyBased
import Testing

/// The Type 1 writer against the simulated Topaz 96 and 512: NMN 00, the TLV area in the
/// tear-safe order, NMN E1; torn after every command, capacity edges, lock bytes and CC write
/// access, an object swapped before the commit.
@Suite struct Type1WriterTests {
    static let otherUID: [UInt8] = [0x92, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]


    /// A formatted chip whose NDEF TLV holds `message` (raw bytes), Terminator after it.
    static func tag(_ product: VirtualType1Tag.Product, holding message: [UInt8], uid: [UInt8] = VirtualType1Tag.defaultUID,
                    presence: FieldPresence = FieldPresence()) throws -> VirtualType1Tag {
        let prefix = product == .topaz512 ? VirtualType1Tag.topaz512ControlTLVs : []
        let tlv = TLVWalker.encode(.ndefMessage, value: message)!
        let area = prefix + tlv + (prefix.count + tlv.count < Self.dataArea(product) ? [0xFE] : [])
        return try VirtualType1Tag(product: product, uid: uid, dataArea: area, presence: presence)
    }

    /// Data area bytes: 92 on a Topaz 96; a Topaz 512 adds bytes 128–511.
    static func dataArea(_ product: VirtualType1Tag.Product) -> Int { product == .topaz96 ? 92 : 92 + 384 }

    /// The largest message: the data area less the control TLVs and the TLV's own bytes.
    static func capacity(_ product: VirtualType1Tag.Product) -> Int {
        product == .topaz96 ? 92 - 2 : dataArea(product) - VirtualType1Tag.topaz512ControlTLVs.count - 4
    }

    static func read(_ tag: VirtualType1Tag) async -> Result<[UInt8], TagReadError> {
        var tag = tag
        tag.presence = FieldPresence()
        do { return .success(try await Type1Tag.readNDEF(over: InProcessTransport(tag)).ndefBytes) } catch { return .failure(error) }
    }

    @Test func tearingAfterEveryCommandReadsOldEmptyNewOrNotFormatted() async {
        await propertyCheck(count: 40, input: Gen.element(of: VirtualType1Tag.Product.allCases), Gen.int(in: 0...100), Gen.int(in: 0...100),
                            Gen.int(in: 0...0xFFFF)) { product, oldFill, newFill, seed in
            let product = product!
            let old = Type2WritePlanTests.bytes(Self.capacity(product) * oldFill / 100, seed: seed)
            let new = Type2WritePlanTests.bytes(Self.capacity(product) * newFill / 100, seed: seed ^ 0x7E7E)
            var command = 1
            while true {
                let transport = InProcessTransport(try Self.tag(product, holding: old, presence: FieldPresence(removeAfterCommands: command)))
                var finished = false
                do {
                    try await Type1Writer.write(new, over: transport)
                    finished = true
                } catch let error as TagWriteError {
                    #expect(error.isRemoval, "\(product.name) gone after \(command): \(error)")
                }
                let left = await transport.object
                switch await Self.read(left) {
                case .success(let bytes):
                    #expect(bytes == old || bytes == [] || bytes == new, "\(product.name) gone after \(command): \(bytes.count) bytes")
                case .failure(let error):
                    // NMN 00 between the first and the last command: the reader refuses the object.
                    #expect(error == .capabilityContainer(.notNDEF(magic: 0)), "\(product.name) gone after \(command): \(error)")
                }
                if finished {
                    #expect(try await Self.read(left).get() == new)
                    break
                }
                command += 1
            }
        }
    }

    @Test(arguments: VirtualType1Tag.Product.allCases)
    func exactlyFullFitsOneByteOverIsRefusedBeforeAnyWrite(product: VirtualType1Tag.Product) async throws {
        let full = Type2WritePlanTests.bytes(Self.capacity(product), seed: 3)
        let transport = InProcessTransport(try Self.tag(product, holding: Array("old".utf8)))
        let report = try await Type1Writer.write(full, over: transport)
        #expect(report.changed)
        #expect(try await Type1Tag.readNDEF(over: transport).ndefBytes == full)
        let writes = await transport.commands.filter { [Type1Command.writeE, Type1Command.writeE8].contains($0[0]) }
        #expect(writes.first == [Type1Command.writeE, 0x08, 0x00], "NMN 00 first")
        #expect(writes.last == [Type1Command.writeE, 0x08, 0xE1], "NMN E1 last")
        #expect(product == .topaz96 || writes.contains { $0[0] == Type1Command.writeE8 }, "dynamic blocks by WRITE-E8")
        let fresh = InProcessTransport(try Self.tag(product, holding: []))
        let tlvOver = full.count + 1 + (full.count + 1 > 254 ? 4 : 2)
        await #expect(throws: TagWriteError.refused(.doesNotFit(needed: tlvOver, available: Self.capacity(product) + (product == .topaz96 ? 2 : 4)))) {
            try await Type1Writer.write(full + [0], over: fresh)
        }
        #expect(await fresh.commands.allSatisfy { ![Type1Command.writeE, Type1Command.writeE8].contains($0[0]) })
    }

    @Test func readOnlyByCCOrLockBitsIsRefusedAndMadeOnlyWhenAsked() async throws {
        var ccReadOnly = try Self.tag(.topaz96, holding: Array("keep".utf8))
        ccReadOnly.write([0x0F], at: 11)
        let refused = InProcessTransport(ccReadOnly)
        await #expect(throws: TagWriteError.refused(.readOnly)) { try await Type1Writer.write([], over: refused) }
        var locked = try Self.tag(.topaz96, holding: Array("keep".utf8))
        locked.write([0xFF, 0x7F], at: 112)
        await #expect(throws: TagWriteError.refused(.readOnly)) { try await Type1Writer.write([1, 2, 3], over: InProcessTransport(locked)) }

        for product in VirtualType1Tag.Product.allCases {
            let transport = InProcessTransport(try Self.tag(product, holding: Array("keep".utf8)))
            let driver = Type1Driver(transport: transport, uid: nil)
            #expect(try await driver.status().access == .readWrite)
            _ = try await driver.makeReadOnly(options: WriteOptions())
            let status = try await driver.status()
            #expect(status.access == .readOnly && status.used == 4, "\(product.name)")
            await #expect(throws: TagWriteError.refused(.readOnly)) { try await driver.write([], options: WriteOptions()) }
            #expect(try await driver.readNDEF().ndefBytes == Array("keep".utf8))
            // The chip itself refuses a data byte now, whatever a writer does.
            var chip = await transport.object
            #expect(chip.respond(to: [Type1Command.writeE, 0x10, 0x55]) == .silence)
            if product == .topaz512 { #expect(chip.respond(to: [Type1Command.writeE8, 0x20] + [UInt8](repeating: 1, count: 8)) == .silence) }
        }
    }

    @Test func anotherObjectBeforeTheCommitIsRefused() async throws {
        let first = try Self.tag(.topaz96, holding: Array("first".utf8))
        let second = try Self.tag(.topaz96, holding: Array("second".utf8), uid: Self.otherUID)
        // RID and RALL from the first; from NMN 00 on the other object answers (a link that
        // does not notice; on the air the PN53x adds the UID echo, and another Topaz ignores the frame).
        let transport = InProcessTransport(SwappedObject(first: first, second: second, commandsBeforeSwap: 2))
        await #expect(throws: TagWriteError.differentObject) {
            try await Type1Writer.write(Array("a new message".utf8), over: transport)
        }
        #expect(await transport.commands.last == [Type1Command.rid], "NMN E1 was not sent")
        let object = await transport.object
        #expect(await Self.read(object.first) == .success(Array("first".utf8)))
        // The other object took NMN 00 first: it reads as blank rather than show part of a message.
        #expect(await Self.read(object.second) == .success([]))
    }

    @Test func anUnchangedMessageWritesNothing() async throws {
        let transport = InProcessTransport(try Self.tag(.topaz512, holding: Array("same".utf8)))
        let report = try await Type1Writer.write(Array("same".utf8), over: transport)
        #expect(!report.changed)
        #expect(await transport.commands.allSatisfy { ![Type1Command.writeE, Type1Command.writeE8].contains($0[0]) })
    }
}
