// Fuzz target `rfkill`: the records of /dev/rfkill (RfkillWatch.Event, apply, airplaneMode). The
// input is the byte stream the device (or a test's FIFO) gives, cut into 8-byte records as
// RfkillWatch's reader does; a trailing short record is what a short read leaves pending.
//
// Beyond "no crash": a record decodes from its first 8 bytes only (from an array or a slice, with
// more bytes after it or not) and never from fewer; the fields are the bytes; each event changes
// the radios as the kernel's rfkill_event says; airplane mode means radios, all blocked.
@testable import NFCDaemon

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    typealias Event = RfkillWatch.Event
    var radios: [UInt32: RfkillWatch.Radio] = [:]
    var start = 0
    while start < input.count {
        let rest = input[start...]
        let record = Array(rest.prefix(Event.size))
        let event = Event(record)
        if Event(rest) != event { violated("record at \(start) decodes otherwise from a slice with \(rest.count - record.count) bytes after it", input) }
        if record.count < Event.size {
            if event != nil { violated("a short record of \(record.count) bytes decodes", input) }
            break
        }
        if Event(record + [0xFF, 0xFF, 0xFF]) != event { violated("bytes after the record at \(start) change it", input) }
        if Event(record.dropLast()) != nil { violated("the record at \(start) decodes from 7 bytes", input) }
        guard let event else {
            if record[5] <= 3 { violated("record at \(start) with operation \(record[5]) refused", input) }
            start += Event.size
            continue
        }
        if event.index != UInt32(record[0]) + UInt32(record[1]) * 0x100 + UInt32(record[2]) * 0x1_0000 + UInt32(record[3]) * 0x100_0000
            || event.type != record[4] || event.operation.rawValue != record[5]
            || event.soft != (record[6] != 0) || event.hard != (record[7] != 0) {
            violated("record at \(start) decodes to \(event)", input)
        }

        let before = radios
        RfkillWatch.apply(event, to: &radios)
        switch event.operation {
        case .add, .change:
            if radios[event.index] != RfkillWatch.Radio(type: event.type, soft: event.soft, hard: event.hard)
                || radios.count(where: { $0.key != event.index }) != before.count(where: { $0.key != event.index }) {
                violated("\(event.operation) of radio \(event.index) gives \(radios)", input)
            }
        case .delete:
            if radios[event.index] != nil || radios.count != before.count - (before[event.index] == nil ? 0 : 1) {
                violated("delete of radio \(event.index) gives \(radios)", input)
            }
        case .changeAll:
            // Only the soft state of the radios of the type (0: every type) changes.
            for (index, radio) in before {
                var expected = radio
                if event.type == 0 || radio.type == event.type { expected.soft = event.soft }
                if radios[index] != expected { violated("change-all gives radio \(index) \(String(describing: radios[index]))", input) }
            }
            if radios.count != before.count { violated("change-all adds or removes radios", input) }
        }
        let blocked = !radios.isEmpty && radios.values.allSatisfy { $0.soft || $0.hard }
        if RfkillWatch.airplaneMode(radios) != blocked { violated("airplane mode \(!blocked) for \(radios)", input) }
        start += Event.size
    }
    return 0
}
