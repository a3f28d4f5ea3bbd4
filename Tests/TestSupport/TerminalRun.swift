import Foundation
import Glibc
import Synchronization

/// Runs a program with its standard output and error on a pseudo-terminal of a given width, as
/// in a person's terminal, and returns everything it wrote there (escape sequences included).
public enum TerminalRun {
    public static func run(_ path: String, _ arguments: [String], environment: [String: String], columns: Int,
                           timeout: Double) throws -> (status: Int32, output: String) {
        var master: Int32 = 0, slave: Int32 = 0
        var size = winsize(ws_row: 24, ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &slave, nil, nil, &size) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        defer { close(master) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: true)
        process.standardOutput = terminal
        process.standardError = terminal
        process.standardInput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        try terminal.close()
        // Drained as it comes: a full terminal buffer would stop the program.
        let collected = Mutex<[UInt8]>([])
        let drained = DispatchSemaphore(value: 0)
        let descriptor = master
        let reader = Thread {
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                collected.withLock { $0 += chunk[0..<count] }
            }
            drained.signal()
        }
        reader.start()
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
        }
        // After the program and every child holding the terminal are gone, read() fails (EIO).
        _ = drained.wait(timeout: .now() + 5)
        return (process.terminationStatus, String(decoding: collected.withLock { $0 }, as: UTF8.self))
    }

    /// How many rows of a `columns`-wide terminal `output` ends up using: a line feed starts a
    /// row, a carriage return goes back to the start of the current one, and printing past the
    /// last column wraps to a new one (as xterm does: the wrap happens on the next character).
    /// Escape sequences (CSI, OSC) take no room; a wide character takes two columns.
    public static func rows(of output: String, columns: Int, width: (Character) -> Int) -> Int {
        var rows = 1, column = 0
        var characters = Array(output)[...]
        while let character = characters.popFirst() {
            switch character {
            case "\n", "\r\n":
                rows += 1
                column = 0
            case "\r": column = 0
            case "\u{1B}":
                if characters.first == "[" {
                    characters = characters.drop { !($0.isLetter) }.dropFirst()
                } else if characters.first == "]" {
                    // OSC: up to BEL or ESC \.
                    while let next = characters.popFirst(), next != "\u{07}" {
                        if next == "\u{1B}" { characters = characters.dropFirst(); break }
                    }
                }
            default:
                let advance = width(character)
                if column + advance > columns {
                    rows += 1
                    column = 0
                }
                column += advance
            }
        }
        // A final line feed leaves the cursor on a fresh row that holds nothing.
        return column == 0 && (output.last == "\n" || output.last == "\r\n") ? rows - 1 : rows
    }
}
