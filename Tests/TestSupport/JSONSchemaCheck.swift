import Foundation

/// What `nfcscan … --json` printed, checked against the command's schema in Docs/schemas by the one
/// validator every test uses (Tests/Support/json_schema.py, run as a child: the e2e scenarios and
/// the Python tests use the same file). The helpers that run the built nfcscan call it, so every
/// Swift test that reads nfcscan's JSON reads JSON that follows its schema.
public enum JSONSchemaCheck {
    public struct Invalid: Error, CustomStringConvertible {
        public let schema: String
        public let problems: String
        public var description: String { "nfcscan's --json output does not follow Docs/schemas/\(schema).schema.json:\n\(problems)" }
    }

    /// The schema of what `nfcscan ARGUMENTS` prints, when ARGUMENTS ask for JSON.
    public static func schema(for arguments: [String]) -> String? {
        guard arguments.contains("--json") else { return nil }
        switch arguments.first {
        case "write", "erase", "lock": return "ending"
        case let command? where ["decode", "info", "readers", "status", "apps"].contains(command): return command
        default: return "scan"
        }
    }

    /// Throws ``Invalid`` when `output` (JSON Lines) does not follow schema `name`.
    public static func validate(_ output: String, schema name: String) throws {
        let result = try BoundedProcess.run("/usr/bin/python3", [Repository.path("Tests/Support/json_schema.py"), name, "-"],
                                            input: Array(output.utf8), timeout: 30)
        guard result.status == 0 else { throw Invalid(schema: name, problems: result.stderr) }
    }

    /// What a run of `nfcscan ARGUMENTS` printed, checked when it asked for JSON and printed any:
    /// the result, unchanged.
    @discardableResult
    public static func checked(_ result: RunResult, arguments: [String]) throws -> RunResult {
        if let schema = schema(for: arguments), !result.stdout.isEmpty { try validate(result.stdout, schema: schema) }
        return result
    }
}
