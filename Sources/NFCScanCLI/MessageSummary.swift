import NDEF
import NDEFReport

/// The short, readable summary `nfcscan decode` prints: one line per record, nested records
/// indented. Every value from the message goes through ``DisplayText`` first.
enum MessageSummary {
    static func lines(for report: ReportValue, byteCount: Int) -> [String] {
        let records = report["records"]?.arrayValue ?? []
        var lines = ["\(records.count) record\(records.count == 1 ? "" : "s"), \(byteCount) byte\(byteCount == 1 ? "" : "s")"]
        for (index, record) in records.enumerated() {
            append(record, label: "\(index + 1).", indent: "  ", to: &lines)
        }
        return lines
    }

    private static func append(_ record: ReportValue, label: String, indent: String, to lines: inout [String]) {
        lines.append("\(indent)\(label) \(headline(record))")
        let inner = indent + String(repeating: " ", count: label.count + 1)
        if let error = record["error"]?.stringValue {
            lines.append("\(inner)cannot be decoded: \(error)")
        }
        switch record["kind"]?.stringValue {
        case "smart-poster":
            for title in record["titles"]?.arrayValue ?? [] {
                lines.append("\(inner)Title (\(show(title["language"]))): \(show(title["text"]))")
            }
            if let action = record["action"]?.stringValue {
                let meaning = ["do": "open it", "save": "save it for later", "edit": "open it for editing"][action] ?? action
                lines.append("\(inner)Suggested action: \(meaning) (\(action))")
            }
            if let type = record["resource_type"]?.stringValue { lines.append("\(inner)Resource type: \(show(.string(type)))") }
            if case .int(let size)? = record["size"] { lines.append("\(inner)Resource size: \(size) bytes") }
            let icons = record["icons"]?.arrayValue ?? []
            if !icons.isEmpty { lines.append("\(inner)Icons: \(icons.map { show($0["mime_type"]) }.joined(separator: ", "))") }
        case let kind? where kind.hasPrefix("handover-") && kind != "handover-error" && kind != "handover-carrier":
            for (index, nested) in (record["records"]?.arrayValue ?? []).enumerated() {
                append(nested, label: "\(index + 1).", indent: inner, to: &lines)
            }
        case "wifi":
            let credentials = record["credentials"]?.arrayValue ?? []
            for extra in credentials.dropFirst() { lines.append("\(inner)Also: \(wifi(extra))") }
        default:
            break
        }
    }

    private static func headline(_ record: ReportValue) -> String {
        let payloadBytes = (record["payload"]?.stringValue?.utf8.count ?? 0) / 2
        let size = "\(payloadBytes) byte\(payloadBytes == 1 ? "" : "s")"
        switch record["kind"]?.stringValue {
        case "text": return "Text (\(show(record["language"]))): \(show(record["text"]))"
        case "uri": return "Link: \(show(record["uri"]))"
        case "smart-poster": return "Smart poster: \(show(record["uri"]))"
        case "handover-select", "handover-request", "handover-mediation", "handover-initiate":
            let name = record["kind"]!.stringValue!.dropFirst("handover-".count)
            let carriers = record["alternative_carriers"]?.arrayValue?.count ?? 0
            return "Connection handover \(name) \(show(record["version"])): \(carriers) carrier\(carriers == 1 ? "" : "s")"
        case "alternative-carrier":
            return "Alternative carrier '\(show(record["carrier_data_reference"]))', \(show(record["power_state"]))"
        case "collision-resolution":
            return "Collision resolution number \(record["random_number"].map(show) ?? "?")"
        case "handover-error":
            return "Handover error, reason \(record["reason"].map(show) ?? "?")"
        case "handover-carrier":
            return "Carrier: \(show(record["carrier_type"]))"
        case "signature":
            let type = record["signature_type"].map(show) ?? "marker"
            return "Signature: \(type), not verified"
        case "device-information":
            return "Written by \(show(record["vendor_name"])) \(show(record["model_name"]))"
        case "vcard":
            let name = record["vcard"]?.stringValue.flatMap(vcardName)
            return "Contact card" + (name.map { ": \(DisplayText.sanitized($0))" } ?? ", \(size)")
        case "wifi": return "Wi-Fi network: \(wifi(record))"
        case "bluetooth", "bluetooth-le":
            let name = record["local_name"].map { " \"\(show($0))\"" } ?? ""
            let kind = record["kind"]?.stringValue == "bluetooth" ? "Bluetooth" : "Bluetooth LE"
            return "\(kind) device \(record["address"].map(show) ?? "(no address)")\(name)"
        case "media": return "Data of type \(show(record["mime_type"])), \(size)"
        case "absolute-uri": return "Data typed by URI \(show(record["uri"])), \(size)"
        case "android-app": return "Android app: \(show(record["package"]))"
        case "external": return "Data of external type \(show(record["domain_type"])), \(size)"
        default:
            switch record["tnf"]?.stringValue {
            case "empty": return "Empty record"
            case "well-known": return "Record of type '\(show(record["type"]))', \(size)"
            case "media": return "Data of type \(show(record["mime_type"])), \(size)"
            case "external": return "Data of external type \(show(record["domain_type"])), \(size)"
            default: return "Data of unknown type, \(size)"
            }
        }
    }

    private static func wifi(_ credential: ReportValue) -> String {
        let ssid = credential["ssid"].map { "\"\(show($0))\"" } ?? credential["ssid_hex"].map { "hex \(show($0))" } ?? "(no name)"
        let security = (credential["authentication"]?.arrayValue ?? []).map(show) + (credential["encryption"]?.arrayValue ?? []).map(show)
        return security.isEmpty ? ssid : "\(ssid) (\(security.joined(separator: ", ")))"
    }

    /// The `FN` (formatted name) of a vCard, if any.
    private static func vcardName(_ card: String) -> String? {
        for line in card.split(whereSeparator: \.isNewline) {
            let upper = line.uppercased()
            if upper.hasPrefix("FN:") || upper.hasPrefix("FN;") {
                return line.split(separator: ":", maxSplits: 1).last.map(String.init)
            }
        }
        return nil
    }

    private static func show(_ value: ReportValue?) -> String {
        switch value {
        case .string(let s)?: DisplayText.sanitized(s)
        case .int(let i)?: String(i)
        case .bool(let b)?: String(b)
        default: "?"
        }
    }
}
