// Fuzz target `message`: NDEF message bytes, parsed strictly and leniently; every record's typed
// view decoded (nested messages too); strict results must round-trip through the canonical encoding.
import NDEF

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    checkMessage(fuzzInput(data, size))
    return 0
}
