// Fuzz target `cc`: capability containers of Type 2 (4 bytes), Type 4 (the CC file) and Type 5
// (4 or 8 bytes). Each decoder gets the input as an array and as a slice with a non-zero start
// index; both must decode the same.
import NDEF

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    let slice = ([0x00] + bytes).dropFirst()

    let t2 = agree(bytes, Result { () throws(CapabilityContainerError) in try Type2CapabilityContainer(bytes) },
                   Result { () throws(CapabilityContainerError) in try Type2CapabilityContainer(slice) })
    if let cc = t2 {
        if bytes[0] != Type2CapabilityContainer.magic || cc.majorVersion != 1 || cc.dataAreaSize != Int(bytes[2]) * 8 {
            violated("type 2 CC decodes to \(cc)", bytes)
        }
    }

    let t4 = agree(bytes, Result { () throws(CapabilityContainerError) in try Type4CapabilityContainer(bytes) },
                   Result { () throws(CapabilityContainerError) in try Type4CapabilityContainer(slice) })
    if let cc = t4 {
        if cc.length < 15 || cc.length > bytes.count || cc.length != Int(bytes[0]) << 8 | Int(bytes[1])
            || !(1...3).contains(cc.majorVersion) || cc.maxReadLength < 0x0F || cc.maxWriteLength < 1
            || [0x0000, 0xE102, 0xE103, 0x3F00, 0x3FFF, 0xFFFF].contains(cc.ndefFileID)
            || cc.maxNDEFSize < (cc.extended ? 5 : 3) {
            violated("type 4 CC decodes to \(cc)", bytes)
        }
        // Bytes after CCLEN are not part of the CC: cutting them off changes nothing.
        if (try? Type4CapabilityContainer(bytes.prefix(cc.length))) != cc { violated("type 4 CC depends on bytes past CCLEN", bytes) }
    }

    let t5 = agree(bytes, Result { () throws(CapabilityContainerError) in try Type5CapabilityContainer(bytes) },
                   Result { () throws(CapabilityContainerError) in try Type5CapabilityContainer(slice) })
    if let cc = t5 {
        if cc.length != 4 && cc.length != 8 || cc.majorVersion != 1 || cc.twoByteAddressing != (bytes[0] == 0xE2) {
            violated("type 5 CC decodes to \(cc)", bytes)
        }
        if (try? Type5CapabilityContainer(bytes.prefix(cc.length))) != cc { violated("type 5 CC depends on bytes past its length", bytes) }
    }
    return 0
}

/// The decoder's answers for the array and for the slice must agree.
private func agree<CC: Equatable>(_ bytes: [UInt8], _ fromArray: Result<CC, CapabilityContainerError>,
                                  _ fromSlice: Result<CC, CapabilityContainerError>) -> CC? {
    if fromArray != fromSlice { violated("capability container decodes differently from an array slice with another start index", bytes) }
    if case .failure(let error) = fromArray { _ = error.description }
    return try? fromArray.get()
}
