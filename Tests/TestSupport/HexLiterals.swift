import NDEF

/// Bytes from a hex literal in a test (separators allowed, as `Hex.decode` reads them); traps on a
/// malformed literal: test inputs are fixed. The tests' one hex helper: text from bytes is
/// `Hex.string`, `Hex.spaced` (NDEF).
public func hex(_ text: String) -> [UInt8] {
    switch Hex.decode(text) {
    case .success(let bytes): return bytes
    case .failure(let error): fatalError("bad hex literal \"\(text)\": \(error)")
    }
}

/// Bytes from hex a helper program printed (pyscard's answers, JSON): empty when there is none
/// or it is not hex, so the comparison that follows fails and shows it.
public func hex(printed text: String?) -> [UInt8] {
    guard let text, case .success(let bytes) = Hex.decode(text) else { return [] }
    return bytes
}
