#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CommandLineIO
import NFCCopy
import Synchronization

/// The scan prompt on standard error. In a terminal (TERM not `dumb`): one line redrawn in place
/// with `\r` — a spinner, the prompt, and the seconds left (dimmed unless NO_COLOR is set).
/// Otherwise: the prompt as one plain line, once per wait. The live line never wraps: it is cut to
/// the terminal's width less one column (a wrapped line would leave a copy behind at each redraw).
final class PromptLine: Sendable {
    let isLive: Bool
    private let colour: Bool
    private let frames: [String]
    private let state = Mutex<(text: String, deadline: ContinuousClock.Instant?, frame: Int, shown: Bool, ticker: Task<Void, Never>?)>(("", nil, 0, false, nil))

    init(environment: [String: String] = PromptLine.environment) {
        let term = environment["TERM"] ?? ""
        isLive = isatty(STDERR_FILENO) == 1 && term != "dumb" && !term.isEmpty
        colour = (environment["NO_COLOR"] ?? "").isEmpty
        let locale = (environment["LC_ALL"] ?? environment["LC_CTYPE"] ?? environment["LANG"] ?? "").lowercased()
        frames = locale.contains("utf-8") || locale.contains("utf8")
            ? ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"] : ["|", "/", "-", "\\"]
    }

    static var environment: [String: String] {
        var result: [String: String] = [:]
        for name in ["TERM", "NO_COLOR", "LC_ALL", "LC_CTYPE", "LANG"] {
            if let value = getenv(name) { result[name] = String(cString: value) }
        }
        return result
    }

    /// Shows `text` until the next call; counts down to `deadline` when given.
    func show(_ text: String, deadline: ContinuousClock.Instant?, secondsLeft: @escaping @Sendable (Int) -> String) {
        guard isLive else {
            writeLine(text, to: .error)
            return
        }
        let old = state.withLock { state -> Task<Void, Never>? in
            state.text = text
            state.deadline = deadline
            let old = state.ticker
            state.ticker = nil
            return old
        }
        old?.cancel()
        draw(secondsLeft)
        let ticker = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(100))
                if Task.isCancelled { return }
                self?.draw(secondsLeft)
            }
        }
        state.withLock { $0.ticker = ticker }
        PromptLine.clearOnInterrupt()
    }

    /// Removes the live line (before results or an error are printed).
    func clear() {
        guard isLive else { return }
        let (ticker, shown) = state.withLock { state -> (Task<Void, Never>?, Bool) in
            let result = (state.ticker, state.shown)
            state.ticker = nil
            state.shown = false
            return result
        }
        ticker?.cancel()
        if shown { PromptLine.write("\r\u{1B}[K") }
    }

    private func draw(_ secondsLeft: (Int) -> String) {
        let line = state.withLock { state -> String in
            state.frame = (state.frame + 1) % frames.count
            state.shown = true
            var count: String?
            if let deadline = state.deadline {
                let left = max(0, Int((ContinuousClock.now.duration(to: deadline) / .seconds(1)).rounded(.up)))
                count = secondsLeft(left)
            }
            let (head, tail) = Self.fitted(head: "\(frames[state.frame]) \(state.text)", tail: count.map { " " + $0 },
                                           columns: TerminalSize.columns(of: .error))
            return "\r\u{1B}[K" + head + (tail.map { colour ? " \u{1B}[2m\($0.dropFirst())\u{1B}[0m" : $0 } ?? "")
        }
        PromptLine.write(line)
    }

    /// The spinner and prompt (`head`) and the countdown (`tail`), cut to fit `columns` - 1
    /// display columns (a Chinese character takes two): the prompt is shortened with `…` and the
    /// countdown kept while there is room for both, else the countdown goes. Unknown width: as is.
    static func fitted(head: String, tail: String?, columns: Int?) -> (head: String, tail: String?) {
        guard let columns else { return (head, tail) }
        let limit = max(1, columns - 1)
        let tailWidth = tail.map(CopyRules.displayWidth) ?? 0
        if CopyRules.displayWidth(head) + tailWidth <= limit { return (head, tail) }
        if let tail, tailWidth + 2 <= limit / 2 { return (cut(head, to: limit - tailWidth), tail) }
        return (cut(head, to: limit), nil)
    }

    /// `text` within `width` columns, ending in `…` when cut.
    static func cut(_ text: String, to width: Int) -> String {
        guard CopyRules.displayWidth(text) > width else { return text }
        var result = ""
        var used = 0
        for character in text {
            let next = CopyRules.displayWidth(String(character))
            if used + next > width - 1 { break }
            result.append(character)
            used += next
        }
        return result + "…"
    }

    static func write(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Ctrl-C while the live line is shown: clear it, then exit as interrupted (130).
    private static func clearOnInterrupt() {
        signal(SIGINT) { _ in
            let clear: StaticString = "\r\u{1B}[K"
            _ = Glibc.write(STDERR_FILENO, clear.utf8Start, clear.utf8CodeUnitCount)
            _exit(130)
        }
    }
}
