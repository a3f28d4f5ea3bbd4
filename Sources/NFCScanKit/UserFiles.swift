/// Where nfcscan's per-user files live (XDG Base Directory): its configuration under
/// `$XDG_CONFIG_HOME/nfcscan` (else `~/.config/nfcscan`), its state under `$XDG_STATE_HOME/nfcscan`
/// (else `~/.local/state/nfcscan`). Nil when neither the variable nor `HOME` is an absolute path.
enum UserFiles {
    static func configDirectory(_ environment: [String: String]) -> String? {
        base(environment, "XDG_CONFIG_HOME", fallback: "/.config").map { $0 + "/nfcscan" }
    }

    static func stateDirectory(_ environment: [String: String]) -> String? {
        base(environment, "XDG_STATE_HOME", fallback: "/.local/state").map { $0 + "/nfcscan" }
    }

    private static func base(_ environment: [String: String], _ name: String, fallback: String) -> String? {
        if let value = environment[name], value.hasPrefix("/") { return value }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return home + fallback
    }
}
