import CAdwaita
import Glibc
import ScanSheet

/// The scan sheet's window, a thin wrapper over its widgets: it draws the `SheetView` it is given
/// and reports presses; it decides nothing. Every word shown comes from the view (the daemon's,
/// already translated), always as plain text (`gtk_label_set_text`; markup is never turned on),
/// so no text an app or an object gave can style or break the window.
///
/// An `AdwWindow` of fixed width with a flat header bar (the close button, no title: the app's
/// name is in the body), then, centred: the app's icon, its name, the message, the detail, the
/// mark and the buttons.
@MainActor
final class SheetWindow {
    /// Called with a button's id when it is clicked (or activated through the accessibility tree).
    var onPress: (String) -> Void = { _ in }
    /// Called on Escape and on the window's close button; true keeps the window open.
    var onCancel: () -> Bool = { false }
    /// Called once, after the window's first frame is painted.
    var onShown: () -> Void = {}

    private let window: UnsafeMutablePointer<GtkWidget>
    private let icon: UnsafeMutablePointer<GtkWidget>
    private let appName: UnsafeMutablePointer<GtkWidget>
    private let message: UnsafeMutablePointer<GtkWidget>
    private let detail: UnsafeMutablePointer<GtkWidget>
    private let spinner: UnsafeMutablePointer<GtkWidget>
    private let markImage: UnsafeMutablePointer<GtkWidget>
    private let buttonRow: UnsafeMutablePointer<GtkWidget>
    /// The buttons now in the row, and the id each reports.
    private var buttons: [(widget: UnsafeMutablePointer<GtkWidget>, id: String)] = []
    private var shown: SheetView?
    private var paintHandler: (clock: OpaquePointer, handler: gulong)?

    init(application: UnsafeMutablePointer<AdwApplication>) {
        window = adw_window_new()
        gtk_window_set_application(nfcscan_sheet_window(window), nfcscan_sheet_gtk_application(application))
        gtk_window_set_resizable(nfcscan_sheet_window(window), 0)
        gtk_window_set_default_size(nfcscan_sheet_window(window), 360, -1)

        let header = adw_header_bar_new()!
        gtk_widget_add_css_class(header, "flat")
        // Only the close button (Escape's twin): a sheet is not minimised or maximised.
        adw_header_bar_set_decoration_layout(nfcscan_sheet_header_bar(header), ":close")
        // An empty title: the app's name is the body's first line, not said twice.
        adw_header_bar_set_title_widget(nfcscan_sheet_header_bar(header), gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0))

        let body = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        for set in [gtk_widget_set_margin_start, gtk_widget_set_margin_end, gtk_widget_set_margin_bottom] { set(body, 24) }
        gtk_widget_set_valign(body, GTK_ALIGN_CENTER)
        gtk_widget_set_halign(body, GTK_ALIGN_FILL)

        icon = gtk_image_new()
        gtk_image_set_pixel_size(nfcscan_sheet_image(icon), 64)

        appName = SheetWindow.label(classes: ["title-2"])
        gtk_label_set_ellipsize(nfcscan_sheet_label(appName), PANGO_ELLIPSIZE_END)
        message = SheetWindow.label(classes: [])
        detail = SheetWindow.label(classes: ["dim-label"])

        // The mark says what the message already says ("Hold the poster near the reader…",
        // "Saved."), so it is hidden from assistive technologies rather than named: a screen
        // reader would otherwise read the same sentence twice, or announce "busy" forever.
        spinner = gtk_spinner_new()
        gtk_widget_set_size_request(spinner, 32, 32)
        gtk_widget_set_halign(spinner, GTK_ALIGN_CENTER)
        markImage = gtk_image_new()
        gtk_image_set_pixel_size(nfcscan_sheet_image(markImage), 32)

        buttonRow = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)
        gtk_box_set_homogeneous(nfcscan_sheet_box(buttonRow), 1)
        gtk_widget_set_halign(buttonRow, GTK_ALIGN_CENTER)
        gtk_widget_set_margin_top(buttonRow, 12)

        for child in [icon, appName, message, detail, spinner, markImage, buttonRow] {
            gtk_box_append(nfcscan_sheet_box(body), child)
        }
        let content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_box_append(nfcscan_sheet_box(content), header)
        gtk_box_append(nfcscan_sheet_box(content), body)
        adw_window_set_content(nfcscan_sheet_adw_window(window), content)
        // The window is described by its message: what an assistive technology reads with its name.
        nfcscan_sheet_accessible_described_by(window, message)

        connectSignals()
    }

    private static func label(classes: [String]) -> UnsafeMutablePointer<GtkWidget> {
        let label = gtk_label_new(nil)!
        let typed = nfcscan_sheet_label(label)
        gtk_label_set_wrap(typed, 1)
        // Chinese has no spaces, and an unbroken run of Latin letters must not widen the window.
        gtk_label_set_wrap_mode(typed, PANGO_WRAP_WORD_CHAR)
        gtk_label_set_justify(typed, GTK_JUSTIFY_CENTER)
        gtk_label_set_max_width_chars(typed, 40)
        gtk_label_set_width_chars(typed, 20)
        for name in classes { gtk_widget_add_css_class(label, name) }
        return label
    }

    private var unmanaged: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private func connectSignals() {
        _ = nfcscan_sheet_on_close_request(window, { _, data in
            MainActor.assumeIsolated { SheetWindow.from(data).onCancel() ? 1 : 0 }
        }, unmanaged)
        let keys = gtk_event_controller_key_new()!
        _ = nfcscan_sheet_on_key_pressed(keys, { _, keyval, _, _, data in
            guard keyval == UInt32(GDK_KEY_Escape) else { return 0 }
            return MainActor.assumeIsolated {
                let sheet = SheetWindow.from(data)
                if !sheet.onCancel() { sheet.close() }
                return 1
            }
        }, unmanaged)
        gtk_widget_add_controller(window, keys)
        _ = nfcscan_sheet_on_map(window, { widget, data in
            MainActor.assumeIsolated { SheetWindow.from(data).mapped(widget!) }
        }, unmanaged)
    }

    private static func from(_ data: gpointer?) -> SheetWindow {
        Unmanaged<SheetWindow>.fromOpaque(data!).takeUnretainedValue()
    }

    /// Mapped is not yet drawn: `shown` waits for the first frame painted after it.
    private func mapped(_ widget: UnsafeMutablePointer<GtkWidget>) {
        guard paintHandler == nil, let clock = gtk_widget_get_frame_clock(widget) else { return }
        let handler = nfcscan_sheet_on_after_paint(clock, { _, data in
            MainActor.assumeIsolated { SheetWindow.from(data).painted() }
        }, unmanaged)
        paintHandler = (clock, handler)
    }

    private func painted() {
        guard let (clock, handler) = paintHandler, handler != 0 else { return }
        g_signal_handler_disconnect(UnsafeMutableRawPointer(clock), handler)
        paintHandler = (clock, 0)
        onShown()
    }

    func present() { gtk_window_present(nfcscan_sheet_window(window)) }

    func close() { gtk_window_destroy(nfcscan_sheet_window(window)) }

    /// Draws `view`, changing only what differs from the one shown.
    func show(_ view: SheetView) {
        let old = shown
        shown = view
        if old?.app != view.app {
            gtk_window_set_title(nfcscan_sheet_window(window), view.app)
            gtk_label_set_text(nfcscan_sheet_label(appName), view.app)
            nfcscan_sheet_accessible_label(icon, view.app)
        }
        if old?.icon != view.icon { setIcon(view.icon) }
        if old?.message != view.message { gtk_label_set_text(nfcscan_sheet_label(message), view.message) }
        if old?.detail != view.detail {
            gtk_label_set_text(nfcscan_sheet_label(detail), view.detail)
            gtk_widget_set_visible(detail, view.detail.isEmpty ? 0 : 1)
        }
        if old?.mark != view.mark { setMark(view.mark) }
        if old?.buttons != view.buttons { setButtons(view.buttons) }
    }

    /// An absolute path is read only when it names a regular file (not a FIFO or a device that
    /// would block the loader); anything else is a theme icon name; nothing: no icon.
    private func setIcon(_ name: String) {
        let image = nfcscan_sheet_image(icon)
        if name.hasPrefix("/") {
            var status = stat()
            if stat(name, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG {
                gtk_image_set_from_file(image, name)
                gtk_widget_set_visible(icon, 1)
            } else {
                gtk_image_clear(image)
                gtk_widget_set_visible(icon, 0)
            }
        } else if name.isEmpty {
            gtk_image_clear(image)
            gtk_widget_set_visible(icon, 0)
        } else {
            gtk_image_set_from_icon_name(image, name)
            gtk_widget_set_visible(icon, 1)
        }
    }

    private func setMark(_ mark: SheetView.Mark) {
        let busy = mark == .looking || mark == .working
        gtk_spinner_set_spinning(nfcscan_sheet_spinner(spinner), busy ? 1 : 0)
        SheetWindow.reveal(spinner, busy)
        gtk_widget_remove_css_class(markImage, "success")
        gtk_widget_remove_css_class(markImage, "error")
        switch mark {
        case .done:
            gtk_image_set_from_icon_name(nfcscan_sheet_image(markImage), "object-select-symbolic")
            gtk_widget_add_css_class(markImage, "success")
            SheetWindow.reveal(markImage, true)
        case .failed:
            gtk_image_set_from_icon_name(nfcscan_sheet_image(markImage), "dialog-error-symbolic")
            gtk_widget_add_css_class(markImage, "error")
            SheetWindow.reveal(markImage, true)
        case .looking, .working, .question:
            SheetWindow.reveal(markImage, false)
        }
    }

    /// Shows or hides a decorative mark, kept hidden from assistive technologies either way:
    /// GTK sets a widget's accessible hidden state from its visibility on every show.
    private static func reveal(_ mark: UnsafeMutablePointer<GtkWidget>, _ visible: Bool) {
        gtk_widget_set_visible(mark, visible ? 1 : 0)
        nfcscan_sheet_accessible_hidden(mark)
    }

    private func setButtons(_ wanted: [SheetView.Button]) {
        for (widget, _) in buttons { gtk_box_remove(nfcscan_sheet_box(buttonRow), widget) }
        buttons = []
        for button in wanted {
            // gtk_button_new_with_label: no mnemonic, so an underscore in a label is shown as is.
            let widget = gtk_button_new_with_label(button.label)!
            nfcscan_sheet_accessible_label(widget, button.label)
            switch button.style {
            case .normal: break
            case .suggested: gtk_widget_add_css_class(widget, "suggested-action")
            case .destructive: gtk_widget_add_css_class(widget, "destructive-action")
            }
            _ = nfcscan_sheet_on_clicked(widget, { clicked, data in
                MainActor.assumeIsolated {
                    let sheet = SheetWindow.from(data)
                    let pointer = nfcscan_sheet_widget_of_button(clicked)
                    if let id = sheet.buttons.first(where: { $0.widget == pointer })?.id { sheet.onPress(id) }
                }
            }, unmanaged)
            gtk_box_append(nfcscan_sheet_box(buttonRow), widget)
            buttons.append((widget, button.id))
        }
        gtk_widget_set_visible(buttonRow, buttons.isEmpty ? 0 : 1)
        // The first button (the daemon puts the safe choice first) takes the focus: Enter presses it.
        if let first = buttons.first?.widget { gtk_window_set_focus(nfcscan_sheet_window(window), first) }
    }
}
