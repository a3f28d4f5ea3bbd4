/// Every string a person reads while scanning, in one place.
///
/// The wording follows ../shared/guidance/nfc.md: people "hold" an object "near" the reader (never
/// "tap" or "touch" it), the object is named ("poster", "badge") instead of technical terms, and
/// sentences are complete, end with punctuation and stay short. ``CopyRules`` checks every entry
/// (the tests run it over ``entries``). A translation is one more type conforming to
/// ``ScanCopyCatalog``; ``ScanCopy/catalog(for:object:)`` picks it.
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
    /// The object holds nothing.
    var empty: String { get }
    /// The object was never prepared to hold anything (a blank chip).
    var blankObject: String { get }
    /// A write to the object was interrupted and it says so (a Type 3 object's WriteF).
    var halfWritten: String { get }
    /// Added after a failure when the technical cause is hidden.
    var moreDetail: String { get }

    // How content is described: labels followed by the (display-safe) value.
    func link(_ value: String) -> String
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
    var signature: String { get }

    // The daemon's notifications. Summaries are questions ("Open example.com/poster?"); values are
    // display-safe and already shortened to fit.
    /// The name the daemon's own notifications come from (a label, not a sentence).
    var notificationSender: String { get }
    /// Summary offering a web link in the browser: "Open example.com/poster?"
    func notificationOpenLink(_ link: String) -> String
    /// Summary offering the object's content to the app that asked for it: "Open the contact in Contacts?"
    func notificationOpen(_ content: OfferedContent, in app: String) -> String
    /// Summary for an object that names its app (an app record): "Open Concerts?"
    func notificationOpenApp(_ app: String) -> String
    /// Body naming what is offered: "The item holds a contact: Ann Smith."
    func notificationHolds(_ content: OfferedContent, _ value: String) -> String
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
            ("empty", copy.empty, true),
            ("blankObject", copy.blankObject, true),
            ("halfWritten", copy.halfWritten, true),
            ("moreDetail", copy.moreDetail, true),
            ("link", copy.link(sample), false),
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
            ("notificationSender", copy.notificationSender, false),
            ("notificationOpenLink", copy.notificationOpenLink("example.com/poster"), true),
            ("notificationOpenApp", copy.notificationOpenApp(sample), true),
            ("actionOpen", copy.actionOpen, false),
            ("actionOpenInBrowser", copy.actionOpenInBrowser, false),
            ("handlerFailed", copy.handlerFailed(app: sample), true),
            ("browserFailed", copy.browserFailed, true),
            ("networkFailed", copy.networkFailed(sample), true),
            ("backgroundOn", copy.backgroundOn, true),
            ("backgroundPausedOther", copy.backgroundPausedOther, true),
            ("backgroundServiceOff", copy.backgroundServiceOff, true),
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

/// The English copy (the desktop rendering of the guidelines' pattern).
public struct EnglishScanCopy: ScanCopyCatalog {
    public let object: String?

    public init(object: String? = nil) { self.object = object }

    /// The object's name, or "item".
    private var name: String { object ?? "item" }
    /// "The poster", capitalised for the start of a sentence.
    private var theName: String { "The \(name)" }

    public var firstPrompt: String {
        object.map { "Hold the \($0) near the reader to learn more." } ?? "Hold the item near the reader."
    }
    public var laterPrompt: String { "Now hold another \(name) near the reader." }
    public var reading: String { "Reading the \(name). Keep it still." }
    public func secondsLeft(_ seconds: Int) -> String { "\(seconds) s" }

    public var timedOut: String { "No \(name) came near the reader in time. Try again." }
    public var noReader: String { "No reader was found. Connect one and try again." }
    public var connectReader: String { "Connect a reader to scan the \(name)." }
    public var readerBusy: String { "Another program is using the reader. Close it and try again." }
    public var readerNotPermitted: String { "You may not use the reader. Ask your administrator." }
    public var readerFailed: String { "The reader stopped working. Reconnect it and try again." }
    public var movedAwayTooSoon: String { "\(theName) moved away too soon. Hold it longer." }
    public var readFailed: String { "\(theName) couldn't be read. Try again." }
    public var unsupportedObject: String { "This kind of \(name) can't be read yet." }
    public var unreadableContent: String { "\(theName) holds something that can't be shown." }
    public var empty: String { "\(theName) holds nothing." }
    public var blankObject: String { "\(theName) is blank: nothing was ever saved on it." }
    public var halfWritten: String { "Saving to the \(name) was cut short. Save it again." }
    public var moreDetail: String { "Run again with --verbose to see why." }

    public func link(_ value: String) -> String { "Link: \(value)" }
    public func phoneNumber(_ value: String) -> String { "Phone number: \(value)" }
    public func emailAddress(_ value: String) -> String { "Email address: \(value)" }
    public func text(_ value: String) -> String { "Text: \(value)" }
    public func title(_ value: String) -> String { "Title: \(value)" }
    public func wifiNetwork(_ name: String) -> String { "Wi-Fi network: \(name)" }
    public func contact(_ name: String) -> String { "Contact: \(name)" }
    public var contactWithoutName: String { "A contact without a name." }
    public func app(_ name: String) -> String { "App: \(name)" }
    public func bluetoothDevice(_ name: String) -> String { "Bluetooth device: \(name)" }
    public var bluetoothDeviceWithoutName: String { "A Bluetooth device without a name." }
    public var deviceToConnect: String { "A device to connect to." }
    public var otherContent: String { "Something this program can't show." }
    public var unreadableRecord: String { "Something that can't be read." }
    public var signature: String { "A signature, which wasn't checked." }

    public var notificationSender: String { "Nearby Items" }
    public func notificationOpenLink(_ link: String) -> String { "Open \(link)?" }
    public func notificationOpen(_ content: OfferedContent, in app: String) -> String {
        switch content {
        case .link: "Open the link in \(app)?"
        case .phoneNumber: "Open the phone number in \(app)?"
        case .emailAddress: "Open the email address in \(app)?"
        case .text: "Open the text in \(app)?"
        case .contact: "Open the contact in \(app)?"
        case .wifiNetwork: "Open the Wi-Fi network in \(app)?"
        case .bluetoothDevice: "Open the Bluetooth device in \(app)?"
        case .item: "Open the \(name) in \(app)?"
        }
    }
    public func notificationOpenApp(_ app: String) -> String { "Open \(app)?" }
    public func notificationHolds(_ content: OfferedContent, _ value: String) -> String {
        switch content {
        case .link: "\(theName) links to \(value)."
        case .phoneNumber: "\(theName) holds a phone number: \(value)."
        case .emailAddress: "\(theName) holds an email address: \(value)."
        case .text: "\(theName) says \u{201C}\(value)\u{201D}."
        case .contact: "\(theName) holds a contact: \(value)."
        case .wifiNetwork: "\(theName) holds a Wi-Fi network: \(value)."
        case .bluetoothDevice: "\(theName) holds a Bluetooth device: \(value)."
        case .item: "\(theName) holds \(value)."
        }
    }
    public var actionOpen: String { "Open" }
    public var actionOpenInBrowser: String { "Open in Browser" }
    public func notificationDefault(_ offer: DefaultAppOffer) -> String {
        switch offer {
        case .addContact(let name?, let app): "Add \(name) to \(app)?"
        case .addContact(nil, let app): "Add the contact to \(app)?"
        case .addEvent(let app): "Add the event to \(app)?"
        case .call(let number): "Call \(number)?"
        case .sendMessage(let number): "Send a message to \(number)?"
        case .writeEmail(let address): "Write to \(address)?"
        case .joinNetwork(let name): "Join the network \(name)?"
        case .openLocation(let app): "Open the location in \(app)?"
        case .openPicture(let app): "Open the picture in \(app)?"
        case .openDocument(let app): "Open the document in \(app)?"
        case .openText(let app): "Open the text in \(app)?"
        case .openLink(let app): "Open the link in \(app)?"
        }
    }
    public func action(_ offer: DefaultAppOffer) -> String {
        switch offer {
        case .addContact, .addEvent: "Add"
        case .call: "Call"
        case .sendMessage: "Message"
        case .writeEmail: "Write"
        case .joinNetwork: "Join"
        case .openLocation, .openPicture, .openDocument, .openText, .openLink: "Open"
        }
    }
    public func handlerFailed(app: String) -> String { "\(theName) couldn't be sent to \(app). Try again." }
    public var browserFailed: String { "The link couldn't be opened. Try again." }
    public func networkFailed(_ name: String) -> String { "Couldn't join the network \(name). Try again." }

    public var backgroundOn: String { "Background scanning is on." }
    public func backgroundPaused(_ reason: BackgroundPause) -> String {
        switch reason {
        case .noReader: "Background scanning is paused until a reader is connected."
        case .scanSession: "Background scanning is paused while an app is scanning."
        case .readerInUse: "Background scanning is paused while the reader is in use."
        case .camera: "Background scanning is paused while the camera is in use."
        case .airplaneMode: "Background scanning is paused while airplane mode is on."
        case .lockedAfterRestart: "Background scanning is paused until you unlock the computer."
        case .screenOff: "Background scanning is paused while the screen is off."
        }
    }
    public var backgroundPausedOther: String { "Background scanning is paused." }
    public var backgroundServiceOff: String { "Background scanning is off: its service isn't running." }
    public func backgroundUnchecked(_ condition: BackgroundPause) -> String {
        switch condition {
        case .camera: "The camera can't be checked, so it won't pause scanning."
        case .airplaneMode: "Airplane mode can't be checked, so it won't pause scanning."
        case .lockedAfterRestart: "The lock can't be checked, so it won't pause scanning."
        case .screenOff: "The screen can't be checked, so it won't pause scanning."
        case .noReader, .scanSession, .readerInUse: "Background scanning can't check everything it should."
        }
    }
    public func backgroundIgnoring(_ condition: BackgroundPause) -> String {
        switch condition {
        case .camera: "Set to keep scanning while the camera is in use."
        case .airplaneMode: "Set to keep scanning while airplane mode is on."
        case .lockedAfterRestart: "Set to keep scanning while locked after a restart."
        case .screenOff: "Set to keep scanning while the screen is off."
        case .noReader, .scanSession, .readerInUse: "Set to keep scanning in more situations."
        }
    }
    public var radioDisabled: String { "Scanning is off while airplane mode is on." }
    public func brokerConnected(station: String) -> String { "Scans are sent to the message server as \(station)." }
    public var brokerDisconnected: String { "Can't reach the message server; trying again." }
    public func brokerWaiting(_ count: Int) -> String {
        count == 1 ? "1 scan is waiting to be sent." : "\(count) scans are waiting to be sent."
    }
    public func brokerDropped(_ count: Int) -> String {
        count == 1 ? "1 scan was lost: there was no room to keep it." : "\(count) scans were lost: there was no room to keep them."
    }
}
