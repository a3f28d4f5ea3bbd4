import CIntl
import Glibc
import Synchronization

/// glibc's libintl as nfcscan uses it: the one place that calls it, and the only code that sees
/// its C strings.
///
/// A catalog is looked up whole, once per language and process (``translations(of:catalog:in:)``),
/// and kept: nfcscand speaks a scan session's own language beside its own, and glibc chooses a
/// catalog only from process-wide state (the locale of LC_MESSAGES and the LANGUAGE variable),
/// never per call. So, for the moment of a load and under one lock, the calling thread's
/// LC_MESSAGES is C.UTF-8 (`uselocale`; C itself would turn translation off, and no other locale
/// need be installed) and LANGUAGE names the catalog, as the GNU gettext manual's "Changing the
/// language at runtime" does; LANGUAGE is put back as it was before the lock is let go.
enum Gettext {
    /// The text domain: the catalogs are `<directory>/<language>/LC_MESSAGES/nfcscan.mo`.
    static let domain = "nfcscan"
    /// A directory searched first, for a build's own catalogs (``searchPath(override:executable:)``).
    static let directoryVariable = "NFCSCAN_LOCALEDIR"
    /// Where the package installs them.
    static let installedDirectory = "/usr/share/locale"
    /// Plural forms are looked up for counts below this (see ``pluralIndex(_:)``).
    static let pluralTableSize = 200

    private static let lock = Mutex(())

    /// The directories holding catalogs, in the order they are searched:
    /// 1. `NFCSCAN_LOCALEDIR`, when it is an absolute path (only ever used as a directory);
    /// 2. `share/locale` beside the directory of the running executable (its real path):
    ///    `../share/locale` for an installed one (/usr/bin → /usr/share/locale, /usr/local/bin →
    ///    /usr/local/share/locale), `../../share/locale` for one SwiftPM built
    ///    (.build/x86_64-unknown-linux-gnu/debug → .build/share/locale, where `make mo` puts them);
    /// 3. /usr/share/locale.
    static func searchPath(override: String?, executable: String?) -> [String] {
        var directories: [String] = []
        if let override, override.hasPrefix("/") { directories.append(override) }
        if let executable, executable.hasPrefix("/") {
            var parts = executable.split(separator: "/").dropLast()   // the executable's directory
            for _ in 0..<2 where !parts.isEmpty {
                parts = parts.dropLast()
                directories.append("/" + (parts + ["share", "locale"]).joined(separator: "/"))
            }
        }
        directories.append(installedDirectory)
        var seen = Set<String>()
        return directories.filter { seen.insert($0).inserted }
    }

    /// ``searchPath(override:executable:)`` of this process.
    static var searchPath: [String] {
        searchPath(override: getenv(directoryVariable).map { String(cString: $0) }, executable: executablePath())
    }

    /// The real path of the running executable (/proc/self/exe), if the kernel says.
    private static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The first directory of the search path holding `catalog`'s file ("zh_CN"), and that file.
    static func catalogFile(_ catalog: String, searchPath: [String] = searchPath) -> (directory: String, file: String)? {
        for directory in searchPath {
            let file = "\(directory)/\(catalog)/LC_MESSAGES/\(domain).mo"
            var status = stat()
            if stat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG { return (directory, file) }
        }
        return nil
    }

    /// What a catalog says for `messages`: each message it translates, by ``CopyMessage/lookupKey``;
    /// a message that counts has its form for each count below ``pluralTableSize``. Nil when
    /// glibc cannot be asked (no C.UTF-8 locale).
    static func translations(of messages: [CopyMessage], catalog: String, in directory: String)
        -> (strings: [String: String], plurals: [String: [String]])? {
        lock.withLock { _ in
            guard let messagesLocale = newlocale(LC_MESSAGES_MASK, "C.UTF-8", nil) else { return nil }
            let previousLocale = uselocale(messagesLocale)
            let previousLanguage = getenv("LANGUAGE").map { String(cString: $0) }
            defer {
                if let previousLanguage { setenv("LANGUAGE", previousLanguage, 1) } else { unsetenv("LANGUAGE") }
                nfcscan_intl_forget_lookups()
                uselocale(previousLocale)
                freelocale(messagesLocale)
            }
            bindtextdomain(domain, directory)
            bind_textdomain_codeset(domain, "UTF-8")
            setenv("LANGUAGE", catalog, 1)
            nfcscan_intl_forget_lookups()

            var strings: [String: String] = [:]
            var plurals: [String: [String]] = [:]
            for message in messages {
                let key = message.lookupKey
                key.withCString { key in
                    if let plural = message.englishPlural {
                        plural.withCString { plural in
                            var forms: [String] = []
                            for count in 0..<pluralTableSize {
                                guard let found = dngettext(domain, key, plural, UInt(count)),
                                      UnsafeRawPointer(found) != UnsafeRawPointer(key),
                                      UnsafeRawPointer(found) != UnsafeRawPointer(plural) else { return }
                                forms.append(String(cString: found))
                            }
                            plurals[message.lookupKey] = forms
                        }
                    } else if let found = dgettext(domain, key), UnsafeRawPointer(found) != UnsafeRawPointer(key) {
                        strings[message.lookupKey] = String(cString: found)
                    }
                }
            }
            return (strings, plurals)
        }
    }

    /// Which entry of a plural table holds the form for `count`. Every Plural-Forms formula in use
    /// reads the count through comparisons with numbers below 100, `n % 10` and `n % 100`, all
    /// the same for `n` and `100 + n % 100` once `n` is 100 or more: so the forms of 0…199 (looked
    /// up through glibc, which evaluates the formula) cover every count.
    static func pluralIndex(_ count: Int) -> Int {
        let n = max(count, 0)
        return n < pluralTableSize ? n : 100 + n % 100
    }
}
