/// Every string a person reads while scanning, in one place.
///
/// The wording follows ../shared/guidance/nfc.md: people "hold" an object "near" the reader (never
/// "tap" or "touch" it), the object is named ("poster", "badge") instead of technical terms, and
/// sentences are complete, end with punctuation and stay short. ``CopyRules`` checks every entry
/// (the tests run it over ``entries`` and over every catalog in po/). The words are gettext
/// catalogs: the English of ``CopyMessage`` (CopyMessages.swift) and po/<language>.po, read through
/// libintl; ``CatalogCopy`` serves them, ``ScanCopy/catalog(for:object:)`` makes one. A language
/// is a catalog in po/ and a case of ``ScanCopy/Language`` (Docs/translating.md).
public protocol ScanCopyCatalog: Sendable {
    /// The real-world object, as the person would call it ("poster"); nil: a generic word.
    var object: String? { get }

    /// The first prompt: "Hold the poster near the reader to learn more."
    var firstPrompt: String { get }
    /// Every later prompt: "Now hold another poster near the reader."
    var laterPrompt: String { get }
    /// Shown while the object is being read.
    var reading: String { get }
    /// A countdown after the prompt (a label, not a sentence): "59 s".
    func secondsLeft(_ seconds: Int) -> String

    /// Nothing came near the reader before the time was up.
    var timedOut: String { get }
    /// No reader is connected (or none answers).
    var noReader: String { get }
    /// Shown while no reader is connected yet and one may still appear.
    var connectReader: String { get }
    /// Another program (or the system) holds the reader.
    var readerBusy: String { get }
    /// This user may not use the reader.
    var readerNotPermitted: String { get }
    /// The reader failed or stopped answering.
    var readerFailed: String { get }
    /// The object left before the whole content was read.
    var movedAwayTooSoon: String { get }
    /// The object answered, but not in a way this program can read.
    var readFailed: String { get }
    /// The object is of a kind this program cannot read yet.
    var unsupportedObject: String { get }
    /// The object holds bytes that make no sense.
    var unreadableContent: String { get }
    /// The object's content follows a later version of its standard than this program reads.
    var newerForm: String { get }
    /// The object holds nothing.
    var empty: String { get }
    /// The object was never prepared to hold anything (a blank chip).
    var blankObject: String { get }
    /// A write to the object was interrupted and it says so (a Type 3 object's WriteF).
    var halfWritten: String { get }
    /// Added after a failure when the technical cause is hidden.
    var moreDetail: String { get }
    /// After ``noReader`` on the command line: where connecting a reader is explained.
    var noReaderHelp: String { get }
    /// A password protects reading the object and none was given (the write ending's sentence).
    var passwordRequired: String { get }
    /// The object refused the password given.
    var wrongPassword: String { get }
    /// Added after either: how to give the password.
    var passwordHint: String { get }
    /// Added after ``passwordRequired`` instead when the reader cannot send a password at all.
    var passwordReaderHint: String { get }

    // How content is described: labels followed by the (display-safe) value.
    func link(_ value: String) -> String
    /// A link without a scheme ("example.com/menu"): nothing opens it.
    func incompleteLink(_ value: String) -> String
    func phoneNumber(_ value: String) -> String
    func emailAddress(_ value: String) -> String
    func text(_ value: String) -> String
    func title(_ value: String) -> String
    func wifiNetwork(_ name: String) -> String
    func contact(_ name: String) -> String
    var contactWithoutName: String { get }
    func app(_ name: String) -> String
    func bluetoothDevice(_ name: String) -> String
    var bluetoothDeviceWithoutName: String { get }
    var deviceToConnect: String { get }
    var otherContent: String { get }
    /// A record whose content does not fit what it claims to be (a contact card in the wrong
    /// character set): said beside the rest of what the object holds.
    var unreadableRecord: String { get }
    /// A signature that wasn't checked, or whose signer isn't trusted here.
    var signature: String { get }
    /// After a secure link (an NTAG 424 DNA's, checked with the person's keys): made by the
    /// object just now, read before (a copy), or not made with the keys at all.
    var secureLinkVerified: String { get }
    var secureLinkReplayed: String { get }
    var secureLinkFailed: String { get }
    /// A signature that was checked, whose signer is trusted (display-safe); nil: unnamed.
    func signedBy(_ signer: String?) -> String
    /// A warning: content covered by a signature that does not verify.
    var changedAfterSigning: String { get }

    // The daemon's notifications. Summaries are questions ("Open https://example.com/poster?"); values are
    // display-safe and already shortened to fit.
    /// The name the daemon's own notifications come from (a label, not a sentence).
    var notificationSender: String { get }
    /// Summary offering a web link in the browser: "Open https://example.com/poster?"
    func notificationOpenLink(_ link: String) -> String
    /// Summary offering the object's content to the app that asked for it: "Open the contact in Contacts?"
    func notificationOpen(_ content: OfferedContent, in app: String) -> String
    /// Summary for an object that names its app (an app record): "Open Concerts?"
    func notificationOpenApp(_ app: String) -> String
    /// Body naming what is offered: "The item holds a contact: Ann Smith."
    func notificationHolds(_ content: OfferedContent, _ value: String) -> String
    /// Body naming a link without a scheme (``LinkText/incomplete(_:)``): nothing opens it.
    func notificationHoldsIncompleteLink(_ link: String) -> String
    /// Button: send the object to the app.
    var actionOpen: String { get }
    /// Button: open the web link in the browser.
    var actionOpenInBrowser: String { get }
    /// Summary offering content no app asked for to the person's default app: "Add Jane Doe to
    /// Contacts?", "Call +1 555 0100?", "Join the network CafeGuest?"
    func notificationDefault(_ offer: DefaultAppOffer) -> String
    /// Its button, one or two words: "Add", "Call", "Join".
    func action(_ offer: DefaultAppOffer) -> String
    /// The app chosen did not receive the object (it stopped answering, or refused it).
    func handlerFailed(app: String) -> String
    /// The browser could not be started for the link.
    var browserFailed: String { get }
    /// The network `name` could not be joined.
    func networkFailed(_ name: String) -> String

    // `nfcscan status`: the daemon's background reading in plain words.
    /// Background reading is on.
    var backgroundOn: String { get }
    /// Background reading is paused, and why.
    func backgroundPaused(_ reason: BackgroundPause) -> String
    /// Paused for a reason this version does not know.
    var backgroundPausedOther: String { get }
    /// The background service (nfcscand) is not running.
    var backgroundServiceOff: String { get }
    /// After ``backgroundServiceOff``: how to start the service.
    var backgroundServiceStart: String { get }
    /// The service runs, but no notification can be shown (no notification server).
    var notificationsUnavailable: String { get }
    /// After ``notificationsUnavailable``: what to do.
    var notificationsHelp: String { get }
    /// This computer cannot tell whether `condition` holds, so it never pauses scanning.
    func backgroundUnchecked(_ condition: BackgroundPause) -> String
    /// The configuration keeps scanning on while `condition` holds (a kiosk).
    func backgroundIgnoring(_ condition: BackgroundPause) -> String
    /// A scan cannot start, or stops, because airplane mode turned the radios off.
    var radioDisabled: String { get }

    // `nfcscan status` on a station publishing to a message server (an MQTT broker, issue 15).
    /// Connected to the message server, publishing as `station`.
    func brokerConnected(station: String) -> String
    /// The message server cannot be reached (or refuses); nfcscand keeps trying.
    var brokerDisconnected: String { get }
    /// `count` scans are kept until the message server has them.
    func brokerWaiting(_ count: Int) -> String
    /// `count` scans were lost: too many were waiting, or the disk had no room to keep them.
    func brokerDropped(_ count: Int) -> String
}

public enum ScanCopy {
    public enum Language: String, CaseIterable, Sendable {
        case english = "en"
        case simplifiedChinese = "zh-Hans"
    }

    /// The catalog for `language`, naming `object` (nil or empty: a generic word).
    public static func catalog(for language: Language = .english, object: String? = nil) -> any ScanCopyCatalog {
        CatalogCopy(language: language, object: object)
    }

    /// Every entry of a catalog with a sample value where the entry takes one: what
    /// ``CopyRules`` checks. `isSentence` is false for labels ("Link: …") and the countdown.
    public static func entries(of copy: any ScanCopyCatalog) -> [(key: String, text: String, isSentence: Bool)] {
        let sample = "example"
        return [
            ("firstPrompt", copy.firstPrompt, true),
            ("laterPrompt", copy.laterPrompt, true),
            ("reading", copy.reading, true),
            ("secondsLeft", copy.secondsLeft(59), false),
            ("timedOut", copy.timedOut, true),
            ("noReader", copy.noReader, true),
            ("connectReader", copy.connectReader, true),
            ("readerBusy", copy.readerBusy, true),
            ("readerNotPermitted", copy.readerNotPermitted, true),
            ("readerFailed", copy.readerFailed, true),
            ("movedAwayTooSoon", copy.movedAwayTooSoon, true),
            ("readFailed", copy.readFailed, true),
            ("unsupportedObject", copy.unsupportedObject, true),
            ("unreadableContent", copy.unreadableContent, true),
            ("newerForm", copy.newerForm, true),
            ("empty", copy.empty, true),
            ("blankObject", copy.blankObject, true),
            ("halfWritten", copy.halfWritten, true),
            ("moreDetail", copy.moreDetail, true),
            ("noReaderHelp", copy.noReaderHelp, true),
            ("passwordHint", copy.passwordHint, true),
            ("passwordReaderHint", copy.passwordReaderHint, true),
            ("link", copy.link(sample), false),
            ("incompleteLink", copy.incompleteLink(sample), false),
            ("phoneNumber", copy.phoneNumber(sample), false),
            ("emailAddress", copy.emailAddress(sample), false),
            ("text", copy.text(sample), false),
            ("title", copy.title(sample), false),
            ("wifiNetwork", copy.wifiNetwork(sample), false),
            ("contact", copy.contact(sample), false),
            ("contactWithoutName", copy.contactWithoutName, true),
            ("app", copy.app(sample), false),
            ("bluetoothDevice", copy.bluetoothDevice(sample), false),
            ("bluetoothDeviceWithoutName", copy.bluetoothDeviceWithoutName, true),
            ("deviceToConnect", copy.deviceToConnect, true),
            ("otherContent", copy.otherContent, true),
            ("unreadableRecord", copy.unreadableRecord, true),
            ("signature", copy.signature, true),
            ("secureLink.verified", copy.secureLinkVerified, true),
            ("secureLink.replayed", copy.secureLinkReplayed, true),
            ("secureLink.failed", copy.secureLinkFailed, true),
            ("signedBy", copy.signedBy(sample), true),
            ("signedBy.unnamed", copy.signedBy(nil), true),
            ("changedAfterSigning", copy.changedAfterSigning, true),
            ("notificationSender", copy.notificationSender, false),
            ("notificationOpenLink", copy.notificationOpenLink("https://example.com/poster"), true),
            ("notificationOpenApp", copy.notificationOpenApp(sample), true),
            ("notificationHolds.incompleteLink", copy.notificationHoldsIncompleteLink(sample), true),
            ("actionOpen", copy.actionOpen, false),
            ("actionOpenInBrowser", copy.actionOpenInBrowser, false),
            ("handlerFailed", copy.handlerFailed(app: sample), true),
            ("browserFailed", copy.browserFailed, true),
            ("networkFailed", copy.networkFailed(sample), true),
            ("backgroundOn", copy.backgroundOn, true),
            ("backgroundPausedOther", copy.backgroundPausedOther, true),
            ("backgroundServiceOff", copy.backgroundServiceOff, true),
            ("backgroundServiceStart", copy.backgroundServiceStart, true),
            ("notificationsUnavailable", copy.notificationsUnavailable, true),
            ("notificationsHelp", copy.notificationsHelp, true),
            ("radioDisabled", copy.radioDisabled, true),
            ("brokerConnected", copy.brokerConnected(station: sample), true),
            ("brokerDisconnected", copy.brokerDisconnected, true),
            ("brokerWaiting.1", copy.brokerWaiting(1), true),
            ("brokerWaiting", copy.brokerWaiting(10_000), true),
            ("brokerDropped.1", copy.brokerDropped(1), true),
            ("brokerDropped", copy.brokerDropped(10_000), true),
        ] + BackgroundPause.allCases.map { ("backgroundPaused.\($0.rawValue)", copy.backgroundPaused($0), true) }
          + BackgroundPause.systemConditions.flatMap { condition in
            [("backgroundUnchecked.\(condition.rawValue)", copy.backgroundUnchecked(condition), true),
             ("backgroundIgnoring.\(condition.rawValue)", copy.backgroundIgnoring(condition), true)]
        } + DefaultAppOffer.samples(sample).flatMap { key, offer in
            [("notificationDefault.\(key)", copy.notificationDefault(offer), true), ("action.\(key)", copy.action(offer), false)]
        } + OfferedContent.allCases.flatMap { content in
            [("notificationOpen.\(content)", copy.notificationOpen(content, in: sample), true),
             ("notificationHolds.\(content)", copy.notificationHolds(content, sample), true)]
        }
    }
}
