import FoundationEssentials

/// Programs nfcscand starts for the person (a browser, an installed app) must not live inside the
/// service's sandbox: under the systemd unit they would have no network and no JIT
/// (Docs/service.md). There they are started in a transient unit of their own
/// (`systemd-run --user`); run by hand, as children.
public enum TransientUnit {
    /// Whether nfcscand runs under systemd (it sets INVOCATION_ID for each service it starts).
    public static var underSystemd: Bool { ProcessInfo.processInfo.environment["INVOCATION_ID"] != nil }

    /// `arguments` as started outside the sandbox when `outside`; `wait`: systemd-run stays
    /// until the program ends, so its end is seen.
    static func command(_ arguments: [String], outside: Bool, wait: Bool = false) -> [String] {
        (outside ? ["systemd-run", "--user", "--collect", "--quiet"] + (wait ? ["--wait"] : []) + ["--"] : []) + arguments
    }
}
