/// The records of `/dev/rfkill` and what they say about airplane mode, apart from the device I/O
/// of ``RfkillWatch`` so that the decoding can be tested and fuzzed without a device.
extension RfkillWatch {
    /// One radio as the kernel reports it.
    struct Radio: Equatable, Sendable {
        var type: UInt8
        var soft: Bool
        var hard: Bool
        var blocked: Bool { soft || hard }
    }

    /// A decoded `struct rfkill_event`.
    struct Event: Equatable, Sendable {
        enum Operation: UInt8, Sendable { case add = 0, delete = 1, change = 2, changeAll = 3 }
        var index: UInt32
        var type: UInt8
        var operation: Operation
        var soft: Bool
        var hard: Bool

        static let size = 8

        /// The record at the start of `bytes` (little-endian index on every Linux we run on);
        /// nil for an operation this kernel interface does not define.
        init?(_ bytes: some Collection<UInt8>) {
            let b = Array(bytes.prefix(Self.size))
            guard b.count == Self.size, let operation = Operation(rawValue: b[5]) else { return nil }
            index = UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16 | UInt32(b[3]) << 24
            type = b[4]
            self.operation = operation
            soft = b[6] != 0
            hard = b[7] != 0
        }
    }

    /// The radios after `event`. CHANGE_ALL sets every radio of its type (0: all types).
    static func apply(_ event: Event, to radios: inout [UInt32: Radio]) {
        switch event.operation {
        case .add, .change: radios[event.index] = Radio(type: event.type, soft: event.soft, hard: event.hard)
        case .delete: radios[event.index] = nil
        case .changeAll:
            for (index, radio) in radios where event.type == 0 || radio.type == event.type {
                radios[index]?.soft = event.soft
            }
        }
    }

    /// Airplane mode: there are radios and every one is blocked.
    static func airplaneMode(_ radios: [UInt32: Radio]) -> Bool {
        !radios.isEmpty && radios.values.allSatisfy(\.blocked)
    }
}
