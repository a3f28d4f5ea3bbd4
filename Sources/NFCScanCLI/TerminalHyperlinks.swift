#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Whether standard output goes to a terminal that shows clickable links (OSC 8). Terminals that
/// do not know the sequence may print it as garbage, so it is sent only to those that say who
/// they are and are known to handle it; never to a pipe or a file (scripts, `--json`).
enum TerminalHyperlinks {
    static var enabled: Bool {
        guard isatty(STDOUT_FILENO) == 1 else { return false }
        var environment: [String: String] = [:]
        for name in ["TERM", "NO_HYPERLINKS", "VTE_VERSION", "TERM_PROGRAM", "KITTY_WINDOW_ID", "WT_SESSION", "KONSOLE_VERSION",
                     "WEZTERM_EXECUTABLE"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return supported(environment: environment)
    }

    /// The decision, from the environment a terminal sets for its programs.
    static func supported(environment: [String: String]) -> Bool {
        let term = environment["TERM"] ?? ""
        if term.isEmpty || term == "dumb" || environment["NO_HYPERLINKS"] != nil { return false }
        // GNOME Terminal, Tilix, Terminator… (VTE 0.50 and later).
        if let vte = environment["VTE_VERSION"].flatMap(Int.init), vte >= 5000 { return true }
        if ["iTerm.app", "WezTerm", "vscode", "ghostty", "Hyper"].contains(environment["TERM_PROGRAM"] ?? "") { return true }
        if ["KITTY_WINDOW_ID", "WT_SESSION", "KONSOLE_VERSION", "WEZTERM_EXECUTABLE"].contains(where: { environment[$0] != nil }) { return true }
        return ["xterm-kitty", "foot", "foot-extra", "alacritty", "xterm-ghostty", "wezterm", "contour"].contains(term)
    }
}
