/// Why nfcscand's background reading is paused: the stable codes of its `PausedReasons`
/// property, shared by the daemon (which sets them) and `nfcscan status` (which explains them).
public enum BackgroundPause: String, CaseIterable, Hashable, Sendable {
    /// No reader is connected (or every reader failed).
    case noReader = "no-reader"
    /// An in-app scan session is running (its sheet is visible): objects go to that app.
    case scanSession = "scan-session"
    /// Another program uses the reader: an app holds an inhibitor (`Inhibit`).
    case readerInUse = "reader-in-use"
    /// A camera is in use (a process has a video capture device open).
    case camera
}
