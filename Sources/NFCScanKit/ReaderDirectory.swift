import NFCReaders

/// Every reader the backends can see, opened together so an object held near any of them is read.
public struct ReaderDirectory: Sendable {
    public var providers: [any ReaderProvider]

    public init(providers: [any ReaderProvider]) { self.providers = providers }

    /// The backends this build has, in the order they are searched. The PC/SC backend is added
    /// here when it exists.
    public static func standard() -> ReaderDirectory {
        ReaderDirectory(providers: [LibNFCReaderProvider()])
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
        if readers.isEmpty {
            throw Self.mostTelling(problems) ?? .noReaderFound(searched: wanted.map { "no reader named \($0)" } ?? "no backend listed a reader")
        }
        return readers
    }

    /// A problem that names a cause beats "nothing found".
    static func mostTelling(_ problems: [ReaderError]) -> ReaderError? {
        problems.first { if case .noReaderFound = $0 { false } else { true } } ?? problems.first
    }
}
