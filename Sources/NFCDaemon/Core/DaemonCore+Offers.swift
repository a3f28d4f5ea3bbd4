import NDEFReport
import NFCDispatch
import NFCScanKit
import Systemd

/// Offers in notifications and deliveries to apps and the browser.
///
/// At most once: HandleScan is tried again only when the app *answered* with an error (busy,
/// declined for now), which means it did not take the object. A call with no answer (the app
/// hung or crashed mid-call) is never repeated, since the app may have taken it.
extension DaemonCore {
    mutating func offer(_ report: ReportValue, uid: [UInt8]) {
        guard currentReasons.isEmpty else { return }
        guard let offer = registry.offer(for: report) else {
            log(.info, "an object was read; no app asked for what it holds", ["uid": ScannedObject.hex(uid)])
            return
        }
        let id = newEffectID()
        showing[id] = PendingOffer(offer: offer, report: report, replacing: currentOffer)
        emit(.notify(id, composer.notification(for: offer, report: report), replacing: currentOffer))
    }

    mutating func handle(_ signal: NotificationSignal) {
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

    mutating func completed(_ id: EffectID, _ outcome: EffectOutcome) {
        if let entry = showing.removeValue(forKey: id) {
            return shown(entry, outcome)
        }
        guard let delivery = deliveries[id] else { return }
        switch (delivery.target, outcome) {
        case (.handler(let registration, _), .done):
            deliveries[id] = nil
            log(.info, "sent an object to \(registration.appName)", ["registration": "\(registration.id)"])
            finished(delivery, app: registration.appName, success: true)
        case (.handler(let registration, _), .refused(let name, let message))
            where Self.mayRetry(name) && delivery.tries <= Self.retryDelays.count && !stopping:
            log(.notice, "\(registration.appName) did not take its object yet (\(name ?? "error"): \(message)); trying again",
                ["registration": "\(registration.id)"])
            emit(.armTimer(.deliveryRetry(id), after: Self.retryDelays[delivery.tries - 1]))
        case (.handler(let registration, _), _):
            deliveries[id] = nil
            log(.warning, "\(registration.appName) did not take its object: \(Self.describe(outcome))", ["registration": "\(registration.id)"])
            finished(delivery, app: registration.appName, success: false)
            notice(composer.handlerFailed(registration))
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

    /// A retry's time has come: the app is asked again if it is still registered.
    mutating func retry(_ id: EffectID) {
        guard var delivery = deliveries[id], case .handler(let registration, let scan) = delivery.target else { return }
        guard registry.registration(registration.id) != nil else {
            deliveries[id] = nil
            log(.warning, "\(registration.appName) left before its object could be sent")
            finished(delivery, app: registration.appName, success: false)
            return notice(composer.handlerFailed(registration))
        }
        delivery.tries += 1
        deliveries[id] = delivery
        emit(.handleScan(id, owner: registration.owner, handlerPath: registration.handlerPath, scan: scan))
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
            log(.info, "offered an object to \(match.registration.appName)",
                ["notification": "\(notification)", "registration": "\(match.registration.id)"])
            emit(.observe(.offered(notification: notification, app: match.registration.appName)))
        case .webLink:
            log(.info, "offered an object's web link to the browser", ["notification": "\(notification)"])
            emit(.observe(.offered(notification: notification, app: nil)))
        }
    }

    /// Sends the chosen offer on its way, once.
    private mutating func deliver(_ pending: PendingOffer, notification: UInt32) {
        let id = newEffectID()
        switch pending.offer {
        case .handler(let match):
            guard let registration = registry.registration(match.registration.id) else {
                log(.warning, "\(match.registration.appName) left before its object could be sent")
                emit(.closeNotification(notification))
                emit(.observe(.delivered(notification: notification, app: match.registration.appName, success: false)))
                return notice(composer.handlerFailed(match.registration))
            }
            var scan = pending.report.busValue
            if case .dictionary(let key, let value, var entries) = scan {
                entries.append(DBusDictEntry(.string("registration"), .variant(.uint32(registration.id))))
                scan = .dictionary(keySignature: key, valueSignature: value, entries)
            }
            deliveries[id] = Delivery(target: .handler(registration, scan: scan), notification: notification)
            emit(.handleScan(id, owner: registration.owner, handlerPath: registration.handlerPath, scan: scan))
        case .webLink(let link):
            deliveries[id] = Delivery(target: .link(link.uri), notification: notification)
            emit(.openLink(id, uri: link.uri))
        }
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
        return !noRetry.contains(name)
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
}
