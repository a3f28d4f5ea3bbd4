import DesktopEntries
import Glibc
import POSIXEvents
import ScanSheet
import Synchronization
import SystemPackage

/// The sheet's programs (issue 21): one `nfcscan-sheet` process per session that shows one,
/// started with its first view, fed every later view as one line on a pipe, and heard from
/// through another. The daemon never waits on it: a view is written without blocking (a sheet
/// too slow to take a few hundred bytes is hung, and is killed), its lines and its end are seen
/// on the daemon's ``PollLoop``, and what it says comes back as ``DaemonInput/sheet(session:_:)``
/// (nil once its output ends: it closed, crashed, was killed, or never started). Owned by the
/// loop's ``EffectRunner``: no lock but each process's own.
struct SheetHost {
    let program: String
    let loop: PollLoop
    let sink: AsyncStream<DaemonInput>.Continuation
    /// Where systemd-run is looked for.
    let searchPath: String
    /// Under systemd the sheet runs outside the service's sandbox (a private /tmp, no network
    /// namespace of the host's, no JIT would keep GTK from the display), in a transient unit of
    /// its own (``TransientUnit/sheetCommand(_:outside:)``).
    let outsideSandbox: Bool
    private var sheets: [Int: SheetProcess] = [:]

    /// A closing sheet has this long after its last view's `closeAfter` to end by itself.
    static let closingGrace: Duration = .seconds(3)

    init(program: String, loop: PollLoop, sink: AsyncStream<DaemonInput>.Continuation, searchPath: String,
         outsideSandbox: Bool = TransientUnit.underSystemd) {
        self.program = program
        self.loop = loop
        self.sink = sink
        self.searchPath = searchPath
        self.outsideSandbox = outsideSandbox
    }

    /// Shows `view` on session `session`'s sheet, starting its program for the first view.
    mutating func show(_ view: SheetView, session: Int) {
        if let sheet = sheets[session] { return sheet.send(view) }
        let command = TransientUnit.sheetCommand(program, outside: outsideSandbox)
        guard let executable = command[0].hasPrefix("/") ? command[0] : ApplicationDirectoryReader.executable(command[0], searchPath: searchPath),
              let sheet = SheetProcess.start(executable, command, session: session, loop: loop, sink: sink) else {
            sink.yield(.sheet(session: session, nil))
            return
        }
        sheets[session] = sheet
        sheet.send(view)
    }

    /// Session `session` ended: its sheet shows `view` and closes itself after it, or (nil) is
    /// closed at once; one still running after that (and ``closingGrace``) is killed. Returns the
    /// deadline task's work, for the caller to run as a child of the loop's task group.
    mutating func close(_ session: Int, with view: SheetView?) -> (@Sendable () async -> Void)? {
        guard let sheet = sheets.removeValue(forKey: session) else { return nil }
        if let view { sheet.send(view) } else { sheet.closeInput() }
        let wait = Duration.milliseconds(view?.closeAfter ?? 0) + Self.closingGrace
        return {
            try? await Task.sleep(for: wait)
            sheet.kill()
        }
    }

    /// The loop ends: every sheet closes at once (end of its input).
    mutating func closeAll() {
        for sheet in sheets.values { sheet.closeInput() }
        sheets = [:]
    }
}

/// One running sheet program: its input pipe's write end (the daemon's, non-blocking) and its pid.
final class SheetProcess: Sendable {
    let session: Int
    let pid: pid_t
    /// The write end of the sheet's standard input; nil once closed.
    private let input: Mutex<FileDescriptor?>
    /// Set before the child is reaped, so a late ``kill()`` never reaches a reused pid.
    private let exited = Atomic<Bool>(false)

    private init(session: Int, pid: pid_t, input: FileDescriptor) {
        self.session = session
        self.pid = pid
        self.input = Mutex(input)
    }

    /// Starts the program with two pipes: its output's read end is watched on `loop` (lines become
    /// inputs; end of file is the sheet's end), its exit is reaped through a pidfd.
    static func start(_ executable: String, _ arguments: [String], session: Int, loop: PollLoop,
                      sink: AsyncStream<DaemonInput>.Continuation) -> SheetProcess? {
        guard let (childInput, input) = try? FileDescriptor.pipe(options: [.closeOnExec]),
              let (output, childOutput) = try? FileDescriptor.pipe(options: [.closeOnExec]) else { return nil }
        defer {
            try? childInput.close()
            try? childOutput.close()
        }
        _ = fcntl(input.rawValue, F_SETFL, O_NONBLOCK)
        _ = fcntl(output.rawValue, F_SETFL, O_NONBLOCK)
        let pid: pid_t
        do {
            pid = try ChildProcess.spawn(executable, arguments, input: childInput, output: childOutput)
        } catch {
            try? input.close()
            try? output.close()
            return nil
        }
        let sheet = SheetProcess(session: session, pid: pid, input: input)
        let lines = LineReader(limit: SheetWire.maximumLine)
        loop.add(output, events: .readable) { _ in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(output.rawValue, &buffer, buffer.count)
                if count > 0 {
                    for line in lines.feed(buffer[..<count]) {
                        // A line the sheet should never send is dropped: the sheet decides nothing.
                        if let event = try? SheetWire.event(from: line) { sink.yield(.sheet(session: session, event)) }
                    }
                    continue
                }
                if count < 0, errno == EAGAIN || errno == EINTR { return .keepWatching }
                sink.yield(.sheet(session: session, nil))
                return .stopWatching
            }
        }
        // Reaped through a pidfd (Linux 5.3 and later); on an older kernel an ended sheet stays a
        // zombie until nfcscand ends, as the fallback link opener does: nothing else differs.
        _ = ChildProcess.onExit(pid, in: loop, { [sheet] _ in sheet.closeInput() },
                                before: { [sheet] in sheet.exited.store(true, ordering: .sequentiallyConsistent) })
        return sheet
    }

    /// Writes `view` as one line, never blocking: a pipe with no room for it means the sheet no
    /// longer reads (hung), and one with no reader (EPIPE: it closed its input, or is dying) can
    /// show nothing more, so either way it is killed, and its end follows as an input (a sheet
    /// left on screen would show a view the session has left, its buttons still answering).
    func send(_ view: SheetView) {
        let line = Array((SheetWire.line(for: view) + "\n").utf8)
        let complete = input.withLock { input -> Bool in
            guard let input else { return true }
            let written = line.withUnsafeBytes { write(input.rawValue, $0.baseAddress, $0.count) }
            return written == line.count
        }
        if !complete { kill() }
    }

    /// End of the sheet's input: it closes at once.
    func closeInput() {
        let descriptor = input.withLock { input -> FileDescriptor? in
            defer { input = nil }
            return input
        }
        try? descriptor?.close()
    }

    func kill() {
        closeInput()
        if !exited.load(ordering: .sequentiallyConsistent) { _ = Glibc.kill(pid, SIGKILL) }
    }
}

/// Bytes into lines, each at most `limit` bytes: a longer one is dropped whole (up to its newline).
final class LineReader: Sendable {
    private let state = Mutex<(pending: [UInt8], overlong: Bool)>(([], false))
    let limit: Int

    init(limit: Int) { self.limit = limit }

    func feed(_ bytes: ArraySlice<UInt8>) -> [[UInt8]] {
        state.withLock { state in
            var lines: [[UInt8]] = []
            for byte in bytes {
                if byte == 0x0A {
                    if !state.overlong { lines.append(state.pending) }
                    state.pending = []
                    state.overlong = false
                } else if !state.overlong {
                    if state.pending.count >= limit {
                        state.pending = []
                        state.overlong = true
                    } else {
                        state.pending.append(byte)
                    }
                }
            }
            return lines
        }
    }
}
