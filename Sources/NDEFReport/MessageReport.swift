import NDEF

/// Turns a decoded message into the fields of Docs/json-schema.md.
///
/// A record whose payload does not fit its type (a `text/vcard` in Latin-1) is reported raw with
/// an `error` field and never hides the other records: phones and ndeflib show the rest of such
/// a message, and so does every face of nfcscan. Strict versus lenient is about the message's
/// framing only (``NDEFParser/Mode``).
public struct MessageReport: Sendable {
    public init() {}

    /// `{"records": [...]}`. With layouts from ``NDEFParser``, error offsets count from the start
    /// of the input and chunked records are marked.
    public func report(_ message: NDEFMessage, layouts: [NDEFParser.RecordLayout]? = nil) -> ReportValue {
        .object([.init("records", records(message, layouts: layouts, context: .message, depth: 0))])
    }

    func records(_ message: NDEFMessage, layouts: [NDEFParser.RecordLayout]?, context: RecordContext, depth: Int) -> ReportValue {
        var items: [ReportValue] = []
        items.reserveCapacity(message.records.count)
        for (index, record) in message.records.enumerated() {
            items.append(self.record(record, layout: layouts?[index], context: context, depth: depth))
        }
        return .array(items)
    }

    public func record(_ record: NDEFRecord, layout: NDEFParser.RecordLayout? = nil, context: RecordContext = .message,
                       depth: Int = 0) -> ReportValue {
        var fields = FieldList()
        fields.add("tnf", record.tnf.name)
        fields.add("type", record.typeString)
        fields.add("id", record.idString)
        fields.add("payload", Hex.string(record.payload))
        if layout?.isChunked == true { fields.add("chunked", .bool(true)) }
        switch record.tnf {
        case .media: fields.add("mime_type", MediaType.normalized(record.type))
        case .external: fields.add("domain_type", MediaType.normalized(record.type))
        default: break
        }
        do {
            if let content = try record.content(in: context, depth: depth) {
                fields.add("kind", content.kind)
                describe(content, into: &fields, depth: depth)
            }
        } catch {
            fields.add("error", error.located(in: layout).description)
        }
        return fields.object
    }

    private func describe(_ content: RecordContent, into fields: inout FieldList, depth: Int) {
        switch content {
        case .text(let text):
            fields.add("text", text.text)
            fields.add("language", text.language)
            fields.add("encoding", text.encoding.name)
        case .uri(let uri):
            fields.add("uri", uri.uri)
            fields.add("prefix_code", Int(uri.prefixCode))
        case .smartPoster(let poster):
            fields.add("uri", poster.uri.uri)
            fields.add("titles", .array(poster.titles.map { .object([.init("language", .string($0.language)), .init("text", .string($0.text))]) }))
            fields.add("action", poster.action?.name)
            fields.add("size", poster.size.map { Int($0) })
            fields.add("resource_type", poster.resourceType)
            fields.add("icons", .array(poster.icons.map { .object([.init("mime_type", .string($0.mimeType)), .init("payload", .string(Hex.string($0.data)))]) }))
            fields.add("records", records(poster.message, layouts: nil, context: .smartPoster, depth: depth + 1))
        case .handover(let handover):
            fields.add("version", handover.versionString)
            fields.add("alternative_carriers", .array(handover.alternativeCarriers.map(Self.carrier)))
            if handover.kind == .request { fields.add("collision_resolution", handover.collisionResolution.map { Int($0) }) }
            if let error = handover.error { fields.add("error", Self.handoverError(error)) }
            if let message = handover.message {
                fields.add("records", records(message, layouts: nil, context: .handover, depth: depth + 1))
            } else {
                fields.add("records", .array([]))
            }
        case .alternativeCarrier(let carrier):
            if case .object(let carrierFields) = Self.carrier(carrier) { for f in carrierFields { fields.add(f.key, f.value) } }
        case .collisionResolution(let number):
            fields.add("random_number", Int(number))
        case .handoverError(let error):
            fields.add("reason", Int(error.reason))
            fields.add("data", Hex.string(error.data))
        case .handoverCarrier(let carrier):
            fields.add("carrier_type_format", carrier.carrierTypeFormat.name)
            fields.add("carrier_type", String(decoding: carrier.carrierType, as: UTF8.self))
            fields.add("carrier_data", Hex.string(carrier.carrierData))
        case .signature(let signature):
            fields.add("version", "\(signature.version >> 4).\(signature.version & 0x0F)")
            fields.add("signature_type", signature.signatureTypeName)
            fields.add("hash_type", signature.hashTypeName)
            switch signature.signature {
            case .bytes(let bytes): fields.add("signature", Hex.string(bytes))
            case .uri(let uri): fields.add("signature_uri", uri)
            }
            fields.add("certificate_format", signature.certificateFormatName)
            fields.add("certificates", .array(signature.certificates.map { .string(Hex.string($0)) }))
            fields.add("certificate_uri", signature.certificateURI)
        case .deviceInformation(let info):
            fields.add("vendor_name", info.vendorName)
            fields.add("model_name", info.modelName)
            fields.add("unique_name", info.uniqueName)
            fields.add("uuid", info.uuidString)
            fields.add("version_string", info.versionString)
            let others = info.otherElements
            if !others.isEmpty {
                fields.add("other_elements", .array(others.map { .object([.init("type", .int(Int($0.type))), .init("data", .string(Hex.string($0.value)))]) }))
            }
        case .vcard(let text):
            fields.add("vcard", text)
        case .wifi(let wifi):
            let credentials = wifi.credentials.map(Self.credential)
            if case .object(let first)? = credentials.first { for f in first { fields.add(f.key, f.value) } }
            fields.add("credentials", .array(credentials))
        case .bluetooth(let oob):
            fields.add("address", oob.addressString)
            if oob.transport == .lowEnergy {
                fields.add("address_type", oob.addressType)
                fields.add("role", oob.role)
            }
            fields.add("local_name", oob.localName)
            if oob.transport == .classic { fields.add("class_of_device", oob.classOfDevice.map { Int($0) }) }
            if oob.transport == .lowEnergy { fields.add("appearance", oob.appearance.map { Int($0) }) }
        case .media:
            break // mime_type is already there
        case .absoluteURI(let uri):
            fields.add("uri", uri)
        case .androidApplication(let package):
            fields.add("package", package)
        case .external:
            break // domain_type is already there
        }
    }

    private static func carrier(_ carrier: AlternativeCarrier) -> ReportValue {
        .object([
            .init("power_state", .string(carrier.powerState.name)),
            .init("carrier_data_reference", .string(String(decoding: carrier.carrierDataReference, as: UTF8.self))),
            .init("auxiliary_data_references", .array(carrier.auxiliaryDataReferences.map { .string(String(decoding: $0, as: UTF8.self)) })),
        ])
    }

    private static func handoverError(_ error: HandoverError) -> ReportValue {
        .object([.init("reason", .int(Int(error.reason))), .init("data", .string(Hex.string(error.data)))])
    }

    private static func credential(_ credential: WiFiSimpleConfig.Credential) -> ReportValue {
        var fields = FieldList()
        func octets(_ key: String, _ bytes: [UInt8]?) {
            guard let bytes else { return }
            if let text = String(validating: bytes, as: UTF8.self) { fields.add(key, text) } else { fields.add(key + "_hex", Hex.string(bytes)) }
        }
        octets("ssid", credential.ssid)
        octets("network_key", credential.networkKey)
        fields.add("authentication", credential.authenticationType.map {
            ReportValue.array(WiFiSimpleConfig.names(of: $0, in: WiFiSimpleConfig.authenticationNames).map(ReportValue.string))
        })
        fields.add("encryption", credential.encryptionType.map {
            ReportValue.array(WiFiSimpleConfig.names(of: $0, in: WiFiSimpleConfig.encryptionNames).map(ReportValue.string))
        })
        fields.add("mac_address", credential.macAddress.map { $0.map { Hex.string([$0]) }.joined(separator: ":") })
        fields.add("network_index", credential.networkIndex.map { Int($0) })
        return fields.object
    }
}
