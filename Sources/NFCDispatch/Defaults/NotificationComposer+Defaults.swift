import NDEFReport
import NFCCopy

extension NotificationComposer {
    /// The notification offering `content` (no app asked for it) to the person's default `app`
    /// for it, or, for a network, to join it (a web link: the browser's offer).
    ///
    /// A network's key is never part of it; everything from the object is display-safe.
    public func defaultOffer(_ content: DefaultContent, app: DefaultApp?, report: ReportValue) -> NotificationContent {
        let appName = app?.name ?? ""
        let offer: DefaultAppOffer
        switch content {
        case .webLink(let link): return notification(for: .webLink(link), report: report)
        case .wifiNetwork(let network): offer = .joinNetwork(name: network.name)
        case .schemeLink(let link): offer = Self.offer(link, appName: appName)
        case .mediaFile(let file): offer = Self.offer(file, appName: appName, report: report)
        }
        let button = NotificationContent.Action(key: NotificationContent.openActionKey, label: copy.action(offer))
        return NotificationContent(appName: app?.name ?? copy.notificationSender, appIcon: app?.icon ?? Self.icon(for: content),
                                   summary: fitted(offer), plainBody: nil, actions: [defaultAction(button), button],
                                   hints: .init(category: Self.offerCategory, desktopEntry: app?.id.name),
                                   expireTimeout: Self.offerTimeout)
    }

    /// What offering `link` says: the number or address after the scheme, up to any `?`.
    static func offer(_ link: SchemeLink, appName: String) -> DefaultAppOffer {
        let rest = String(link.uri.dropFirst(link.scheme.utf8.count + 1))
        let target = String(rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        switch link.scheme {
        case "tel": return .call(number: target)
        case "sms", "smsto": return .sendMessage(number: target)
        case "mailto": return .writeEmail(address: target)
        case "geo": return .openLocation(app: appName)
        default: return .openLink(app: appName)
        }
    }

    /// What offering `file` says: a contact by its name, else the kind of file.
    static func offer(_ file: MediaFile, appName: String, report: ReportValue) -> DefaultAppOffer {
        switch file.mimeType {
        case "text/vcard":
            let records = report["records"]?.arrayValue ?? []
            let card = records.indices.contains(file.recordIndex) ? records[file.recordIndex]["vcard"]?.stringValue : nil
            return .addContact(name: card.flatMap(ContentItem.vcardName), app: appName)
        case "text/calendar": return .addEvent(app: appName)
        case "application/pdf": return .openDocument(app: appName)
        case "text/plain": return .openText(app: appName)
        default: return .openPicture(app: appName)
        }
    }

    /// The summary in at most ``summaryLimit`` characters: the object's value is what gets
    /// shortened (the app's name is the person's own and short).
    private func fitted(_ offer: DefaultAppOffer) -> String {
        let safeApp: (String) -> String = { NotificationMarkup.value($0) }
        switch offer {
        case .addContact(let name?, let app): return fit(name) { copy.notificationDefault(.addContact(name: $0, app: safeApp(app))) }
        case .addContact(nil, let app): return fit(app) { copy.notificationDefault(.addContact(name: nil, app: $0)) }
        case .call(let number): return fit(number) { copy.notificationDefault(.call(number: $0)) }
        case .sendMessage(let number): return fit(number) { copy.notificationDefault(.sendMessage(number: $0)) }
        case .writeEmail(let address): return fit(address) { copy.notificationDefault(.writeEmail(address: $0)) }
        case .joinNetwork(let name): return fit(name) { copy.notificationDefault(.joinNetwork(name: $0)) }
        case .addEvent(let app): return fit(app) { copy.notificationDefault(.addEvent(app: $0)) }
        case .openLocation(let app): return fit(app) { copy.notificationDefault(.openLocation(app: $0)) }
        case .openPicture(let app): return fit(app) { copy.notificationDefault(.openPicture(app: $0)) }
        case .openDocument(let app): return fit(app) { copy.notificationDefault(.openDocument(app: $0)) }
        case .openText(let app): return fit(app) { copy.notificationDefault(.openText(app: $0)) }
        case .openLink(let app): return fit(app) { copy.notificationDefault(.openLink(app: $0)) }
        }
    }

    /// The icon-theme names (Icon Naming Specification) for offers without an app icon.
    private static func icon(for content: DefaultContent) -> String {
        switch content {
        case .wifiNetwork: "network-wireless"
        case .webLink: browserIcon
        case .schemeLink, .mediaFile: ""
        }
    }
}
