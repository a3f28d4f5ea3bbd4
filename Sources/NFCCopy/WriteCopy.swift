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
    var cannotBeChanged: String { get }
    var isBlank: String { get }
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
               ("cannotBeChanged", copy.cannotBeChanged, true), ("isBlank", copy.isBlank, true)]
    }
}

extension EnglishScanCopy: WriteCopyCatalog {
    private var thing: String { object ?? "item" }

    public func writePrompt(_ action: WriteAction) -> String {
        switch action {
        case .save(.link): "Hold the \(thing) near the reader to save the link."
        case .save(.text): "Hold the \(thing) near the reader to save the text."
        case .save(.information): "Hold the \(thing) near the reader to save it."
        case .erase: "Hold the \(thing) near the reader to erase it."
        case .lock: "Hold the \(thing) near the reader to lock it."
        }
    }
    public var writing: String { "Saving to the \(thing). Keep it still." }
    public var erasing: String { "Erasing the \(thing). Keep it still." }
    public var locking: String { "Locking the \(thing). Keep it still." }
    public func writeEnded(_ ending: WriteEnding, _ action: WriteAction) -> String {
        switch ending {
        case .done:
            switch action {
            case .save: "Saved. You can take the \(thing) away."
            case .erase: "Erased. You can take the \(thing) away."
            case .lock: "Locked. You can take the \(thing) away."
            }
        case .timedOut: "No \(thing) came near the reader in time. Try again."
        case .tooLarge: "That's too much for the \(thing) to hold."
        case .readOnly: "The \(thing) is locked and can't be changed."
        case .blank: "The \(thing) is blank and needs preparing first."
        case .passwordRequired: "The \(thing) is protected by a password."
        case .wrongPassword: "The \(thing) didn't accept the password."
        case .movedAwayTooSoon: "The \(thing) moved away too soon. Try again."
        case .differentObject: "A different \(thing) came near. Try again."
        case .didNotVerify: "The \(thing) didn't save correctly. Try again."
        case .unsupported: "This kind of \(thing) can't be changed here."
        case .failed: "Couldn't save to the \(thing). Try again."
        case .canceled: "Canceled. The \(thing) wasn't changed."
        }
    }
    public var lockQuestion: String { "Lock the \(thing) for good? This can't be undone." }
    public func holds(used: Int, capacity: Int) -> String { "It holds \(used) of \(capacity) bytes." }
    public var canBeChanged: String { "It can be changed." }
    public var cannotBeChanged: String { "It is locked and can't be changed." }
    public var isBlank: String { "It is blank and needs preparing before saving." }
}

extension SimplifiedChineseScanCopy: WriteCopyCatalog {
    public func writePrompt(_ action: WriteAction) -> String {
        switch action {
        case .save(.link): "将\(localName)靠近读卡器以保存链接。"
        case .save(.text): "将\(localName)靠近读卡器以保存文字。"
        case .save(.information): "将\(localName)靠近读卡器以保存内容。"
        case .erase: "将\(localName)靠近读卡器以清除内容。"
        case .lock: "将\(localName)靠近读卡器以锁定。"
        }
    }
    public var writing: String { "正在保存到\(localName)，请保持不动。" }
    public var erasing: String { "正在清除\(localName)，请保持不动。" }
    public var locking: String { "正在锁定\(localName)，请保持不动。" }
    public func writeEnded(_ ending: WriteEnding, _ action: WriteAction) -> String {
        switch ending {
        case .done:
            switch action {
            case .save: "已保存。可以将\(localName)移开了。"
            case .erase: "已清除。可以将\(localName)移开了。"
            case .lock: "已锁定。可以将\(localName)移开了。"
            }
        case .timedOut: "没有\(localName)及时靠近读卡器。请重试。"
        case .tooLarge: "内容太多，\(localName)放不下。"
        case .readOnly: "\(localName)已锁定，无法更改。"
        case .blank: "\(localName)是空白的，需要先准备。"
        case .passwordRequired: "\(localName)受密码保护。"
        case .wrongPassword: "\(localName)不接受这个密码。"
        case .movedAwayTooSoon: "\(localName)移开得太早。请保持不动后重试。"
        case .differentObject: "靠近的是另一个\(localName)。请重试。"
        case .didNotVerify: "\(localName)没有正确保存。请重试。"
        case .unsupported: "这种\(localName)无法在这里更改。"
        case .failed: "无法保存到\(localName)。请重试。"
        case .canceled: "已取消。\(localName)没有更改。"
        }
    }
    public var lockQuestion: String { "要永久锁定\(localName)吗？此操作无法撤销。" }
    public func holds(used: Int, capacity: Int) -> String { "已用 \(used) 字节，共 \(capacity) 字节。" }
    public var canBeChanged: String { "可以更改。" }
    public var cannotBeChanged: String { "已锁定，无法更改。" }
    public var isBlank: String { "是空白的，保存前需要先准备。" }
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
        case .link(.unsupported): self = .unsupported
        case .link: self = .failed
        case .writeRefused: self = .failed
        case .differentObject: self = .differentObject
        case .didNotVerify: self = .didNotVerify
        }
    }
}
