import CAdwaita
import Glibc
import ScanSheet

/// The daemon's views, read from standard input as they come: a GLib unix-fd source on fd 0
/// (non-blocking), so the lines are read on the main loop's thread, between GTK's own events,
/// and no thread of ours waits on the pipe. Each line is bounded by `SheetWire.maximumLine`: a
/// longer one is dropped (up to its newline) and reported, never kept growing.
@MainActor
final class SheetInput {
    enum Item {
        /// A whole line, without its newline.
        case line([UInt8])
        /// A line longer than `SheetWire.maximumLine`, dropped.
        case tooLong
    }

    private let onItem: (Item) -> Void
    private let onEnd: (_ failure: String?) -> Void
    private var pending: [UInt8] = []
    /// The rest of a too-long line is being skipped, up to its newline.
    private var skipping = false
    private var source: guint = 0

    /// `onItem` gets each line in order; `onEnd` is called once, at the end of the input (nil)
    /// or on a read error (what failed), and no item follows.
    init(onItem: @escaping (Item) -> Void, onEnd: @escaping (_ failure: String?) -> Void) {
        self.onItem = onItem
        self.onEnd = onEnd
    }

    /// Starts watching fd 0; false (and errno) when it cannot be made non-blocking.
    func start() -> Bool {
        guard nfcscan_sheet_set_nonblocking(0) == 0 else { return false }
        let me = Unmanaged.passUnretained(self).toOpaque()
        // G_IO_HUP and G_IO_ERR too: a closed pipe must wake us even with nothing left to read.
        let condition = GIOCondition(rawValue: G_IO_IN.rawValue | G_IO_HUP.rawValue | G_IO_ERR.rawValue)
        source = g_unix_fd_add(0, condition, { _, _, data in
            MainActor.assumeIsolated {
                Unmanaged<SheetInput>.fromOpaque(data!).takeUnretainedValue().readAvailable() ? 1 : 0
            }
        }, me)
        return true
    }

    /// Reads until the pipe is empty; false once the input ended (the source is then removed).
    private func readAvailable() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count > 0 {
                take(chunk[..<count])
                continue
            }
            if count == 0 { return end(nil) }
            switch errno {
            case EINTR: continue
            case EAGAIN: return true
            case let code: return end("reading standard input: \(String(cString: strerror(code)))")
            }
        }
    }

    private func end(_ failure: String?) -> Bool {
        source = 0
        onEnd(failure)
        return false
    }

    private func take(_ bytes: ArraySlice<UInt8>) {
        var rest = bytes
        while let newline = rest.firstIndex(of: 0x0A) {
            let piece = rest[..<newline]
            rest = rest[(newline + 1)...]
            if skipping {
                skipping = false
                pending.removeAll()
                continue
            }
            if pending.count + piece.count > SheetWire.maximumLine {
                pending.removeAll()
                onItem(.tooLong)
                continue
            }
            pending.append(contentsOf: piece)
            let line = pending
            pending.removeAll(keepingCapacity: true)
            onItem(.line(line))
        }
        guard !skipping else { return }
        pending.append(contentsOf: rest)
        if pending.count > SheetWire.maximumLine {
            pending = []
            skipping = true
            onItem(.tooLong)
        }
    }
}
