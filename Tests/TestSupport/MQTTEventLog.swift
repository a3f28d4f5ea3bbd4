import Foundation
import Mosquitto
import Synchronization

/// The events a client reported so far, gathered by a task of their own so a test can wait,
/// bounded, for the one it expects.
public final class MQTTEventLog: Sendable {
    private final class Store: Sendable { let events = Mutex<[MosquittoClient.Event]>([]) }
    private let store = Store()
    private let consumer: Task<Void, Never>

    public init(_ client: MosquittoClient) {
        let store = self.store
        let stream = client.events
        consumer = Task {
            for await event in stream { store.events.withLock { $0.append(event) } }
        }
    }

    deinit { consumer.cancel() }

    public var all: [MosquittoClient.Event] { store.events.withLock { $0 } }

    /// Waits until `predicate` holds for the events so far; false if `timeout` seconds pass first.
    public func wait(timeout: Double = 10, until predicate: ([MosquittoClient.Event]) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while ContinuousClock.now < deadline {
            if predicate(all) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return predicate(all)
    }
}

extension MosquittoClient.Event {
    public var isAccepted: Bool { if case .connected(0, _) = self { true } else { false } }
    public var isDisconnected: Bool { if case .disconnected = self { true } else { false } }
    public var acknowledged: Int32? { if case .published(let id) = self { id } else { nil } }
    public var received: (topic: String, text: String, retained: Bool)? {
        if case .message(let topic, let payload, let retained) = self { (topic, String(decoding: payload, as: UTF8.self), retained) } else { nil }
    }
}
