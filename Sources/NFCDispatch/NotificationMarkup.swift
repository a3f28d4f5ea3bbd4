import NDEFReport

/// Makes text from an object safe inside a notification.
///
/// Notification servers that advertise `body-markup` read the body as a small XML-like markup
/// (`<b>`, `<i>`, `<u>`, `<a href>`, `<img src>`): an object's text taken as markup could add
/// links to local files, load images, or restyle the notification to look like something else.
/// Objects are untrusted, so everything they hold is shown literally.
public enum NotificationMarkup {
    /// Values from an object are shortened to this many characters (then `…`) in notifications.
    public static let maximumValueLength = 80

    /// `text` for a markup body: `&`, `<`, `>`, `'` and `"` as entities (as GLib's
    /// `g_markup_escape_text` writes them), and control, line-break and bidirectional formatting
    /// characters as visible `\u{…}` escapes (they are invalid in the markup or reorder what a
    /// person reads). Apply it once, to the whole body.
    public static func escape(_ text: String) -> String {
        let neutral = DisplayText.sanitized(text, maxCharacters: .max)
        var out = ""
        out.reserveCapacity(neutral.utf8.count)
        for scalar in neutral.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "'": out += "&#39;"
            case "\"": out += "&quot;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `text` for the summary and the app name, which the specification calls plain text but some
    /// servers read as markup all the same (dunst with `markup = full` renders `<b>` and `<a>` in
    /// the summary) and others show literally (GNOME Shell): no escaping suits both, so `<`, `>`
    /// and `&` become their full-width forms (＜ ＞ ＆), which read the same and are never
    /// markup, and control, line-break and bidirectional formatting characters visible escapes.
    /// One character for one, so text shortened before stays whole (never cut inside an entity).
    public static func inert(_ text: String) -> String {
        var out = ""
        for scalar in DisplayText.sanitized(text, maxCharacters: .max).unicodeScalars {
            switch scalar {
            case "<": out.unicodeScalars.append("\u{FF1C}")
            case ">": out.unicodeScalars.append("\u{FF1E}")
            case "&": out.unicodeScalars.append("\u{FF06}")
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// An untrusted value ready to stand in a sentence: control, line-break and bidirectional
    /// formatting characters as visible escapes, and at most `maxCharacters` characters then `…`.
    public static func value(_ untrusted: String, maxCharacters: Int = maximumValueLength) -> String {
        DisplayText.sanitized(untrusted, maxCharacters: maxCharacters)
    }
}
