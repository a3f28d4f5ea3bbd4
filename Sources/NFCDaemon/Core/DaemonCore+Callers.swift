import NFCBusAPI

/// Who is asking (issue 21): a connection's first call waits while the runtime identifies it from
/// the bus (``DaemonEffect/identify(_:)``); its calls are then handled in the order they came. The
/// grants the person gave are the permission store's, mirrored here (``DaemonInput/grants(_:)``).
extension DaemonCore {
    /// Calls one connection may have waiting for its identity: a caller that floods before it is
    /// known is answered `LimitsExceeded`, so what waits is bounded per connection and machine-wide.
    static let maximumUnidentifiedCalls = 8
    static let maximumUnidentifiedCallers = 256

    mutating func received(_ request: DaemonRequest, call: CallID, caller: String) {
        if callers[caller] != nil { return handle(request, call: call, caller: caller) }
        if var waiting = unidentified[caller] {
            guard waiting.count < Self.maximumUnidentifiedCalls else {
                return emit(.reply(call, .error(name: ScannerAPI.ErrorName.limitsExceeded,
                                                message: "\(Self.maximumUnidentifiedCalls) calls of this connection are waiting already")))
            }
            waiting.append((call, request))
            unidentified[caller] = waiting
            return
        }
        guard unidentified.count < Self.maximumUnidentifiedCallers else {
            return emit(.reply(call, .error(name: ScannerAPI.ErrorName.systemBusy, message: "too many new callers at once; try again later")))
        }
        unidentified[caller] = [(call, request)]
        emit(.identify(caller))
    }

    /// The runtime identified `caller` (nil: it could not, or the connection is gone): its waiting
    /// calls are handled, or refused, in order.
    mutating func identified(_ caller: String, _ app: CallerApp?) {
        guard let waiting = unidentified.removeValue(forKey: caller) else { return }
        guard let app else {
            log(.warning, "a caller could not be identified; its calls are refused", ["owner": caller])
            for (call, _) in waiting {
                emit(.reply(call, .error(name: ScannerAPI.ErrorName.accessDenied,
                                         message: "nfcscand could not tell which app is calling (its process is gone or unreadable)")))
            }
            return
        }
        callers[caller] = app
        log(.info, "caller identified: \(app.summary)", ["owner": caller, "app": app.key])
        for (call, request) in waiting { handle(request, call: call, caller: caller) }
    }

    /// Whether `app` may start a session now.
    func permission(for app: CallerApp) -> AppPermission {
        AppPermission.decide(for: app, grant: grants[app.key], canAsk: configuration.showsSheet)
    }

    /// The person answered the sheet's question about `app`: kept here at once, and in the store.
    mutating func grant(_ answer: AppGrant, to app: CallerApp) {
        grants[app.key] = answer
        log(.notice, "\(app.key) is \(answer == .allowed ? "allowed" : "not allowed") to use the reader", ["app": app.key])
        emit(.storeGrant(app: app.key, answer))
    }
}
