/// The strings of nfcscand's scan sheet (issue 21), in every catalog: the questions before an app
/// may use the reader or change an object, and the buttons. `app` is the app's name as its
/// identity gives it (its desktop entry), never what the app says about itself.
public protocol SheetCopyCatalog: Sendable {
    /// "Allow Posters to use items you hold near the reader?"
    func askPermission(app: String) -> String
    /// "Posters wants to save a link to the poster." (lock alone: "… wants to lock the poster.")
    func consent(_ action: WriteAction, app: String) -> String
    /// Below a consent question when the object is locked afterwards: "This can't be undone."
    /// (a lock alone), "The poster will be locked for good. This can't be undone." (saving, then locking).
    func lockDetail(_ action: WriteAction) -> String
    /// A scan that read its object: "Done. You can take the poster away."
    var scanDone: String { get }
    /// A scan its app ended with no sentence of its own.
    var scanCanceled: String { get }
    var actionCancel: String { get }
    var actionAllow: String { get }
    var actionDontAllow: String { get }
    /// The confirming button of a consent question: "Save", "Erase", "Lock".
    func actionConfirm(_ action: WriteAction, lock: Bool) -> String
}

extension ScanCopy {
    public static func sheetCatalog(for language: Language = .english, object: String? = nil) -> any SheetCopyCatalog {
        CatalogCopy(language: language, object: object)
    }

    /// Every sheet entry (with a sample app name), for ``CopyRules``.
    public static func sheetEntries(of copy: any SheetCopyCatalog) -> [(key: String, text: String, isSentence: Bool)] {
        let app = "Posters"
        return [("askPermission", copy.askPermission(app: app), true)]
            + WriteAction.allCases.map { ("consent.\($0)", copy.consent($0, app: app), true) }
            + WriteAction.allCases.map { ("lockDetail.\($0)", copy.lockDetail($0), true) }
            + [("scanDone", copy.scanDone, true), ("scanCanceled", copy.scanCanceled, true),
               ("actionCancel", copy.actionCancel, false), ("actionAllow", copy.actionAllow, false),
               ("actionDontAllow", copy.actionDontAllow, false)]
            + WriteAction.allCases.flatMap { action in
                [false, true].map { ("actionConfirm.\(action).\($0)", copy.actionConfirm(action, lock: $0), false) }
            }
    }
}
