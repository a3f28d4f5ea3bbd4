import Glibc
import NFCCopy
import NFCObjects
import NFCScanKit
import POSIXEvents
import SystemPackage
import Systemd
import WebNFC

/// One page's web host, the I/O around ``HostMachine``: the browser's messages from standard
/// input (on a ``PollLoop``, non-blocking reads), nfcscand's sessions on the session bus (each a
/// child task of the loop's group), the machine's events to standard output. The loop awaits no
/// peer: a session's start and its events come back as inputs.
struct HostRun {
    enum Event: Sendable {
        case bytes([UInt8])
        /// Standard input ended: the browser closed the port (the tab closed or navigated).
        case end
        case machine(HostMachine.Input)
        /// A session's start returned: the loop keeps it, to end it when the machine says.
        case scanSession(Int, DaemonScanSession)
        case changeSession(Int, DaemonWriteSession)
    }

    let bus: BusConnection
    let log: @Sendable (String) -> Void

    /// Runs until the browser closes the port, or breaks the protocol (then 65).
    func run() async -> Int32 {
        let (events, sink) = AsyncStream.makeStream(of: Event.self)
        let loop: PollLoop
        do {
            loop = try PollLoop()
        } catch {
            log("cannot watch standard input: \(error)")
            return 71
        }
        Self.followStandardInput(on: loop, into: sink)
        loop.start(name: "webnfc-stdin")
        defer { loop.cancel() }
        return await withTaskGroup(of: Void.self) { group in
            var machine = HostMachine()
            var reader = NativeMessageReader()
            var sessions = Sessions()
            defer { group.cancelAll() }
            for await event in events {
                var inputs: [HostMachine.Input] = []
                switch event {
                case .bytes(let bytes):
                    do {
                        for json in try reader.take(bytes) { inputs.append(.page(try PageRequest(json: json))) }
                    } catch let failure as NativeMessageReader.Failure {
                        log("the browser's message was refused: \(failure)")
                        return 65
                    } catch {
                        log("the extension broke the protocol: \(error)")
                        return 65
                    }
                case .end:
                    return 0
                case .machine(let input):
                    sessions.forget(input)
                    inputs.append(input)
                case .scanSession(let session, let scan):
                    if sessions.stopped.remove(session) != nil { scan.invalidate() } else { sessions.scans[session] = scan }
                case .changeSession(let session, let change):
                    if sessions.stopped.remove(session) != nil { change.cancel() } else { sessions.changes[session] = change }
                }
                for input in inputs {
                    for action in machine.handle(input) {
                        if case .exit(let why) = action {
                            log("the extension broke the protocol: \(why)")
                            return 65
                        }
                        perform(action, sessions: &sessions, group: &group, sink: sink)
                    }
                }
            }
            return 0
        }
    }

    /// The sessions running now, to end them when the machine says.
    struct Sessions {
        var scans: [Int: DaemonScanSession] = [:]
        var changes: [Int: DaemonWriteSession] = [:]
        /// Sessions ended before their start returned: ended as soon as it does.
        var stopped: Set<Int> = []

        /// A session that ended (or never started) is let go.
        mutating func forget(_ input: HostMachine.Input) {
            switch input {
            case .scanEnded(let session, _), .changeEnded(let session, _), .sessionRefused(let session, _):
                scans[session] = nil
                changes[session] = nil
                stopped.remove(session)
            default: break
            }
        }
    }

    /// A session `start` started, or nil when nfcscand refused it (told to the machine as `session`'s refusal).
    static func started<Session>(_ session: Int, _ sink: AsyncStream<Event>.Continuation,
                                 _ start: () async throws(BusError) -> Session) async -> Session? {
        do throws(BusError) {
            return try await start()
        } catch {
            sink.yield(.machine(.sessionRefused(session: session, error: errorName(error))))
            return nil
        }
    }

    static func errorName(_ error: BusError) -> String {
        if case .remote(let name, _) = error { return name }
        return "\(error)"
    }

    /// One framed message to the browser. Standard output is the browser's pipe, which it
    /// drains; a write that fails means the browser is gone, and the end of input follows.
    static func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Reads standard input on `loop` without blocking, handing each piece on; its end (or an
    /// error) is the end of the page.
    static func followStandardInput(on loop: PollLoop, into sink: AsyncStream<Event>.Continuation) {
        let flags = fcntl(STDIN_FILENO, F_GETFL)
        _ = fcntl(STDIN_FILENO, F_SETFL, flags | O_NONBLOCK)
        loop.add(FileDescriptor.standardInput, ownership: .borrowed) { _ in
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(STDIN_FILENO, &buffer, buffer.count)
                if count > 0 {
                    sink.yield(.bytes(Array(buffer[..<count])))
                    continue
                }
                if count < 0, errno == EINTR { continue }
                if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { return .keepWatching }
                sink.yield(.end)
                return .stopWatching
            }
        }
    }

    private func perform(_ action: HostMachine.Action, sessions: inout Sessions, group: inout TaskGroup<Void>,
                         sink: AsyncStream<Event>.Continuation) {
        switch action {
        case .send(let event):
            Self.write(NativeMessageReader.frame(event.json()))
        case .startScan(let session, let origin, let language):
            let options = DaemonScanSession.Options(multiple: true, timeout: 3600, language: language.flatMap(ScanCopy.Language.init(localeName:)),
                                                    origin: origin.serialized)
            let bus = bus
            group.addTask {
                guard let started = await Self.started(session, sink, { () throws(BusError) in try await DaemonScanSession.start(options, on: bus) })
                else { return }
                sink.yield(.scanSession(session, started))
                var reading = false
                for await event in started {
                    switch event {
                    case .alertMessage: break
                    case .reading(true): reading = true
                    case .reading(false):
                        if reading { sink.yield(.machine(.scanReadFailed(session: session))) }
                        reading = false
                        sink.yield(.machine(.scanActive(session: session)))
                    case .detected(let report):
                        reading = false
                        sink.yield(.machine(.scanDetected(session: session, report)))
                    case .ended(let reason, _):
                        sink.yield(.machine(.scanEnded(session: session, reason: reason)))
                    }
                }
            }
        case .stopScan(let session):
            if let scan = sessions.scans.removeValue(forKey: session) { scan.invalidate() } else { sessions.stopped.insert(session) }
        case .startChange(let session, let change, let origin, let language):
            let write: ObjectWrite
            switch change {
            // Web NFC formats a blank object that can hold a message, as Android does.
            case .write(let message, let overwrite):
                write = ObjectWrite(message: message, options: .init(formatIfBlank: true), action: .save(.information), overwrite: overwrite)
            case .lock: write = ObjectWrite(message: nil, lock: true, action: .lock)
            }
            let options = DaemonWriteSession.Options(write, timeout: 3600, language: language.flatMap(ScanCopy.Language.init(localeName:)),
                                                     origin: origin.serialized)
            let bus = bus
            group.addTask {
                guard let started = await Self.started(session, sink, { () throws(BusError) in try await DaemonWriteSession.start(options, on: bus) })
                else { return }
                sink.yield(.changeSession(session, started))
                for await event in started {
                    if case .ended(let ending) = event { sink.yield(.machine(.changeEnded(session: session, ending: ending.code))) }
                }
            }
        case .cancelChange(let session):
            if let change = sessions.changes[session] { change.cancel() } else { sessions.stopped.insert(session) }
        case .exit:
            break
        }
    }
}
