import NDEF
import NFCSim
import NFCTags
import Testing

/// Two real virtual chips, the second answering from a given command on: another object brought
/// to the reader mid-write on a link that does not notice the change.
struct SwappedObject<Chip: VirtualObject>: VirtualObject {
    static var platform: TagPlatform { Chip.platform }
    var first: Chip
    var second: Chip
    var commandsBeforeSwap: Int
    private(set) var commands = 0

    var isPresent: Bool { true }

    mutating func respond(to command: [UInt8]) -> VirtualReply {
        commands += 1
        return commands <= commandsBeforeSwap ? first.respond(to: command) : second.respond(to: command)
    }

    mutating func reactivate() -> Bool { commands < commandsBeforeSwap ? first.reactivate() : second.reactivate() }
}

/// The Type 2 writer over the transport seam against the real simulated chip: written, verified,
/// read back by the reader; refusals before anything is sent; an object swapped mid-write.
@Suite struct Type2WriterTests {
    static let uid2: [UInt8] = [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]

    @Test(arguments: [(Type2Product.ntag213, LinkCapabilities.unrestricted), (.ntag216, pn532Link), (.ntag215, storageCardLink)])
    func writesVerifiesAndReadsBack(product: Type2Product, link: LinkCapabilities) async throws {
        let transport = InProcessTransport(try VirtualType2Tag(product: product, message: poster), capabilities: link)
        let new = message(encodedSize: min(product.ccDataAreaSize - 4, 400))
        try await Type2Writer.write(new.encoded(), over: transport)
        let reading = try await Type2Tag.readNDEF(over: transport)
        #expect(reading.message == new)
        let writes = await transport.commands.filter { $0.first == Type2Command.writeCode }
        // Length to 0 first, the commit last, both on page 4 (the TLV starts the data area).
        #expect(writes.first?.prefix(4) == [0xA2, 0x04, 0x03, 0x00])
        #expect(writes.last?.prefix(2) == [0xA2, 0x04])
    }

    @Test func tooLargeAndReadOnlyAreRefusedBeforeAnyWrite() async throws {
        let transport = InProcessTransport(try VirtualType2Tag(product: .ntag213, message: poster))
        await #expect(throws: TagWriteError.refused(.doesNotFit(needed: 145, available: 144))) {
            try await Type2Writer.write([UInt8](repeating: 0x20, count: 143), over: transport)
        }
        var readOnly = try VirtualType2Tag(product: .ntag213, message: poster)
        readOnly.write([0xE1, 0x10, 0x12, 0x0F], atPage: 3)
        let locked = InProcessTransport(readOnly)
        await #expect(throws: TagWriteError.refused(.readOnly)) {
            try await Type2Writer.write([], over: locked)
        }
        #expect(await transport.commands.allSatisfy { $0.first != Type2Command.writeCode })
        #expect(await locked.commands.allSatisfy { $0.first != Type2Command.writeCode })
    }

    @Test func anotherObjectBeforeTheLastWriteIsRefused() async throws {
        let first = try VirtualType2Tag(product: .ntag213, message: poster)
        let second = try VirtualType2Tag(product: .ntag213, uid: Self.uid2, message: poster)
        // GET_VERSION, READ page 0, FAST_READ of the CC and data area: the swap comes after the reads.
        let transport = InProcessTransport(SwappedObject(first: first, second: second, commandsBeforeSwap: 4))
        await #expect(throws: TagWriteError.differentObject) {
            try await Type2Writer.write(message(encodedSize: 100).encoded(), over: transport)
        }
        let object = await transport.object
        // The commit never went out; each chip reads as its old message or empty.
        #expect(await transport.commands.last == Type2Command.read(page: 0).frame)
        for chip in [object.first, object.second] {
            let bytes = try await Type2Tag.readNDEF(over: InProcessTransport(chip)).ndefBytes
            #expect(bytes == poster.encoded() || bytes == [])
        }
    }

    @Test func removedMidWriteLeavesOldOrEmpty() async throws {
        for commands in 3...12 {
            let tag = try VirtualType2Tag(product: .ntag213, message: poster,
                                          presence: FieldPresence(removeAfterCommands: commands))
            let transport = InProcessTransport(tag)
            let new = message(encodedSize: 120)
            do {
                try await Type2Writer.write(new.encoded(), over: transport)
                Issue.record("written with the object gone after \(commands) commands")
            } catch {
                guard case .link(.objectRemoved) = error else { Issue.record("\(error)"); continue }
            }
            var left = await transport.object
            left.presence = FieldPresence()
            let bytes = try await Type2Tag.readNDEF(over: InProcessTransport(left)).ndefBytes
            #expect(bytes == poster.encoded() || bytes == [] || bytes == new.encoded(), "gone after \(commands)")
        }
    }
}
