#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The width of the terminal a stream writes to (TIOCGWINSZ): what a line redrawn in place with
/// `\r` must stay within, or every redraw starts a new line.
public enum TerminalSize {
    /// Columns of the terminal behind `stream`; nil when it is not a terminal or says 0.
    public static func columns(of stream: StandardStream) -> Int? {
        var size = winsize()
        guard ioctl(stream.descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
