import NFCTags

/// What a write puts on an object, as the prompt names it.
public enum WriteSubject: String, CaseIterable, Hashable, Sendable {
    case link
    case text
    /// Anything else (a whole message from a file, several records).
    case information
}

/// What a person asked of an object in a write: the prompt and the outcome follow it.
public enum WriteAction: Hashable, Sendable {
    case save(WriteSubject)
    case erase
    case lock

    /// Every action, for the copy checks.
    public static let allCases: [WriteAction] = WriteSubject.allCases.map(WriteAction.save) + [.erase, .lock]
}

/// How a write ended, as a person reads it. The faces (CLI, D-Bus write session) map the
/// drivers' errors to these; `TagWriteError` stays for logs and `--json`.
public enum WriteEnding: String, CaseIterable, Hashable, Sendable {
    case done
    case timedOut = "timeout"
    case tooLarge = "too-large"
    case readOnly = "read-only"
    case blank
    /// The object held a message and the app asked to save only to an empty one.
    case notEmpty = "not-empty"
    case passwordRequired = "password-required"
    case wrongPassword = "wrong-password"
    case movedAwayTooSoon = "moved-away"
    case differentObject = "different-object"
    case didNotVerify = "did-not-verify"
    case unsupported
    case failed
    case canceled = "user-canceled"
}

/// The strings a person reads while writing, in every catalog. Same rules as reading
/// (``CopyRules``): hold near, never tap; no jargon; the object named.
public protocol WriteCopyCatalog: Sendable {
    /// "Hold the poster near the reader to save the link."
    func writePrompt(_ action: WriteAction) -> String
    /// Shown while writing: "Saving to the poster. Keep it still."
    var writing: String { get }
    /// Shown while erasing: "Erasing the poster. Keep it still."
    var erasing: String { get }
    /// Shown while locking: "Locking the poster. Keep it still."
    var locking: String { get }
    /// How it ended: "Saved. You can take the poster away."
    func writeEnded(_ ending: WriteEnding, _ action: WriteAction) -> String
    /// Asked before an irreversible lock: "Lock the poster for good? It can't be undone."
    var lockQuestion: String { get }
    /// `nfcscan info`: "It holds 45 of 137 bytes."
    func holds(used: Int, capacity: Int) -> String
    var canBeChanged: String { get }
    /// `nfcscan info` of an object a password protects from changes.
    var changedWithPassword: String { get }
    var cannotBeChanged: String { get }
    var isBlank: String { get }
    /// `nfcscan info`: "This badge's chip is genuine." (its originality signature verifies).
    var isGenuine: String { get }
    /// `nfcscan info`: its originality signature is missing or does not verify.
    var mayNotBeGenuine: String { get }
    /// `nfcscan write`, after ``WriteEnding/blank``: "Run again with --format to prepare the poster."
    var formatHint: String { get }
    /// `nfcscan write`, after ``WriteEnding/tooLarge``: how much fits and how much was asked.
    func sizeHint(needed: Int, available: Int) -> String
    /// `nfcscan write --count`: the prompt and which object of how many it asks for.
    func progress(_ prompt: String, index: Int, total: Int) -> String
}

extension ScanCopy {
    /// The write catalog for `language`, naming `object`.
    public static func writeCatalog(for language: Language = .english, object: String? = nil) -> any WriteCopyCatalog {
        CatalogCopy(language: language, object: object)
    }

    /// Every write entry, for ``CopyRules``.
    public static func writeEntries(of copy: any WriteCopyCatalog) -> [(key: String, text: String, isSentence: Bool)] {
        WriteAction.allCases.map { ("writePrompt.\($0)", copy.writePrompt($0), true) }
            + WriteEnding.allCases.flatMap { ending in
                WriteAction.allCases.map { ("writeEnded.\(ending.rawValue).\($0)", copy.writeEnded(ending, $0), true) }
            }
            + [("writing", copy.writing, true), ("erasing", copy.erasing, true), ("locking", copy.locking, true), ("lockQuestion", copy.lockQuestion, true),
               ("holds", copy.holds(used: 45, capacity: 137), true), ("canBeChanged", copy.canBeChanged, true),
               ("changedWithPassword", copy.changedWithPassword, true),
               ("cannotBeChanged", copy.cannotBeChanged, true), ("isBlank", copy.isBlank, true),
               ("isGenuine", copy.isGenuine, true), ("mayNotBeGenuine", copy.mayNotBeGenuine, true),
               ("formatHint", copy.formatHint, true), ("sizeHint", copy.sizeHint(needed: 200, available: 137), true),
               ("progress", copy.progress(copy.writePrompt(.erase), index: 1, total: 3), false)]
    }
}

extension WriteCopyCatalog {
    /// What is shown while `action` runs.
    public func busy(_ action: WriteAction) -> String {
        switch action {
        case .save: writing
        case .erase: erasing
        case .lock: locking
        }
    }
}

extension WriteEnding {
    /// How a driver's error reads to a person (the CLI's exit status and the D-Bus write
    /// session's ending follow from it).
    public init(_ error: TagWriteError) {
        switch error {
        case .refused(let refusal):
            switch refusal {
            case .doesNotFit: self = .tooLarge
            case .readOnly: self = .readOnly
            case .notFormatted: self = .blank
            case .passwordRequired: self = .passwordRequired
            case .wrongPassword: self = .wrongPassword
            case .keysRefused, .cannotFormat, .unsupported, .alreadyFormatted: self = .unsupported
            case .capabilityContainer, .unreadableLayout, .memoryIncomplete: self = .failed
            }
        case .link(.objectRemoved): self = .movedAwayTooSoon
        case .link(.passwordRequired), .link(.passwordNotPassed): self = .passwordRequired
        case .link(.wrongPassword): self = .wrongPassword
        case .link(.unsupported): self = .unsupported
        case .link: self = .failed
        case .writeRefused: self = .failed
        case .differentObject: self = .differentObject
        case .didNotVerify: self = .didNotVerify
        }
    }
}
