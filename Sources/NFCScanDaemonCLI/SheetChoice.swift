import ArgumentParser
import Glibc

/// Whether nfcscand shows its scan sheet (issue 21), and which program draws it.
enum SheetChoice: ExpressibleByArgument, Equatable {
    /// On a display (DISPLAY or WAYLAND_DISPLAY set) where the sheet's program is installed.
    case auto
    /// Never (a kiosk): nothing is asked; sandboxed apps need a kept grant.
    case never
    /// This program, on a display.
    case program(String)

    init?(argument: String) {
        switch argument {
        case "auto": self = .auto
        case "never": self = .never
        default:
            guard argument.hasPrefix("/") else { return nil }
            self = .program(argument)
        }
    }

    static let programName = "nfcscan-sheet"

    /// The program to start, or nil with the reason there is no sheet.
    func program(environment: [String: String], executable: String?) -> (path: String?, reason: String) {
        let display = ["WAYLAND_DISPLAY", "DISPLAY"].contains { !(environment[$0] ?? "").isEmpty }
        switch self {
        case .never: return (nil, "--sheet never")
        case .program(let path):
            guard display else { return (nil, "no display (neither WAYLAND_DISPLAY nor DISPLAY is set)") }
            return (path, "")
        case .auto:
            guard display else { return (nil, "no display (neither WAYLAND_DISPLAY nor DISPLAY is set)") }
            let candidates = Self.candidates(beside: executable)
            guard let found = candidates.first(where: { access($0, X_OK) == 0 }) else {
                return (nil, "no \(Self.programName) at \(candidates.joined(separator: " or "))")
            }
            return (found, "")
        }
    }

    /// Where the package installs it (`<prefix>/libexec/nfcscan/`), then beside the binary (a build directory).
    static func candidates(beside executable: String?) -> [String] {
        guard let executable, let slash = executable.lastIndex(of: "/") else { return [] }
        let directory = String(executable[..<slash])
        let prefix = directory.lastIndex(of: "/").map { String(directory[..<$0]) } ?? ""
        return ["\(prefix)/libexec/nfcscan/\(programName)", "\(directory)/\(programName)"]
    }

    /// This process's executable (/proc/self/exe).
    static var ownExecutable: String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
