/// What nfcscand's scan sheet shows, whole: the daemon's core decides it (every word comes from
/// the copy catalogs, in the session's language) and sends it again on every change; the sheet
/// program (`nfcscan-sheet`) only draws it and reports what the person pressed. Nothing here is
/// decided by the sheet, so a sheet that crashes or hangs changes no decision.
public struct SheetView: Sendable, Equatable {
    /// The mark beside the message: what the session is doing now.
    public enum Mark: String, Sendable, CaseIterable {
        /// Waiting for an object (a spinner).
        case looking
        /// An object is being read or written ("Keep it still."; a spinner).
        case working
        /// The session ended well (a done mark).
        case done
        /// The session ended badly (a failed mark).
        case failed
        /// A question for the person (no spinner: nothing happens until they choose).
        case question
    }

    /// How a button looks (libadwaita's style classes).
    public enum ButtonStyle: String, Sendable, CaseIterable {
        case normal
        /// The expected choice (`suggested-action`).
        case suggested
        /// A choice that cannot be undone (`destructive-action`).
        case destructive
    }

    public struct Button: Sendable, Equatable {
        /// What the sheet reports when it is pressed: letters, digits and `-`, at most 32.
        public var id: String
        public var label: String
        public var style: ButtonStyle

        public init(id: String, label: String, style: ButtonStyle = .normal) {
            self.id = id
            self.label = label
            self.style = style
        }
    }

    /// The app that asks (its name from its desktop entry, else what identifies it).
    public var app: String
    /// The app's icon: a theme icon name, or an absolute path to an image file; empty: none.
    public var icon: String
    /// The sentence in the middle: the prompt, the question, or how the session ended.
    public var message: String
    /// A second, quieter line ("This can't be undone."); empty: none.
    public var detail: String
    public var mark: Mark
    /// Left to right; the one with id ``cancelButton`` is also what Escape and closing the window press.
    public var buttons: [Button]
    /// The sheet closes by itself this many milliseconds after showing this view; nil: it stays.
    public var closeAfter: Int?

    /// Escape and the window's close button press this one.
    public static let cancelButton = "cancel"

    public init(app: String, icon: String = "", message: String, detail: String = "", mark: Mark,
                buttons: [Button] = [], closeAfter: Int? = nil) {
        self.app = app
        self.icon = icon
        self.message = message
        self.detail = detail
        self.mark = mark
        self.buttons = buttons
        self.closeAfter = closeAfter
    }
}

/// What the sheet program tells the daemon.
public enum SheetEvent: Sendable, Equatable {
    /// The window is on screen (the first view is drawn).
    case shown
    /// The person pressed button `id` (Escape and closing the window press ``SheetView/cancelButton``).
    case pressed(String)
}
