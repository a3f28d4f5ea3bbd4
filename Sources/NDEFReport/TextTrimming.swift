extension StringProtocol {
    /// The text without the white space (line breaks included) at its start and end: what every
    /// line of a configuration file, a declared name and the copy checker compare.
    public var trimmingWhitespace: String {
        var rest = Substring(self)
        while let first = rest.first, first.isWhitespace { rest.removeFirst() }
        while let last = rest.last, last.isWhitespace { rest.removeLast() }
        return String(rest)
    }
}
