import NDEFReport

/// The records of one message arranged for matching: for each filter, the first record it matches
/// is a dictionary lookup (a path prefix walks only the distinct paths of its host), so the cost
/// of an object grows with the registrations, not with registrations × records.
struct RecordIndex {
    private struct Site: Hashable {
        let scheme: String
        let host: String
    }

    private struct Location: Hashable {
        let site: Site
        let path: String
    }

    // The first record index for each value, as records are added in order.
    private var byScheme: [String: Int] = [:]
    private var bySite: [Site: Int] = [:]
    /// Each site's distinct paths with the first record holding each, in record order.
    private var pathsBySite: [Site: [(path: String, index: Int)]] = [:]
    private var byMediaType: [String: Int] = [:]
    /// Keyed by the type with its slash ("image/"), for `image/*`.
    private var byMediaFamily: [String: Int] = [:]
    private var byExternalType: [String: Int] = [:]
    private var byAndroidPackage: [String: Int] = [:]

    init(_ records: some Sequence<ReportValue>) {
        var seen: Set<Location> = []
        for (index, report) in records.enumerated() {
            let record = MatchableRecord(report)
            if let uri = record.uri {
                byScheme[uri.scheme] = byScheme[uri.scheme] ?? index
                if let host = uri.host {
                    let site = Site(scheme: uri.scheme, host: host)
                    bySite[site] = bySite[site] ?? index
                    if seen.insert(Location(site: site, path: uri.path)).inserted { pathsBySite[site, default: []].append((uri.path, index)) }
                }
            }
            if let type = record.mediaType {
                byMediaType[type] = byMediaType[type] ?? index
                if let slash = type.firstIndex(of: "/") {
                    let family = String(type[...slash])
                    byMediaFamily[family] = byMediaFamily[family] ?? index
                }
            }
            if let type = record.externalType { byExternalType[type] = byExternalType[type] ?? index }
            if let package = record.androidPackage { byAndroidPackage[package] = byAndroidPackage[package] ?? index }
        }
    }

    /// The index of the first record `filter` matches (the rules are on ``HandlerFilter``).
    func firstMatch(of filter: HandlerFilter) -> Int? {
        switch filter.kind {
        case .uri(let scheme, nil, _):
            return byScheme[scheme]
        case .uri(let scheme, let host?, nil):
            return bySite[Site(scheme: scheme, host: host)]
        case .uri(let scheme, let host?, let prefix?):
            return pathsBySite[Site(scheme: scheme, host: host)]?.first { HandlerFilter.path($0.path, isUnder: prefix) }?.index
        case .mediaType(let type):
            return type.hasSuffix("/*") ? byMediaFamily[String(type.dropLast())] : byMediaType[type]
        case .externalType(let type):
            return byExternalType[type]
        case .androidPackage(let package):
            return byAndroidPackage[package]
        }
    }
}
