// Property checks shared by the fuzz targets. Every violation traps (fatalError), which libFuzzer
// reports as a crash and saves as an artifact; decoding errors are not violations.
import NDEF

/// Traps with the property that failed and the input, in hex.
func violated(_ property: String, _ input: [UInt8]) -> Never {
    fatalError("fuzz property violated: \(property); input \(Hex.string(input))")
}

/// The fuzzer's bytes as an array.
func fuzzInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> [UInt8] {
    Array(UnsafeBufferPointer(start: data, count: size))
}

// MARK: NDEF messages

/// Parses `bytes` strictly and leniently and checks everything the parser, encoder and typed
/// decoders promise about the result.
func checkMessage(_ bytes: [UInt8]) {
    let strictOutcome = parse(bytes, .strict)
    let strict = try? strictOutcome.get()
    let lenient = try? parse(bytes, .lenient).get()

    // NDEFMessage(decoding:) is strict parsing without layouts: same message, or the same error.
    let decoded = Result { () throws(NDEFError) in try NDEFMessage(decoding: bytes) }
    if decoded != strictOutcome.map(\.message) {
        violated("NDEFMessage(decoding:) gives \(decoded), strict parse \(strictOutcome.map(\.message))", bytes)
    }

    if let strict {
        checkResult(strict, of: bytes, mode: "strict")
        if !strict.issues.isEmpty { violated("strict result with issues \(strict.issues)", bytes) }
        // Round trip: the canonical encoding decodes back to the same message, is a fixed point,
        // and is never longer than the input.
        let canonical = strict.message.encoded()
        let again: NDEFParser.Result
        do { again = try NDEFParser(mode: .strict).parse(canonical) } catch {
            violated("canonical encoding \(Hex.string(canonical)) of a strict result fails to parse: \(error)", bytes)
        }
        if again.message != strict.message { violated("strict round trip changed the message", bytes) }
        if again.message.encoded() != canonical { violated("canonical encoding is not a fixed point", bytes) }
        if canonical.count > bytes.count { violated("canonical encoding longer than the input", bytes) }
        if canonical == bytes && again.layouts != strict.layouts { violated("canonical input re-parses to other layouts", bytes) }
        // What strict mode accepts, lenient mode accepts unchanged, with nothing to report.
        guard let lenient else { violated("strict accepts but lenient throws", bytes) }
        if !lenient.issues.isEmpty { violated("strict accepts but lenient reports \(lenient.issues)", bytes) }
        if lenient.message != strict.message || lenient.layouts != strict.layouts {
            violated("strict and lenient results differ on valid input", bytes)
        }
    }
    if let lenient {
        checkResult(lenient, of: bytes, mode: "lenient")
        if lenient.issues.isEmpty && strict == nil { violated("lenient reports no issue but strict throws", bytes) }
        for (record, layout) in zip(lenient.message.records, lenient.layouts) {
            checkContent(record, in: .message, depth: 0, input: bytes)
            _ = layout.inputOffset(ofPayloadByte: record.payload.count / 2)
        }
    }
}

private func parse(_ bytes: [UInt8], _ mode: NDEFParser.Mode) -> Result<NDEFParser.Result, NDEFError> {
    do {
        return .success(try NDEFParser(mode: mode).parse(bytes))
    } catch {
        checkOffset(error, limit: bytes.count, input: bytes, what: "\(mode) parse error")
        if bytes.isEmpty, error != .noRecords { violated("empty input gives \(error), not noRecords", bytes) }
        return .failure(error)
    }
}

private func checkOffset(_ error: NDEFError, limit: Int, input: [UInt8], what: String) {
    if error.offset < 0 || error.offset > limit { violated("\(what) \(error) has offset outside 0...\(limit)", input) }
    _ = error.description
}

/// Layouts agree with the records and the input; lenient results never hold a chunk fragment.
private func checkResult(_ result: NDEFParser.Result, of bytes: [UInt8], mode: String) {
    let records = result.message.records
    if records.isEmpty { violated("\(mode) result without records", bytes) }
    if result.layouts.count != records.count { violated("\(mode): \(result.layouts.count) layouts for \(records.count) records", bytes) }
    var end = 0
    for (record, layout) in zip(records, result.layouts) {
        if record.tnf == .unchanged { violated("\(mode): reassembled record with TNF unchanged", bytes) }
        if layout.offset < end || layout.length < 3 || layout.offset + layout.length > bytes.count {
            violated("\(mode): layout \(layout) out of order or outside the input", bytes)
        }
        end = layout.offset + layout.length
        if layout.payloadRanges.isEmpty { violated("\(mode): layout without payload ranges", bytes) }
        var payload: [UInt8] = []
        var previous = layout.offset
        for range in layout.payloadRanges {
            if range.lowerBound < previous || range.upperBound > end { violated("\(mode): payload range \(range) outside its record", bytes) }
            previous = range.upperBound
            payload += bytes[range]
        }
        if payload != record.payload { violated("\(mode): payload ranges do not hold the record's payload", bytes) }
        if layout.shortRecord && layout.payloadRanges[0].count > 255 { violated("\(mode): short record with a long payload", bytes) }
    }
    for issue in result.issues {
        checkOffset(issue, limit: bytes.count, input: bytes, what: "\(mode) issue")
    }
    if mode == "strict" {
        for record in records where record.tnf == .reserved { violated("strict result with reserved TNF", bytes) }
    }
}

// MARK: typed record content

/// Decodes a record's typed view, recursing into nested messages (one level deeper each time),
/// and checks that what was decoded re-encodes to the payload it came from.
func checkContent(_ record: NDEFRecord, in context: RecordContext, depth: Int, input: [UInt8]) {
    let expected = expectedKinds(record, in: context)
    let content: RecordContent?
    do {
        content = try record.content(in: context, depth: depth)
    } catch {
        checkOffset(error, limit: record.payload.count, input: input, what: "content() error")
        if expected.isSubset(of: ["none", "media", "absolute-uri", "external"]) {
            violated("content(in: \(context)) of a \(record.tnf.name) record of type \(Hex.string(record.type)) throws \(error); expected \(expected.sorted())", input)
        }
        return
    }
    let kind = content?.kind ?? "none"
    if !expected.contains(kind) {
        violated("content(in: \(context)) of a \(record.tnf.name) record of type \(Hex.string(record.type)) is '\(kind)', expected \(expected.sorted())", input)
    }
    guard let content else { return }
    let payload = record.payload
    func same(_ reencoded: [UInt8], _ what: String) {
        if reencoded != payload { violated("\(what) re-encodes to \(Hex.string(reencoded)), not \(Hex.string(payload))", input) }
    }
    switch content {
    case .text(let text):
        do { same(try text.payload(), "text record") } catch { violated("decoded text record cannot be re-encoded: \(error)", input) }
    case .uri(let uri):
        same(uri.payload, "URI record")
        _ = uri.uri
    case .smartPoster(let poster):
        checkNested(poster.message, reencoded: poster.payload, context: .smartPoster, depth: depth, input: input)
        _ = (poster.titles, poster.action, poster.size, poster.resourceType, poster.icons)
    case .handover(let handover):
        if handover.payload.first != payload.first { violated("handover version byte not re-encoded unchanged", input) }
        if let message = handover.message {
            checkNested(message, reencoded: Array(handover.payload.dropFirst()), context: .handover, depth: depth, input: input)
        } else {
            same(handover.payload, "handover record")
        }
        _ = (handover.versionString, handover.alternativeCarriers, handover.collisionResolution, handover.error)
    case .handoverCarrier(let carrier):
        same(carrier.payload, "handover carrier record")
    case .alternativeCarrier(let carrier):
        same(carrier.payload, "alternative carrier record")
    case .collisionResolution(let number):
        same([UInt8(number >> 8), UInt8(number & 0xFF)], "collision resolution record")
    case .handoverError(let error):
        same(error.payload, "handover error record")
    case .signature(let signature):
        do { same(try signature.payload(), "signature record") } catch { violated("decoded signature cannot be re-encoded: \(error)", input) }
        _ = (signature.signatureTypeName, signature.hashTypeName, signature.certificateFormatName)
    case .deviceInformation(let info):
        same(info.payload, "device information record")
        _ = (info.uuidString, info.otherElements)
    case .vcard(let text):
        same(Array(text.utf8), "vCard")
    case .wifi(let wifi):
        same(wifi.payload, "Wi-Fi record")
        for credential in wifi.credentials {
            _ = (credential.ssid, credential.networkKey, credential.macAddress, credential.networkIndex)
            if let auth = credential.authenticationType { _ = WiFiSimpleConfig.names(of: auth, in: WiFiSimpleConfig.authenticationNames) }
            if let enc = credential.encryptionType { _ = WiFiSimpleConfig.names(of: enc, in: WiFiSimpleConfig.encryptionNames) }
        }
    case .bluetooth(let oob):
        same(oob.payload, "Bluetooth OOB record")
        _ = (oob.addressString, oob.localName, oob.classOfDevice, oob.addressType, oob.role, oob.appearance)
    case .media, .absoluteURI, .androidApplication, .external:
        break
    }
}

/// The kinds `content(in:)` may give for a record, worked out independently of the codec from the
/// TNF and the exact type bytes ("none" for nil): well-known types are case-sensitive and compared
/// whole; media types by their essence (ASCII-lowercased, without parameters and surrounding spaces).
private func expectedKinds(_ record: NDEFRecord, in context: RecordContext) -> Set<String> {
    let type = record.type
    switch record.tnf {
    case .wellKnown:
        switch (String(decoding: type, as: UTF8.self), context) {
        case _ where type.contains(where: { $0 >= 0x80 }): return ["none"]
        case ("T", _): return ["text"]
        case ("U", _): return ["uri"]
        case ("Sp", _): return ["smart-poster"]
        case ("Hc", _): return ["handover-carrier"]
        case ("Sig", _): return ["signature"]
        case ("Di", _): return ["device-information"]
        case ("Hs", _): return ["handover-select"]
        case ("Hr", _): return ["handover-request"]
        case ("Hm", _): return ["handover-mediation"]
        case ("Hi", _): return ["handover-initiate"]
        case ("ac", .handover): return ["alternative-carrier"]
        case ("err", .handover): return ["handover-error"]
        case ("cr", .handover): return ["collision-resolution"]
        default: return ["none"]
        }
    case .media:
        let lower = type.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        var essence = lower.prefix { $0 != UInt8(ascii: ";") }
        while essence.first == 0x20 { essence.removeFirst() }
        while essence.last == 0x20 { essence.removeLast() }
        switch String(decoding: essence, as: UTF8.self) {
        case _ where essence.contains(where: { $0 >= 0x80 }): return ["media"]
        case "text/vcard", "text/x-vcard": return ["vcard"]
        case "application/vnd.wfa.wsc": return ["wifi"]
        case "application/vnd.bluetooth.ep.oob": return ["bluetooth"]
        case "application/vnd.bluetooth.le.oob": return ["bluetooth-le"]
        default: return ["media"]
        }
    case .absoluteURI:
        // A type holding a control character is no link: it decodes with an error (issue 23).
        return type.contains(where: { $0 < 0x20 || $0 == 0x7F }) ? ["error"] : ["absolute-uri"]
    case .external:
        let lower = type.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        if lower.elementsEqual("android.com:pkg".utf8) { return ["android-app"] }
        // External types have no parameters; whether "android.com:pkg; x" is an AAR is left open.
        if lower.contains(UInt8(ascii: ";")) || lower.first == 0x20 || lower.last == 0x20 { return ["android-app", "external"] }
        return ["external"]
    case .empty, .unknown, .unchanged, .reserved:
        return ["none"]
    }
}

/// A nested message (smart poster, handover): the record re-encodes to the canonical encoding of
/// its nested message (so canonical nested bytes come back unchanged), that encoding decodes to
/// the same message, and every nested record is decoded in its context one level deeper.
private func checkNested(_ message: NDEFMessage, reencoded: [UInt8], context: RecordContext,
                         depth: Int, input: [UInt8]) {
    if reencoded != message.encoded() { violated("nested record payload is not its message's encoding", input) }
    do {
        if try NDEFParser(mode: .strict).parse(reencoded).message != message {
            violated("re-encoded nested message decodes to another message", input)
        }
    } catch {
        violated("re-encoded nested message fails to parse: \(error)", input)
    }
    for record in message.records {
        checkContent(record, in: context, depth: depth + 1, input: input)
    }
}
