import NDEFReport
import NFCCopy

/// Writes the notification that offers an object to the person, and the one saying it could not
/// be delivered, in the catalog's words (../shared/guidance/nfc.md: a short question naming what
/// the object offers, a body only when it adds something, one- or two-word buttons).
///
/// Everything read from the object is untrusted: values are made display-safe and shortened
/// (``NotificationMarkup``), and the body is escaped for markup-reading servers.
public struct NotificationComposer: Sendable {
    /// Every word a person reads comes from here.
    public let copy: any ScanCopyCatalog

    /// Summaries longer than this are shortened at their value (``CopyRules/maximumLength``).
    public static let summaryLimit = CopyRules.maximumLength
    /// An offer lasts about as long as a person stays near the reader wondering what happened.
    public static let offerTimeout: Int32 = 15_000
    /// Long enough to be read; there is nothing to act on.
    public static let failureTimeout: Int32 = 10_000
    public static let offerCategory = "x-nfcscan.object"
    public static let failureCategory = "x-nfcscan.object.error"
    /// The icon-theme name (Icon Naming Specification) for web-link notifications.
    public static let browserIcon = "web-browser"

    /// `copy` names no object (the daemon can't know what it is): "the item".
    public init(copy: any ScanCopyCatalog = ScanCopy.catalog()) {
        self.copy = copy
    }

    /// The notification offering `offer` for the object `report` describes.
    public func notification(for offer: Offer, report: ReportValue) -> NotificationContent {
        let offered = switch offer {
        case .handler(let match): handlerOffer(match, report: report)
        case .webLink(let link): webLinkOffer(link, report: report)
        case .defaultApp(let content, let app): defaultOffer(content, app: app, report: report)
        case .joinNetwork(let network): defaultOffer(.wifiNetwork(network), app: nil, report: report)
        }
        return signed(offered, report: report)
    }

    /// `offered` with what the object's signature says: a broken one warns before the body, a
    /// trusted one names its signer after it (a person decides on the offer knowing both).
    private func signed(_ offered: NotificationContent, report: ReportValue) -> NotificationContent {
        let items = (report["records"]?.arrayValue ?? []).flatMap(ContentItem.items(in:))
        let body: String?
        if items.contains(.changedAfterSigning) {
            body = [copy.changedAfterSigning, offered.plainBody].compactMap { $0 }.joined(separator: " ")
        } else if case .signedBy(let signer)? = items.first(where: { if case .signedBy = $0 { true } else { false } }) {
            body = [offered.plainBody, copy.signedBy(signer.map { NotificationMarkup.value($0) })].compactMap { $0 }.joined(separator: " ")
        } else {
            return offered
        }
        return NotificationContent(appName: offered.appName, appIcon: offered.appIcon, summary: offered.summary, plainBody: body,
                                   actions: offered.actions, hints: offered.hints, expireTimeout: offered.expireTimeout)
    }

    /// The app was chosen but did not take the object (it did not answer, refused, or left).
    public func handlerFailed(_ app: HandlerApp) -> NotificationContent {
        appFailed(name: app.request.appName, icon: app.request.appIcon, desktopEntry: app.request.desktopEntry)
    }

    /// The person's default app could not be started for what they chose.
    public func defaultAppFailed(_ app: DefaultApp) -> NotificationContent {
        appFailed(name: app.name, icon: app.icon, desktopEntry: app.id.name)
    }

    /// An app (one that asked, or the person's default) could not be given what they chose: the
    /// same sentence, sent in the app's name.
    private func appFailed(name: String, icon: String?, desktopEntry: String?) -> NotificationContent {
        NotificationContent(appName: name, appIcon: icon ?? "", summary: fit(name) { copy.handlerFailed(app: $0) },
                            plainBody: nil, actions: [], hints: .init(category: Self.failureCategory, desktopEntry: desktopEntry),
                            expireTimeout: Self.failureTimeout)
    }

    /// The network could not be joined (NetworkManager refused, or has no Wi-Fi device).
    public func networkFailed(_ name: String) -> NotificationContent {
        NotificationContent(appName: copy.notificationSender, appIcon: "network-wireless",
                            summary: fit(name) { copy.networkFailed($0) }, plainBody: nil, actions: [],
                            hints: .init(category: Self.failureCategory), expireTimeout: Self.failureTimeout)
    }

    /// The person chose to open the link but no browser could be started.
    public func browserFailed() -> NotificationContent {
        NotificationContent(appName: copy.notificationSender, appIcon: Self.browserIcon, summary: copy.browserFailed,
                            plainBody: nil, actions: [], hints: .init(category: Self.failureCategory),
                            expireTimeout: Self.failureTimeout)
    }

    private func handlerOffer(_ match: HandlerMatch, report: ReportValue) -> NotificationContent {
        let registration = match.app.request
        let records = report["records"]?.arrayValue ?? []
        let summary: String
        let body: String?
        if case .androidPackage = match.filter.kind {
            // The object names the app itself; the body says what else it holds, if anything.
            summary = fit(registration.appName) { copy.notificationOpenApp($0) }
            body = records.indices.lazy.filter { $0 != match.recordIndex }
                .compactMap { offered(in: records[$0]) }.first { $0.value != nil }.flatMap(sentence)
        } else {
            let content = records.indices.contains(match.recordIndex) ? offered(in: records[match.recordIndex]) : nil
            let kind = content?.kind ?? .item
            summary = fit(registration.appName) { copy.notificationOpen(kind, in: $0) }
            body = content.flatMap(sentence)
        }
        let open = NotificationContent.Action(key: NotificationContent.openActionKey, label: copy.actionOpen)
        return NotificationContent(appName: registration.appName, appIcon: registration.appIcon ?? "", summary: summary,
                                   plainBody: body, actions: [defaultAction(open), open],
                                   hints: .init(category: Self.offerCategory, desktopEntry: registration.desktopEntry),
                                   expireTimeout: Self.offerTimeout)
    }

    private func webLinkOffer(_ link: WebLink, report: ReportValue) -> NotificationContent {
        let records = report["records"]?.arrayValue ?? []
        let template = copy.notificationOpenLink("")
        let summary = copy.notificationOpenLink(LinkDisplay.shortened(LinkText(link.uri), maxCharacters: Self.summaryLimit - template.count))
        // What the object calls the link (its smart poster title, or a text beside it) adds to the
        // bare address; nothing else would.
        let title = records.indices.contains(link.recordIndex)
            ? records[link.recordIndex]["titles"]?.arrayValue?.first?["text"]?.stringValue : nil
        let text = title ?? records.lazy.compactMap { $0["kind"]?.stringValue == "text" ? $0["text"]?.stringValue : nil }.first
        let open = NotificationContent.Action(key: NotificationContent.openActionKey, label: copy.actionOpenInBrowser)
        return NotificationContent(appName: copy.notificationSender, appIcon: Self.browserIcon, summary: summary,
                                   plainBody: text.map { copy.notificationHolds(.text, NotificationMarkup.value($0)) },
                                   actions: [defaultAction(open), open], hints: .init(category: Self.offerCategory),
                                   expireTimeout: Self.offerTimeout)
    }

    /// Clicking the notification does what its button does.
    func defaultAction(_ action: NotificationContent.Action) -> NotificationContent.Action {
        .init(key: NotificationContent.defaultActionKey, label: action.label)
    }

    /// What a record offers, and the value to name in the body (nil: nothing worth naming).
    private func offered(in record: ReportValue) -> (kind: OfferedContent, value: String?)? {
        for item in ContentItem.items(in: record) {
            switch item {
            case .link(let uri): return (.link, uri)
            case .phoneNumber(let number): return (.phoneNumber, number)
            case .emailAddress(let address): return (.emailAddress, address)
            case .text(let text): return (.text, text)
            case .contact(let name): return (.contact, name)
            case .wifiNetwork(let name): return (.wifiNetwork, name)
            case .bluetoothDevice(let name): return (.bluetoothDevice, name)
            case .title: continue // a smart poster's title: its link is what it offers
            case .unreadable: continue // nothing in it to offer or name
            case .app, .deviceToConnect, .signature, .signedBy, .changedAfterSigning, .other: return (.item, nil)
            }
        }
        return nil
    }

    /// The body sentence naming `content`'s value, display-safe and shortened; a link as the
    /// command line shows it, and one that won't open said to be incomplete.
    private func sentence(_ content: (kind: OfferedContent, value: String?)) -> String? {
        guard let value = content.value else { return nil }
        guard content.kind == .link else { return copy.notificationHolds(content.kind, NotificationMarkup.value(value)) }
        let link = LinkText(value)
        let shown = LinkDisplay.shortened(link, maxCharacters: NotificationMarkup.maximumValueLength)
        if case .incomplete = link { return copy.notificationHoldsIncompleteLink(shown) }
        return copy.notificationHolds(.link, shown)
    }

    /// `make(value)` in at most ``summaryLimit`` characters, shortening `value` (made display-safe)
    /// with `…` as far as needed, but never below a few characters.
    func fit(_ value: String, _ make: (String) -> String) -> String {
        let shown = NotificationMarkup.value(value)
        let full = make(shown)
        let excess = full.count - Self.summaryLimit
        guard excess > 0 else { return full }
        let keep = max(LinkDisplay.minimumCharacters, shown.count - excess - 1)
        return keep < shown.count ? make(String(shown.prefix(keep)) + "…") : full
    }
}
