import NFCCopy

/// Where nfcscand learns whether a system condition holds; a condition may have several (airplane
/// mode: the kernel's rfkill and NetworkManager), each of which a machine may lack.
enum ConditionSource: String, CaseIterable, Sendable {
    /// A process has a video capture device open (``CameraWatch``).
    case camera
    /// Every radio blocked, from the kernel's `/dev/rfkill` events (``RfkillWatch``).
    case rfkill
    /// NetworkManager's radios (WirelessEnabled and WwanEnabled) are off.
    case networkManager = "NetworkManager"
    /// The desktop's airplane-mode switch: GNOME's (and Phosh's) settings daemon,
    /// org.gnome.SettingsDaemon.Rfkill on the session bus.
    case desktopAirplaneMode = "gsd-rfkill"
    /// logind: the session is locked and was not unlocked since boot (``LoginSessionWatch``).
    case logindLock = "logind-lock"
    /// logind: the session is idle (its screen blanked).
    case logindIdle = "logind-idle"
    /// The session's org.freedesktop.ScreenSaver is active (``ScreenSaverWatch``).
    case screenSaver = "screensaver"

    /// Whether it answers from this machine alone (a device node, inotify), with no peer that
    /// could be slow: then its first report is awaited before the readers open. The bus sources
    /// are not awaited: a hung logind must not keep the readers closed.
    var answersAtOnce: Bool { self == .camera || self == .rfkill }

    var condition: BackgroundPause {
        switch self {
        case .camera: .camera
        case .rfkill, .networkManager, .desktopAirplaneMode: .airplaneMode
        case .logindLock: .lockedAfterRestart
        case .logindIdle, .screenSaver: .screenOff
        }
    }
}

/// What every source last said, and from that each system condition's state: it holds when any
/// of its sources says so, is clear when the sources that answer say not, and is unknown when no
/// source answers (never a pause: a machine without logind still reads). Free of any I/O.
struct ConditionBoard: Sendable {
    /// Conditions the configuration switches off: never watched, never a pause.
    let ignored: Set<BackgroundPause>
    /// Each source's last word; nil while it cannot answer (absent service, no device).
    private var readings: [ConditionSource: Bool] = [:]

    init(ignored: Set<BackgroundPause> = []) {
        self.ignored = ignored
    }

    /// Whether `source` answers now (its service is there, its device readable).
    func answers(_ source: ConditionSource) -> Bool { readings[source] != nil }

    /// Records what `source` says now; true when a condition's state changed.
    @discardableResult
    mutating func record(_ source: ConditionSource, holds: Bool?) -> Bool {
        let before = state(of: source.condition)
        readings[source] = holds
        return state(of: source.condition) != before
    }

    func state(of condition: BackgroundPause) -> ConditionState {
        if ignored.contains(condition) { return .ignored }
        let answers = ConditionSource.allCases.filter { $0.condition == condition }.compactMap { readings[$0] }
        if answers.isEmpty { return .unknown }
        return answers.contains(true) ? .holds : .clear
    }

    func holds(_ condition: BackgroundPause) -> Bool { state(of: condition) == .holds }

    /// The system conditions that hold now, in `BackgroundPause` order.
    var holding: [BackgroundPause] { BackgroundPause.systemConditions.filter(holds) }

    /// Every system condition's state (the `Conditions` property).
    var states: [BackgroundPause: ConditionState] {
        Dictionary(uniqueKeysWithValues: BackgroundPause.systemConditions.map { ($0, state(of: $0)) })
    }
}
