import Foundation
import NDEF
import NFCSim
import NFCTags
import Testing

/// A stand-in for the vpcd driver: a loopback listener on a port the kernel picks, which accepts
/// one connection and exchanges framed messages with it, every wait bounded.
final class FakeDriver {
    let listener: Int32
    let port: UInt16
    private(set) var connection: Int32 = -1

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(fd >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(bound == 0 && listen(fd, 1) == 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit {
        if connection >= 0 { close(connection) }
        close(listener)
    }

    /// Accepts the card's connection; false when none comes within `timeout` ms.
    func accept(timeout: Int32 = 3000) -> Bool {
        var fd = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        guard poll(&fd, 1, timeout) > 0 else { return false }
        connection = Glibc.accept(listener, nil, nil)
        return connection >= 0
    }

    func send(_ message: VPCDMessage) {
        let bytes = message.encoded
        _ = bytes.withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// The next reply payload; nil on end of file or when nothing comes within `timeout` ms.
    func receive(timeout: Int32 = 3000) -> [UInt8]? {
        guard let header = read(2, timeout: timeout) else { return nil }
        return read(Int(header[0]) << 8 | Int(header[1]), timeout: timeout)
    }

    /// Whether the card closed the connection within `timeout` ms (end of file, no data).
    func closedByCard(timeout: Int32 = 3000) -> Bool {
        var fd = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
        guard poll(&fd, 1, timeout) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(connection, &byte, 1, 0) == 0
    }

    func hangUp() { close(connection); connection = -1 }

    private func read(_ count: Int, timeout: Int32) -> [UInt8]? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: max(count, 1))
        while bytes.count < count {
            var fd = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&fd, 1, timeout) > 0 else { return nil }
            let n = recv(connection, &buffer, count - bytes.count, 0)
            guard n > 0 else { return nil }
            bytes += buffer[0..<n]
        }
        return bytes
    }
}

/// Runs a client on its own thread; `result` is what `run` returned.
final class ClientOnAThread: @unchecked Sendable {
    let client: VPCDClient
    private let finished = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var stop: Result<VPCDStop, any Error>?

    init(_ client: VPCDClient, arrival: ContinuousClock.Instant? = nil, departure: ContinuousClock.Instant? = nil) {
        self.client = client
        let thread = Thread { [self] in
            let outcome = Result { try client.run(arrival: arrival, departure: departure) }
            lock.withLock { stop = outcome }
            finished.signal()
        }
        thread.start()
    }

    /// What `run` returned, waiting at most `timeout` seconds; nil if it is still running.
    func result(timeout: Double = 5) -> VPCDStop? {
        guard finished.wait(timeout: .now() + timeout) == .success else { return nil }
        finished.signal()
        return lock.withLock { try? stop?.get() }
    }

    func close() {
        client.stop()
        if result() == nil { Issue.record("the vpcd client did not stop") }
        client.shutdown()
    }
}

@Suite(.serialized) struct VPCDClientTests {
    static func card() throws -> VPCDType2Card {
        VPCDType2Card(tag: try VirtualType2Tag(product: .ntag213, uid: VPCDType2CardTests.uid, message: VPCDType2CardTests.message))
    }

    @Test func answersTheDriverAndStops() throws {
        let driver = try FakeDriver()
        let card = try Self.card()
        let running = ClientOnAThread(try VPCDClient(card: card, port: driver.port))
        defer { running.close() }
        try #require(driver.accept())
        driver.send(.control(.getATR))
        #expect(driver.receive() == card.atr)
        driver.send(.control(.powerOn))               // no reply: the ATR request right after is answered next
        driver.send(.control(.getATR))
        #expect(driver.receive() == card.atr)
        driver.send(.apdu([0xFF, 0xCA, 0x00, 0x00, 0x00]))
        #expect(driver.receive() == VPCDType2CardTests.uid + [0x90, 0x00])
        running.client.stop()
        #expect(running.result() == .stopped)
        #expect(driver.closedByCard(), "stopping takes the card away")
    }

    @Test func theCardLeavesAtTheDepartureTime() throws {
        let driver = try FakeDriver()
        let start = ContinuousClock.now
        let running = ClientOnAThread(try VPCDClient(card: try Self.card(), port: driver.port), departure: start + .milliseconds(300))
        defer { running.close() }
        try #require(driver.accept())
        driver.send(.control(.getATR))
        #expect(driver.receive() != nil)
        #expect(driver.closedByCard())
        #expect(start.duration(to: .now) >= .milliseconds(300))
        #expect(running.result() == .departed)
    }

    @Test func theCardArrivesAfterTheDelay() throws {
        let driver = try FakeDriver()
        let start = ContinuousClock.now
        let running = ClientOnAThread(try VPCDClient(card: try Self.card(), port: driver.port), arrival: start + .milliseconds(400))
        defer { running.close() }
        #expect(!driver.accept(timeout: 250), "nothing connects before the arrival time")
        try #require(driver.accept())
        #expect(start.duration(to: .now) >= .milliseconds(400))
    }

    @Test func aDriverHangingUpEndsTheRun() throws {
        let driver = try FakeDriver()
        let running = ClientOnAThread(try VPCDClient(card: try Self.card(), port: driver.port))
        defer { running.close() }
        try #require(driver.accept())
        driver.hangUp()
        #expect(running.result() == .driverClosed)
    }

    @Test func anObjectLeavingMidReadHangsUpWithoutAnswer() throws {
        let driver = try FakeDriver()
        let tag = try VirtualType2Tag(product: .ntag213, message: VPCDType2CardTests.message, presence: FieldPresence(removeAfterCommands: 1))
        let running = ClientOnAThread(try VPCDClient(card: VPCDType2Card(tag: tag), port: driver.port))
        defer { running.close() }
        try #require(driver.accept())
        driver.send(.apdu([0xFF, 0xB0, 0x00, 0x04, 0x10]))
        #expect(driver.receive()?.suffix(2) == [0x90, 0x00])
        driver.send(.apdu([0xFF, 0xB0, 0x00, 0x08, 0x10]))
        #expect(driver.closedByCard())
        #expect(running.result() == .objectLeft)
    }
}
