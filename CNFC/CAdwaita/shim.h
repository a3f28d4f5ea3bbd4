// libadwaita 1.2 and GTK 4.8 (Debian 12), as nfcscan-sheet sees them. Only
// Sources/nfcscan-sheet/ imports this module: the sheet is its own process, so nfcscan and
// nfcscand never link a toolkit.
//
// What Swift cannot call is wrapped here, static inline: g_signal_connect (a macro, and its
// GCallback erases the handler's type: each helper below takes the one type its signal calls),
// GObject type casts (macros), and C varargs functions (gtk_accessible_update_*).
#pragma once
#include <adwaita.h>
#include <glib-unix.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

// ---- signals, each with the handler type its signal calls ----

typedef void (*nfcscan_sheet_app_handler)(GApplication *application, gpointer data);
static inline gulong nfcscan_sheet_on_activate(AdwApplication *application, nfcscan_sheet_app_handler handler, gpointer data) {
    return g_signal_connect(application, "activate", G_CALLBACK(handler), data);
}

typedef void (*nfcscan_sheet_button_handler)(GtkButton *button, gpointer data);
static inline gulong nfcscan_sheet_on_clicked(GtkWidget *button, nfcscan_sheet_button_handler handler, gpointer data) {
    return g_signal_connect(button, "clicked", G_CALLBACK(handler), data);
}

typedef gboolean (*nfcscan_sheet_close_handler)(GtkWindow *window, gpointer data);
static inline gulong nfcscan_sheet_on_close_request(GtkWidget *window, nfcscan_sheet_close_handler handler, gpointer data) {
    return g_signal_connect(window, "close-request", G_CALLBACK(handler), data);
}

typedef void (*nfcscan_sheet_widget_handler)(GtkWidget *widget, gpointer data);
static inline gulong nfcscan_sheet_on_map(GtkWidget *widget, nfcscan_sheet_widget_handler handler, gpointer data) {
    return g_signal_connect(widget, "map", G_CALLBACK(handler), data);
}

typedef void (*nfcscan_sheet_clock_handler)(GdkFrameClock *clock, gpointer data);
static inline gulong nfcscan_sheet_on_after_paint(GdkFrameClock *clock, nfcscan_sheet_clock_handler handler, gpointer data) {
    return g_signal_connect(clock, "after-paint", G_CALLBACK(handler), data);
}

typedef gboolean (*nfcscan_sheet_key_handler)(GtkEventControllerKey *controller, guint keyval, guint keycode,
                                              GdkModifierType state, gpointer data);
static inline gulong nfcscan_sheet_on_key_pressed(GtkEventController *controller, nfcscan_sheet_key_handler handler, gpointer data) {
    return g_signal_connect(controller, "key-pressed", G_CALLBACK(handler), data);
}

// ---- casts (GTK's are macros) ----

static inline GApplication *nfcscan_sheet_application(AdwApplication *application) { return G_APPLICATION(application); }
static inline GtkApplication *nfcscan_sheet_gtk_application(AdwApplication *application) { return GTK_APPLICATION(application); }
static inline GtkWindow *nfcscan_sheet_window(GtkWidget *widget) { return GTK_WINDOW(widget); }
static inline AdwWindow *nfcscan_sheet_adw_window(GtkWidget *widget) { return ADW_WINDOW(widget); }
static inline AdwHeaderBar *nfcscan_sheet_header_bar(GtkWidget *widget) { return ADW_HEADER_BAR(widget); }
static inline GtkBox *nfcscan_sheet_box(GtkWidget *widget) { return GTK_BOX(widget); }
static inline GtkLabel *nfcscan_sheet_label(GtkWidget *widget) { return GTK_LABEL(widget); }
static inline GtkImage *nfcscan_sheet_image(GtkWidget *widget) { return GTK_IMAGE(widget); }
static inline GtkSpinner *nfcscan_sheet_spinner(GtkWidget *widget) { return GTK_SPINNER(widget); }
static inline GtkButton *nfcscan_sheet_button(GtkWidget *widget) { return GTK_BUTTON(widget); }
static inline GtkAccessible *nfcscan_sheet_accessible(GtkWidget *widget) { return GTK_ACCESSIBLE(widget); }
static inline GtkWidget *nfcscan_sheet_widget_of_button(GtkButton *button) { return GTK_WIDGET(button); }

// ---- accessibility (varargs in GTK) ----

static inline void nfcscan_sheet_accessible_label(GtkWidget *widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}
static inline void nfcscan_sheet_accessible_hidden(GtkWidget *widget) {
    gtk_accessible_update_state(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_STATE_HIDDEN, TRUE, -1);
}
// GTK 4.8 takes a NULL-terminated list of accessibles for a relation.
static inline void nfcscan_sheet_accessible_described_by(GtkWidget *widget, GtkWidget *description) {
    gtk_accessible_update_relation(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_RELATION_DESCRIBED_BY, description, NULL, -1);
}

// ---- the process ----

static inline void nfcscan_sheet_ignore_sigpipe(void) { signal(SIGPIPE, SIG_IGN); }
static inline int nfcscan_sheet_set_nonblocking(int fd) {
    int flags = fcntl(fd, F_GETFL);
    return flags < 0 ? -1 : fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}
