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

    /// Runs `name` against `connstring`; output is stdout and stderr together.
    public static func run(_ name: String, _ arguments: [String], connstring: String, timeout: Double = 20) throws -> RunResult {
        try BoundedProcess.run(try path(name), arguments, environment: environment(connstring: connstring), output: .together, timeout: timeout)
    }
}
