import NFCReaders
import NFCTags

/// Every reader the backends can see, opened together so an object held near any of them is read.
public struct ReaderDirectory: Sendable {
    public var providers: [any ReaderProvider]

    public init(providers: [any ReaderProvider]) { self.providers = providers }

    /// The backends this build has, in the order they are searched: libnfc, then PC/SC (pcscd).
    /// A backend with nothing here (libnfc lists no device, pcscd is not running) adds no reader
    /// and no error while another backend has readers.
    public static func standard() -> ReaderDirectory {
        ReaderDirectory(providers: [LibNFCReaderProvider(), PCSCReaderProvider()])
    }

    /// One line of `nfcscan readers`.
    public struct Listing: Sendable {
        public var backend: ReaderBackend
        public var identifier: String
        /// The reader's own name when it could be opened.
        public var name: String?
        /// nil: ready to use.
        public var problem: ReaderError?
    }

    /// Every listed reader, each opened briefly to learn whether it can be used.
    public func list() async -> (readers: [Listing], problems: [ReaderError]) {
        var listings: [Listing] = [], problems: [ReaderError] = []
        for provider in providers {
            let identifiers: [String]
            do { identifiers = try await provider.identifiers() } catch { problems.append(error); continue }
            if identifiers.isEmpty { problems.append(.noReaderFound(searched: provider.noneListed)) }
            for identifier in identifiers {
                do {
                    let reader = try await provider.open(identifier)
                    listings.append(Listing(backend: provider.backend, identifier: identifier, name: reader.name))
                    await reader.close()
                } catch {
                    listings.append(Listing(backend: provider.backend, identifier: identifier, problem: error))
                }
            }
        }
        return (listings, problems)
    }

    /// Opens every reader (or the one named: an identifier or a part of a reader's name). Throws
    /// the most telling problem when none opens.
    public func open(named wanted: String? = nil) async throws(ReaderError) -> [any Reader] {
        try await openAll(named: wanted).readers
    }

    /// Opens every reader (or the one named), with the problems met on the way when some reader
    /// did open (a backend with nothing here, a reader that could not be opened): for `--verbose`.
    /// Throws ``noReader(_:wanted:)`` of the problems when none opens.
    public func openAll(named wanted: String? = nil) async throws(ReaderError) -> (readers: [any Reader], problems: [ReaderError]) {
        var readers: [any Reader] = [], problems: [ReaderError] = []
        for provider in providers {
            var identifiers: [String]
            do { identifiers = try await provider.identifiers() } catch { problems.append(error); continue }
            if let wanted {
                if identifiers.contains(wanted) {
                    identifiers = [wanted]
                } else if provider.recognises(wanted) {
                    identifiers = [wanted]
                } else {
                    identifiers = identifiers.filter { $0.contains(wanted) }
                    if identifiers.isEmpty { continue }
                }
            }
            if identifiers.isEmpty {
                // Let the backend explain why it sees nothing (a kernel module, permissions).
                do { readers.append(try await provider.open(nil)) } catch { problems.append(error) }
                continue
            }
            for identifier in identifiers {
                do { readers.append(try await provider.open(identifier)) } catch { problems.append(error) }
            }
        }
        if readers.isEmpty { throw Self.noReader(problems, wanted: wanted) }
        return (readers, problems)
    }

    /// What one backend's problem says when it only means "no reader here": libnfc listing no
    /// device, pcscd listing no reader, pcscd not running. nil for a problem worth reporting on
    /// its own (a kernel module, permissions, a busy reader).
    public static func absence(_ problem: ReaderError) -> String? {
        switch problem {
        case .noReaderFound(let searched): searched
        case .pcscdNotRunning(let socket): "pcscd is not running (no socket at \(socket))"
        default: nil
        }
    }

    /// The error for "no reader could be used": a problem that names a cause beats "nothing
    /// found"; otherwise one ``ReaderError/noReaderFound(searched:)`` saying what every backend
    /// found ("libnfc listed no device; pcscd is not running (…)").
    public static func noReader(_ problems: [ReaderError], wanted: String? = nil) -> ReaderError {
        if let telling = problems.first(where: { absence($0) == nil }) { return telling }
        var searched: [String] = wanted.map { ["no reader named \($0)"] } ?? []
        for problem in problems {
            if let absent = absence(problem), !searched.contains(absent) { searched.append(absent) }
        }
        return .noReaderFound(searched: searched.isEmpty ? "no backend listed a reader" : searched.joined(separator: "; "))
    }
}
