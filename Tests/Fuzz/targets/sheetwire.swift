// Fuzz target `sheetwire`: the lines nfcscand and its sheet's program exchange (SheetWire). The
// sheet is the daemon's own program, but it draws untrusted text and could be replaced or
// broken, so what it writes back is read as untrusted input; the sheet reads the daemon's views
// the same way.
//
// Beyond "no crash": a view or event that is accepted is written back as a line that reads as
// the same view or event (what one side writes, the other reads unchanged); no accepted line is
// longer than the bound; a written view's line holds no newline (so no text breaks the framing).
import ScanSheet

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    if let view = try? SheetWire.view(from: input) {
        if input.count > SheetWire.maximumLine { violated("an accepted view longer than the bound", input) }
        let line = SheetWire.line(for: view)
        if line.utf8.contains(UInt8(ascii: "\n")) { violated("a view's line holds a newline", input) }
        if line.utf8.count <= SheetWire.maximumLine, (try? SheetWire.view(from: Array(line.utf8))) != view {
            violated("a view does not read back as itself", input)
        }
    }
    if let event = try? SheetWire.event(from: input) {
        if (try? SheetWire.event(from: Array(SheetWire.line(for: event).utf8))) != event {
            violated("an event does not read back as itself", input)
        }
    }
    return 0
}
