/// Why nfcscand's background reading is paused: the stable codes of its `PausedReasons`
/// property, shared by the daemon (which sets them) and `nfcscan status` (which explains them).
public enum BackgroundPause: String, CaseIterable, Hashable, Sendable {
    /// No reader is connected (or every reader failed).
    case noReader = "no-reader"
    /// An in-app scan session is running (its sheet is visible): objects go to that app.
    case scanSession = "scan-session"
    /// Another program uses the reader: an app holds an inhibitor (`Inhibit`), or holds a
    /// reader exclusively through pcscd.
    case readerInUse = "reader-in-use"
    /// A camera is in use (a process has a video capture device open).
    case camera
    /// Airplane mode: every radio is blocked (rfkill), or NetworkManager's radios are off.
    case airplaneMode = "airplane-mode"
    /// The session is locked and has not been unlocked since the computer started.
    case lockedAfterRestart = "locked-after-restart"
    /// The screen is off (the session is idle, or its screensaver is active).
    case screenOff = "screen-off"

    /// The conditions read from the system (not from the daemon's own state), whose source a
    /// machine may lack ("unknown") and which a kiosk may switch off ("ignored").
    public static let systemConditions: [BackgroundPause] = [.camera, .airplaneMode, .lockedAfterRestart, .screenOff]
}

/// What nfcscand knows of one system condition: the values of its `Conditions` property.
public enum ConditionState: String, Hashable, Sendable {
    /// The condition does not hold: it does not pause background reading.
    case clear
    /// The condition holds: background reading is paused for it.
    case holds
    /// This machine has no source for it (no logind, no rfkill…): it never pauses reading.
    case unknown
    /// The configuration switches it off (a kiosk): it never pauses reading.
    case ignored
}
