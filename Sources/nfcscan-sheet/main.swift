// nfcscan-sheet: the scan sheet's window, a program of its own that nfcscand starts for every
// in-app scan or write session. The daemon decides everything and sends the whole view again on
// every change (ScanSheet's SheetWire lines on our stdin); this process only draws the view and
// reports `shown` and the buttons pressed on stdout. Being a separate process, it keeps GTK out of
// nfcscand, and the daemon survives it crashing or hanging (it can kill it and go on).
//
// One thread: GLib's main loop runs everything (GTK's events, the stdin source, the close-after
// timer), so all state is on the main actor and each C callback enters it with assumeIsolated.
// No Swift task runs here: the main loop, not Swift's executor, owns the main thread.
import CAdwaita
import Glibc
import ScanSheet

@MainActor
final class SheetProgram {
    private let application: UnsafeMutablePointer<AdwApplication>
    private var input: SheetInput?
    private var window: SheetWindow?
    private var view: SheetView?
    private var sentShown = false
    private var closeTimer: guint = 0
    private(set) var status: Int32 = 0

    init() {
        // NON_UNIQUE: no bus name is taken, and several sheets may run side by side.
        application = adw_application_new(nil, G_APPLICATION_NON_UNIQUE)
        _ = nfcscan_sheet_on_activate(application, { _, data in
            MainActor.assumeIsolated { SheetProgram.from(data).activate() }
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    private static func from(_ data: gpointer?) -> SheetProgram {
        Unmanaged<SheetProgram>.fromOpaque(data!).takeUnretainedValue()
    }

    func run() -> Int32 {
        let code = g_application_run(nfcscan_sheet_application(application), 0, nil)
        return status != 0 ? status : code
    }

    private func activate() {
        guard input == nil else { return }
        // Held: with no window before the first view, GApplication would otherwise quit at once.
        g_application_hold(nfcscan_sheet_application(application))
        let input = SheetInput(onItem: { [unowned self] in received($0) }, onEnd: { [unowned self] failure in
            if let failure { SheetOutput.complain(failure); status = 1 }
            quit()
        })
        self.input = input
        guard input.start() else {
            SheetOutput.complain("cannot read standard input: \(String(cString: strerror(errno)))")
            status = 1
            return quit()
        }
    }

    private func received(_ item: SheetInput.Item) {
        switch item {
        case .tooLong:
            SheetOutput.complain("ignored a line: \(SheetWire.Fault.tooLong)")
        case .line(let line):
            do throws(SheetWire.Fault) {
                show(try SheetWire.view(from: line))
            } catch {
                SheetOutput.complain("ignored a line: \(error)")
            }
        }
    }

    private func show(_ next: SheetView) {
        view = next
        if let window {
            window.show(next)
        } else {
            let window = SheetWindow(application: application)
            window.onPress = { [unowned self] id in send(.pressed(id)) }
            window.onCancel = { [unowned self] in cancel() }
            window.onShown = { [unowned self] in
                guard !sentShown else { return }
                sentShown = true
                send(.shown)
            }
            self.window = window
            window.show(next)
            window.present()
        }
        if closeTimer != 0 {
            g_source_remove(closeTimer)
            closeTimer = 0
        }
        if let milliseconds = next.closeAfter {
            closeTimer = g_timeout_add(guint(milliseconds), { data in
                MainActor.assumeIsolated {
                    let program = SheetProgram.from(data)
                    program.closeTimer = 0
                    program.quit()
                }
                return 0  // G_SOURCE_REMOVE
            }, Unmanaged.passUnretained(self).toOpaque())
        }
    }

    /// Escape or the close button: the view's cancel button when it has one (the daemon decides
    /// what follows; true keeps the window), else the sheet just closes.
    private func cancel() -> Bool {
        if view?.buttons.contains(where: { $0.id == SheetView.cancelButton }) == true {
            send(.pressed(SheetView.cancelButton))
            return true
        }
        quit()
        return false
    }

    private func send(_ event: SheetEvent) {
        guard SheetOutput.send(event) else {
            SheetOutput.complain("cannot write to standard output: \(String(cString: strerror(errno)))")
            status = 1
            return quit()
        }
    }

    private func quit() {
        g_application_quit(nfcscan_sheet_application(application))
    }
}

// The daemon closing our stdout is a failed write (then we quit), not a signal that kills us.
nfcscan_sheet_ignore_sigpipe()
g_set_prgname("nfcscan-sheet")
let program = SheetProgram()
exit(program.run())
