import NDEF
import NFCSim
import NFCTags
import PropertyBased
import Testing

/// The Type 4 write plan: refusals before anything is sent, and tearing: the object taken away
/// after any number of its UPDATE BINARY commands reads, through the real reader, as the old
/// message, an empty one or the new one.
@Suite struct Type4WritePlanTests {
    /// What the NDEF file holds before the write.
    enum Old: CaseIterable {
        case message
        case empty
        /// A length field past the file: the reader refuses it, the writer replaces it.
        case badLength
    }

    static func bytes(_ count: Int, seed: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: seed &+ $0 &* 37 &+ ($0 >> 2)) }
    }

    /// A tag whose CC announces `mlc` as MLc and whose NDEF file holds `old` (length field and
    /// bytes), the rest of the file left with old bytes.
    static func tag(_ mapping: VirtualType4Tag.Mapping, fileSize: Int, mlc: Int, lengthField: Int, holding old: [UInt8],
                    length: Int, seed: Int) -> VirtualType4Tag {
        var cc = VirtualType4Tag.capabilityContainer(mapping: mapping, maxReadLength: 0xFF, fileSize: fileSize)
        cc[5] = UInt8(mlc >> 8)
        cc[6] = UInt8(mlc & 0xFF)
        let field = (0..<lengthField).reversed().map { UInt8(truncatingIfNeeded: length >> (8 * $0)) }
        var file = field + old + bytes(fileSize, seed: seed + 3)
        file = Array(file.prefix(fileSize))
        return VirtualType4Tag(mapping: mapping, capabilityContainer: cc, ndefFile: file, maxReadLength: 0xFF)
    }

    /// What the real reader finds: the message bytes, or nil when it refuses the file.
    static func read<Object: VirtualObject>(_ transport: InProcessTransport<Object>) async -> [UInt8]? {
        try? await Type4Tag.readNDEF(over: transport).ndefBytes
    }

    static func capabilityContainer(_ tag: VirtualType4Tag) throws -> Type4CapabilityContainer {
        try Type4CapabilityContainer(tag.files[Type4Tag.capabilityContainerFile] ?? [])
    }

    @Test func tearingAfterEveryUpdateReadsOldEmptyOrNew() async {
        let shape = zip(Gen.element(of: [VirtualType4Tag.Mapping.version2, .version3Extended]), Gen.element(of: Old.allCases))
        // New message: 0 empty, 1 random size, 2 exactly full, 3 one byte over.
        await propertyCheck(count: 150, input: shape, Gen.int(in: 8...700), Gen.int(in: 1...0xFF), Gen.int(in: 0...3),
                            Gen.int(in: 0...100), Gen.int(in: 0...0xFFFF)) { shape, fileSize, mlc, mode, fill, seed in
            let (mapping, old) = (shape.0!, shape.1!)    // element(of:) a non-empty list
            let lengthField = mapping == .version3Extended ? 4 : 2
            let capacity = fileSize - lengthField
            let oldMessage = old == .message ? Self.bytes(capacity * fill / 100, seed: seed) : []
            let oldLength = old == .badLength ? capacity + 1 + seed % 50 : oldMessage.count
            let tag = Self.tag(mapping, fileSize: fileSize, mlc: mlc, lengthField: lengthField, holding: oldMessage,
                               length: oldLength, seed: seed)
            let transport = InProcessTransport(tag, capabilities: shortAPDULink)
            let before = await Self.read(transport)
            #expect(before == (old == .badLength ? nil : oldMessage))

            let size = Type2WritePlanTests.newLength(mode: mode, largest: capacity, fill: (fill * 7) % 101)
            let newMessage = Self.bytes(size, seed: seed ^ 0x5A5A)
            let plan: Type4WritePlan
            do {
                plan = try Type4WritePlan(capabilityContainer: Self.capabilityContainer(tag), current: before,
                                          message: newMessage, maxCommandData: 0xFF)
            } catch let error as WriteRefusal where mlc < lengthField && mode != 3 {
                #expect(error == .unsupported("an object or link that takes \(mlc) bytes per UPDATE BINARY: the \(lengthField)-byte length field must go in one"))
                return
            } catch let error as WriteRefusal {
                #expect(mode == 3, "refused \(size) bytes in a \(fileSize)-byte file: \(error)")
                #expect(error == .doesNotFit(needed: size + lengthField, available: fileSize))
                return
            }
            #expect(mode != 3, "planned \(size) bytes in a \(fileSize)-byte file")
            #expect(plan.capacity == capacity)
            for (index, update) in plan.writes.enumerated() {
                #expect(update.bytes.count <= mlc)
                let response = try await transport.transceive(update.command.bytes)
                #expect(response == [0x90, 0x00])
                let reading = await Self.read(transport)
                #expect(reading == before || reading == [] || reading == newMessage,
                        "after \(index + 1) of \(plan.writes.count) updates: \(reading?.count ?? -1) bytes")
                if index < plan.writes.count - 1 { #expect(reading != newMessage || newMessage == before || newMessage == []) }
            }
            #expect(await Self.read(transport) == newMessage)
        }
    }

    @Test func exactlyFullFitsOneByteOverIsRefused() throws {
        let tag = try VirtualType4Tag(message: nil, fileSize: 0x40)
        let cc = try Self.capabilityContainer(tag)
        let full = try Type4WritePlan(capabilityContainer: cc, current: [], message: Self.bytes(62, seed: 1), maxCommandData: 0xFF)
        #expect(full.capacity == 62)
        // The length is already 0: the body, then the length.
        #expect(full.writes.map(\.offset) == [2, 0])
        #expect(full.writes.last?.bytes == [0x00, 62])
        #expect(throws: WriteRefusal.doesNotFit(needed: 65, available: 64)) {
            try Type4WritePlan(capabilityContainer: cc, current: [], message: Self.bytes(63, seed: 1), maxCommandData: 0xFF)
        }
        // Mapping 3.0's extended file: a 4-byte ENLEN.
        let extended = try VirtualType4Tag(mapping: .version3Extended, message: nil, fileSize: 0x40)
        let xcc = try Self.capabilityContainer(extended)
        let xfull = try Type4WritePlan(capabilityContainer: xcc, current: [], message: Self.bytes(60, seed: 2), maxCommandData: 0xFF)
        #expect(xfull.writes.last?.bytes == [0x00, 0x00, 0x00, 60])
        #expect(throws: WriteRefusal.doesNotFit(needed: 65, available: 64)) {
            try Type4WritePlan(capabilityContainer: xcc, current: [], message: Self.bytes(61, seed: 2), maxCommandData: 0xFF)
        }
    }

    @Test func lengthZeroFirstChunksBoundedLengthLast() throws {
        let tag = try VirtualType4Tag(message: poster, fileSize: 0x400)
        let cc = try Self.capabilityContainer(tag)
        let plan = try Type4WritePlan(capabilityContainer: cc, current: poster.encoded(), message: Self.bytes(600, seed: 3),
                                      maxCommandData: 250)
        #expect(plan.writes.map(\.offset) == [0, 2, 252, 502, 0])
        #expect(plan.writes.first?.command.bytes == [0x00, 0xD6, 0x00, 0x00, 0x02, 0x00, 0x00])
        #expect(plan.writes.last?.command.bytes == [0x00, 0xD6, 0x00, 0x00, 0x02, 0x02, 0x58])
        #expect(plan.beforeCommit == [0x00, 0x00] + Self.bytes(600, seed: 3))
        // Unchanged: nothing; emptying: the length alone.
        #expect(try Type4WritePlan(capabilityContainer: cc, current: poster.encoded(), message: poster.encoded(), maxCommandData: 250).writes == [])
        let empty = try Type4WritePlan(capabilityContainer: cc, current: poster.encoded(), message: [], maxCommandData: 250)
        #expect(empty.writes == [Type4FileUpdate(offset: 0, bytes: [0x00, 0x00])])
    }

    @Test func readOnlyIsRefused() throws {
        var bytes = VirtualType4Tag.capabilityContainer(mapping: .version2, maxReadLength: 0xFF, fileSize: 0x40)
        bytes[bytes.count - 1] = 0xFF
        let cc = try Type4CapabilityContainer(bytes)
        #expect(throws: WriteRefusal.readOnly) {
            try Type4WritePlan(capabilityContainer: cc, current: [], message: [], maxCommandData: 0xFF)
        }
    }
}
