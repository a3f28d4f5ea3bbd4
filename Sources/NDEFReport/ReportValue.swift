/// A transport-neutral tree of what a message holds: rendered as JSON by `nfcscan`, and as D-Bus
/// variants by the daemon, so every face of nfcscan shows the same fields.
public indirect enum ReportValue: Hashable, Sendable {
    case string(String)
    case int(Int)
    case bool(Bool)
    case array([ReportValue])
    /// Keys in the order they are printed.
    case object([Field])

    public struct Field: Hashable, Sendable {
        public var key: String
        public var value: ReportValue

        public init(_ key: String, _ value: ReportValue) {
            self.key = key
            self.value = value
        }
    }

    /// The value under `key`, for objects.
    public subscript(key: String) -> ReportValue? {
        guard case .object(let fields) = self else { return nil }
        return fields.first { $0.key == key }?.value
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var arrayValue: [ReportValue]? {
        if case .array(let a) = self { return a }
        return nil
    }
}

/// Builds an object's fields, leaving out absent values (the schema never prints `null`).
struct FieldList {
    private(set) var fields: [ReportValue.Field] = []

    mutating func add(_ key: String, _ value: ReportValue?) {
        if let value { fields.append(.init(key, value)) }
    }

    mutating func add(_ key: String, _ value: String?) { add(key, value.map(ReportValue.string)) }
    mutating func add(_ key: String, _ value: Int?) { add(key, value.map(ReportValue.int)) }

    var object: ReportValue { .object(fields) }
}
