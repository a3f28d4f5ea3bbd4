import Foundation

/// Runs libnfc's own command-line tools, each bounded in time and killed by its PID if it hangs.
public enum LibNFCTool {
    public static func path(_ name: String) throws -> String {
        try Repository.installed(name, remedy: "run scripts/install-deps.sh (Debian packages libnfc-bin, libnfc-examples)")
    }

    public static func environment(connstring: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["LIBNFC_DEVICE"] = connstring
        environment["LIBNFC_AUTO_SCAN"] = "false"
        environment.removeValue(forKey: "LIBNFC_LOG_LEVEL")
        return environment
    }

    /// Runs `name` against `connstring` (with `input` on its standard input); output is stdout and
    /// stderr together.
    public static func run(_ name: String, _ arguments: [String], connstring: String, input: [UInt8]? = nil,
                           timeout: Double = 20) throws -> RunResult {
        try BoundedProcess.run(try path(name), arguments, environment: environment(connstring: connstring), input: input,
                               output: .together, timeout: timeout)
    }

    /// `nfc-mfultralight r FILE`: its output and the memory image it saved (empty when none).
    public static func ultralightDump(connstring: String) throws -> (result: RunResult, bytes: [UInt8]) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nfc-mfultralight-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try run("nfc-mfultralight", ["r", file.path], connstring: connstring)
        return (result, (try? Data(contentsOf: file)).map { [UInt8]($0) } ?? [])
    }

    /// `nfc-mfultralight w FILE` of `image`, declining its OTP, lock and UID questions.
    public static func ultralightWrite(_ image: [UInt8], connstring: String) throws -> RunResult {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nfc-mfultralight-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(image).write(to: file)
        return try run("nfc-mfultralight", ["w", file.path], connstring: connstring, input: Array("n\nn\nn\nn\n".utf8))
    }
}
