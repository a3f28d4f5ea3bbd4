import Foundation

/// Where the repository and the programs it builds are, and the programs from the machine the
/// rigs start: written once, so every test target finds them the same way and says the same
/// thing when one is missing.
public enum Repository {
    /// The checkout: this file is Tests/TestSupport/Repository.swift.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A file or folder of the checkout, by its path from the root.
    public static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// A program `swift build` wrote (.build/debug/`name`).
    public static func built(_ name: String) -> String { path(".build/debug/\(name)") }

    /// The built nfcsim; NFCSIM_BIN overrides where it is.
    public static var nfcsim: String { ProcessInfo.processInfo.environment["NFCSIM_BIN"] ?? built("nfcsim") }

    /// The built nfcscan; NFCSCAN_BIN overrides where it is.
    public static var nfcscan: String { ProcessInfo.processInfo.environment["NFCSCAN_BIN"] ?? built("nfcscan") }

    /// `program` (a built one's path), or ``Missing`` saying to build it.
    @discardableResult
    public static func requireBuilt(_ program: String) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: program) else {
            throw Missing(what: "\(program) is not built", remedy: "swift build --build-tests")
        }
        return program
    }

    /// The path of an installed program: the first on PATH, then the usual system folders (the
    /// sbin ones hold pcscd and ip, and are not on every user's PATH).
    public static func installed(_ name: String, remedy: String = Missing.installDeps) throws -> String {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
            + ["/usr/bin", "/usr/sbin", "/bin", "/sbin"]
        for directory in directories where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
            return "\(directory)/\(name)"
        }
        throw Missing(what: "\(name) is not installed", remedy: remedy)
    }
}

/// Something a test needs from the machine or the build is not there: the test fails saying what,
/// and what to run, before it starts anything.
public struct Missing: Error, CustomStringConvertible {
    public static let installDeps = "run scripts/install-deps.sh"
    public var what: String
    public var remedy: String

    public init(what: String, remedy: String = Missing.installDeps) {
        self.what = what
        self.remedy = remedy
    }

    public var description: String { "\(what); \(remedy)" }
}
