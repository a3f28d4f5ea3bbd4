import Glibc

/// Reads the desktop files below ``ApplicationDirectories`` from the file system for
/// ``ApplicationIndex``: the I/O edge, kept thin. Bounded: at most ``maximumFiles`` files,
/// ``maximumDepth`` levels of subdirectories, and ``DesktopEntryFile/maximumBytes`` per file
/// (checked before reading), so a directory full of junk costs little.
public struct ApplicationDirectoryReader: Sendable {
    public static let maximumFiles = 4096
    public static let maximumDepth = 4

    public let directories: ApplicationDirectories

    public init(directories: ApplicationDirectories) { self.directories = directories }

    /// What was found, and every directory looked into (the ones to watch for changes).
    public func read() -> (found: [ApplicationIndex.Found], directories: [String]) {
        var found: [ApplicationIndex.Found] = []
        var visited: [String] = []
        for (index, root) in directories.paths.enumerated() {
            walk(root, relative: "", depth: 0, directory: index, found: &found, visited: &visited)
        }
        return (found, visited)
    }

    private func walk(_ path: String, relative: String, depth: Int, directory: Int,
                      found: inout [ApplicationIndex.Found], visited: inout [String]) {
        guard let handle = opendir(path) else { return }
        defer { closedir(handle) }
        visited.append(path)
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix(".") { continue }
            names.append(name)
            if names.count > Self.maximumFiles { break }
        }
        for name in names.sorted() {
            guard found.count < Self.maximumFiles else { return }
            let full = path + "/" + name, relativeName = relative.isEmpty ? name : relative + "/" + name
            var info = stat()
            guard stat(full, &info) == 0 else { continue }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                if depth < Self.maximumDepth {
                    walk(full, relative: relativeName, depth: depth + 1, directory: directory, found: &found, visited: &visited)
                }
            } else if (info.st_mode & S_IFMT) == S_IFREG, let id = DesktopFileID(relativePath: relativeName) {
                found.append(.init(id: id, path: full, directory: directory, contents: Self.contents(of: full)))
            }
        }
    }

    /// The bytes of a regular file of at most ``DesktopEntryFile/maximumBytes``.
    public static func contents(of path: String) -> Result<[UInt8], DesktopEntryProblem> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return .failure(DesktopEntryProblem(line: 0, "cannot be read (errno \(errno))")) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            return .failure(DesktopEntryProblem(line: 0, "not a regular file"))
        }
        guard info.st_size <= DesktopEntryFile.maximumBytes else {
            return .failure(DesktopEntryProblem(line: 0, "the file is \(info.st_size) bytes; at most \(DesktopEntryFile.maximumBytes)"))
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while bytes.count <= DesktopEntryFile.maximumBytes {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        guard bytes.count <= DesktopEntryFile.maximumBytes else {
            return .failure(DesktopEntryProblem(line: 0, "the file grew past \(DesktopEntryFile.maximumBytes) bytes"))
        }
        return .success(bytes)
    }

    /// Whether `program` (an absolute path, or a name looked up in `searchPath`) is an
    /// executable file: the `TryExec` test, and what the runtime checks before starting `Exec`.
    public static func executable(_ program: String, searchPath: String) -> String? {
        if program.contains("/") {
            return program.hasPrefix("/") && access(program, X_OK) == 0 && isRegularFile(program) ? program : nil
        }
        for directory in searchPath.split(separator: ":") where directory.hasPrefix("/") {
            let candidate = "\(directory)/\(program)"
            if access(candidate, X_OK) == 0, isRegularFile(candidate) { return candidate }
        }
        return nil
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }
}
