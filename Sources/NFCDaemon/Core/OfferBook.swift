import DBusValues
import Logging
import NDEF
import NDEFReport
import NFCBusAPI
import NFCCopy
import NFCDispatch
import NFCObjects

/// Offers in notifications and deliveries to apps and the browser: the offers' part of the core,
/// a machine of its own (as async-http-client's pool splits its state machine). Each call
/// returns the effects to do, in order; DaemonCore decides when to call (nothing is offered while
/// background reading pauses) and hands in what the offers read of its other state (`Context`).
///
/// At most once: HandleScan is tried again only when the app *answered* with an error (busy,
/// declined for now), which means it did not take the object. A call with no answer (the app
/// hung or crashed mid-call) is never repeated, since the app may have taken it.
struct OfferBook: Sendable {
    /// What the offers read of the rest of the core's state, handed in with each call.
    struct Context: Sendable {
        var registry: HandlerRegistry
        var defaults: PersonalDefaults
        var composer: NotificationComposer
        /// NetworkManager answers on the system bus, so a network can be offered.
        var canJoinNetworks: Bool
        /// The daemon is stopping: no retries.
        var stopping: Bool

        static let none = Context(registry: HandlerRegistry(), defaults: PersonalDefaults(),
                                  composer: NotificationComposer(copy: ScanCopy.catalog(for: .english)),
                                  canJoinNetworks: false, stopping: false)
    }

    /// An offer the person has not answered yet, or whose notification is being shown.
    struct PendingOffer: Sendable {
        let offer: Offer
        let report: ReportValue
        /// The notification it replaces (0: none).
        var replacing: UInt32 = 0
    }

    /// A chosen offer on its way to an app or the browser.
    struct Delivery: Sendable {
        enum Target: Sendable {
            /// HandleScan of `app` at `destination` (a registration's connection, or an
            /// activatable app's bus name, which the bus starts) and `path`.
            case handleScan(HandlerApp, destination: String, path: String, scan: DBusValue)
            /// An installed app started through its Exec line: never tried again (it may have
            /// started and taken the object).
            case launch(HandlerApp)
            case link(String)
            /// The person's default app started with a link or a file (never tried again).
            case defaultApp(DefaultApp)
            /// NetworkManager asked to join the network of this name.
            case network(String)
        }
        let target: Target
        let notification: UInt32
        /// Tries made so far (HandleScan only).
        var tries = 1
    }

    /// Waits before each retry of a delivery whose app answered with an error: about 3.5 s in
    /// all, a person's patience after choosing.
    static let retryDelays: [Duration] = [.milliseconds(500), .seconds(1), .seconds(2)]

    /// Offers the person may still choose, by notification id.
    private(set) var offers: [UInt32: PendingOffer] = [:]
    /// The newest offer's notification: the next one replaces it rather than piling up.
    private(set) var currentOffer: UInt32 = 0
    /// Notifications asked for and not answered yet; nil value: a failure notice, not an offer.
    private(set) var showing: [EffectID: PendingOffer?] = [:]
    var showingCount: Int { showing.count }
    /// Chosen offers on their way.
    private(set) var deliveries: [EffectID: Delivery] = [:]
    private var nextEffect: EffectID = 1
    /// The call in progress: its context (between calls none, so the book keeps no copy of the
    /// core's registry alive) and the effects it returns.
    private var context = Context.none
    private var effects: [DaemonEffect] = []

    /// An object was read in the background (and nothing pauses offers): offered if an app or a
    /// default takes what it holds.
    mutating func offer(_ report: ReportValue, uid: [UInt8], _ context: Context) -> [DaemonEffect] {
        self.context = context
        defer { effects = []; self.context = .none }
        guard let offer = Offer.choose(for: report, registry: context.registry, defaults: context.defaults,
                                       canJoinNetworks: context.canJoinNetworks) else {
            log(.info, "an object was read; no app asked for what it holds", ["uid": Hex.string(uid)])
            return effects
        }
        let id = newEffectID()
        showing[id] = PendingOffer(offer: offer, report: report, replacing: currentOffer)
        emit(.notify(id, composer.notification(for: offer, report: report), replacing: currentOffer))
        return effects
    }

    private mutating func handleSignal(_ signal: NotificationSignal) {
        switch signal {
        case .actionInvoked(let id, let key):
            guard key == NotificationContent.defaultActionKey || key == NotificationContent.openActionKey,
                  let pending = offers.removeValue(forKey: id) else { return }
            if currentOffer == id { currentOffer = 0 }
            deliver(pending, notification: id)
        case .closed(let id, let reason):
            if offers.removeValue(forKey: id) != nil {
                log(.debug, "offer \(id) closed (reason \(reason)); its object is dropped")
            }
            if currentOffer == id { currentOffer = 0 }
        case .serverFound(let present):
            if !present { log(.warning, "no notification server on the bus; objects are read but not offered until one appears") }
        case .serverChanged(let present):
            // Ids of a server that left mean nothing to the next one.
            offers = [:]
            currentOffer = 0
            if present {
                log(.notice, "a notification server appeared; offers are shown again")
            } else {
                log(.warning, "the notification server left the bus; objects are read but not offered until one appears")
            }
        }
    }

    private mutating func complete(_ id: EffectID, _ outcome: EffectOutcome) {
        if let entry = showing.removeValue(forKey: id) {
            return shown(entry, outcome)
        }
        guard let delivery = deliveries[id] else { return }
        switch (delivery.target, outcome) {
        case (.handleScan(let app, _, _, _), .done):
            deliveries[id] = nil
            log(.info, "sent an object to \(app.appName)", Self.metadata(app))
            finished(delivery, app: app.appName, success: true)
        case (.handleScan(let app, _, _, _), .refused(let name, let message))
            where Self.mayRetry(name) && delivery.tries <= Self.retryDelays.count && !context.stopping:
            log(.notice, "\(app.appName) did not take its object yet (\(name ?? "error"): \(message)); trying again", Self.metadata(app))
            emit(.armTimer(.deliveryRetry(id), after: Self.retryDelays[delivery.tries - 1]))
        case (.handleScan(let app, _, _, _), _):
            deliveries[id] = nil
            log(.warning, "\(app.appName) did not take its object: \(Self.describe(outcome))", Self.metadata(app))
            finished(delivery, app: app.appName, success: false)
            notice(composer.handlerFailed(app))
        case (.launch(let app), .done(let how)):
            deliveries[id] = nil
            log(.info, "started \(app.appName) with an object (\(how))", Self.metadata(app))
            finished(delivery, app: app.appName, success: true)
        case (.launch(let app), _):
            deliveries[id] = nil
            log(.warning, "\(app.appName) could not be started: \(Self.describe(outcome))", Self.metadata(app))
            finished(delivery, app: app.appName, success: false)
            notice(composer.handlerFailed(app))
        case (.defaultApp(let app), .done(let how)):
            deliveries[id] = nil
            log(.info, "started \(app.name), the default app, with an object's content (\(how))", ["desktop-entry": app.id.value])
            finished(delivery, app: app.name, success: true)
        case (.defaultApp(let app), _):
            deliveries[id] = nil
            log(.warning, "\(app.name), the default app, could not be started: \(Self.describe(outcome))", ["desktop-entry": app.id.value])
            finished(delivery, app: app.name, success: false)
            notice(composer.defaultAppFailed(app))
        case (.network, .done):
            deliveries[id] = nil
            log(.info, "NetworkManager is joining the network an object offered")
            finished(delivery, app: nil, success: true)
        case (.network(let name), _):
            deliveries[id] = nil
            log(.warning, "NetworkManager did not join the network: \(Self.describe(outcome))")
            finished(delivery, app: nil, success: false)
            notice(composer.networkFailed(name))
        case (.link, .done(let how)):
            deliveries[id] = nil
            log(.info, "opened an object's web link through \(how)", ["notification": "\(delivery.notification)"])
            finished(delivery, app: nil, success: true)
        case (.link, _):
            deliveries[id] = nil
            log(.error, "no way to open the link: \(Self.describe(outcome))")
            finished(delivery, app: nil, success: false)
            notice(composer.browserFailed())
        }
    }

    /// A retry's time has come: the app is asked again if it is still registered (an installed
    /// app is asked again at its bus name: the bus starts it if it has ended).
    private mutating func retryDelivery(_ id: EffectID) {
        guard var delivery = deliveries[id], case .handleScan(let app, let destination, let path, let scan) = delivery.target else { return }
        if let registration = app.registration, context.registry.registration(registration.id) == nil {
            deliveries[id] = nil
            log(.warning, "\(app.appName) left before its object could be sent")
            finished(delivery, app: app.appName, success: false)
            return notice(composer.handlerFailed(app))
        }
        delivery.tries += 1
        deliveries[id] = delivery
        emit(.handleScan(id, owner: destination, handlerPath: path, scan: scan))
    }

    static func metadata(_ app: HandlerApp) -> [String: String] {
        switch app {
        case .registered(let registration): ["registration": "\(registration.id)"]
        case .declared(let declaration): ["desktop-entry": declaration.id.value]
        }
    }

    private mutating func shown(_ entry: PendingOffer?, _ outcome: EffectOutcome) {
        guard case .shown(let notification) = outcome else {
            return log(.warning, "could not show a notification: \(Self.describe(outcome))")
        }
        guard let pending = entry else { return }
        if pending.replacing != 0 { offers[pending.replacing] = nil }
        offers[notification] = pending
        currentOffer = notification
        switch pending.offer {
        case .handler(let match):
            log(.info, "offered an object to \(match.app.appName)", Self.metadata(match.app).merging(["notification": "\(notification)"]) { a, _ in a })
            emit(.observe(.offered(notification: notification, app: match.app.appName)))
        case .webLink:
            log(.info, "offered an object's web link to the browser", ["notification": "\(notification)"])
            emit(.observe(.offered(notification: notification, app: nil)))
        case .defaultApp(_, let app):
            log(.info, "offered an object's content to \(app.name), the default app for it",
                ["desktop-entry": app.id.value, "notification": "\(notification)"])
            emit(.observe(.offered(notification: notification, app: app.name)))
        case .joinNetwork:
            log(.info, "offered to join the network an object holds", ["notification": "\(notification)"])
            emit(.observe(.offered(notification: notification, app: nil)))
        }
    }

    /// Sends the chosen offer on its way, once.
    private mutating func deliver(_ pending: PendingOffer, notification: UInt32) {
        let id = newEffectID()
        switch pending.offer {
        case .handler(let match):
            // A declared app that has started and registered since the offer gets it as a running app.
            var app = match.app
            if case .declared(let declaration) = app, let running = context.registry.running(declaration.id.name) { app = .registered(running) }
            switch app {
            case .registered(let offered):
                guard let registration = context.registry.registration(offered.id) else {
                    return undeliverable(app, notification: notification, because: "left")
                }
                let scan = Self.scan(pending.report, adding: "registration", .uint32(registration.id))
                deliveries[id] = Delivery(target: .handleScan(app, destination: registration.owner, path: registration.handlerPath, scan: scan),
                                          notification: notification)
                emit(.handleScan(id, owner: registration.owner, handlerPath: registration.handlerPath, scan: scan))
            case .declared(let declaration):
                guard context.registry.declarations.contains(where: { $0.id == declaration.id }) else {
                    return undeliverable(app, notification: notification, because: "was removed")
                }
                switch declaration.launch {
                case .dbusActivation(let busName, let objectPath):
                    let scan = Self.scan(pending.report, adding: "desktop-entry", .string(declaration.id.name))
                    deliveries[id] = Delivery(target: .handleScan(app, destination: busName, path: objectPath, scan: scan), notification: notification)
                    emit(.handleScan(id, owner: busName, handlerPath: objectPath, scan: scan))
                case .exec(let exec):
                    let link = match.link(in: pending.report)
                    let takesFile = exec.takesFile(withURL: link != nil)
                    let launch = AppLaunch(app: declaration.appName, exec: exec,
                                           values: .init(urls: link.map { [$0] } ?? [], icon: declaration.request.appIcon,
                                                         name: declaration.appName, location: declaration.path),
                                           file: takesFile ? .init(contents: Array(JSONWriter.string(pending.report).utf8), suffix: "json") : nil)
                    deliveries[id] = Delivery(target: .launch(app), notification: notification)
                    emit(.launch(id, launch))
                }
            }
        case .webLink(let link):
            deliveries[id] = Delivery(target: .link(link.uri), notification: notification)
            emit(.openLink(id, uri: link.uri))
        case .defaultApp(let content, let app):
            let launch: AppLaunch
            switch content {
            case .schemeLink(let link):
                launch = AppLaunch(app: app.name, exec: app.exec, values: .init(urls: [link.uri], icon: app.icon, name: app.name, location: app.path),
                                   file: nil)
            case .mediaFile(let file):
                launch = AppLaunch(app: app.name, exec: app.exec, values: .init(icon: app.icon, name: app.name, location: app.path),
                                   file: .init(contents: file.payload, suffix: file.fileExtension))
            case .webLink, .wifiNetwork:
                return log(.error, "a default-app offer held content no app opens; nothing was started")
            }
            deliveries[id] = Delivery(target: .defaultApp(app), notification: notification)
            emit(.launch(id, launch))
        case .joinNetwork(let network):
            deliveries[id] = Delivery(target: .network(network.name), notification: notification)
            emit(.joinNetwork(id, network))
        }
    }

    /// The chosen app is gone (its connection closed, or it was uninstalled) before delivery.
    private mutating func undeliverable(_ app: HandlerApp, notification: UInt32, because why: String) {
        log(.warning, "\(app.appName) \(why) before its object could be sent", Self.metadata(app))
        emit(.closeNotification(notification))
        emit(.observe(.delivered(notification: notification, app: app.appName, success: false)))
        notice(composer.handlerFailed(app))
    }

    /// The object's report as HandleScan's `a{sv}`, with `key` telling the app how it came.
    static func scan(_ report: ReportValue, adding key: String, _ value: DBusValue) -> DBusValue {
        var scan = report.busValue
        if case .dictionary(let keySignature, let valueSignature, var entries) = scan {
            entries.append(DBusDictEntry(.string(key), .variant(value)))
            scan = .dictionary(keySignature: keySignature, valueSignature: valueSignature, entries)
        }
        return scan
    }

    private mutating func finished(_ delivery: Delivery, app: String?, success: Bool) {
        emit(.closeNotification(delivery.notification))
        emit(.observe(.delivered(notification: delivery.notification, app: app, success: success)))
    }

    /// A notification that tells the person something went wrong (nothing to choose on it).
    private mutating func notice(_ content: NotificationContent) {
        let id = newEffectID()
        showing[id] = .some(nil)
        emit(.notify(id, content, replacing: 0))
    }


    /// Errors after which the app surely did not take the object and may later.
    static func mayRetry(_ name: String?) -> Bool {
        guard let name else { return false }
        // The bus could not start an installed app (no service file, its program failed).
        return !noRetry.contains(name) && !name.hasPrefix("org.freedesktop.DBus.Error.Spawn.")
    }

    /// The app is gone, hung, or has no such handler: trying again cannot help (or could repeat).
    static let noRetry: Set<String> = [
        "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
        "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Timeout",
        "org.freedesktop.DBus.Error.TimedOut", "org.freedesktop.DBus.Error.Disconnected",
        "org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.UnknownMethod",
        "org.freedesktop.DBus.Error.UnknownInterface", "org.freedesktop.DBus.Error.InvalidArgs",
        "org.freedesktop.DBus.Error.AccessDenied",
    ]

    static func describe(_ outcome: EffectOutcome) -> String {
        switch outcome {
        case .shown(let id): "shown as \(id)"
        case .done(let how): "done (\(how))"
        case .refused(let name, let message): "\(name ?? "refused"): \(message)"
        case .noAnswer(let why): "no answer: \(why)"
        }
    }

    /// What the notification server said of an offer (chosen, closed, the server came or went).
    mutating func handle(_ signal: NotificationSignal, _ context: Context) -> [DaemonEffect] {
        self.context = context
        defer { effects = []; self.context = .none }
        handleSignal(signal)
        return effects
    }

    /// An effect of the offers' ended (shown, delivered, refused, no answer).
    mutating func completed(_ id: EffectID, _ outcome: EffectOutcome, _ context: Context) -> [DaemonEffect] {
        self.context = context
        defer { effects = []; self.context = .none }
        complete(id, outcome)
        return effects
    }

    /// A delivery's retry time has come.
    mutating func retry(_ id: EffectID, _ context: Context) -> [DaemonEffect] {
        self.context = context
        defer { effects = []; self.context = .none }
        retryDelivery(id)
        return effects
    }

    /// The daemon stops: every offer's notification is withdrawn.
    mutating func withdrawAll() -> [DaemonEffect] {
        defer { offers = [:]; currentOffer = 0 }
        return offers.keys.sorted().map { .closeNotification($0) }
    }

    // MARK: Effects

    private var composer: NotificationComposer { context.composer }

    private mutating func log(_ level: Logger.Level, _ message: String, _ metadata: [String: String] = [:]) {
        effects.append(.log(level, message, metadata: metadata))
    }

    private mutating func emit(_ effect: DaemonEffect) { effects.append(effect) }

    private mutating func newEffectID() -> EffectID {
        defer { nextEffect += 1 }
        return nextEffect
    }
}
