import NFCSim
import NFCTags

/// Two real virtual chips, the second answering from a given command on: another object brought
/// to the reader mid-write on a link that does not notice the change.
struct SwappedVirtualObject<Object: VirtualObject>: VirtualObject {
    static var platform: TagPlatform { Object.platform }
    var first: Object
    var second: Object
    var commandsBeforeSwap: Int
    private(set) var commands = 0

    init(first: Object, second: Object, commandsBeforeSwap: Int) {
        self.first = first
        self.second = second
        self.commandsBeforeSwap = commandsBeforeSwap
    }

    var isPresent: Bool { true }

    mutating func respond(to command: [UInt8]) -> VirtualReply {
        commands += 1
        return commands <= commandsBeforeSwap ? first.respond(to: command) : second.respond(to: command)
    }

    mutating func reactivate() -> Bool { commands < commandsBeforeSwap ? first.reactivate() : second.reactivate() }
}

/// Reproducible bytes for a seed (a linear congruential generator), for messages the writers
/// never decode.
func seededBytes(_ count: Int, seed: Int) -> [UInt8] {
    var state = UInt64(truncatingIfNeeded: seed) &+ 7
    return (0..<count).map { _ in
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return UInt8(truncatingIfNeeded: state >> 33)
    }
}
