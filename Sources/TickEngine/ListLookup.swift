import TickModel

/// Finds a list by what a user typed: its path, its path without `.md`, its
/// file name without extension, or its name, case-insensitively.
public enum ListLookup {
    public enum Failure: Error, Equatable {
        case unknown(String, candidates: [String])
        case ambiguous(String, candidates: [String])
    }

    /// The index in `documents` of the list `name` names.
    public static func resolve<List: LookupList>(_ name: String, in documents: [List]) throws(Failure) -> Int {
        let wanted = name.lowercased()
        func stripped(_ path: String) -> String {
            if path.hasSuffix(".markdown") { return String(path.dropLast(9)) }
            if path.hasSuffix(".md") { return String(path.dropLast(3)) }
            return path
        }
        let tests: [(List) -> Bool] = [
            { $0.path.lowercased() == wanted },
            { stripped($0.path).lowercased() == wanted },
            { stripped($0.path.split(separator: "/").last.map(String.init) ?? "").lowercased() == wanted },
            { $0.name.lowercased() == wanted },
        ]
        for test in tests {
            let matches = documents.indices.filter { test(documents[$0]) }
            if matches.count == 1 { return matches[0] }
            if matches.count > 1 { throw .ambiguous(name, candidates: matches.map { documents[$0].path }) }
        }
        let near = documents.filter { $0.path.lowercased().contains(wanted) || $0.name.lowercased().contains(wanted) }
        throw .unknown(name, candidates: (near.isEmpty ? documents : near).map(\.path))
    }
}

extension ListLookup.Failure: TickErrorConvertible {
    /// One line for the user: what was not found, and the names there are.
    public var message: String {
        switch self {
        case .unknown(let name, let candidates):
            return "no list named '\(name)'" + Self.suggest(candidates, "lists are")
        case .ambiguous(let name, let candidates):
            return "'\(name)' names more than one list" + Self.suggest(candidates, "use a path:")
        }
    }

    private static func suggest(_ candidates: [String], _ lead: String) -> String {
        guard !candidates.isEmpty else { return "; create one with `tick new NAME`" }
        let shown = candidates.prefix(8).joined(separator: ", ")
        return "; \(lead) \(shown)\(candidates.count > 8 ? ", …" : "")"
    }

    public var tickError: TickError { .badData(message) }
}
