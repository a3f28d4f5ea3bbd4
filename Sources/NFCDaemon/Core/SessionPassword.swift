/// A password an app gave (4 bytes, NTAG21x PWD_AUTH). Never logged or shown: every description
/// of it, and of what holds it, says only that there is one.
struct SessionPassword: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    static let length = 4
    let bytes: [UInt8]

    var description: String { "(a password)" }
    var debugDescription: String { description }
    var customMirror: Mirror { Mirror(self, children: [:]) }
}
