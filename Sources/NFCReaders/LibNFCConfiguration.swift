#if canImport(Glibc)
import Glibc
#endif

/// The devices libnfc's configuration names, as `nfc_init` reads it: `device.connstring` in
/// `libnfc.conf` and in each `devices.d/*.conf` (optional devices included: libnfc lists those
/// only while they open, so they are exactly the ones that come and go), then
/// `LIBNFC_DEFAULT_DEVICE`; `LIBNFC_DEVICE`, when set, replaces them all (set to nothing: no device, only
/// what libnfc's auto-scan finds, as ``LibNFCContext/listDevices(limit:)`` lists it). The hotplug watch
/// follows the device nodes these name (``LibNFCReader/devicePath(of:)``).
///
/// Untrusted text, read bounded: at most ``maximumFileSize`` bytes of a file and
/// ``maximumFiles`` files in `devices.d`.
public struct LibNFCConfiguration: Sendable, Equatable {
    public var connstrings: [String]

    public static let maximumFileSize = 64 * 1024
    public static let maximumFiles = 64

    public init(connstrings: [String]) { self.connstrings = connstrings }

    /// What a process started now would read: the environment and the files under `directory`
    /// (libnfc's sysconfdir, `/etc/nfc`).
    public static func current(directory: String = "/etc/nfc",
                               environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }) -> LibNFCConfiguration {
        if let only = environment("LIBNFC_DEVICE") { return LibNFCConfiguration(connstrings: only.isEmpty ? [] : [only]) }
        var found: [String] = []
        if let text = contents(of: directory + "/libnfc.conf") { found += connstrings(in: text) }
        for file in configurationFiles(in: directory + "/devices.d") {
            if let text = contents(of: file) { found += connstrings(in: text) }
        }
        if let extra = environment("LIBNFC_DEFAULT_DEVICE"), !extra.isEmpty { found.insert(extra, at: 0) }
        return LibNFCConfiguration(connstrings: found)
    }

    /// The `device.connstring` values of one file (libnfc's syntax: `key = value`, the value
    /// optionally in double quotes, `#` starting a comment line).
    public static func connstrings(in text: String) -> [String] {
        text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).compactMap { line -> String? in
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            guard !trimmed.hasPrefix("#"), let equals = trimmed.firstIndex(of: "=") else { return nil }
            guard trimmed[..<equals].trimmingSpaces == "device.connstring" else { return nil }
            var value = trimmed[trimmed.index(after: equals)...].trimmingSpaces
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            // libnfc's connstring buffer is 1024 bytes.
            return value.isEmpty || value.utf8.count > 1023 ? nil : value
        }
    }

    private static func configurationFiles(in directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while names.count < maximumFiles, let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasSuffix(".conf"), !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted().map { directory + "/" + $0 }
    }

    private static func contents(of path: String) -> String? {
        guard let file = fopen(path, "re") else { return nil }
        defer { fclose(file) }
        var bytes = [UInt8](repeating: 0, count: maximumFileSize)
        let count = fread(&bytes, 1, bytes.count, file)
        return String(decoding: bytes[..<count], as: UTF8.self)
    }
}
