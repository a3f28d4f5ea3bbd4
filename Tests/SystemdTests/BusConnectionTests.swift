import DBusValues
import TestSupport
import Foundation
import Glibc
import Synchronization
import Systemd
import Testing

/// sd-bus through the Swift layer, against a real dbus-daemon.
@Suite(.serialized) struct BusConnectionTests {
    /// A private bus with a server that owns org.nfcscan.Test and a client: what most tests here
    /// start from.
    struct Peers {
        let bus: PrivateBus
        let server: BusConnection
        let client: BusConnection

        init() throws {
            bus = try PrivateBus()
            server = try BusConnection.connect(address: bus.address)
            client = try BusConnection.connect(address: bus.address)
            do { try server.requestName("org.nfcscan.Test") } catch { close(); throw error }
        }

        func close() { server.close(); client.close() }
    }

    static let sample: [DBusValue] = [
        .byte(200), .boolean(true), .int16(-3), .uint16(65000), .int32(-70000), .uint32(4_000_000_000),
        .int64(-1 << 40), .uint64(1 << 63), .double(2.5), .string("héllo \u{202E} <b>"),
        .objectPath("/org/example/Thing"), .signature("a{sv}"),
        .array(elementSignature: "s", []),
        .strings(["a", "b"]),
        .vardict(["name": .string("poster"), "count": .int32(2), "nested": .vardict(["deep": .boolean(false)])]),
        .structure([.string("x"), .array(elementSignature: "y", [.byte(1), .byte(2)])]),
        .variant(.array(elementSignature: "v", [.variant(.int64(1)), .variant(.string("two"))])),
    ]

    @Test func valuesSurviveARoundTripThroughTheBus() async throws {
        let peers = try Peers()
        defer { peers.close() }
        let (server, client) = (peers.server, peers.client)
        let export = try server.exportSubtree("/org/nfcscan/Test") { call in
            switch call.member {
            case "Echo": call.reply(call.arguments)
            case "WhoAmI": call.reply([.string(call.sender), .objectPath(call.path)])
            default: call.fail(BusMethodCall.unknownMethod, "no \(call.member)")
            }
        }
        defer { export.cancel() }

        let echoed = try await client.call(destination: "org.nfcscan.Test", path: "/org/nfcscan/Test",
                                           interface: "org.nfcscan.Test", member: "Echo", Self.sample)
        #expect(echoed == Self.sample)

        let who = try await client.call(destination: "org.nfcscan.Test", path: "/org/nfcscan/Test/child/3",
                                        interface: "org.nfcscan.Test", member: "WhoAmI")
        #expect(who == [.string(client.uniqueName), .objectPath("/org/nfcscan/Test/child/3")])
    }

    @Test func errorsComeBackTyped() async throws {
        let peers = try Peers()
        defer { peers.close() }
        let (server, client) = (peers.server, peers.client)
        let export = try server.exportSubtree("/") { call in call.fail("org.nfcscan.Error.Nope", "not today") }
        defer { export.cancel() }

        await #expect(throws: BusError.remote(name: "org.nfcscan.Error.Nope", message: "not today")) {
            try await client.call(destination: "org.nfcscan.Test", path: "/x", interface: "a.b", member: "C")
        }
        do {
            _ = try await client.call(destination: "org.nfcscan.Absent", path: "/", interface: "a.b", member: "C")
            Issue.record("a call to an absent name succeeded")
        } catch {
            #expect(error.remoteName == "org.freedesktop.DBus.Error.ServiceUnknown")
        }
        // A second connection cannot take the name.
        #expect(throws: BusError.nameTaken("org.nfcscan.Test")) { try client.requestName("org.nfcscan.Test") }
    }

    @Test func signalsReachMatchingSubscribersOnly() async throws {
        let bus = try PrivateBus()
        let sender = try BusConnection.connect(address: bus.address)
        let listener = try BusConnection.connect(address: bus.address)
        defer { sender.close(); listener.close() }
        let (stream, continuation) = AsyncStream.makeStream(of: BusSignal.self)
        let subscription = try listener.addMatch("type='signal',interface='org.nfcscan.Test',member='Hello'") { continuation.yield($0) }
        try sender.emitSignal(path: "/a", interface: "org.nfcscan.Test", member: "Other", [.string("no")])
        try sender.emitSignal(path: "/a", interface: "org.nfcscan.Test", member: "Hello", [.uint32(7)])
        var iterator = stream.makeAsyncIterator()
        let signal = await iterator.next()
        #expect(signal?.member == "Hello")
        #expect(signal?.arguments == [.uint32(7)])
        #expect(signal?.sender == sender.uniqueName)
        subscription.cancel()
    }

    @Test func fileDescriptorsArePassedAsDuplicates() async throws {
        let peers = try Peers()
        defer { peers.close() }
        let (server, client) = (peers.server, peers.client)
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        let export = try server.exportSubtree("/fd") { call in
            guard case .unixFD(let received)? = call.arguments.first else { return call.fail(BusMethodCall.invalidArgs, "no fd") }
            // Write through the received duplicate; the caller reads it from its own end.
            var byte: UInt8 = 42
            let written = write(received, &byte, 1)
            close(received)
            call.reply([.int32(Int32(written))])
        }
        defer { export.cancel() }
        let reply = try await client.call(destination: "org.nfcscan.Test", path: "/fd", interface: "org.nfcscan.Test",
                                          member: "Take", [.unixFD(fds[1])])
        #expect(reply == [.int32(1)])
        var byte: UInt8 = 0
        #expect(read(fds[0], &byte, 1) == 1)
        #expect(byte == 42)
        close(fds[0]); close(fds[1])
    }

    /// The issue's one-call-2-GB attack, at 24 MiB (under the private bus's 32 MiB message limit):
    /// the call is refused with LimitsExceeded before its body becomes values, so it costs about
    /// nothing, while a call within the bound, and one with a NUL in a string, arrive whole.
    @Test func anArgumentOverTheBoundIsRefusedBeforeItIsDecoded() async throws {
        let peers = try Peers()
        defer { peers.close() }
        let (server, client) = (peers.server, peers.client)
        let export = try server.exportSubtree("/big") { call in call.reply([.uint32(UInt32(call.arguments.count))]) }
        defer { export.cancel() }
        let huge = DBusValue.array(elementSignature: "y", [DBusValue](repeating: .byte(7), count: 24 << 20))
        let clock = ContinuousClock()
        var refusal: BusError?
        let elapsed = await clock.measure {
            do { _ = try await client.call(destination: "org.nfcscan.Test", path: "/big", interface: "org.nfcscan.Test", member: "Any", [huge]) }
            catch { refusal = error as? BusError }
        }
        #expect(refusal?.remoteName == BusMethodCall.limitsExceeded)
        // Most of this is the client's own marshalling of 24 Mi values; the server's share is a refusal.
        #expect(elapsed < .seconds(30))
        let within = try await client.call(destination: "org.nfcscan.Test", path: "/big", interface: "org.nfcscan.Test", member: "Any",
                                           [.array(elementSignature: "y", [DBusValue](repeating: .byte(1), count: 65536)), .strings(["a", "b"])])
        #expect(within == [.uint32(2)])
        let many = DBusValue.strings((0..<70_000).map { _ in "x" })
        await #expect(throws: BusError.self) {
            try await client.call(destination: "org.nfcscan.Test", path: "/big", interface: "org.nfcscan.Test", member: "Any", [many])
        }
    }

    @Test func aNulNeverCutsAStringShort() async throws {
        let peers = try Peers()
        defer { peers.close() }
        let (server, client) = (peers.server, peers.client)
        let export = try server.exportSubtree("/echo") { call in call.reply(call.arguments) }
        defer { export.cancel() }
        let echoed = try await client.call(destination: "org.nfcscan.Test", path: "/echo", interface: "org.nfcscan.Test", member: "Echo",
                                           [.string("before\u{0}after")])
        #expect(echoed == [.string("before\u{FFFD}after")])
    }

    /// The bus dropping a connection (dbus-daemon gone, or a message over its limit) is told once.
    @Test func theEndOfTheBusIsTold() async throws {
        var bus: PrivateBus? = try PrivateBus()
        let connection = try BusConnection.connect(address: bus!.address)
        let (ended, end) = AsyncStream.makeStream(of: BusError.self)
        connection.onClose { end.yield($0) }
        #expect(connection.isOpen)
        bus = nil
        var iterator = ended.makeAsyncIterator()
        let reason = await iterator.next()
        #expect(reason != nil && !connection.isOpen)
    }

    @Test func closingFailsCallsStillWaiting() async throws {
        let bus = try PrivateBus()
        let server = try BusConnection.connect(address: bus.address)
        let client = try BusConnection.connect(address: bus.address)
        defer { server.close() }
        try server.requestName("org.nfcscan.Test")
        // Never answers.
        let export = try server.exportSubtree("/slow") { _ in }
        defer { export.cancel() }
        let call = Task {
            try await client.call(destination: "org.nfcscan.Test", path: "/slow", interface: "a.b", member: "C")
        }
        try await Task.sleep(for: .milliseconds(100))
        client.close()
        await #expect(throws: BusError.closed) { try await call.value }
        // A call on a connection already closed fails at once (it used to wait for ever).
        await #expect(throws: BusError.closed) {
            try await client.call(destination: "org.nfcscan.Test", path: "/slow", interface: "a.b", member: "C")
        }
    }

    /// sd-bus counts references to messages and to the bus without atomics. Calls made from many
    /// tasks at once, answered from other threads, with signals emitted beside them, once
    /// corrupted those counts (each message dropped outside the connection's lock): nfcscand
    /// aborted in sd-bus (`bus_free: s->floating`) or crashed in libdispatch.
    @Test func callsRepliesAndSignalsFromManyThreadsAtOnce() async throws {
        let peers = try Peers()
        defer { peers.close() }
        let (server, client) = (peers.server, peers.client)
        let export = try server.exportSubtree("/org/nfcscan/Test") { call in
            // Answered from another thread than the connection's, as the daemon's loop does.
            Task.detached {
                try? server.emitSignal(path: "/org/nfcscan/Test", interface: "org.nfcscan.Test", member: "Seen", [.string(call.sender)])
                call.reply(call.arguments)
            }
        }
        defer { export.cancel() }
        let seen = Atomic<Int>(0)
        let match = try client.addMatch("type='signal',interface='org.nfcscan.Test',member='Seen'") { _ in
            seen.add(1, ordering: .relaxed)
        }
        defer { match.cancel() }

        let tasks = 8, callsEach = 400
        let answered = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var count = 0
                    for index in 0..<callsEach {
                        let reply = try await client.call(destination: "org.nfcscan.Test", path: "/org/nfcscan/Test",
                                                          interface: "org.nfcscan.Test", member: "Echo",
                                                          [.int32(Int32(task)), .string("call \(index)")])
                        if reply == [.int32(Int32(task)), .string("call \(index)")] { count += 1 }
                    }
                    return count
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(answered == tasks * callsEach)
        let deadline = ContinuousClock.now + .seconds(10)
        while seen.load(ordering: .relaxed) < tasks * callsEach, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(seen.load(ordering: .relaxed) == tasks * callsEach)
    }

    /// A peer that never answers must not hold a stopping caller for the call's whole timeout.
    @Test func aCancelledCallStopsWaitingAtOnce() async throws {
        let peers = try Peers()
        defer { peers.close() }
        let (server, client) = (peers.server, peers.client)
        let taken = LockedCalls()
        let export = try server.exportSubtree("/org/nfcscan/Test") { call in taken.keep(call) }
        defer { export.cancel() }
        let waiting = Task {
            try await client.call(destination: "org.nfcscan.Test", path: "/org/nfcscan/Test", interface: "org.nfcscan.Test",
                                  member: "Hang", timeout: .seconds(60))
        }
        while taken.count == 0 { try await Task.sleep(for: .milliseconds(5)) }
        let cancelled = ContinuousClock.now
        waiting.cancel()
        await #expect(throws: BusError.cancelled) { try await waiting.value }
        #expect(cancelled.duration(to: .now) < .seconds(1))
    }

    @Test func signatures() {
        #expect(splitSignature("sa{sv}as(ii)v") == ["s", "a{sv}", "as", "(ii)", "v"])
        #expect(splitSignature("a{sv") == nil)
        #expect(splitSignature("z") == nil)
        #expect(DBusValue.vardict([:]).signature == "a{sv}")
    }
}

/// Method calls a test's server takes and never answers.
final class LockedCalls: Sendable {
    private let calls = Mutex<[BusMethodCall]>([])
    func keep(_ call: BusMethodCall) { calls.withLock { $0.append(call) } }
    var count: Int { calls.withLock { $0.count } }
}
