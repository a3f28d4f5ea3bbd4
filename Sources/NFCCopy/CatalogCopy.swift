/// The copy of one language, naming one object: every ``ScanCopyCatalog`` and
/// ``WriteCopyCatalog`` string, from the ``CopyMessage`` table (English) or the language's
/// gettext catalog (``CopyTranslations``), with the object's name and the values filled in.
/// ``ScanCopy/catalog(for:object:)`` makes one.
public struct CatalogCopy: ScanCopyCatalog, WriteCopyCatalog, SheetCopyCatalog {
    public let language: ScanCopy.Language
    public let object: String?
    private let words: CopyTranslations

    /// `object` nil or empty: the language's generic word ("item").
    public init(language: ScanCopy.Language = .english, object: String? = nil) {
        self.language = language
        self.object = object.flatMap { $0.isEmpty ? nil : $0 }
        words = CopyTranslations.of(language)
    }

    /// The object's name in this language.
    private var name: String { object.map(words.objectName) ?? words.genericObjectName }

    private func say(_ message: CopyMessage, _ values: [String: String] = [:]) -> String {
        var values = values
        values["object"] = name
        return words.text(message, values)
    }

    public var firstPrompt: String { object == nil ? say(.firstPromptGeneric) : say(.firstPrompt) }
    public var laterPrompt: String { say(.laterPrompt) }
    public var reading: String { say(.reading) }
    public func secondsLeft(_ seconds: Int) -> String { say(.secondsLeft, ["seconds": String(seconds)]) }

    public var timedOut: String { say(.timedOut) }
    public var noReader: String { say(.noReader) }
    public var connectReader: String { say(.connectReader) }
    public var readerBusy: String { say(.readerBusy) }
    public var readerNotPermitted: String { say(.readerNotPermitted) }
    public var readerFailed: String { say(.readerFailed) }
    public var movedAwayTooSoon: String { say(.movedAwayTooSoon) }
    public var readFailed: String { say(.readFailed) }
    public var unsupportedObject: String { say(.unsupportedObject) }
    public var unreadableContent: String { say(.unreadableContent) }
    public var newerForm: String { say(.newerForm) }
    public var empty: String { say(.empty) }
    public var blankObject: String { say(.blankObject) }
    public var halfWritten: String { say(.halfWritten) }
    public var moreDetail: String { say(.moreDetail) }
    public var noReaderHelp: String { say(.noReaderHelp) }
    public var passwordRequired: String { say(.passwordRequired) }
    public var wrongPassword: String { say(.wrongPassword) }
    public var passwordHint: String { say(.passwordHint) }
    public var passwordReaderHint: String { say(.passwordReaderHint) }

    public func link(_ value: String) -> String { say(.link, ["link": value]) }
    public func incompleteLink(_ value: String) -> String { say(.incompleteLink, ["link": value]) }
    public func phoneNumber(_ value: String) -> String { say(.phoneNumber, ["number": value]) }
    public func emailAddress(_ value: String) -> String { say(.emailAddress, ["address": value]) }
    public func text(_ value: String) -> String { say(.text, ["text": value]) }
    public func title(_ value: String) -> String { say(.title, ["title": value]) }
    public func wifiNetwork(_ name: String) -> String { say(.wifiNetwork, ["network": name]) }
    public func contact(_ name: String) -> String { say(.contact, ["name": name]) }
    public var contactWithoutName: String { say(.contactWithoutName) }
    public func app(_ name: String) -> String { say(.app, ["app": name]) }
    public func bluetoothDevice(_ name: String) -> String { say(.bluetoothDevice, ["name": name]) }
    public var bluetoothDeviceWithoutName: String { say(.bluetoothDeviceWithoutName) }
    public var deviceToConnect: String { say(.deviceToConnect) }
    public var otherContent: String { say(.otherContent) }
    public var unreadableRecord: String { say(.unreadableRecord) }
    public var signature: String { say(.signature) }
    public var secureLinkVerified: String { say(.secureLinkVerified) }
    public var secureLinkReplayed: String { say(.secureLinkReplayed) }
    public var secureLinkFailed: String { say(.secureLinkFailed) }
    public func signedBy(_ signer: String?) -> String { signer.map { say(.signedBy, ["signer": $0]) } ?? say(.signedByUnnamed) }
    public var changedAfterSigning: String { say(.changedAfterSigning) }

    public var notificationSender: String { say(.notificationSender) }
    public func notificationOpenLink(_ link: String) -> String { say(.notificationOpenLink, ["link": link]) }
    public func notificationOpen(_ content: OfferedContent, in app: String) -> String {
        let message: CopyMessage = switch content {
        case .link: .notificationOpenLinkContent
        case .phoneNumber: .notificationOpenPhoneNumber
        case .emailAddress: .notificationOpenEmailAddress
        case .text: .notificationOpenText
        case .contact: .notificationOpenContact
        case .wifiNetwork: .notificationOpenWifiNetwork
        case .bluetoothDevice: .notificationOpenBluetoothDevice
        case .item: .notificationOpenItem
        }
        return say(message, ["app": app])
    }
    public func notificationOpenApp(_ app: String) -> String { say(.notificationOpenApp, ["app": app]) }
    public func notificationHolds(_ content: OfferedContent, _ value: String) -> String {
        switch content {
        case .link: say(.notificationHoldsLink, ["link": value])
        case .phoneNumber: say(.notificationHoldsPhoneNumber, ["number": value])
        case .emailAddress: say(.notificationHoldsEmailAddress, ["address": value])
        case .text: say(.notificationHoldsText, ["text": value])
        case .contact: say(.notificationHoldsContact, ["name": value])
        case .wifiNetwork: say(.notificationHoldsWifiNetwork, ["network": value])
        case .bluetoothDevice: say(.notificationHoldsBluetoothDevice, ["name": value])
        case .item: say(.notificationHoldsItem, ["value": value])
        }
    }
    public func notificationHoldsIncompleteLink(_ link: String) -> String { say(.notificationHoldsIncompleteLink, ["link": link]) }
    public var actionOpen: String { say(.actionOpen) }
    public var actionOpenInBrowser: String { say(.actionOpenInBrowser) }
    public func notificationDefault(_ offer: DefaultAppOffer) -> String {
        switch offer {
        case .addContact(let name?, let app): say(.defaultAddContact, ["name": name, "app": app])
        case .addContact(nil, let app): say(.defaultAddContactWithoutName, ["app": app])
        case .addEvent(let app): say(.defaultAddEvent, ["app": app])
        case .call(let number): say(.defaultCall, ["number": number])
        case .sendMessage(let number): say(.defaultSendMessage, ["number": number])
        case .writeEmail(let address): say(.defaultWriteEmail, ["address": address])
        case .joinNetwork(let name): say(.defaultJoinNetwork, ["network": name])
        case .openLocation(let app): say(.defaultOpenLocation, ["app": app])
        case .openPicture(let app): say(.defaultOpenPicture, ["app": app])
        case .openDocument(let app): say(.defaultOpenDocument, ["app": app])
        case .openText(let app): say(.defaultOpenText, ["app": app])
        case .openLink(let app): say(.defaultOpenLink, ["app": app])
        }
    }
    public func action(_ offer: DefaultAppOffer) -> String {
        switch offer {
        case .addContact, .addEvent: say(.actionAdd)
        case .call: say(.actionCall)
        case .sendMessage: say(.actionSendMessage)
        case .writeEmail: say(.actionWriteEmail)
        case .joinNetwork: say(.actionJoinNetwork)
        case .openLocation, .openPicture, .openDocument, .openText, .openLink: say(.actionOpen)
        }
    }
    public func handlerFailed(app: String) -> String { say(.handlerFailed, ["app": app]) }
    public var browserFailed: String { say(.browserFailed) }
    public func networkFailed(_ name: String) -> String { say(.networkFailed, ["network": name]) }

    public var backgroundOn: String { say(.backgroundOn) }
    public func backgroundPaused(_ reason: BackgroundPause) -> String {
        switch reason {
        case .noReader: say(.pausedNoReader)
        case .scanSession: say(.pausedScanSession)
        case .readerInUse: say(.pausedReaderInUse)
        case .camera: say(.pausedCamera)
        case .airplaneMode: say(.pausedAirplaneMode)
        case .lockedAfterRestart: say(.pausedLockedAfterRestart)
        case .screenOff: say(.pausedScreenOff)
        }
    }
    public var backgroundPausedOther: String { say(.backgroundPausedOther) }
    public var backgroundServiceOff: String { say(.backgroundServiceOff) }
    public var backgroundServiceStart: String { say(.backgroundServiceStart) }
    public var notificationsUnavailable: String { say(.notificationsUnavailable) }
    public var notificationsHelp: String { say(.notificationsHelp) }
    public func backgroundUnchecked(_ condition: BackgroundPause) -> String {
        switch condition {
        case .camera: say(.uncheckedCamera)
        case .airplaneMode: say(.uncheckedAirplaneMode)
        case .lockedAfterRestart: say(.uncheckedLockedAfterRestart)
        case .screenOff: say(.uncheckedScreenOff)
        case .noReader, .scanSession, .readerInUse: say(.uncheckedOther)
        }
    }
    public func backgroundIgnoring(_ condition: BackgroundPause) -> String {
        switch condition {
        case .camera: say(.ignoringCamera)
        case .airplaneMode: say(.ignoringAirplaneMode)
        case .lockedAfterRestart: say(.ignoringLockedAfterRestart)
        case .screenOff: say(.ignoringScreenOff)
        case .noReader, .scanSession, .readerInUse: say(.ignoringOther)
        }
    }
    public var radioDisabled: String { say(.radioDisabled) }
    public func brokerConnected(station: String) -> String { say(.brokerConnected, ["station": station]) }
    public var brokerDisconnected: String { say(.brokerDisconnected) }
    public func brokerWaiting(_ count: Int) -> String { words.text(.brokerWaiting, count: count) }
    public func brokerDropped(_ count: Int) -> String { words.text(.brokerDropped, count: count) }

    // Writing.
    public func writePrompt(_ action: WriteAction) -> String {
        switch action {
        case .save(.link): say(.writePromptLink)
        case .save(.text): say(.writePromptText)
        case .save(.information): say(.writePromptInformation)
        case .erase: say(.writePromptErase)
        case .lock: say(.writePromptLock)
        }
    }
    public var writing: String { say(.writing) }
    public var erasing: String { say(.erasing) }
    public var locking: String { say(.locking) }
    public func writeEnded(_ ending: WriteEnding, _ action: WriteAction) -> String {
        switch ending {
        case .done:
            switch action {
            case .save: say(.savedDone)
            case .erase: say(.erasedDone)
            case .lock: say(.lockedDone)
            }
        case .timedOut: say(.timedOut)
        case .tooLarge: say(.tooLarge)
        case .readOnly: say(.readOnly)
        case .blank: say(.writeBlank)
        case .notEmpty: say(.notEmpty)
        case .passwordRequired: say(.passwordRequired)
        case .wrongPassword: say(.wrongPassword)
        case .movedAwayTooSoon: say(.writeMovedAway)
        case .differentObject: say(.differentObject)
        case .didNotVerify: say(.didNotVerify)
        case .unsupported: say(.writeUnsupported)
        case .failed: say(.writeFailed)
        case .canceled: say(.canceled)
        }
    }
    public var lockQuestion: String { say(.lockQuestion) }
    public func holds(used: Int, capacity: Int) -> String {
        words.text(.holds, count: capacity, ["used": String(used), "capacity": String(capacity)])
    }
    public var canBeChanged: String { say(.canBeChanged) }
    public var changedWithPassword: String { say(.changedWithPassword) }
    public var cannotBeChanged: String { say(.cannotBeChanged) }
    public var isBlank: String { say(.isBlank) }
    public var isGenuine: String { say(.isGenuine) }
    public var mayNotBeGenuine: String { say(.mayNotBeGenuine) }
    public var formatHint: String { say(.formatHint) }
    public func sizeHint(needed: Int, available: Int) -> String {
        words.text(.sizeHint, count: needed, ["available": String(available), "object": name])
    }
    public func progress(_ prompt: String, index: Int, total: Int) -> String {
        say(.progress, ["prompt": prompt, "index": String(index), "total": String(total)])
    }

    // MARK: The scan sheet

    public func askPermission(app: String) -> String { say(.askPermission, ["app": app]) }
    public func consent(_ action: WriteAction, app: String) -> String {
        let message: CopyMessage = switch action {
        case .save(.link): .consentSaveLink
        case .save(.text): .consentSaveText
        case .save(.information): .consentSaveInformation
        case .erase: .consentErase
        case .lock: .consentLock
        }
        return say(message, ["app": app])
    }
    public func lockDetail(_ action: WriteAction) -> String {
        action == .lock ? say(.cannotBeUndone) : say(.lockedAfterSaving)
    }
    public var scanDone: String { say(.scanDone) }
    public var scanCanceled: String { say(.scanCanceled) }
    public var actionCancel: String { say(.actionCancel) }
    public var actionAllow: String { say(.actionAllow) }
    public var actionDontAllow: String { say(.actionDontAllow) }
    public func actionConfirm(_ action: WriteAction, lock: Bool) -> String {
        if lock || action == .lock { return say(.actionLock) }
        return action == .erase ? say(.actionErase) : say(.actionSave)
    }
}
