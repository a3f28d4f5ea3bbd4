import Glibc
import Systemd

/// `nfcscan-webnfc-host`: the native messaging host the browser extension starts, one per page
/// that uses Web NFC (browser-extension/PROTOCOL.md). The browser starts it with the extension's
/// origin (Chromium: `chrome-extension://ID/`; Firefox: the manifest's path and the add-on's ID)
/// and speaks to it on standard input and output; it opens no port. Its messages for people who
/// run it by hand, and its log, go to standard error (which browsers keep in their own log).
public enum WebNFCHostMain {
    public static func main() async -> Never {
        signal(SIGPIPE, SIG_IGN)
        if isatty(STDIN_FILENO) == 1 || CommandLine.arguments.contains("--help") {
            log("""
                nfcscan-webnfc-host is started by the nfcscan Web NFC browser extension, not by people: it carries \
                a web page's scans and writes to nfcscand. Load the extension from \(extensionDirectory) (its \
                README.md says how), then open a page that uses Web NFC.
                """)
            exit(isatty(STDIN_FILENO) == 1 ? 64 : 0)
        }
        let bus: BusConnection
        do {
            bus = try BusConnection.session()
        } catch {
            // The browser sees the host end: the extension rejects the page's operations NotSupportedError.
            log("no session bus: \(error)")
            exit(69)
        }
        exit(await HostRun(bus: bus, log: log).run())
    }

    /// Where make install and the package put the extension, relative to the host's own place
    /// (`$(LIBEXECDIR)/nfcscan` → `$(DATADIR)/nfcscan/browser-extension`).
    static var extensionDirectory: String {
        let path = CommandLine.arguments.first ?? ""
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        guard directory.hasSuffix("/libexec/nfcscan") else { return directory + "/../../share/nfcscan/browser-extension" }
        return directory.dropLast("/libexec/nfcscan".count) + "/share/nfcscan/browser-extension"
    }

    @Sendable static func log(_ line: String) {
        let text = Array("nfcscan-webnfc-host: \(line)\n".utf8)
        _ = text.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
