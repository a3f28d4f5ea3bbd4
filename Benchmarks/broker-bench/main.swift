// broker-bench: the figures of a station publishing to an MQTT broker (issue 15), for
// Docs/performance.md. Run by Benchmarks/broker-bench.sh, which starts Debian's mosquitto on a
// free 127.0.0.1 port and passes it: broker-bench PORT.
//
// In process, with the real BrokerPublisher (spool fsynced per event, QoS 1) and a subscriber on
// the same broker:
//   latency    one event at a time: from the observation to the subscriber having it (p50, p99);
//   sustained  10,000 events handed over at once: events per second until the broker acknowledged all;
//   replay     10,000 events spooled while no broker answers, then a publisher on the live broker:
//              events per second until the spool is empty;
//   idle       CPU time of this process over 10 s, connected and idle (publisher and subscriber).
import Foundation
import Glibc
import Logging
import Mosquitto
import NDEFReport
import NFCDaemon
import ServiceLifecycle
import Synchronization

let arguments = CommandLine.arguments
guard arguments.count == 2, let port = Int32(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: broker-bench PORT\n".utf8))
    exit(64)
}
/// One line to stdout, unbuffered: each figure as it is measured, also into a file.
func say(_ text: String) { FileHandle.standardOutput.write(Data((text + "\n").utf8)) }
let logger = Logger(label: "broker-bench")
let report = ReportValue.object([
    .init("records", .array([.object([.init("kind", .string("uri")), .init("uri", .string("https://www.home-assistant.io/tag/bench"))])])),
    .init("object", .object([])),
])

func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

func cpuSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// Polls `condition` every millisecond (a benchmark's own wait; at most `timeout` s).
func waitUntil(_ timeout: Double = 120, _ condition: () -> Bool) async -> Bool {
    let deadline = now() + timeout
    while now() < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return condition()
}

final class Arrivals: Sendable {
    let times = Mutex<[Double]>([])
    var count: Int { times.withLock { $0.count } }
}

func settings(port: Int32, station: String) throws -> BrokerSettings {
    try DaemonSettings.parse("[broker]\nurl = mqtt://127.0.0.1:\(port)\nstation = \(station)\n").broker!
}

func station(port: Int32, spool: String, name: String) throws -> (BrokerPublisher, ServiceGroup, Task<Void, any Error>) {
    let publisher = BrokerPublisher(settings: try settings(port: port, station: name), password: nil, spoolLocation: .init(path: spool),
                                    spoolCapacity: 20_000, logger: logger)
    let group = ServiceGroup(configuration: .init(services: [publisher], logger: logger))
    let running = Task { try await group.run() }
    return (publisher, group, running)
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("broker-bench-\(UUID().uuidString)").path
defer { try? FileManager.default.removeItem(atPath: directory) }

// The subscriber: arrival times of scan events.
let arrivals = Arrivals()
let watcher = try MosquittoClient(.init(host: "127.0.0.1", port: port, clientID: "bench-watcher"))
watcher.start()
let watching = Task {
    for await event in watcher.events {
        switch event {
        case .connected(0, _): try? watcher.subscribe("nfcscan/+/scan", qos: 1)
        case .message: arrivals.times.withLock { $0.append(now()) }
        default: break
        }
    }
}
// Subscribed once a probe comes back.
guard await waitUntil(10, {
    if arrivals.count > 0 { return true }
    _ = try? watcher.publish(.init(topic: "nfcscan/probe/scan", text: "probe", qos: 0))
    return false
}) else { say("the subscriber never subscribed"); exit(1) }

// Latency.
let (publisher, group, running) = try station(port: port, spool: directory + "/a", name: "bench")
guard await waitUntil(10, { publisher.state.connected }) else { say("not connected"); exit(1) }
var latencies: [Double] = []
for n in 0..<500 {
    let before = arrivals.count
    let sent = now()
    publisher.observe(.detected(reader: "R", uid: String(format: "04%06X", n), report: report, session: nil))
    guard await waitUntil(10, { arrivals.count > before }) else { say("event \(n) did not arrive"); exit(1) }
    latencies.append(arrivals.times.withLock { $0[before] } - sent)
}
latencies.sort()
let p50 = latencies[latencies.count / 2] * 1000, p99 = latencies[latencies.count * 99 / 100] * 1000
say(String(format: "latency: p50 %.2f ms, p99 %.2f ms (500 events, one at a time)", p50, p99))

// Sustained.
let burst = 10_000
let start = now()
let base = arrivals.count
for n in 0..<burst {
    publisher.observe(.detected(reader: "R", uid: String(format: "05%06X", n), report: report, session: nil))
}
guard await waitUntil(120, { publisher.state.pending == 0 && arrivals.count >= base + burst }) else { say("burst not done"); exit(1) }
say(String(format: "sustained: %.0f events/s (%d events, spooled, QoS 1, acknowledged)", Double(burst) / (now() - start), burst))

// Idle.
try? await Task.sleep(for: .seconds(1))
let cpu0 = cpuSeconds(), wall0 = now()
try? await Task.sleep(for: .seconds(10))
say(String(format: "idle: %.3f%% of one core (publisher and subscriber connected, 10 s)", (cpuSeconds() - cpu0) / (now() - wall0) * 100))
await group.triggerGracefulShutdown()
_ = await running.result

// Replay: spool while nothing listens (a port nothing holds), then publish to the live broker.
let closed: Int32 = {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    close(fd)
    return Int32(UInt16(bigEndian: address.sin_port))
}()
let (offline, offlineGroup, offlineRunning) = try station(port: closed, spool: directory + "/b", name: "replay")
for n in 0..<burst {
    offline.observe(.detected(reader: "R", uid: String(format: "06%06X", n), report: report, session: nil))
}
guard await waitUntil(120, { offline.state.pending == burst }) else { say("not spooled"); exit(1) }
await offlineGroup.triggerGracefulShutdown()
_ = await offlineRunning.result
let replayBase = arrivals.count
let replayStart = now()
let (online, onlineGroup, onlineRunning) = try station(port: port, spool: directory + "/b", name: "replay")
guard await waitUntil(120, { online.state.connected && online.state.pending == 0 && arrivals.count >= replayBase + burst }) else {
    say("replay not done: \(online.state)"); exit(1)
}
say(String(format: "replay: %.0f events/s (%d spooled events, from the publisher's start)", Double(burst) / (now() - replayStart), burst))
await onlineGroup.triggerGracefulShutdown()
_ = await onlineRunning.result
watcher.close()
watching.cancel()
