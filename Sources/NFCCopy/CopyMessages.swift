// Every message a person reads, in English: the source of po/nfcscan.pot.
//
// scripts/update-po.py reads this file (it runs no Swift): each message is one
// `CopyMessage(.kind, "context", "English"[, plural: "…"][, note: "…"])` whose arguments are
// plain string literals, and the .pot lists them in this order. After changing one, run `make pot`
// (the .pot, en.po, and the other languages merged); CopyCatalogTests fails while the .pot differs
// from ``CopyMessage/all``. The words follow ../shared/guidance/nfc.md: people "hold" an object
// "near" the reader (never "tap" or "touch" it), the object is named instead of technical terms,
// sentences are complete and short. `{object}` is the object's name, translated when the catalog
// has it (the `object` entries at the end), else as the app or `--object` gave it.

extension CopyMessage {
    // Scanning.
    static let firstPrompt = CopyMessage(.sentence, "firstPrompt", "Hold the {object} near the reader to learn more.",
        note: "The first prompt of a scan. The guidelines' pattern: \"Hold your iPhone near the [object] to learn more.\"")
    static let firstPromptGeneric = CopyMessage(.sentence, "firstPrompt.generic", "Hold the item near the reader.",
        note: "The first prompt of a scan when nobody said what the object is.")
    static let laterPrompt = CopyMessage(.sentence, "laterPrompt", "Now hold another {object} near the reader.",
        note: "Every later prompt of a scan of several objects. The guidelines' pattern: \"Now hold your iPhone near another [object].\"")
    static let reading = CopyMessage(.sentence, "reading", "Reading the {object}. Keep it still.",
        note: "Shown while the object is being read.")
    static let secondsLeft = CopyMessage(.label, "secondsLeft", "{seconds} s",
        note: "A countdown beside the prompt, in seconds; a label, not a sentence.")
    static let timedOut = CopyMessage(.sentence, "timedOut", "No {object} came near the reader in time. Try again.",
        note: "Nothing came near the reader before the time was up (a scan, or a write).")
    static let noReader = CopyMessage(.sentence, "noReader", "No reader was found. Connect one and try again.")
    static let connectReader = CopyMessage(.sentence, "connectReader", "Connect a reader to scan the {object}.",
        note: "Shown while no reader is connected yet and one may still appear.")
    static let readerBusy = CopyMessage(.sentence, "readerBusy", "Another program is using the reader. Close it and try again.")
    static let readerNotPermitted = CopyMessage(.sentence, "readerNotPermitted", "You may not use the reader. Ask your administrator.")
    static let readerFailed = CopyMessage(.sentence, "readerFailed", "The reader stopped working. Reconnect it and try again.")
    static let movedAwayTooSoon = CopyMessage(.sentence, "movedAwayTooSoon", "The {object} moved away too soon. Hold it longer.",
        note: "The object left before the whole content was read.")
    static let readFailed = CopyMessage(.sentence, "readFailed", "The {object} couldn't be read. Try again.")
    static let unsupportedObject = CopyMessage(.sentence, "unsupportedObject", "This kind of {object} can't be read yet.")
    static let unreadableContent = CopyMessage(.sentence, "unreadableContent", "The {object} holds something that can't be shown.")
    static let newerForm = CopyMessage(.sentence, "newerForm", "The {object} uses a newer form that can't be read yet.",
        note: "What the object holds follows a later version of its standard than this program reads; scanning again won't help.")
    static let empty = CopyMessage(.sentence, "empty", "The {object} holds nothing.")
    static let blankObject = CopyMessage(.sentence, "blankObject", "The {object} is blank: nothing was ever saved on it.")
    static let halfWritten = CopyMessage(.sentence, "halfWritten", "Saving to the {object} was cut short. Save it again.")
    static let moreDetail = CopyMessage(.sentence, "moreDetail", "Run again with --verbose to see why.",
        note: "Added after a failure; --verbose is the command's option and stays as it is.")
    static let noReaderHelp = CopyMessage(.sentence, "noReaderHelp", "To connect one, see “man nfcscan” (READERS).",
        note: "nfcscan, after \"No reader was found.\": where connecting a reader is explained; the command and the section's name stay as they are.")
    static let passwordHint = CopyMessage(.sentence, "passwordHint", "Run again with --password and the {object}'s password.",
        note: "Added after \"protected by a password\" or \"didn't accept the password\"; --password is the command's option and stays as it is.")
    static let passwordReaderHint = CopyMessage(.sentence, "passwordReaderHint", "This reader can't send a password. Use another reader.",
        note: "Added after \"protected by a password\" when the reader in use cannot pass a password to the object at all (--password would not help).")

    // What an object holds: a label, then the value as read.
    static let link = CopyMessage(.label, "link", "Link: {link}")
    static let incompleteLink = CopyMessage(.label, "incompleteLink", "Incomplete link (it won't open): {link}",
        note: "A link without its beginning (https://): browsers and phones won't open it.")
    static let phoneNumber = CopyMessage(.label, "phoneNumber", "Phone number: {number}")
    static let emailAddress = CopyMessage(.label, "emailAddress", "Email address: {address}")
    static let text = CopyMessage(.label, "text", "Text: {text}")
    static let title = CopyMessage(.label, "title", "Title: {title}", note: "A poster's title.")
    static let wifiNetwork = CopyMessage(.label, "wifiNetwork", "Wi-Fi network: {network}")
    static let contact = CopyMessage(.label, "contact", "Contact: {name}")
    static let contactWithoutName = CopyMessage(.sentence, "contactWithoutName", "A contact without a name.")
    static let app = CopyMessage(.label, "app", "App: {app}")
    static let bluetoothDevice = CopyMessage(.label, "bluetoothDevice", "Bluetooth device: {name}")
    static let bluetoothDeviceWithoutName = CopyMessage(.sentence, "bluetoothDeviceWithoutName", "A Bluetooth device without a name.")
    static let deviceToConnect = CopyMessage(.sentence, "deviceToConnect", "A device to connect to.")
    static let otherContent = CopyMessage(.sentence, "otherContent", "Something this program can't show.")
    static let unreadableRecord = CopyMessage(.sentence, "unreadableRecord", "Something that can't be read.",
        note: "Part of what the object holds does not fit what it claims to be; said beside the rest.")
    static let signature = CopyMessage(.sentence, "signature", "A signature, which wasn't checked.")
    static let secureLinkVerified = CopyMessage(.sentence, "secureLink.verified", "The {object} made this link just now: it is genuine.",
        note: "Said after a link the object makes afresh on each scan, whose code checked out with the person's keys.")
    static let secureLinkReplayed = CopyMessage(.sentence, "secureLink.replayed", "This link was already used: it may be a copy.",
        note: "The link checked out, but the same one was seen before: someone may have copied it from the object.")
    static let secureLinkFailed = CopyMessage(.sentence, "secureLink.failed", "This link does not check out: it may be forged.",
        note: "A link of the kind the person's keys describe, whose code is wrong.")
    static let signedBy = CopyMessage(.sentence, "signedBy", "Signed by {signer}.",
        note: "The object's content carries a signature that was checked: {signer} is the company or person who signed it, as their certificate names them.")
    static let signedByUnnamed = CopyMessage(.sentence, "signedBy.unnamed", "Signed by a trusted signer who gives no name.",
        note: "As \"Signed by {signer}.\", when the signer's certificate names nobody.")
    static let changedAfterSigning = CopyMessage(.sentence, "changedAfterSigning", "Careful: this {object} was changed after it was signed.",
        note: "A warning said first: the object's signed content does not match its signature, so it cannot be trusted.")

    // The background service's notifications: summaries are questions, buttons one or two words.
    static let notificationSender = CopyMessage(.label, "notificationSender", "Nearby Items",
        note: "The name the background service's notifications come from.")
    static let notificationOpenLink = CopyMessage(.sentence, "notificationOpenLink", "Open {link}?",
        note: "Offers to open a web link in the browser; {link} is the link as written, https:// included (https://example.com/poster).")
    static let notificationOpenLinkContent = CopyMessage(.sentence, "notificationOpen.link", "Open the link in {app}?",
        note: "Offers what the object holds to the app that asked for it; {app} is the app's name.")
    static let notificationOpenPhoneNumber = CopyMessage(.sentence, "notificationOpen.phoneNumber", "Open the phone number in {app}?")
    static let notificationOpenEmailAddress = CopyMessage(.sentence, "notificationOpen.emailAddress", "Open the email address in {app}?")
    static let notificationOpenText = CopyMessage(.sentence, "notificationOpen.text", "Open the text in {app}?")
    static let notificationOpenContact = CopyMessage(.sentence, "notificationOpen.contact", "Open the contact in {app}?")
    static let notificationOpenWifiNetwork = CopyMessage(.sentence, "notificationOpen.wifiNetwork", "Open the Wi-Fi network in {app}?")
    static let notificationOpenBluetoothDevice = CopyMessage(.sentence, "notificationOpen.bluetoothDevice", "Open the Bluetooth device in {app}?")
    static let notificationOpenItem = CopyMessage(.sentence, "notificationOpen.item", "Open the {object} in {app}?")
    static let notificationOpenApp = CopyMessage(.sentence, "notificationOpenApp", "Open {app}?",
        note: "The object names the app that opens it.")
    static let notificationHoldsLink = CopyMessage(.sentence, "notificationHolds.link", "The {object} links to {link}.",
        note: "A notification's body: what the object holds.")
    static let notificationHoldsIncompleteLink = CopyMessage(.sentence, "notificationHolds.incompleteLink",
        "The {object}'s link won't open: {link}.",
        note: "A notification's body: a link without its beginning (https://), which browsers and phones won't open.")
    static let notificationHoldsPhoneNumber = CopyMessage(.sentence, "notificationHolds.phoneNumber", "The {object} holds a phone number: {number}.")
    static let notificationHoldsEmailAddress = CopyMessage(.sentence, "notificationHolds.emailAddress", "The {object} holds an email address: {address}.")
    static let notificationHoldsText = CopyMessage(.sentence, "notificationHolds.text", "The {object} says “{text}”.")
    static let notificationHoldsContact = CopyMessage(.sentence, "notificationHolds.contact", "The {object} holds a contact: {name}.")
    static let notificationHoldsWifiNetwork = CopyMessage(.sentence, "notificationHolds.wifiNetwork", "The {object} holds a Wi-Fi network: {network}.")
    static let notificationHoldsBluetoothDevice = CopyMessage(.sentence, "notificationHolds.bluetoothDevice", "The {object} holds a Bluetooth device: {name}.")
    static let notificationHoldsItem = CopyMessage(.sentence, "notificationHolds.item", "The {object} holds {value}.",
        note: "{value} is a description of the content, such as \"a contact\".")
    static let actionOpen = CopyMessage(.label, "actionOpen", "Open", note: "A button: open what the object holds.")
    static let actionOpenInBrowser = CopyMessage(.label, "actionOpenInBrowser", "Open in Browser", note: "A button.")
    static let defaultAddContact = CopyMessage(.sentence, "notificationDefault.addContact", "Add {name} to {app}?",
        note: "Offers a contact card to the person's own contacts app; {name} is the contact's name.")
    static let defaultAddContactWithoutName = CopyMessage(.sentence, "notificationDefault.addContactWithoutName", "Add the contact to {app}?")
    static let defaultAddEvent = CopyMessage(.sentence, "notificationDefault.addEvent", "Add the event to {app}?")
    static let defaultCall = CopyMessage(.sentence, "notificationDefault.call", "Call {number}?")
    static let defaultSendMessage = CopyMessage(.sentence, "notificationDefault.sendMessage", "Send a message to {number}?")
    static let defaultWriteEmail = CopyMessage(.sentence, "notificationDefault.writeEmail", "Write to {address}?")
    static let defaultJoinNetwork = CopyMessage(.sentence, "notificationDefault.joinNetwork", "Join the network {network}?",
        note: "{network} is a Wi-Fi network's name.")
    static let defaultOpenLocation = CopyMessage(.sentence, "notificationDefault.openLocation", "Open the location in {app}?")
    static let defaultOpenPicture = CopyMessage(.sentence, "notificationDefault.openPicture", "Open the picture in {app}?")
    static let defaultOpenDocument = CopyMessage(.sentence, "notificationDefault.openDocument", "Open the document in {app}?")
    static let defaultOpenText = CopyMessage(.sentence, "notificationDefault.openText", "Open the text in {app}?")
    static let defaultOpenLink = CopyMessage(.sentence, "notificationDefault.openLink", "Open the link in {app}?",
        note: "A link some app of the person's handles (not a web link).")
    static let actionAdd = CopyMessage(.label, "action.add", "Add", note: "A button: add the contact or event.")
    static let actionCall = CopyMessage(.label, "action.call", "Call", note: "A button.")
    static let actionSendMessage = CopyMessage(.label, "action.sendMessage", "Message", note: "A button: send a text message.")
    static let actionWriteEmail = CopyMessage(.label, "action.writeEmail", "Write", note: "A button: write an email.")
    static let actionJoinNetwork = CopyMessage(.label, "action.joinNetwork", "Join", note: "A button: join the Wi-Fi network.")
    static let handlerFailed = CopyMessage(.sentence, "handlerFailed", "The {object} couldn't be sent to {app}. Try again.")
    static let browserFailed = CopyMessage(.sentence, "browserFailed", "The link couldn't be opened. Try again.")
    static let networkFailed = CopyMessage(.sentence, "networkFailed", "Couldn't join the network {network}. Try again.")

    // `nfcscan status`: background scanning in plain words.
    static let backgroundOn = CopyMessage(.sentence, "backgroundOn", "Background scanning is on.")
    static let pausedNoReader = CopyMessage(.sentence, "backgroundPaused.no-reader", "Background scanning is paused until a reader is connected.")
    static let pausedScanSession = CopyMessage(.sentence, "backgroundPaused.scan-session", "Background scanning is paused while an app is scanning.")
    static let pausedReaderInUse = CopyMessage(.sentence, "backgroundPaused.reader-in-use", "Background scanning is paused while the reader is in use.")
    static let pausedCamera = CopyMessage(.sentence, "backgroundPaused.camera", "Background scanning is paused while the camera is in use.")
    static let pausedAirplaneMode = CopyMessage(.sentence, "backgroundPaused.airplane-mode", "Background scanning is paused while airplane mode is on.")
    static let pausedLockedAfterRestart = CopyMessage(.sentence, "backgroundPaused.locked-after-restart", "Background scanning is paused until you unlock the computer.",
        note: "The computer has not been unlocked since it started.")
    static let pausedScreenOff = CopyMessage(.sentence, "backgroundPaused.screen-off", "Background scanning is paused while the screen is off.")
    static let backgroundPausedOther = CopyMessage(.sentence, "backgroundPaused", "Background scanning is paused.",
        note: "Paused for a reason this version does not know.")
    static let backgroundServiceOff = CopyMessage(.sentence, "backgroundServiceOff", "Background scanning is off: its service isn't running.")
    static let backgroundServiceStart = CopyMessage(.sentence, "backgroundServiceStart", "Start it with “systemctl --user start nfcscand”.",
        note: "After \"its service isn't running\": the command stays as it is.")
    static let notificationsUnavailable = CopyMessage(.sentence, "notificationsUnavailable", "Scanned items can't be offered: notifications don't show.",
        note: "nfcscan status: the desktop has no notification service running, so nothing scanned in the background is offered.")
    static let notificationsHelp = CopyMessage(.sentence, "notificationsHelp", "Start a notification service, such as dunst.",
        note: "After notificationsUnavailable: what to do. dunst is a program's name.")
    static let uncheckedCamera = CopyMessage(.sentence, "backgroundUnchecked.camera", "The camera can't be checked, so it won't pause scanning.",
        note: "This computer cannot tell whether the camera is in use.")
    static let uncheckedAirplaneMode = CopyMessage(.sentence, "backgroundUnchecked.airplane-mode", "Airplane mode can't be checked, so it won't pause scanning.")
    static let uncheckedLockedAfterRestart = CopyMessage(.sentence, "backgroundUnchecked.locked-after-restart", "The lock can't be checked, so it won't pause scanning.")
    static let uncheckedScreenOff = CopyMessage(.sentence, "backgroundUnchecked.screen-off", "The screen can't be checked, so it won't pause scanning.")
    static let uncheckedOther = CopyMessage(.sentence, "backgroundUnchecked", "Background scanning can't check everything it should.")
    static let ignoringCamera = CopyMessage(.sentence, "backgroundIgnoring.camera", "Set to keep scanning while the camera is in use.",
        note: "The configuration keeps scanning on in this situation (a kiosk).")
    static let ignoringAirplaneMode = CopyMessage(.sentence, "backgroundIgnoring.airplane-mode", "Set to keep scanning while airplane mode is on.")
    static let ignoringLockedAfterRestart = CopyMessage(.sentence, "backgroundIgnoring.locked-after-restart", "Set to keep scanning while locked after a restart.")
    static let ignoringScreenOff = CopyMessage(.sentence, "backgroundIgnoring.screen-off", "Set to keep scanning while the screen is off.")
    static let ignoringOther = CopyMessage(.sentence, "backgroundIgnoring", "Set to keep scanning in more situations.")
    static let radioDisabled = CopyMessage(.sentence, "radioDisabled", "Scanning is off while airplane mode is on.")
    static let brokerConnected = CopyMessage(.sentence, "brokerConnected", "Scans are sent to the message server as {station}.",
        note: "{station} is the name this computer publishes its scans under.")
    static let brokerDisconnected = CopyMessage(.sentence, "brokerDisconnected", "Can't reach the message server; trying again.")
    static let brokerWaiting = CopyMessage(.sentence, "brokerWaiting", "{count} scan is waiting to be sent.",
        plural: "{count} scans are waiting to be sent.")
    static let brokerDropped = CopyMessage(.sentence, "brokerDropped", "{count} scan was lost: there was no room to keep it.",
        plural: "{count} scans were lost: there was no room to keep them.")

    // Writing to an object.
    static let writePromptLink = CopyMessage(.sentence, "writePrompt.link", "Hold the {object} near the reader to save the link.")
    static let writePromptText = CopyMessage(.sentence, "writePrompt.text", "Hold the {object} near the reader to save the text.")
    static let writePromptInformation = CopyMessage(.sentence, "writePrompt.information", "Hold the {object} near the reader to save it.",
        note: "Anything else: a whole message from a file, several records.")
    static let writePromptErase = CopyMessage(.sentence, "writePrompt.erase", "Hold the {object} near the reader to erase it.")
    static let writePromptLock = CopyMessage(.sentence, "writePrompt.lock", "Hold the {object} near the reader to lock it.",
        note: "Locked for good: it can't be changed any more.")
    static let writing = CopyMessage(.sentence, "writing", "Saving to the {object}. Keep it still.")
    static let erasing = CopyMessage(.sentence, "erasing", "Erasing the {object}. Keep it still.")
    static let locking = CopyMessage(.sentence, "locking", "Locking the {object}. Keep it still.")
    static let savedDone = CopyMessage(.sentence, "writeEnded.done.save", "Saved. You can take the {object} away.")
    static let erasedDone = CopyMessage(.sentence, "writeEnded.done.erase", "Erased. You can take the {object} away.")
    static let lockedDone = CopyMessage(.sentence, "writeEnded.done.lock", "Locked. You can take the {object} away.")
    static let tooLarge = CopyMessage(.sentence, "writeEnded.too-large", "That's too much for the {object} to hold.")
    static let readOnly = CopyMessage(.sentence, "writeEnded.read-only", "The {object} is locked and can't be changed.")
    static let notEmpty = CopyMessage(.sentence, "writeEnded.not-empty", "The {object} already holds something. Nothing changed.",
        note: "The app asked to save only to an empty object (Web NFC's overwrite: false).")
    static let writeBlank = CopyMessage(.sentence, "writeEnded.blank", "The {object} is blank and needs preparing first.")
    static let passwordRequired = CopyMessage(.sentence, "writeEnded.password-required", "The {object} is protected by a password.")
    static let wrongPassword = CopyMessage(.sentence, "writeEnded.wrong-password", "The {object} didn't accept the password.")
    static let writeMovedAway = CopyMessage(.sentence, "writeEnded.moved-away", "The {object} moved away too soon. Try again.")
    static let differentObject = CopyMessage(.sentence, "writeEnded.different-object", "A different {object} came near. Try again.",
        note: "Another object than the one being written came near the reader.")
    static let didNotVerify = CopyMessage(.sentence, "writeEnded.did-not-verify", "The {object} didn't save correctly. Try again.")
    static let writeUnsupported = CopyMessage(.sentence, "writeEnded.unsupported", "This kind of {object} can't be changed here.")
    static let writeFailed = CopyMessage(.sentence, "writeEnded.failed", "Couldn't save to the {object}. Try again.")
    static let canceled = CopyMessage(.sentence, "writeEnded.user-canceled", "Canceled. The {object} wasn't changed.")
    static let lockQuestion = CopyMessage(.sentence, "lockQuestion", "Lock the {object} for good? This can't be undone.",
        note: "Asked before locking: once locked, the object can't be changed again.")
    static let holds = CopyMessage(.sentence, "holds", "It holds {used} of {capacity} byte.",
        plural: "It holds {used} of {capacity} bytes.",
        note: "How full the object is (nfcscan info). The form follows {capacity}.")
    static let canBeChanged = CopyMessage(.sentence, "canBeChanged", "It can be changed.")
    static let changedWithPassword = CopyMessage(.sentence, "changedWithPassword", "It can be changed only with its password.",
        note: "nfcscan info of an object a password protects.")
    static let cannotBeChanged = CopyMessage(.sentence, "cannotBeChanged", "It is locked and can't be changed.")
    static let isBlank = CopyMessage(.sentence, "isBlank", "It is blank and needs preparing before saving.")
    static let isGenuine = CopyMessage(.sentence, "isGenuine", "This {object}'s chip is genuine.",
        note: "nfcscan info: the chip inside the object carries its maker's signature, and it checks out.")
    static let mayNotBeGenuine = CopyMessage(.sentence, "mayNotBeGenuine", "This {object}'s chip may not be genuine.",
        note: "nfcscan info: the chip's maker's signature is missing or doesn't check out (a copy or a look-alike).")
    static let formatHint = CopyMessage(.sentence, "writeHint.blank", "Run again with --format to prepare the {object}.",
        note: "nfcscan write, after \"The poster is blank and needs preparing first.\"; --format is the option and stays as it is.")
    static let sizeHint = CopyMessage(.sentence, "writeHint.too-large", "This needs {count} byte; the {object} holds {available}.",
        plural: "This needs {count} bytes; the {object} holds {available}.",
        note: "nfcscan write, after \"That's too much for the poster to hold.\": how much fits ({available}) and how much was asked ({count}). The form follows {count}.")
    static let progress = CopyMessage(.label, "progress", "{prompt} ({index} of {total})",
        note: "nfcscan write --count: the prompt, then which of the objects it is.")

    // The scan sheet nfcscand shows for an app's session: {app} is the app's name (from its
    // desktop entry), never what the app says about itself.
    static let askPermission = CopyMessage(.sentence, "sheet.askPermission", "Allow {app} to use items you hold near the reader?",
        note: "Asked the first time an app wants to scan or change objects; the answer is kept.")
    static let consentSaveLink = CopyMessage(.sentence, "sheet.consent.save.link", "{app} wants to save a link to the {object}.",
        note: "Asked before an app changes an object; nothing is sent to the object before the person chooses.")
    static let consentSaveText = CopyMessage(.sentence, "sheet.consent.save.text", "{app} wants to save text to the {object}.")
    static let consentSaveInformation = CopyMessage(.sentence, "sheet.consent.save.information", "{app} wants to save information to the {object}.")
    static let consentErase = CopyMessage(.sentence, "sheet.consent.erase", "{app} wants to erase the {object}.")
    static let consentLock = CopyMessage(.sentence, "sheet.consent.lock", "{app} wants to lock the {object}.",
        note: "Locked for good: it can't be changed any more.")
    static let cannotBeUndone = CopyMessage(.sentence, "sheet.cannotBeUndone", "This can't be undone.",
        note: "Below the question before locking an object.")
    static let lockedAfterSaving = CopyMessage(.sentence, "sheet.lockedAfterSaving", "The {object} will be locked. This can't be undone.",
        note: "Below the question when an app saves and then locks the object.")
    static let scanDone = CopyMessage(.sentence, "sheet.scanDone", "Done. You can take the {object} away.",
        note: "The object was read and handed to the app.")
    static let scanCanceled = CopyMessage(.sentence, "sheet.scanCanceled", "Canceled.",
        note: "The app ended its scan.")
    static let actionCancel = CopyMessage(.label, "action.cancel", "Cancel", note: "A button: end the scan, change nothing.")
    static let actionAllow = CopyMessage(.label, "action.allow", "Allow", note: "A button: let the app use the reader, now and later.")
    static let actionDontAllow = CopyMessage(.label, "action.dontAllow", "Don't Allow", note: "A button: refuse the app, now and later.")
    static let actionSave = CopyMessage(.label, "action.save", "Save", note: "A button: let the app save to the object.")
    static let actionErase = CopyMessage(.label, "action.erase", "Erase", note: "A button: let the app erase the object.")
    static let actionLock = CopyMessage(.label, "action.lock", "Lock", note: "A button: let the app lock the object for good.")

    // Object names: what `--object` (or an app's scan session) may call the object, translated.
    static let objectPoster = CopyMessage(.objectName, "object", "poster", note: "An object's name (nfcscan --object poster).")
    static let objectBadge = CopyMessage(.objectName, "object", "badge", note: "An object's name (nfcscan --object badge).")
    static let objectToy = CopyMessage(.objectName, "object", "toy", note: "An object's name (nfcscan --object toy).")
    static let objectProductLabel = CopyMessage(.objectName, "object", "product label", note: "An object's name: a label on a product in a shop.")
    static let objectLabel = CopyMessage(.objectName, "object", "label", note: "An object's name: a sticker or label.")
    static let objectSticker = CopyMessage(.objectName, "object", "sticker", note: "An object's name.")
    static let objectCard = CopyMessage(.objectName, "object", "card", note: "An object's name.")
    static let objectTicket = CopyMessage(.objectName, "object", "ticket", note: "An object's name.")
    static let objectItem = CopyMessage(.objectName, "object", "item",
        note: "The word for the object when nobody said what it is (and for --object item).")
    static let objectObject = CopyMessage(.objectName, "object", "object", note: "An object's name (nfcscan --object object).")
    static let objectBook = CopyMessage(.objectName, "object", "book", note: "An object's name.")

    /// Every message, in the order of po/nfcscan.pot.
    public static let all: [CopyMessage] = [
        firstPrompt, firstPromptGeneric, laterPrompt, reading, secondsLeft, timedOut, noReader, connectReader, readerBusy,
        readerNotPermitted, readerFailed, movedAwayTooSoon, readFailed, unsupportedObject, unreadableContent, newerForm, empty,
        blankObject, halfWritten, moreDetail, noReaderHelp, passwordHint, passwordReaderHint,
        link, incompleteLink, phoneNumber, emailAddress, text, title, wifiNetwork, contact, contactWithoutName, app, bluetoothDevice,
        bluetoothDeviceWithoutName, deviceToConnect, otherContent, unreadableRecord, signature, secureLinkVerified, secureLinkReplayed, secureLinkFailed,
        signedBy, signedByUnnamed, changedAfterSigning,
        notificationSender, notificationOpenLink, notificationOpenLinkContent, notificationOpenPhoneNumber,
        notificationOpenEmailAddress, notificationOpenText, notificationOpenContact, notificationOpenWifiNetwork,
        notificationOpenBluetoothDevice, notificationOpenItem, notificationOpenApp, notificationHoldsLink,
        notificationHoldsIncompleteLink, notificationHoldsPhoneNumber, notificationHoldsEmailAddress, notificationHoldsText, notificationHoldsContact,
        notificationHoldsWifiNetwork, notificationHoldsBluetoothDevice, notificationHoldsItem, actionOpen,
        actionOpenInBrowser, defaultAddContact, defaultAddContactWithoutName, defaultAddEvent, defaultCall,
        defaultSendMessage, defaultWriteEmail, defaultJoinNetwork, defaultOpenLocation, defaultOpenPicture,
        defaultOpenDocument, defaultOpenText, defaultOpenLink, actionAdd, actionCall, actionSendMessage, actionWriteEmail,
        actionJoinNetwork, handlerFailed, browserFailed, networkFailed,
        backgroundOn, pausedNoReader, pausedScanSession, pausedReaderInUse, pausedCamera, pausedAirplaneMode,
        pausedLockedAfterRestart, pausedScreenOff, backgroundPausedOther, backgroundServiceOff, backgroundServiceStart,
        notificationsUnavailable, notificationsHelp, uncheckedCamera,
        uncheckedAirplaneMode, uncheckedLockedAfterRestart, uncheckedScreenOff, uncheckedOther, ignoringCamera,
        ignoringAirplaneMode, ignoringLockedAfterRestart, ignoringScreenOff, ignoringOther, radioDisabled,
        brokerConnected, brokerDisconnected, brokerWaiting, brokerDropped,
        writePromptLink, writePromptText, writePromptInformation, writePromptErase, writePromptLock, writing, erasing,
        locking, savedDone, erasedDone, lockedDone, tooLarge, readOnly, notEmpty, writeBlank, passwordRequired, wrongPassword,
        writeMovedAway, differentObject, didNotVerify, writeUnsupported, writeFailed, canceled, lockQuestion, holds,
        canBeChanged, changedWithPassword, cannotBeChanged, isBlank, isGenuine, mayNotBeGenuine, formatHint, sizeHint, progress,
        askPermission, consentSaveLink, consentSaveText, consentSaveInformation, consentErase, consentLock, cannotBeUndone,
        lockedAfterSaving, scanDone, scanCanceled, actionCancel, actionAllow, actionDontAllow, actionSave, actionErase, actionLock,
        objectPoster, objectBadge, objectToy, objectProductLabel, objectLabel, objectSticker, objectCard, objectTicket,
        objectItem, objectObject, objectBook,
    ]
}
