import Glibc

/// Which programs nfcscand lets name the web page a session is for (issue 22): nfcscan's own
/// web host, `nfcscan-webnfc-host`, which is the `nfcscan` binary under another name. So the
/// binary nfcscand runs from (the package's one binary holds every command) and the `nfcscan`
/// beside it (a build tree's separate binaries), with symbolic links resolved, as the kernel
/// names a caller's executable in `/proc/PID/exe`.
enum WebHostExecutables {
    static func beside(_ ownExecutable: String?) -> Set<String> {
        guard let ownExecutable, let slash = ownExecutable.lastIndex(of: "/") else { return [] }
        let candidates = [ownExecutable, String(ownExecutable[..<slash]) + "/nfcscan"]
        return Set(candidates.compactMap(resolved))
    }

    private static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }
}
