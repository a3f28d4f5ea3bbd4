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

    /// The scan sheet's program as started outside the sandbox: `--pipe` hands it systemd-run's
    /// standard input and output (the daemon's pipes), `--setenv` gives it the display's
    /// variables as the daemon has them (those set); `RuntimeMaxSec` bounds a sheet that neither
    /// reads its end of input nor can be reached by the daemon's kill (which ends only
    /// systemd-run, inside the sandbox): longer than any session (an hour).
    static func sheetCommand(_ program: String, outside: Bool,
                             environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        guard outside else { return [program] }
        return ["systemd-run", "--user", "--collect", "--quiet", "--pipe", "-p", "RuntimeMaxSec=3900"]
            + sheetEnvironment.compactMap { name in environment[name].map { ["--setenv", "\(name)=\($0)"] } }.flatMap { $0 }
            + ["--", program]
    }

    /// What GTK needs to find the display, the session bus and assistive technologies.
    static let sheetEnvironment = ["WAYLAND_DISPLAY", "DISPLAY", "XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS", "XAUTHORITY",
                                   "XDG_SESSION_TYPE", "XDG_CURRENT_DESKTOP", "GTK_THEME"]
}
