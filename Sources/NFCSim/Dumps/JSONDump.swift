/// JSON dumps: which program wrote one, from its top-level members.
enum JSONDump {
    static func parse(_ json: DumpJSON) throws(DumpError) -> Dump {
        guard json.members != nil else {
            throw DumpError("$", "the JSON document is not an object", remedy: DumpError.fromTheReader)
        }
        if json["Created"]?.text == "proxmark3" || json["FileType"] != nil { return try ProxmarkDump.parse(json) }
        if json["tagId"] != nil { return try MetrodroidDump.parse(json) }
        throw DumpError("$", "a JSON document that is neither a Proxmark3 dump (\"FileType\") nor a Metrodroid one (\"tagId\")",
                        remedy: "give a Proxmark3 or Metrodroid JSON dump, or a Flipper Zero .nfc file")
    }

    /// The bytes of the hex string at `path` (for the error), exactly `count` of them when given.
    static func hex(_ value: DumpJSON?, _ path: String, count: Set<Int>? = nil) throws(DumpError) -> [UInt8]? {
        guard let value else { return nil }
        guard let text = value.text else { throw DumpError(path, "is not a string of hex digits", remedy: DumpError.fromTheReader) }
        let bytes: [UInt8]
        do { bytes = try DumpHex.compact(text) } catch { throw DumpError(path, error.words, remedy: DumpError.fromTheReader) }
        if let count, !count.contains(bytes.count) {
            throw DumpError(path, "has \(bytes.count) bytes, not \(count.sorted().map(String.init).joined(separator: " or "))", remedy: DumpError.fromTheReader)
        }
        return bytes
    }

    /// The members of an object whose names are block numbers ("0", "1", …), in a table by
    /// number; every name must be a number below `limit`, and each value `size` bytes.
    static func numberedBlocks(_ value: DumpJSON?, _ path: String, size: Set<Int>, limit: Int = DumpLimits.blocks) throws(DumpError) -> [Int: [UInt8]] {
        guard let members = value?.members else { throw DumpError(path, "missing, or not an object of blocks", remedy: DumpError.fromTheReader) }
        var blocks: [Int: [UInt8]] = [:]
        for (key, block) in members {
            guard let number = Int(key), number >= 0, number < limit else {
                throw DumpError("\(path).\(DumpHex.printable(key))", "is not a block number from 0 to \(limit - 1)", remedy: DumpError.fromTheReader)
            }
            guard blocks[number] == nil else { throw DumpError("\(path).\(number)", "appears twice", remedy: DumpError.fromTheReader) }
            blocks[number] = try hex(block, "\(path).\(number)", count: size)
        }
        return blocks
    }
}
