extension Introspection {
    /// What `Introspect` answers for each kind of object the daemon exports.
    static func text(for kind: BusObject.Kind) -> String {
        switch kind {
        case .scanner: scanner
        case .reader: reader
        case .session: session
        case .writeSession: writeSession
        }
    }
}
